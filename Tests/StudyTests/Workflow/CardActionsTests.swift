import CareStore
import Consent
import Foundation
import Study
import StudyFHIR
import StudyKitEnvironment
import StudySQLite
import Testing

/// What each card of the daily page records, through the workflow: the same rules whatever page or app asks.
@Suite("Card actions")
struct CardActionsTests {
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    /// Recover, with a water task on a numeric progress card added, on a fresh database; a participant enrolled at
    /// 10:00 on 4 March 2026 in Tokyo and onboarded. Day 1 is 5 March.
    private func onboardedParticipant() async throws
        -> (workflow: ParticipantWorkflow, participant: StudyParticipant, data: SQLiteStudyDatabase, clock: TestClock) {
        let clock = TestClock(wallTime(2026, 3, 4, 10, 0, in: tokyo))
        let environment = StudyKitEnvironment(now: { clock.now }, makeUUID: { UUID() })
        let data = try SQLiteStudyDatabase.inMemory(environment: environment)
        let study = try StudyFixtures.withRecoverCopy { folder in
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "contacts:\n", with: """
                  - id: water
                    title: Water
                    card: numericProgress
                    value: {kind: water, units: ml, maximum: 2000}
                    schedule:
                      - daily: {from: 1, for: {weeks: 6}}
                        duration: allDay
                        targetValues: [{value: 2000, kind: water, units: ml}]

                contacts:

                """)
            return try StudyLoader.load(folder: folder, surveyFormats: [FHIRSurveyFormat()])
        }
        let workflow = ParticipantWorkflow(study: study, data: data, environment: environment, consentKey: .generate())
        let invitation = try await data.studyStore.createInvitation(label: nil, expiresAt: nil)
        let participant = try await workflow.enrol(invitationCode: invitation.code, timeZone: tokyo, language: "en")
        _ = try await OnboardingGate(careStore: data.careStore, environment: environment).recordCompletion(participantID: participant.id,
                                                                                                            timeZone: tokyo)
        return (workflow, participant, data, clock)
    }

    private func card(_ task: String, in feed: DayFeed) throws -> DayFeed.Card {
        try #require(feed.cards.first { $0.taskID == task }, "no \(task) card")
    }

    @Test func theDayHasOneCardPerTaskWithItsKindAndItsEvents() async throws {
        let (workflow, participant, _, clock) = try await onboardedParticipant()
        clock.set(wallTime(2026, 3, 5, 8, 10, in: tokyo))
        let day1 = try await workflow.today(for: participant)
        #expect(day1.isToday)
        let exercises = try card("exercises", in: day1)
        #expect(exercises.kind == .checklist)
        #expect(exercises.events.map(\.text) == ["after breakfast", "after lunch", "after dinner"])
        #expect(exercises.events.map(\.isOpen) == [true, false, false], "only a started event can be recorded")
        #expect(try card("medication", in: day1).kind == .grid)
        #expect(try card("medication", in: day1).events.count == 3, "day 1 has the dinner dose")
        #expect(try card("symptoms", in: day1).kind == .buttonLog)
        #expect(try card("pain", in: day1).kind == .survey)
        #expect(try card("water", in: day1).kind == .numericProgress)
        #expect(try card("icing", in: day1).kind == .simple)
        // The page changes by time when the breakfast session ends at 08:30.
        #expect(day1.changesAt == wallTime(2026, 3, 5, 8, 30, in: tokyo))

        let day2 = try await workflow.day(containing: wallTime(2026, 3, 6, 12, 0, in: tokyo), for: participant)
        #expect(!day2.isToday)
        #expect(try card("medication", in: day2).events.count == 2, "no dinner dose every other day")
        #expect(try card("medication", in: day2).events.allSatisfy { !$0.isOpen && $0.state(at: clock.now) == .upcoming })
    }

    /// Each card kind's ``StudyCardKind/actions`` are exactly what the workflow takes from it: any other action is
    /// refused as a task without it, whatever else would refuse an allowed one (an event not done, a run to resume).
    @Test func theWorkflowTakesExactlyTheActionsEachCardKindAllows() async throws {
        let (workflow, participant, _, clock) = try await onboardedParticipant()
        clock.set(wallTime(2026, 3, 5, 8, 10, in: tokyo))
        let kinds = Set(try await workflow.today(for: participant).cards.map(\.kind))
        #expect(kinds.isSuperset(of: [.simple, .grid, .checklist, .buttonLog, .numericProgress, .survey]), "\(kinds)")
        for task in ["icing", "medication", "exercises", "symptoms", "water", "pain"] {
            let kind = try #require(workflow.study.task(id: task)).cardKind(eventsThatDay: 1)
            for action in StudyCardAction.allCases {
                var refusedAsNoSuchTask = false
                do {
                    switch action {
                    case .record: try await workflow.record(taskID: task, occurrence: 0, for: participant)
                    case .removeOutcome: try await workflow.removeOutcome(taskID: task, occurrence: 0, for: participant)
                    case .log: try await workflow.log(taskID: task, occurrence: 0, for: participant)
                    case .deleteLogEntry: try await workflow.deleteLogEntry(taskID: task, occurrence: 0, loggedAt: clock.now, for: participant)
                    case .enterValue: try await workflow.enter(100, taskID: task, occurrence: 0, for: participant)
                    case .startRun: _ = try await workflow.startRun(taskID: task, occurrence: 0, for: participant)
                    case .withdrawSurvey: try await workflow.withdrawSurvey(taskID: task, occurrence: 0, for: participant)
                    }
                } catch StudyRefusal.noSuchTask {
                    refusedAsNoSuchTask = true
                } catch is StudyRefusal {
                }
                #expect(refusedAsNoSuchTask == !kind.allows(action), "\(task) (\(kind)): \(action)")
            }
        }
    }

    @Test func aSimpleEventIsRecordedOnceAndUndone() async throws {
        let (workflow, participant, data, clock) = try await onboardedParticipant()
        clock.set(wallTime(2026, 3, 5, 8, 10, in: tokyo))
        let occurrence = try card("exercises", in: try await workflow.today(for: participant)).events[0].occurrence
        try await workflow.record(taskID: "exercises", occurrence: occurrence, for: participant)
        try await workflow.record(taskID: "exercises", occurrence: occurrence, for: participant)
        let outcomes = try await data.careStore.fetchOutcomes(query: OutcomeQuery())
        #expect(outcomes.count == 2, "the gate's and one for the session, recorded once")
        let event = try card("exercises", in: try await workflow.today(for: participant)).events[0]
        #expect(event.isDone && event.values.map(\.kind) == ["completed"])
        #expect(event.completedAt == clock.now)

        try await workflow.removeOutcome(taskID: "exercises", occurrence: occurrence, for: participant)
        #expect(try card("exercises", in: try await workflow.today(for: participant)).events[0].outcome == nil)
        try await workflow.removeOutcome(taskID: "exercises", occurrence: occurrence, for: participant)

        // The session after lunch has not started; a log is not what an exercise card offers.
        await #expect(throws: StudyRefusal.eventNotDue(task: "exercises", occurrence: occurrence + 1)) {
            try await workflow.record(taskID: "exercises", occurrence: occurrence + 1, for: participant)
        }
        await #expect(throws: StudyRefusal.noSuchTask("exercises")) {
            try await workflow.log(taskID: "exercises", occurrence: occurrence, for: participant)
        }
        await #expect(throws: StudyRefusal.noSuchTask("pain")) {
            try await workflow.record(taskID: "pain", occurrence: 1, for: participant)
        }
    }

    @Test func aPastDayIsClosedUnlessTheTaskAllowsLateEntry() async throws {
        let (workflow, participant, _, clock) = try await onboardedParticipant()
        clock.set(wallTime(2026, 3, 6, 7, 0, in: tokyo)) // the morning after day 1
        let yesterday = try await workflow.day(containing: wallTime(2026, 3, 5, 12, 0, in: tokyo), for: participant)
        let exercises = try card("exercises", in: yesterday)
        let medication = try card("medication", in: yesterday)
        #expect(exercises.events.allSatisfy { $0.isOpen }, "exercises allow late entry")
        #expect(medication.events.allSatisfy { !$0.isOpen })
        try await workflow.record(taskID: "exercises", occurrence: exercises.events[2].occurrence, for: participant)
        await #expect(throws: StudyRefusal.eventClosed(task: "medication", occurrence: medication.events[0].occurrence)) {
            try await workflow.record(taskID: "medication", occurrence: medication.events[0].occurrence, for: participant)
        }
        let pain = try card("pain", in: yesterday).events[0]
        await #expect(throws: StudyRefusal.eventClosed(task: "pain", occurrence: pain.occurrence)) {
            _ = try await workflow.startRun(taskID: "pain", occurrence: pain.occurrence, for: participant)
        }
        // Yesterday's page shows the session recorded late.
        let again = try await workflow.day(containing: wallTime(2026, 3, 5, 12, 0, in: tokyo), for: participant)
        #expect(try card("exercises", in: again).events[2].isDone)
    }

    @Test func aLogKeepsEachPressWithItsTimeAndDeletesOneByItsTime() async throws {
        let (workflow, participant, data, clock) = try await onboardedParticipant()
        clock.set(wallTime(2026, 3, 5, 9, 15, in: tokyo).addingTimeInterval(30.25))
        let occurrence = try card("symptoms", in: try await workflow.today(for: participant)).events[0].occurrence
        try await workflow.log(taskID: "symptoms", occurrence: occurrence, for: participant)
        let first = clock.now
        clock.set(wallTime(2026, 3, 5, 14, 2, in: tokyo))
        try await workflow.log(taskID: "symptoms", occurrence: occurrence, for: participant)
        var event = try card("symptoms", in: try await workflow.today(for: participant)).events[0]
        #expect(event.values.compactMap(\.createdDate) == [first, clock.now])
        #expect(event.values.allSatisfy { $0.kind == StudyTaskDefinition.loggedKind })

        // The nausea log does not count toward the ring.
        let week = try await workflow.week(containing: clock.now, for: participant)
        #expect(week.days.first { $0.isToday }?.ring == .notStarted)

        try await workflow.deleteLogEntry(taskID: "symptoms", occurrence: occurrence, loggedAt: first.addingTimeInterval(0.0004), for: participant)
        event = try card("symptoms", in: try await workflow.today(for: participant)).events[0]
        #expect(event.values.compactMap(\.createdDate) == [clock.now])
        // Deleted already (another tab): nothing changes.
        try await workflow.deleteLogEntry(taskID: "symptoms", occurrence: occurrence, loggedAt: first, for: participant)
        try await workflow.deleteLogEntry(taskID: "symptoms", occurrence: occurrence, loggedAt: clock.now, for: participant)
        event = try card("symptoms", in: try await workflow.today(for: participant)).events[0]
        #expect(event.outcome == nil, "the last entry deleted removes the outcome")
        #expect(try await data.careStore.fetchOutcomes(query: OutcomeQuery()).count == 1, "only the gate's")
    }

    @Test func twoTabsLoggingAtOnceKeepBothEntries() async throws {
        let (workflow, participant, _, clock) = try await onboardedParticipant()
        clock.set(wallTime(2026, 3, 5, 9, 0, in: tokyo))
        let occurrence = try card("symptoms", in: try await workflow.today(for: participant)).events[0].occurrence
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { try await workflow.log(taskID: "symptoms", occurrence: occurrence, for: participant) } }
            try await group.waitForAll()
        }
        #expect(try card("symptoms", in: try await workflow.today(for: participant)).events[0].values.count == 4)
    }

    @Test func aNumberIsAddedWithinTheTasksLimitsAndCountsAgainstTheGoal() async throws {
        let (workflow, participant, _, clock) = try await onboardedParticipant()
        clock.set(wallTime(2026, 3, 5, 9, 0, in: tokyo))
        let occurrence = try card("water", in: try await workflow.today(for: participant)).events[0].occurrence
        try await workflow.enter(500, taskID: "water", occurrence: occurrence, for: participant)
        try await workflow.enter(250.5, taskID: "water", occurrence: occurrence, for: participant)
        for refused in [-1, 2000.5, .nan, .infinity] {
            await #expect(throws: StudyRefusal.valueNotAccepted(task: "water", minimum: 0, maximum: 2000)) {
                try await workflow.enter(refused, taskID: "water", occurrence: occurrence, for: participant)
            }
        }
        let water = try card("water", in: try await workflow.today(for: participant))
        #expect(water.total == 750.5)
        #expect(water.goal == 2000)
        #expect(water.events[0].values.map(\.value) == [.integer(500), .double(250.5)])
        #expect(water.events[0].values.allSatisfy { $0.kind == "water" && $0.units == "ml" })
        #expect(water.events[0].progress.fractionCompleted == 750.5 / 2000)
        // The ring follows: 750.5 of 2,000 ml is part of the day.
        let ring = try await workflow.week(containing: clock.now, for: participant).days.first { $0.isToday }?.ring
        #expect(ring?.fractionCompleted.map { $0 > 0 && $0 < 1 } == true)
        await #expect(throws: StudyRefusal.noSuchTask("exercises")) {
            try await workflow.enter(1, taskID: "exercises", occurrence: 0, for: participant)
        }
        try await workflow.removeOutcome(taskID: "water", occurrence: occurrence, for: participant)
        #expect(try card("water", in: try await workflow.today(for: participant)).total == 0)
    }

    /// Takes the pain check of `occurrence` through the workflow: pain 4, the rest skipped.
    private func completePainCheck(_ occurrence: Int, workflow: ParticipantWorkflow, participant: StudyParticipant) async throws -> UUID {
        let run = try await workflow.startRun(taskID: "pain", occurrence: occurrence, for: participant)
        for _ in 0..<8 {
            let applied = try await workflow.applyStep(to: run, for: participant) { session -> String? in
                if session.currentStep?.identifier == "painLevel" {
                    _ = try session.setAnswer(text: "4")
                    try session.goForward()
                } else {
                    do { try session.skip() } catch { try session.goForward() }
                }
                return nil
            }
            if case .finished = applied { return run }
        }
        Issue.record("the pain check did not finish")
        return run
    }

    @Test func aSurveyTakenBackKeepsItsRunWithdrawnAndCanBeTakenAgain() async throws {
        let (workflow, participant, data, clock) = try await onboardedParticipant()
        clock.set(wallTime(2026, 3, 5, 20, 0, in: tokyo))
        let occurrence = try card("pain", in: try await workflow.today(for: participant)).events[0].occurrence
        await #expect(throws: StudyRefusal.eventNotDone(task: "pain", occurrence: occurrence)) {
            try await workflow.withdrawSurvey(taskID: "pain", occurrence: occurrence, for: participant)
        }
        let run = try await completePainCheck(occurrence, workflow: workflow, participant: participant)
        #expect(try card("pain", in: try await workflow.today(for: participant)).events[0].values.map(\.value) == [.integer(4)])
        let careRevision = data.careStore.revision

        try await workflow.withdrawSurvey(taskID: "pain", occurrence: occurrence, for: participant)
        #expect(try card("pain", in: try await workflow.today(for: participant)).events[0].outcome == nil)
        let withdrawn = try #require(try await data.studyStore.run(id: run, participantID: participant.id))
        #expect(withdrawn.state == .withdrawn)
        #expect(withdrawn.result?.stepResult("painLevel")?.questionResult("painLevel")?.answer == .number(4), "the answers are kept")
        #expect(data.careStore.revision > careRevision)
        // Taken back already (another tab): refused, nothing changes; a checklist task has nothing to take back.
        await #expect(throws: StudyRefusal.eventNotDone(task: "pain", occurrence: occurrence)) {
            try await workflow.withdrawSurvey(taskID: "pain", occurrence: occurrence, for: participant)
        }
        await #expect(throws: StudyRefusal.noSuchTask("exercises")) {
            try await workflow.withdrawSurvey(taskID: "exercises", occurrence: 0, for: participant)
        }
        // The event can be taken again, in a new run; the withdrawn run stays final.
        let again = try await completePainCheck(occurrence, workflow: workflow, participant: participant)
        #expect(again != run)
        #expect(try card("pain", in: try await workflow.today(for: participant)).events[0].isDone)
        var reopened = withdrawn
        reopened.state = .completed
        await #expect(throws: StudyStoreError.self) { _ = try await data.studyStore.saveRun(reopened) }
        // The day over, the pain check cannot be taken back any more.
        clock.set(wallTime(2026, 3, 6, 9, 0, in: tokyo))
        await #expect(throws: StudyRefusal.eventClosed(task: "pain", occurrence: occurrence)) {
            try await workflow.withdrawSurvey(taskID: "pain", occurrence: occurrence, for: participant)
        }
    }

    @Test func aChartCountsAveragesAndTakesProgressDayByDayAsTheCareStoreDoes() async throws {
        let (workflow, participant, data, clock) = try await onboardedParticipant()
        clock.set(wallTime(2026, 3, 5, 20, 0, in: tokyo)) // day 1, every session started
        let day1 = try await workflow.today(for: participant)
        for event in try card("exercises", in: day1).events.prefix(2) {
            try await workflow.record(taskID: "exercises", occurrence: event.occurrence, for: participant)
        }
        _ = try await completePainCheck(try card("pain", in: day1).events[0].occurrence, workflow: workflow, participant: participant)
        let chart = StudyChart(id: "c", title: "Exercise and pain", kind: .bar, period: .week, series: [
            StudyChart.Series(taskID: "exercises", legend: "Sessions", colour: "#C8472B", aggregate: .count),
            StudyChart.Series(taskID: "exercises", legend: "Exercise %", colour: "#C8472B", aggregate: .progress),
            StudyChart.Series(taskID: "pain", legend: "Pain", colour: "#1F6FB2", aggregate: .mean, valueKind: "pain"),
            StudyChart.Series(taskID: "pain", legend: "Pain total", colour: "#1F6FB2", aggregate: .sum, valueKind: "pain"),
        ])
        let numbers = try await workflow.chart(chart, containing: clock.now, for: participant)
        // An English week: Sunday 1 to Saturday 7 March; day 0 (4 March, Wednesday) has no exercises yet.
        #expect(numbers.days.count == 7)
        #expect(numbers.days.first?.start == wallTime(2026, 3, 1, 0, 0, in: tokyo))
        let thursday = 4
        #expect(numbers.series[0].values == [0, 0, 0, 0, 2, 0, 0])
        #expect(numbers.series[1].values[thursday].map { ($0 * 100).rounded() / 100 } == 66.67)
        #expect(numbers.series[1].values[3] == nil, "no session on the day of enrolment")
        #expect(numbers.series[1].values[5] == 0)
        #expect(numbers.series[2].values == [nil, nil, nil, nil, 4, nil, nil])
        #expect(numbers.series[3].values[thursday] == 4)
        // The same numbers the care store's insights give for that task.
        let insights = try await data.careStore.insights(taskID: StudyCareIdentifiers.taskID(participant: participant.id, task: "exercises"),
                                                         window: numbers.period, kind: nil, aggregate: .count,
                                                         calendar: workflow.calendar(for: participant))
        #expect(insights.map(\.value) == numbers.series[0].values)
        let month = try await workflow.chart(StudyChart(id: "m", title: "Month", kind: .line, period: .month, series: chart.series),
                                             containing: clock.now, for: participant)
        #expect(month.days.count == 31 && month.series[0].values[4] == 2)
    }
}
