import CareStore
import Foundation
import Research
import Study
import StudyFHIR
import StudyKitEnvironment
import Testing

/// `outcomes`: every value of every live outcome once, with its task, event and typed cells; deleted outcomes left out.
@Suite struct CSVOutcomesExportTests {
    let study: StudyDefinition
    let clock = TestClock(wallTime(2026, 10, 4, 9, 0, in: TimeZone(identifier: "Australia/Sydney")!)) // Sydney's first summer-time day
    let uuids = CountingUUIDs()
    let store: InMemoryStudyStore
    let careStore: InMemoryCareStore
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("csv-outcomes-\(UUID().uuidString)", isDirectory: true)
    let sydney = TimeZone(identifier: "Australia/Sydney")!

    init() throws {
        study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let clock = self.clock, uuids = self.uuids
        store = InMemoryStudyStore(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
        careStore = InMemoryCareStore(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
    }

    @Test func everyLiveValueIsOneRow() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let participant = try await store.enrol(invitationCode: nil, timeZone: sydney, language: "en")
        let clock = self.clock, uuids = self.uuids
        _ = try await StudyEnrolment(study: study, environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
            .enrol(participantID: participant.id, enrolledAt: participant.enrolledAt, timeZone: sydney, into: careStore)
        var query = CareQuery()
        query.ids = ["\(participant.id)/pain", "\(participant.id)/exercises"]
        let tasks = Dictionary(uniqueKeysWithValues: try await careStore.fetch(CareTask.self, query: query).map { ($0.id, $0) })
        let pain = try #require(tasks["\(participant.id)/pain"]), exercises = try #require(tasks["\(participant.id)/exercises"])
        let when = wallTime(2026, 10, 3, 20, 15, in: sydney)
        let added = try await careStore.addOutcomes([
            Outcome(taskUUID: pain.version.uuid, occurrenceIndex: 0, values: [
                OutcomeValue(.integer(6), kind: "pain", units: "NRS"), OutcomeValue(.double(2.5), kind: "hours"),
                OutcomeValue(.text("sharp, \"stabbing\"\nat night"), kind: "note"), OutcomeValue(.date(when), kind: "since"),
                OutcomeValue(.binary(Data([1, 2, 255])), kind: "raw"),
            ], timeZone: sydney),
            Outcome(taskUUID: exercises.version.uuid, occurrenceIndex: 0, values: [OutcomeValue(.boolean(true), kind: "completed")],
                    timeZone: sydney),
            Outcome(taskUUID: exercises.version.uuid, occurrenceIndex: 1, values: [OutcomeValue(.boolean(true), kind: "completed")],
                    timeZone: sydney),
            Outcome(taskUUID: exercises.version.uuid, occurrenceIndex: 2, values: [], timeZone: sydney),
        ])
        // A removed outcome is not exported.
        clock.advance(by: 60)
        _ = try await careStore.deleteOutcomes([added[2]])
        let reader = StudyExportReader(study: study, store: store, careStore: careStore, dataFolder: root.appendingPathComponent("data"),
                                       now: { clock.now })
        let out = root.appendingPathComponent("export", isDirectory: true)
        let summary = try await StudyExportFolder(url: out).replace(with: CSVOutcomesExporter(), reading: reader)
        let rows = try CSVTestParser.rows(of: Data(contentsOf: out.appendingPathComponent(CSVOutcomesExporter.fileName)))

        #expect(rows.first == CSVOutcomesExporter.columns)
        let painStart = try #require(pain.schedule.event(occurrence: 0)?.start)
        let exercisesStart = try #require(exercises.schedule.event(occurrence: 0)?.start)
        let recorded = ISO8601.string(from: wallTime(2026, 10, 4, 9, 0, in: sydney), in: sydney)
        #expect(recorded.hasSuffix("+11:00")) // summer time since 02:00 that morning
        let painEvent = [participant.id, "pain", "0", ISO8601.string(from: painStart, in: sydney), added[0].uuid.uuidString.lowercased()]
        let exercisesEvent = [participant.id, "exercises", "0", ISO8601.string(from: exercisesStart, in: sydney), added[1].uuid.uuidString.lowercased()]
        let expected = [
            painEvent + ["pain", "integer", "6", "6", "NRS", recorded],
            painEvent + ["hours", "double", "2.5", "2.5", "", recorded],
            painEvent + ["note", "text", "sharp, \"stabbing\"\nat night", "", "", recorded],
            painEvent + ["since", "date", "2026-10-03T20:15:00+10:00", "", "", recorded],
            painEvent + ["raw", "binary", "AQL/", "", "", recorded],
            exercisesEvent + ["completed", "boolean", "true", "1", "", recorded],
            // Without values: one row, the value columns empty, the outcome's own time.
            [participant.id, "exercises", "2", ISO8601.string(from: try #require(exercises.schedule.event(occurrence: 2)?.start), in: sydney),
             added[3].uuid.uuidString.lowercased(), "", "", "", "", "", recorded],
        ]
        #expect(Set(rows.dropFirst()) == Set(expected))
        #expect(rows.count == expected.count + 1)
        #expect(summary.counts == [CSVOutcomesExporter.fileName: expected.count])
    }
}
