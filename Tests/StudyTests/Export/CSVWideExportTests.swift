import CareStore
import Foundation
import Research
import Study
import StudyFHIR
import StudyKitEnvironment
import Testing
@testable import Study

/// `csv-wide`: a row per run and a column per question of the study's own tasks, a checkbox column per option,
/// REDCap's dictionary beside them, and what the layout cannot hold counted in the issues.
@Suite struct CSVWideExportTests {
    let study: StudyDefinition
    let clock = TestClock(wallTime(2026, 11, 1, 6, 30, in: Zones.newYork)) // the morning New York leaves summer time
    let uuids = CountingUUIDs()
    let store: InMemoryStudyStore
    let careStore: InMemoryCareStore
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("csv-wide-\(UUID().uuidString)", isDirectory: true)
    var out: URL { root.appendingPathComponent("export", isDirectory: true) }

    init() throws {
        study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let clock = self.clock, uuids = self.uuids
        store = InMemoryStudyStore(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
        careStore = InMemoryCareStore(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
    }

    func step(_ identifier: String, _ items: [QuestionResult], previous: Bool = false) -> StepResult {
        StepResult(identifier: identifier, startDate: clock.now, endDate: clock.now.addingTimeInterval(30), results: items.map { .question($0) },
                   isPrevious: previous)
    }

    func save(_ task: String, occurrence: Int?, _ steps: [StepResult], for participant: StudyParticipant) async throws -> UUID {
        let id = uuids.make()
        clock.advance(by: 600)
        let result = TaskResult(identifier: task, taskRunUUID: id, startDate: clock.now, endDate: clock.now.addingTimeInterval(90), stepResults: steps)
        try await store.saveRun(TaskRun(id: id, participantID: participant.id, taskID: task, occurrence: occurrence, state: .completed, result: result))
        return id
    }

    func file(_ name: String) throws -> [[String]] {
        try CSVTestParser.rows(of: Data(contentsOf: out.appendingPathComponent(name)))
    }

    @Test func aRunIsARowAndAQuestionAColumn() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let sam = try await store.enrol(invitationCode: nil, timeZone: Zones.newYork, language: "en")
        let pain = try await save("pain", occurrence: 2, [
            step("painLevel", [QuestionResult(identifier: "painLevel", type: .scale, answer: .number(3))], previous: true),
            step("painLevel", [QuestionResult(identifier: "painLevel", type: .scale, answer: .number(6))]),
            step("painLocation", [QuestionResult(identifier: "painLocation", type: .textChoice,
                                                 answer: .choices([ChoiceSelection(.string("front")), ChoiceSelection(.string("other"), text: "hip, \"left\"")]))]),
            step("notes", [QuestionResult(identifier: "notes", type: .text, answer: .text("a,\u{301}b\r\nline two"))]),
            step("gone", [QuestionResult(identifier: "gone", type: .boolean, answer: .boolean(true))]),
        ], for: sam)
        let weekly = try await save("weekly", occurrence: 0, [
            step("function", [QuestionResult(identifier: "stairs", type: .boolean, answer: .boolean(false)),
                              QuestionResult(identifier: "walking", type: .numeric, answer: .number(45), unit: "min"),
                              QuestionResult(identifier: "swelling", type: .textScale, answer: .dontKnow)]),
        ], for: sam)
        let clock = self.clock
        let reader = StudyExportReader(study: study, store: store, careStore: careStore, dataFolder: root.appendingPathComponent("data"), now: { clock.now })
        let summary = try await StudyExportFolder(url: out).replace(with: CSVWideExporter(), reading: reader)

        let painRows = try file("wide/pain.csv")
        #expect(painRows.first == CSVWideExporter.runColumns + ["painlevel", "painlocation___front", "painlocation___back", "painlocation___inner",
                                                                 "painlocation___outer", "painlocation___other", "painlocation___none",
                                                                 "painlocation_other", "notes"])
        // Started 06:40 New York time on 1 November 2026: summer time has just ended, -05:00.
        #expect(painRows.dropFirst().map { $0 } == [[sam.id, "2", pain.uuidString.lowercased(), "completed", "2026-11-01T06:40:00-05:00",
                                                    "2026-11-01T06:41:30-05:00", "6", "1", "0", "0", "0", "1", "0", "hip, \"left\"", "a,\u{301}b\r\nline two"]])
        let weeklyRows = try file("wide/weekly.csv")
        #expect(weeklyRows.first == CSVWideExporter.runColumns + ["stairs", "walking", "swelling"])
        #expect(weeklyRows.dropFirst().map { Array($0.suffix(3)) } == [["0", "45", ""]])
        #expect(weeklyRows.dropFirst().first?[2] == weekly.uuidString.lowercased())
        // No run of the other tasks: their files hold the header alone.
        #expect(try file("wide/mood.csv").count == 1)

        let dictionary = try file(CSVWideExporter.dictionaryFileName)
        #expect(dictionary.first == CSVWideExporter.dictionaryColumns)
        #expect(dictionary.dropFirst().first?.prefix(5) == ["participant", "onboarding", "", "text", "Participant"])
        let byName = Dictionary(dictionary.dropFirst().map { ($0[0], $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byName["painlocation"]?[3] == "checkbox")
        #expect(byName["painlocation"]?[5].hasPrefix("front, Front of the knee | back, ") == true)
        #expect(byName["painlevel"].map { [$0[1], $0[3], $0[7], $0[8], $0[9], $0[12]] } == ["pain", "text", "integer", "0", "10", "y"])
        #expect(byName["stairs"]?[3] == "yesno")
        #expect(byName["phq9_total"].map { [$0[3], $0[17].hasPrefix("@READONLY")] as [AnyHashable] } == ["text", true])
        // Every column of every task file is described, and no variable name is used twice.
        let variables = dictionary.dropFirst().map { $0[0] }
        #expect(Set(variables).count == variables.count)
        for variable in variables { #expect(variable.range(of: "^[a-z][a-z0-9_]*$", options: .regularExpression) != nil, "\(variable)") }

        #expect(summary.counts["wide/pain.csv"] == 1 && summary.counts["wide/weekly.csv"] == 1)
        #expect(summary.issues.map(\.message).sorted() == [
            "1 \"don't know\" answer is empty cells in csv-wide (csv-long has them)",
            "1 answer to questions the study no longer asks is not in csv-wide (csv-long has them)",
        ].sorted())
    }

    @Test(arguments: [("painLevel", "painlevel"), ("phq9-total", "phq9_total"), ("9lives", "v_9lives"), ("Ärger!", "rger"), ("", "v"),
                      ("a__b", "a_b"), ("日本", "v")])
    func variableNamesAreREDCaps(raw: String, name: String) {
        var names = Set<String>()
        #expect(CSVWideForm.variableName(raw, unique: &names) == name)
    }

    @Test func aTakenNameGetsTheFormInFrontThenANumber() {
        var names: Set<String> = ["level"]
        #expect(CSVWideForm.variableName("level", prefix: "pain", unique: &names) == "pain_level")
        #expect(CSVWideForm.variableName("level", prefix: "pain", unique: &names) == "level_2")
        #expect(names == ["level", "pain_level", "level_2"])
    }
}
