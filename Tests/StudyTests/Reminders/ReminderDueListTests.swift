import CareStore
import Foundation
import Study
import StudyFHIR
import StudyKitEnvironment
import StudySQLite
import Testing

/// A day on which clocks change, in a zone far from UTC, for a participant of Recover.
struct ReminderDay: Sendable, CustomTestStringConvertible {
    var zone: TimeZone
    var year: Int, month: Int, day: Int
    /// How long the day is, in hours.
    var hours: Int
    var testDescription: String { "\(zone.identifier) \(year)-\(month)-\(day)" }

    static let all = [
        // Clocks go forward at 02:00 on 28 March 2027 in Berlin: 09:00 is 07:00 UTC, not 08:00.
        ReminderDay(zone: TimeZone(identifier: "Europe/Berlin")!, year: 2027, month: 3, day: 28, hours: 23),
        // Clocks go back at 03:00 on 4 April 2027 in Sydney: 09:00 is 23:00 UTC the day before, not 22:00.
        ReminderDay(zone: TimeZone(identifier: "Australia/Sydney")!, year: 2027, month: 4, day: 4, hours: 25),
    ]

    func at(_ hour: Int, _ minute: Int = 0) -> Date { wallTime(year, month, day, hour, minute, in: zone) }
}

/// What is due, decided from the care store for Recover's reminders (the pain check at 09:00 and 19:00, quiet hours
/// from 21:00 to 08:00), on the days clocks change in Berlin and Sydney: due at the wall-clock time, never in quiet
/// hours, not once the event has an outcome, not when paused or off, and once per channel.
@Suite("Reminders due")
struct ReminderDueListTests {
    private struct Fixture {
        let clock: TestClock
        let data: SQLiteStudyDatabase
        let workflow: ParticipantWorkflow
        let participant: StudyParticipant
        let channel: ReminderChannel
        let list: ReminderDueList
    }

    /// A participant enrolled and onboarded at noon the day before `day`, with a confirmed address and Recover's
    /// pain reminders on.
    private func fixture(_ day: ReminderDay, reminders: Set<String> = ["painMorning", "painEvening"]) async throws -> Fixture {
        let clock = TestClock(day.at(12).addingTimeInterval(-86_400))
        let environment = StudyKitEnvironment(now: { clock.now }, makeUUID: { UUID() })
        let data = try SQLiteStudyDatabase.inMemory(environment: environment)
        let study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let workflow = ParticipantWorkflow(study: study, data: data, environment: environment, consentKey: .generate())
        let invitation = try await data.studyStore.createInvitation(label: nil, expiresAt: nil)
        let participant = try await workflow.enrol(invitationCode: invitation.code, timeZone: day.zone, language: "ja")
        _ = try await OnboardingGate(careStore: data.careStore, environment: environment).recordCompletion(participantID: participant.id,
                                                                                                            timeZone: day.zone)
        let channel = try await data.studyStore.addReminderChannel(ReminderChannel(id: UUID(), participantID: participant.id, kind: .email,
                                                                                   address: "p@example.org", createdAt: clock.now,
                                                                                   confirmedAt: clock.now))
        try await data.studyStore.setReminderPreferences(ReminderPreferences(enabledReminderIDs: reminders), participantID: participant.id)
        return Fixture(clock: clock, data: data, workflow: workflow, participant: participant, channel: channel,
                       list: ReminderDueList(study: study, data: data))
    }

    @Test(arguments: ReminderDay.all)
    func theMorningReminderIsDueAtNineOnTheWallClockOfAChangeDay(_ day: ReminderDay) async throws {
        let f = try await fixture(day)
        #expect(try await f.list.deliveries(at: day.at(8, 59)).isEmpty)
        let due = try await f.list.deliveries(at: day.at(9))
        #expect(due.map(\.due.reminderID) == ["painMorning"])
        let delivery = try #require(due.first)
        #expect(delivery.due.dueDate == day.at(9) && delivery.channel.id == f.channel.id && delivery.language == "ja")
        #expect(delivery.due.localDay == String(format: "%04d-%02d-%02d", day.year, day.month, day.day))
        // 09:00 on the wall clock is the instant of that day's offset, which is not the day before's.
        #expect(wallClock(delivery.due.dueDate, in: day.zone).hour == 9)
        #expect(day.zone.secondsFromGMT(for: day.at(9)) != day.zone.secondsFromGMT(for: day.at(9).addingTimeInterval(-86_400)))
        // The day is as long as the zone says.
        let nextMidnight = wallTime(day.year, day.month, day.day + 1, in: day.zone)
        #expect(nextMidnight.timeIntervalSince(wallTime(day.year, day.month, day.day, in: day.zone)) == Double(day.hours) * 3600)
    }

    @Test(arguments: ReminderDay.all)
    func aDeliverySettledOrHeldIsNotDueAgainAndAnotherChannelGetsItsOwn(_ day: ReminderDay) async throws {
        let f = try await fixture(day)
        let push = try await f.data.studyStore.addReminderChannel(ReminderChannel(id: UUID(), participantID: f.participant.id, kind: .push,
                                                                                  address: "https://push.example/abc", createdAt: f.clock.now,
                                                                                  confirmedAt: f.clock.now))
        // A calendar feed and an unconfirmed address get nothing sent.
        _ = try await f.data.studyStore.addReminderChannel(ReminderChannel(id: UUID(), participantID: f.participant.id, kind: .calendar,
                                                                           createdAt: f.clock.now, confirmedAt: f.clock.now))
        _ = try await f.data.studyStore.addReminderChannel(ReminderChannel(id: UUID(), participantID: f.participant.id, kind: .email,
                                                                           address: "unconfirmed@example.org", createdAt: f.clock.now))
        let due = try await f.list.deliveries(at: day.at(9, 1))
        #expect(Set(due.map(\.channel.id)) == [f.channel.id, push.id])
        let email = try #require(due.first { $0.channel.id == f.channel.id })
        let claim = try #require(try await f.data.studyStore.claimReminderDelivery(for: email.due, channel: email.channel, at: day.at(9, 1),
                                                                                   holdingFor: 120))
        #expect(try await f.list.deliveries(at: day.at(9, 2)).map(\.channel.id) == [push.id])
        #expect(try await f.data.studyStore.settleReminderDelivery(claim, as: .sent, detail: "250", nextAttemptAt: nil, at: day.at(9, 2)))
        #expect(try await f.list.deliveries(at: day.at(15)).map(\.channel.id) == [push.id])
    }

    @Test(arguments: ReminderDay.all)
    func theEveningReminderIsNotDueOnceThePainCheckIsAnswered(_ day: ReminderDay) async throws {
        let f = try await fixture(day)
        #expect(try await f.list.deliveries(at: day.at(19)).map(\.due.reminderID).sorted() == ["painEvening", "painMorning"])
        f.clock.set(day.at(18))
        let today = try await f.workflow.today(for: f.participant)
        let pain = try #require(today.cards.first { $0.taskID == "pain" }?.events.first)
        var query = CareQuery()
        query.ids = [StudyCareIdentifiers.taskID(participant: f.participant.id, task: "pain")]
        let events = try await f.data.careStore.events(taskQuery: query, window: DateInterval(start: day.at(18), duration: 1))
        let event = try #require(events.first { $0.scheduleEvent.occurrence == pain.occurrence })
        _ = try await f.data.careStore.addOutcomes([Outcome(taskUUID: event.task.version.uuid, occurrenceIndex: event.scheduleEvent.occurrence,
                                                            values: [OutcomeValue(.integer(2), kind: "pain", units: "NRS")], timeZone: day.zone)])
        #expect(try await f.list.deliveries(at: day.at(19)).isEmpty)
    }

    @Test(arguments: ReminderDay.all)
    func nothingIsDueInQuietHoursPausedOffOrAfterTheEventCloses(_ day: ReminderDay) async throws {
        let f = try await fixture(day, reminders: ["painEvening"])
        #expect(try await f.list.deliveries(at: day.at(9)).isEmpty)
        #expect(try await f.list.deliveries(at: day.at(19)).map(\.due.reminderID) == ["painEvening"])
        // 21:00 to 08:00 is quiet; the next day's 07:59 too, and the event closed at midnight.
        #expect(try await f.list.deliveries(at: day.at(21, 30)).isEmpty)
        #expect(try await f.list.deliveries(at: day.at(23, 59)).isEmpty)
        // The participant's own quiet hours from 18:00 hold the 19:00 reminder until they end, when the event is closed.
        try await f.data.studyStore.setReminderPreferences(ReminderPreferences(enabledReminderIDs: ["painEvening"],
                                                                               quietHours: QuietHours(from: 18 * 60, to: 19 * 60 + 30)),
                                                           participantID: f.participant.id)
        #expect(try await f.list.deliveries(at: day.at(19)).isEmpty)
        #expect(try await f.list.deliveries(at: day.at(19, 30)).map(\.due.dueDate) == [day.at(19)])
        try await f.data.studyStore.setReminderPreferences(ReminderPreferences(enabledReminderIDs: ["painEvening"], paused: true),
                                                           participantID: f.participant.id)
        #expect(try await f.list.deliveries(at: day.at(20)).isEmpty)
    }

    /// Recover's reminder of the daily page at 20:30 on the first day of tasks: the pain check (all day), the dose of
    /// 19:30 to 21:30 and the icing of 20:00 to 22:00 are open; the exercises of 19:00 closed at 19:30 and the mood check
    /// does not count towards adherence. Once all three have outcomes, nothing is due; a page's reminder held by quiet
    /// hours is not sent the next morning.
    @Test(arguments: ReminderDay.all)
    func theDailyPagesReminderNamesWhatIsStillOpenAndIsNotSentOnceAllIsDone(_ day: ReminderDay) async throws {
        let f = try await fixture(day, reminders: ["evening"])
        #expect(try await f.list.deliveries(at: day.at(20, 29)).isEmpty)
        let due = try await f.list.deliveries(at: day.at(20, 30))
        #expect(due.map(\.due.reminderID) == ["evening"])
        let page = try #require(due.first?.due)
        #expect(page.isForDailyPage && page.taskID.isEmpty && page.occurrence == 0)
        #expect(page.openTaskIDs == ["pain", "medication", "icing"])
        #expect(page.dueDate == day.at(20, 30) && wallClock(page.dueDate, in: day.zone).hour == 20)
        #expect(page.localDay == String(format: "%04d-%02d-%02d", day.year, day.month, day.day))
        #expect(page.eventStart == day.at(0) && page.eventEnd.timeIntervalSince(page.eventStart) == Double(day.hours) * 3600)
        // One a day: its key has no task and no occurrence.
        #expect(page.key == "\(f.participant.id)//0/evening/\(page.localDay)")

        // Everything open gets an outcome: nothing left to remind of.
        var query = CareQuery()
        query.ids = Set(["pain", "medication", "icing"].map { StudyCareIdentifiers.taskID(participant: f.participant.id, task: $0) })
        let open = try await f.data.careStore.events(taskQuery: query, window: DateInterval(start: day.at(20, 30), duration: 1))
        #expect(Set(open.compactMap(\.task.version.groupIdentifier)) == ["pain", "medication", "icing"])
        _ = try await f.data.careStore.addOutcomes(open.map {
            Outcome(taskUUID: $0.task.version.uuid, occurrenceIndex: $0.scheduleEvent.occurrence, values: [OutcomeValue(.integer(1), kind: "done")],
                    timeZone: day.zone)
        })
        #expect(try await f.list.deliveries(at: day.at(20, 31)).isEmpty)

        // Held by the participant's quiet hours from 20:00, it is not sent when they end: that day is over.
        let g = try await fixture(day, reminders: ["evening"])
        try await g.data.studyStore.setReminderPreferences(ReminderPreferences(enabledReminderIDs: ["evening"], quietHours: QuietHours(from: 20 * 60, to: 8 * 60)),
                                                           participantID: g.participant.id)
        #expect(try await g.list.deliveries(at: day.at(20, 30)).isEmpty)
        #expect(try await g.list.deliveries(at: wallTime(day.year, day.month, day.day + 1, 8, 1, in: day.zone)).isEmpty)
    }

    @Test func dueDatesOfATimeOfDayFollowTheWallClockAcrossAChange() {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        // An event of three days across the spring change: 09:00 each day, whatever the offset.
        let start = wallTime(2027, 3, 27, in: berlin), end = wallTime(2027, 3, 30, in: berlin)
        let dates = ReminderPlanner.dueDates(of: .timeOfDay(minutes: 9 * 60), eventStart: start, eventEnd: end, timeZone: berlin)
        #expect(dates == [wallTime(2027, 3, 27, 9, in: berlin), wallTime(2027, 3, 28, 9, in: berlin), wallTime(2027, 3, 29, 9, in: berlin)])
        #expect(dates.map { Int($0.timeIntervalSince1970) % 86_400 / 3600 } == [8, 7, 7])
        // 02:30 does not exist on the change day: the first time after the gap.
        let gap = ReminderPlanner.dueDates(of: .timeOfDay(minutes: 2 * 60 + 30), eventStart: start, eventEnd: end, timeZone: berlin)
        #expect(wallClock(gap[1], in: berlin).hour == 3)
        #expect(ReminderPlanner.dueDates(of: .afterStart(seconds: 3600), eventStart: start, eventEnd: end, timeZone: berlin) == [start.addingTimeInterval(3600)])
        #expect(ReminderPlanner.dueDates(of: .beforeEnd(seconds: 7200), eventStart: start, eventEnd: end, timeZone: berlin) == [end.addingTimeInterval(-7200)])
    }
}
