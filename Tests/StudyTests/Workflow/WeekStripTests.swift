import CareStore
import Consent
import Foundation
import Study
import StudyFHIR
import StudyKitEnvironment
import StudySQLite
import Testing

/// A week to look at: where the participant lives, their language (which decides the first weekday), and the Sunday
/// on which daylight saving changes there.
struct DaylightSavingWeek: Sendable, CustomTestStringConvertible {
    var zone: TimeZone
    var language: String
    /// The Sunday of the change, at noon.
    var changeDay: Date
    /// How long that Sunday is.
    var changeDayHours: Double
    var testDescription: String { "\(zone.identifier), \(language)" }

    static let all = [
        // Clocks go forward on 29 March 2026: a 23-hour day, first in an English week, last in a Spanish one.
        DaylightSavingWeek(zone: TimeZone(identifier: "Europe/Berlin")!, language: "en",
                           changeDay: wallTime(2026, 3, 29, 12, in: TimeZone(identifier: "Europe/Berlin")!), changeDayHours: 23),
        DaylightSavingWeek(zone: TimeZone(identifier: "Europe/Berlin")!, language: "es",
                           changeDay: wallTime(2026, 3, 29, 12, in: TimeZone(identifier: "Europe/Berlin")!), changeDayHours: 23),
        // In the southern hemisphere clocks go back on 5 April 2026: a 25-hour day.
        DaylightSavingWeek(zone: TimeZone(identifier: "Australia/Sydney")!, language: "en",
                           changeDay: wallTime(2026, 4, 5, 12, in: TimeZone(identifier: "Australia/Sydney")!), changeDayHours: 25),
    ]
}

@Suite("The week strip")
struct WeekStripTests {
    /// Recover on a fresh database, with a participant enrolled at noon on the Tuesday before `week.changeDay` and
    /// onboarded; on the change day their exercises are ticked and their pain recorded, on the day after only the
    /// exercises; the clock then stands at noon on the Wednesday after the change.
    private func participantWithAWeekOfCare(_ week: DaylightSavingWeek) async throws
        -> (workflow: ParticipantWorkflow, participant: StudyParticipant, data: SQLiteStudyDatabase, calendar: Calendar) {
        let day: TimeInterval = 86_400
        let clock = TestClock(week.changeDay.addingTimeInterval(-5 * day))
        let environment = StudyKitEnvironment(now: { clock.now }, makeUUID: { UUID() })
        let data = try SQLiteStudyDatabase.inMemory(environment: environment)
        let study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let workflow = ParticipantWorkflow(study: study, data: data, environment: environment, consentKey: .generate())
        let invitation = try await data.studyStore.createInvitation(label: nil, expiresAt: nil)
        let participant = try await workflow.enrol(invitationCode: invitation.code, timeZone: week.zone, language: week.language)
        _ = try await OnboardingGate(careStore: data.careStore, environment: environment).recordCompletion(participantID: participant.id,
                                                                                                            timeZone: week.zone)
        let calendar = workflow.calendar(for: participant)
        for (offset, recordsPain) in [(0, true), (1, false)] {
            let date = calendar.date(byAdding: .day, value: offset, to: week.changeDay)!
            // At 21:00 every event of the day has started: the exercises and, on the change day, the medication and the
            // icing too.
            clock.set(calendar.date(bySettingHour: 21, minute: 0, second: 0, of: date)!)
            let feed = try await workflow.today(for: participant)
            for card in feed.cards where card.taskID == "exercises" || (recordsPain && ["medication", "icing"].contains(card.taskID)) {
                for event in card.events {
                    try await workflow.record(taskID: card.taskID, occurrence: event.occurrence, for: participant)
                }
            }
            if recordsPain {
                var query = CareQuery(for: feed.day)
                query.ids = [StudyCareIdentifiers.taskID(participant: participant.id, task: "pain")]
                let events = try await data.careStore.events(taskQuery: query, window: feed.day)
                _ = try await data.careStore.addOutcomes(events.map {
                    Outcome(taskUUID: $0.task.version.uuid, occurrenceIndex: $0.scheduleEvent.occurrence,
                            values: [OutcomeValue(.integer(3), kind: "pain", units: "NRS")], timeZone: week.zone)
                })
            }
        }
        clock.set(calendar.date(byAdding: .day, value: 3, to: week.changeDay)!)
        return (workflow, participant, data, calendar)
    }

    @Test(arguments: DaylightSavingWeek.all)
    func theRingsAreTheAdherenceTheCareStoreComputesForTheSameDays(_ week: DaylightSavingWeek) async throws {
        let (workflow, participant, data, calendar) = try await participantWithAWeekOfCare(week)
        let strip = try await workflow.week(containing: week.changeDay, for: participant)
        #expect(strip.days.count == 7)

        // The same days asked the other way: by the participant's care plan, not by their tasks' ids.
        let window = DateInterval(start: strip.days[0].day.start, end: strip.days[6].day.end)
        var query = CareQuery(for: window)
        query.carePlanIDs = [StudyCareIdentifiers.carePlanID(participant: participant.id)]
        let adherence = try await data.careStore.adherence(taskQuery: query, window: window, calendar: calendar)
        #expect(strip.days.map(\.ring) == adherence.map { WeekStrip.Ring($0.state) })
        #expect(strip.days.map(\.day.start) == adherence.map(\.date))

        // What the participant did shows: the change day complete; the day after (exercises ticked; medication, pain
        // and the Monday survey not done) partly; the day after that not started; in a week from Monday, the Monday before
        // the Tuesday of enrolment had no tasks yet.
        let changeDay = try #require(strip.days.first { $0.day.contains(week.changeDay) })
        #expect(changeDay.ring == .complete)
        if let dayAfter = strip.days.first(where: { $0.day.start == changeDay.day.end }) {
            #expect(dayAfter.ring.fractionCompleted.map { $0 > 0 && $0 < 1 } == true, "\(dayAfter.ring)")
            let twoDaysAfter = try #require(strip.days.first { $0.day.start == dayAfter.day.end })
            #expect(twoDaysAfter.ring == .notStarted)
        } else {
            #expect(strip.days[0].ring == .noTasks)
        }
    }

    @Test(arguments: DaylightSavingWeek.all)
    func theWeekIsSevenCalendarDaysFromTheLanguagesFirstWeekday(_ week: DaylightSavingWeek) async throws {
        let (workflow, participant, _, calendar) = try await participantWithAWeekOfCare(week)
        let strip = try await workflow.week(containing: week.changeDay, for: participant)
        #expect(calendar.component(.weekday, from: strip.days[0].day.start) == (week.language == "es" ? 2 : 1))
        for (day, next) in zip(strip.days, strip.days.dropFirst()) { #expect(day.day.end == next.day.start) }
        for day in strip.days { #expect(calendar.component(.hour, from: day.day.start) == 0) }
        let changeDay = try #require(strip.days.first { $0.day.contains(week.changeDay) })
        #expect(changeDay.day.duration == week.changeDayHours * 3_600)

        // Today is the Wednesday after the change: one day is today, later days are in the future.
        let today = try #require(calendar.dateInterval(of: .day, for: calendar.date(byAdding: .day, value: 3, to: week.changeDay)!))
        let thisWeek = strip.days.contains { $0.day == today }
        #expect(strip.days.filter(\.isToday).map(\.day) == (thisWeek ? [today] : []))
        #expect(strip.days.filter(\.isFuture).allSatisfy { $0.day.start >= today.end })
        #expect(strip.days.filter { !$0.isFuture }.allSatisfy { $0.day.start < today.end })

        // Previous and next week are the neighbouring weeks, whatever the clocks did.
        let previous = try await workflow.week(containing: strip.previousWeek, for: participant)
        let next = try await workflow.week(containing: strip.nextWeek, for: participant)
        #expect(previous.days[6].day.end == strip.days[0].day.start)
        #expect(next.days[0].day.start == strip.days[6].day.end)
    }

    @Test func aRingFollowsTheDaysAdherenceAndIsFilledOnlyWhenThereWasSomethingToDo() {
        #expect(WeekStrip.Ring(.noTasks).fractionCompleted == nil)
        #expect(WeekStrip.Ring(.noEvents).fractionCompleted == nil)
        #expect(WeekStrip.Ring(.progress(0)) == .notStarted)
        #expect(WeekStrip.Ring(.progress(0.25)) == .partial(0.25))
        #expect(WeekStrip.Ring(.progress(1)) == .complete)
    }
}
