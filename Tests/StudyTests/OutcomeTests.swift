import CareStore
import Foundation
import StudyKitEnvironment
import Research
import StudyFHIR
import Testing
@testable import Study

@Suite("Onboarding gate and survey outcomes")
struct OutcomeTests {
    let study: StudyDefinition
    let clock = TestClock(wallTime(2026, 3, 5, 10, 0, in: Zones.newYork))
    let uuids = CountingUUIDs()
    let careStore: InMemoryCareStore
    let environment: StudyKitEnvironment

    init() throws {
        study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let clock = self.clock, uuids = self.uuids
        careStore = InMemoryCareStore(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
        environment = StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() })
    }

    func enrol(_ participant: String) async throws {
        _ = try await StudyEnrolment(study: study, environment: environment)
            .enrol(participantID: participant, enrolledAt: clock.now, timeZone: Zones.newYork, into: careStore)
    }

    @Test func theGateOpensOnceOnboardingHasAnOutcome() async throws {
        try await enrol("p1")
        try await enrol("p2")
        let gate = OnboardingGate(careStore: careStore, environment: environment)
        #expect(try await !gate.isOnboarded(participantID: "p1"))
        clock.advance(by: 3 * 86_400) // finished three days later: the outcome goes on that day's event
        let outcome = try await gate.recordCompletion(participantID: "p1", timeZone: Zones.newYork)
        #expect(outcome.occurrenceIndex == 3)
        #expect(outcome.values == [OutcomeValue(.boolean(true), kind: "completed", createdDate: clock.now)])
        #expect(try await gate.isOnboarded(participantID: "p1"))
        #expect(try await !gate.isOnboarded(participantID: "p2"))
        // Again: nothing new.
        #expect(try await gate.recordCompletion(participantID: "p1", timeZone: Zones.newYork) == outcome)
        await #expect(throws: StudyOutcomeError.noCareTask(participant: "nobody", task: "onboarding")) {
            _ = try await gate.recordCompletion(participantID: "nobody", timeZone: Zones.newYork)
        }
    }

    /// Runs Recover's pain survey to the end with these answers.
    func painResult(level: Int, locations: [ChoiceSelection], notes: String?) throws -> TaskResult {
        let survey = try #require(study.survey(taskID: "pain"))
        var session = try TaskSession(task: survey, environment: sessionEnvironment(clock, uuids: uuids, timeZone: Zones.newYork))
        try session.setAnswer(.number(Decimal(level)))
        try session.goForward()
        try session.setAnswer(.choices(locations))
        try session.goForward()
        if let notes { try session.setAnswer(.text(notes)) } else { try session.skip() }
        if notes != nil { try session.goForward() }
        try session.goForward()
        #expect(session.finishReason == .completed)
        return session.result
    }

    @Test func aPainSurveyBecomesAPainOutcomeOnItsEvent() async throws {
        try await enrol("p1")
        let mapper = SurveyOutcomeMapper(study: study, careStore: careStore, environment: environment)
        let result = try painResult(level: 6, locations: [ChoiceSelection("front"), ChoiceSelection("other", text: "the scar")], notes: "Stiff")
        let outcome = try await mapper.record(result: result, taskID: "pain", occurrence: 2, participantID: "p1", timeZone: Zones.newYork)
        #expect(outcome.values == [OutcomeValue(.integer(6), kind: "pain", units: "NRS", createdDate: clock.now)])
        #expect(outcome.occurrenceIndex == 2)
        #expect(outcome.userInfo["taskRunUUID"] == result.taskRunUUID.uuidString)

        // The care store shows it on the day of event 2 (two days after the first, on the day of enrolment).
        var query = CareQuery()
        query.ids = ["p1/pain"]
        let day = DateInterval(start: wallTime(2026, 3, 7, 0, 0, in: Zones.newYork), end: wallTime(2026, 3, 8, 0, 0, in: Zones.newYork))
        let events = try await careStore.events(taskQuery: query, window: day)
        #expect(events.count == 1 && events.first?.outcome?.values.first?.value == .integer(6))

        // The same event again, and an event the schedule does not have, are refused by the care store.
        await #expect(throws: (any Error).self) {
            _ = try await mapper.record(result: result, taskID: "pain", occurrence: 2, participantID: "p1", timeZone: Zones.newYork)
        }
        await #expect(throws: (any Error).self) {
            _ = try await mapper.record(result: result, taskID: "pain", occurrence: 42, participantID: "p1", timeZone: Zones.newYork)
        }
    }

    @Test func formItemsChoicesAndSkippedAnswersMapAsDocumented() throws {
        let weekly = try #require(study.task(id: "weekly"))
        let survey = try #require(study.survey(taskID: "weekly"))
        var session = try TaskSession(task: survey, environment: sessionEnvironment(clock, uuids: uuids, timeZone: Zones.newYork))
        try session.setAnswer(.boolean(true), for: "stairs")
        try session.setAnswer(.choices([ChoiceSelection(2)]), for: "swelling")
        try session.goForward()
        let values = try SurveyOutcomeMapper.values(for: weekly, survey: survey, result: session.result, recordedAt: clock.now)
        // Walking was not answered: no value for it.
        #expect(values == [OutcomeValue(.boolean(true), kind: "stairs", createdDate: clock.now)])

        var mapped = weekly
        mapped.outcome = [StudyOutcomeMapping(question: "function.swelling"), StudyOutcomeMapping(question: "function.walking", kind: "walk")]
        #expect(try SurveyOutcomeMapper.values(for: mapped, survey: survey, result: session.result, recordedAt: clock.now)
                == [OutcomeValue(.integer(2), kind: "function.swelling", createdDate: clock.now)])
        #expect(SurveyOutcomeMapper.outcomeValues(of: .number(Decimal(string: "2.5")!)) == [.double(2.5)])
        #expect(SurveyOutcomeMapper.outcomeValues(of: .choices([ChoiceSelection("front"), ChoiceSelection("back")])) == [.text("front"), .text("back")])
        #expect(SurveyOutcomeMapper.outcomeValues(of: .timeOfDay(TimeOfDay(hour: 7, minute: 5))) == [.text("07:05")])
        #expect(SurveyOutcomeMapper.outcomeValues(of: .dontKnow) == [])

        // A task without a mapping records `completed`; a result of another survey is refused.
        var unmapped = weekly
        unmapped.outcome = []
        #expect(try SurveyOutcomeMapper.values(for: unmapped, survey: survey, result: session.result, recordedAt: clock.now)
                == [OutcomeValue(.boolean(true), kind: "completed", createdDate: clock.now)])
        let other = try #require(study.survey(taskID: "pain"))
        #expect(throws: StudyOutcomeError.resultOfAnotherTask(task: "weekly", expected: "recover-pain", found: "recover-weekly")) {
            _ = try SurveyOutcomeMapper.values(for: weekly, survey: other, result: session.result, recordedAt: clock.now)
        }
    }

    @Test func aChecklistTaskIsRecordedAsCompleted() async throws {
        try await enrol("p1")
        let mapper = SurveyOutcomeMapper(study: study, careStore: careStore, environment: environment)
        let outcome = try await mapper.recordCompletion(taskID: "exercises", occurrence: 0, participantID: "p1", timeZone: Zones.newYork)
        #expect(outcome.values == [OutcomeValue(.boolean(true), kind: "completed", createdDate: clock.now)])
        await #expect(throws: StudyOutcomeError.unknownTask("stretches")) {
            _ = try await mapper.recordCompletion(taskID: "stretches", occurrence: 0, participantID: "p1", timeZone: Zones.newYork)
        }
        await #expect(throws: StudyOutcomeError.noSurvey(task: "exercises")) {
            _ = try await mapper.record(result: try painResult(level: 1, locations: [ChoiceSelection("none")], notes: nil), taskID: "exercises", occurrence: 0,
                                        participantID: "p1", timeZone: Zones.newYork)
        }
    }
}
