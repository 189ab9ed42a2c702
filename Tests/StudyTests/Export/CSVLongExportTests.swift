import CareStore
import Foundation
import JSONDiagnostics
import Research
import Study
import StudyFHIR
import StudyKitEnvironment
import Testing
@testable import Study

/// `csv-long`: every current answer of every run exactly once, typed cells that read back as written, hostile text
/// intact, and the export written one participant at a time into the same safe folder as every format.
@Suite struct CSVLongExportTests {
    let study: StudyDefinition
    let clock = TestClock(wallTime(2026, 3, 29, 1, 30, in: Zones.utc)) // the night Europe moves to summer time
    let uuids = CountingUUIDs()
    let store: InMemoryStudyStore
    let careStore: InMemoryCareStore
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("csv-long-\(UUID().uuidString)", isDirectory: true)

    init() throws {
        study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let clock = self.clock, uuids = self.uuids
        store = InMemoryStudyStore(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
        careStore = InMemoryCareStore(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
    }

    static let hostile = "a,\u{301}b \"quoted\"\r\nsecond line \u{202E}reversed\u{0}\t;"

    /// A completed run whose steps answer with every kind of answer, one step passed twice, one skipped, and an
    /// active step's measures.
    func everyKindOfAnswer(run id: UUID, started: Date) -> TaskResult {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        func step(_ identifier: String, at minute: Double, previous: Bool = false, skipped: Bool = false, _ items: [ResultItem]) -> StepResult {
            StepResult(identifier: identifier, startDate: started.addingTimeInterval(minute * 60 - 30),
                       endDate: started.addingTimeInterval(minute * 60), results: items, skipped: skipped, isPrevious: previous)
        }
        func question(_ identifier: String, _ type: AnswerFormatType, _ answer: Answer?, unit: String? = nil) -> ResultItem {
            .question(QuestionResult(identifier: identifier, type: type, answer: answer, unit: unit))
        }
        return TaskResult(identifier: "pain", taskRunUUID: id, startDate: started, endDate: started.addingTimeInterval(600), stepResults: [
            step("painLevel", at: 1, previous: true, [question("painLevel", .scale, .number(3))]),
            step("painLevel", at: 2, [question("painLevel", .scale, .number(Decimal(string: "6.5")!), unit: "NRS")]),
            step("form", at: 3, [
                question("slept", .boolean, .boolean(false)),
                question("where", .textChoice, .choices([ChoiceSelection(.string("knee")), ChoiceSelection(.integer(2)),
                                                        ChoiceSelection(.string("other"), text: "left, \"hip\"")])),
                question("since", .date, .date(DateAnswer(date: wallTime(2026, 3, 28, in: berlin), timeZone: berlin, includesTime: false))),
                question("took", .dateTime, .date(DateAnswer(date: wallTime(2026, 3, 29, 3, 15, in: berlin), timeZone: berlin, includesTime: true))),
                question("bed", .timeOfDay, .timeOfDay(TimeOfDay(hour: 22, minute: 5))),
                question("walked", .timeInterval, .timeInterval(5_400)),
                question("note", .text, .text(Self.hostile)),
                question("unsure", .scale, .dontKnow),
                question("empty", .text, nil),
                question("place", .location, .location(LocationAnswer(address: "Hauptstraße 1", latitude: 52.5, longitude: 13.25))),
                question("photo", .file, .file(FileAnswer(fileName: "f1.jpg", contentType: "image/jpeg", byteCount: 1_234,
                                                          sha256: String(repeating: "ab", count: 32)))),
                question("dose", .multipleValuePicker, .components([.integer(2), .decimal(0.5)])),
            ]),
            step("skippedStep", at: 4, skipped: true, []),
            step("tapping", at: 5, [.active(ActiveStepResult(identifier: "tapping", module: "tapping", isComplete: true, samples: .object([]),
                                                              measures: [ActiveMeasure(identifier: "tapCount", value: 84, units: "taps"),
                                                                         ActiveMeasure(identifier: "meanInterval", value: nil, units: "ms")]))]),
        ])
    }

    /// Runs the export of what the stores hold into `root/export`; returns the summary and the parsed file.
    func export() async throws -> (StudyExportSummary, [[String]]) {
        let clock = self.clock
        let reader = StudyExportReader(study: study, store: store, careStore: careStore, dataFolder: root.appendingPathComponent("data"),
                                       now: { clock.now })
        let out = root.appendingPathComponent("export", isDirectory: true)
        let summary = try await StudyExportFolder(url: out).replace(with: CSVLongExporter(), reading: reader)
        let bytes = try Data(contentsOf: out.appendingPathComponent(CSVLongExporter.fileName))
        return (summary, try CSVTestParser.rows(of: bytes))
    }

    @Test func everyCurrentAnswerIsOneRowWithItsTypedCells() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let alex = try await store.enrol(invitationCode: nil, timeZone: Zones.kiritimati, language: "en")
        let runID = UUID(uuidString: "6F1D0C2E-0000-4000-8000-000000000001")!
        try await store.saveRun(TaskRun(id: runID, participantID: alex.id, taskID: "pain", occurrence: 4, state: .completed,
                                        result: everyKindOfAnswer(run: runID, started: clock.now)))
        // A run still going on has no answers to export yet.
        let (restoration, _) = try pausedRun()
        try await store.saveRun(TaskRun(id: restoration.taskRunUUID, participantID: alex.id, taskID: "pain", occurrence: 5, state: .inProgress,
                                        restorationData: restoration))
        let (summary, rows) = try await export()

        #expect(rows.first == CSVLongExporter.columns)
        let run = [alex.id, "pain", "4", "6f1d0c2e-0000-4000-8000-000000000001", "completed"]
        // Kiritimati is UTC+14: the steps ended at 01:32–01:35 UTC, 15:32–15:35 there.
        let expected: [[String]] = [
            run + ["painLevel", "painLevel", "scale", "", "6.5", "6.5", "NRS", "", "2026-03-29T15:32:00+14:00"],
            run + ["form", "slept", "boolean", "", "false", "0", "", "", "2026-03-29T15:33:00+14:00"],
            run + ["form", "where", "textChoice", "1", "knee", "", "", "", "2026-03-29T15:33:00+14:00"],
            run + ["form", "where", "textChoice", "2", "2", "2", "", "", "2026-03-29T15:33:00+14:00"],
            run + ["form", "where", "textChoice", "3", "other", "", "", "left, \"hip\"", "2026-03-29T15:33:00+14:00"],
            run + ["form", "since", "date", "", "2026-03-28", "", "", "", "2026-03-29T15:33:00+14:00"],
            // 03:15 in Berlin on the night of the change is summer time already: +02:00.
            run + ["form", "took", "dateTime", "", "2026-03-29T03:15:00+02:00", "", "", "", "2026-03-29T15:33:00+14:00"],
            run + ["form", "bed", "timeOfDay", "", "22:05:00", "", "", "", "2026-03-29T15:33:00+14:00"],
            run + ["form", "walked", "timeInterval", "", "5400", "5400", "s", "", "2026-03-29T15:33:00+14:00"],
            run + ["form", "note", "text", "", Self.hostile, "", "", "", "2026-03-29T15:33:00+14:00"],
            run + ["form", "unsure", "scale", "", "", "", "", "dontKnow", "2026-03-29T15:33:00+14:00"],
            run + ["form", "place", "location", "", "Hauptstraße 1", "", "", "52.5,13.25", "2026-03-29T15:33:00+14:00"],
            run + ["form", "photo", "file", "", "f1.jpg", "", "", "image/jpeg; 1234 bytes; sha256 " + String(repeating: "ab", count: 32),
                   "2026-03-29T15:33:00+14:00"],
            run + ["form", "dose", "multipleValuePicker", "1", "2", "2", "", "", "2026-03-29T15:33:00+14:00"],
            run + ["form", "dose", "multipleValuePicker", "2", "0.5", "0.5", "", "", "2026-03-29T15:33:00+14:00"],
            run + ["tapping", "tapCount", "measure", "", "84", "84", "taps", "tapping", "2026-03-29T15:35:00+14:00"],
            run + ["tapping", "meanInterval", "measure", "", "", "", "ms", "tapping", "2026-03-29T15:35:00+14:00"],
        ]
        #expect(Array(rows.dropFirst()) == expected)
        #expect(summary.format == "csv-long")
        #expect(summary.participantCount == 1)
        #expect(summary.counts == [CSVLongExporter.fileName: expected.count])
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("export/export.json"))) as? [String: Any]
        #expect(manifest?["format"] as? String == "csv-long")
    }

    @Test func participantsComeInEnrolmentOrderAndEachRunOldestFirst() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        var expected: [[String]] = []
        for name in 0..<3 {
            let participant = try await store.enrol(invitationCode: nil, timeZone: Zones.newYork, language: "en")
            for level in 0..<4 {
                clock.advance(by: 3_600)
                let id = uuids.make()
                let result = TaskResult(identifier: "pain", taskRunUUID: id, startDate: clock.now, endDate: clock.now, stepResults: [
                    StepResult(identifier: "painLevel", startDate: clock.now, endDate: clock.now,
                               results: [.question(QuestionResult(identifier: "painLevel", type: .scale, answer: .number(Decimal(name * 10 + level))))]),
                ])
                try await store.saveRun(TaskRun(id: id, participantID: participant.id, taskID: "pain", occurrence: level, state: .completed, result: result))
                expected.append([participant.id, String(level), String(name * 10 + level)])
            }
        }
        let (summary, rows) = try await export()
        #expect(rows.dropFirst().map { [$0[0], $0[2], $0[9]] } == expected)
        #expect(summary.participantCount == 3)
        #expect(summary.counts[CSVLongExporter.fileName] == 12)
    }

    @Test func aStudyWithNoRunsGivesTheHeaderAlone() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try await store.enrol(invitationCode: nil, timeZone: Zones.utc, language: "en")
        let (summary, rows) = try await export()
        #expect(rows == [CSVLongExporter.columns])
        #expect(summary.participantCount == 1)
    }

    /// Field by field as RFC 4180 reads them back, for text no character-based writer quotes right.
    @Test(arguments: ["plain", "", "a,b", "a,\u{301}", "\"\u{301}", "line\r\nbreak", "lone\rreturn", "lone\nfeed", "日本語, 한국어", " spaced ",
                      "\u{202E}\u{200F}", "=SUM(A1)"])
    func aFieldReadsBackAsWritten(text: String) throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let url = root.appendingPathComponent("t.csv")
        let writer = try CSVFileWriter(creating: url, header: ["a", "b"], cells: .exact)
        try writer.write([text, "after"])
        try writer.close()
        #expect(try CSVTestParser.rows(of: Data(contentsOf: url)) == [["a", "b"], [text, "after"]])
    }

    @Test func aFileThatExistsIsNotOverwritten() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let url = root.appendingPathComponent("taken")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        #expect(throws: StudyExportError.self) { try CSVFileWriter(creating: url, header: ["a"], cells: .exact) }
    }
}

/// A strict RFC 4180 reader for the tests: CRLF between rows, quotes doubled inside quoted fields; anything else
/// (a quote inside an unquoted field, text after a closing quote, a bare CR or LF outside quotes) is an error, so a
/// writer that quotes too little fails the tests instead of passing by luck.
enum CSVTestParser {
    struct Malformed: Error, CustomStringConvertible {
        let offset: Int
        let why: String
        var description: String { "byte \(offset): \(why)" }
    }

    static func rows(of data: Data) throws -> [[String]] {
        let bytes = [UInt8](data), quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        var rows: [[String]] = [], row: [String] = [], field: [UInt8] = []
        var inQuotes = false, wasQuoted = false, index = 0
        func endField() { row.append(String(decoding: field, as: UTF8.self)); field = []; wasQuoted = false }
        while index < bytes.count {
            let byte = bytes[index]
            if inQuotes {
                if byte == quote {
                    if index + 1 < bytes.count, bytes[index + 1] == quote { field.append(quote); index += 2; continue }
                    inQuotes = false
                    index += 1
                    guard index == bytes.count || bytes[index] == comma || bytes[index] == cr else {
                        throw Malformed(offset: index, why: "text after a closing quote")
                    }
                } else {
                    field.append(byte); index += 1
                }
                continue
            }
            switch byte {
            case quote:
                guard field.isEmpty, !wasQuoted else { throw Malformed(offset: index, why: "a quote inside an unquoted field") }
                inQuotes = true; wasQuoted = true; index += 1
            case comma:
                endField(); index += 1
            case cr:
                guard index + 1 < bytes.count, bytes[index + 1] == lf else { throw Malformed(offset: index, why: "a bare CR") }
                endField(); rows.append(row); row = []; index += 2
            case lf:
                throw Malformed(offset: index, why: "a bare LF outside quotes")
            default:
                field.append(byte); index += 1
            }
        }
        guard !inQuotes else { throw Malformed(offset: index, why: "a quoted field is not closed") }
        guard row.isEmpty, field.isEmpty, !wasQuoted else { throw Malformed(offset: index, why: "the last row has no CRLF") }
        return rows
    }
}
