import Foundation
import Testing
@testable import CareStore

@Suite("Schedule events")
struct ScheduleEventTests {
    typealias S = ScheduleTestSupport

    @Test func hourlyTwoHourEventsThatStartedBeforeTheWindowAreIncluded() {
        let element = ScheduleElement(start: S.date("2026-05-01T00:00:00+02:00"), interval: DateComponents(hour: 1), duration: .hours(2))
        let schedule = Schedule(element, timeZone: S.berlin)
        let events = schedule.events(from: S.date("2026-05-01T10:30:00+02:00"), to: S.date("2026-05-01T12:30:00+02:00"))
        // 09:00 (runs to 11:00) and 10:00 started before the window; 11:00 and 12:00 start inside it.
        #expect(events.map { S.text($0.start, S.berlin) } == [
            "2026-05-01T09:00:00+02:00", "2026-05-01T10:00:00+02:00", "2026-05-01T11:00:00+02:00", "2026-05-01T12:00:00+02:00",
        ])
        #expect(events.map(\.occurrence) == [9, 10, 11, 12])
        #expect(events.map { S.text($0.end, S.berlin) }.first == "2026-05-01T11:00:00+02:00")
        // An event that ends exactly when the window starts is not listed (ends are exclusive), nor one that starts at its end.
        let edges = schedule.events(from: S.date("2026-05-01T11:00:00+02:00"), to: S.date("2026-05-01T12:00:00+02:00"))
        #expect(edges.map(\.occurrence) == [10, 11])
    }

    @Test func monthlyOnThe31stDoesNotDrift() {
        let element = ScheduleElement(start: S.date("2026-01-31T09:00:00+01:00"), interval: DateComponents(month: 1))
        let schedule = Schedule(element, timeZone: S.berlin)
        let events = schedule.events(from: S.date("2026-01-01T00:00:00+01:00"), to: S.date("2026-08-01T00:00:00+02:00"))
        #expect(events.map { S.text($0.start, S.berlin) } == [
            "2026-01-31T09:00:00+01:00", "2026-02-28T09:00:00+01:00", "2026-03-31T09:00:00+02:00", "2026-04-30T09:00:00+02:00",
            "2026-05-31T09:00:00+02:00", "2026-06-30T09:00:00+02:00", "2026-07-31T09:00:00+02:00",
        ])
        #expect(events.map(\.occurrence) == Array(0...6))
        // Far in the future, still the last day of the month: 2028-02-29 is occurrence 25.
        #expect(schedule.event(occurrence: 25).map { S.text($0.start, S.berlin) } == "2028-02-29T09:00:00+01:00")
        #expect(schedule.events(from: S.date("2028-02-01T00:00:00+01:00"), to: S.date("2028-03-01T00:00:00+01:00")).map(\.occurrence) == [25])
    }

    @Test func weeklyOnSeveralWeekdays() {
        let schedule = Schedule.weeklyAt(weekdays: [.friday, .monday, .wednesday], hour: 18, minute: 30,
                                         start: S.date("2026-03-03T12:00:00+01:00"), timeZone: S.berlin) // a Tuesday
        #expect(schedule.elements.count == 3)
        let events = schedule.events(from: S.date("2026-03-03T00:00:00+01:00"), to: S.date("2026-03-17T00:00:00+01:00"))
        #expect(events.map { S.text($0.start, S.berlin) } == [
            "2026-03-04T18:30:00+01:00", "2026-03-06T18:30:00+01:00", "2026-03-09T18:30:00+01:00",
            "2026-03-11T18:30:00+01:00", "2026-03-13T18:30:00+01:00", "2026-03-16T18:30:00+01:00",
        ])
        #expect(events.map(\.occurrence) == Array(0...5))
        #expect(events.map(\.elementIndex) == [0, 1, 2, 0, 1, 2])
        // Across the change to summer time, still 18:30.
        let later = schedule.events(from: S.date("2026-03-30T00:00:00+02:00"), to: S.date("2026-04-02T00:00:00+02:00"))
        #expect(later.map { S.text($0.start, S.berlin) } == ["2026-03-30T18:30:00+02:00", "2026-04-01T18:30:00+02:00"])
        #expect(later.map(\.occurrence) == [11, 12])
    }

    @Test func compositeOccurrencesInterleaveAndTiesGoByElementIndex() {
        let start = S.date("2026-06-01T08:00:00+02:00")
        let schedule = Schedule(elements: [
            ScheduleElement(start: start, interval: DateComponents(day: 2), text: "every other day"),
            ScheduleElement(start: start, interval: DateComponents(day: 1), text: "daily"),
            ScheduleElement(start: start.addingTimeInterval(3600 * 4), interval: DateComponents(day: 3), duration: .minutes(30)),
        ], timeZone: S.berlin)
        let all = schedule.events(from: start, to: start.addingTimeInterval(86_400 * 6))
        let listed = all.map { "\($0.occurrence):\($0.elementIndex)@\(S.text($0.start, S.berlin).prefix(13))" }
        #expect(listed == [
            "0:0@2026-06-01T08", "1:1@2026-06-01T08", "2:2@2026-06-01T12",
            "3:1@2026-06-02T08",
            "4:0@2026-06-03T08", "5:1@2026-06-03T08",
            "6:1@2026-06-04T08", "7:2@2026-06-04T12",
            "8:0@2026-06-05T08", "9:1@2026-06-05T08",
            "10:1@2026-06-06T08",
        ])
        // Every occurrence found by index is the same event.
        for event in all { #expect(schedule.event(occurrence: event.occurrence) == event) }
        // A window in the middle gives the same indices.
        let middle = schedule.events(from: S.date("2026-06-03T09:00:00+02:00"), to: S.date("2026-06-05T08:00:01+02:00"))
        #expect(middle.map(\.occurrence) == [6, 7, 8, 9])
        #expect(middle.first?.text == "daily")
        // Composing keeps order and zone.
        let composed = Schedule(composing: [Schedule(schedule.elements[0], timeZone: S.berlin), Schedule(schedule.elements[1], timeZone: S.berlin),
                                            Schedule(schedule.elements[2], timeZone: S.tokyo)])
        #expect(composed == schedule)
    }

    @Test func eventByOccurrence() {
        let schedule = Schedule.dailyAt(hour: 8, start: S.date("2026-03-01T00:00:00+01:00"), end: S.date("2026-03-11T00:00:00+01:00"),
                                        text: "pill", targetValues: [OutcomeValue(.integer(1), kind: "pills")], timeZone: S.berlin)
        let fourth = schedule.event(occurrence: 3)
        #expect(fourth == ScheduleEvent(occurrence: 3, start: S.date("2026-03-04T08:00:00+01:00"), end: S.date("2026-03-04T09:00:00+01:00"),
                                        elementIndex: 0, text: "pill", targetValues: [OutcomeValue(.integer(1), kind: "pills")]))
        #expect(schedule.event(occurrence: 9)?.start == S.date("2026-03-10T08:00:00+01:00"))
        #expect(schedule.event(occurrence: 10) == nil) // the end (March 11, 00:00) is exclusive
        #expect(schedule.event(occurrence: -1) == nil)
        #expect(Schedule.once(at: S.date("2026-03-01T10:00:00+01:00"), timeZone: S.berlin).event(occurrence: 1) == nil)
        #expect(Schedule(elements: [], timeZone: S.berlin).event(occurrence: 0) == nil)

        let composite = Schedule(composing: [schedule, Schedule.once(at: S.date("2026-03-05T07:00:00+01:00"), timeZone: S.berlin)])
        #expect(composite.event(occurrence: 4)?.elementIndex == 1)
        #expect(composite.event(occurrence: 5)?.start == S.date("2026-03-05T08:00:00+01:00"))
        #expect(composite.event(occurrence: 10)?.start == S.date("2026-03-10T08:00:00+01:00"))
        #expect(composite.event(occurrence: 11) == nil)
        // An infinite element next to a finite one: far indices still exist.
        let open = Schedule(composing: [Schedule.dailyAt(hour: 8, start: S.date("2026-03-01T00:00:00+01:00"), timeZone: S.berlin),
                                        Schedule.once(at: S.date("2026-03-05T07:00:00+01:00"), timeZone: S.berlin)])
        let expected = S.calendar(S.berlin).date(byAdding: .day, value: 9_999, to: S.date("2026-03-01T08:00:00+01:00"))!
        #expect(open.event(occurrence: 10_000)?.start == expected)
        #expect(open.event(occurrence: 4)?.elementIndex == 1)
    }

    @Test func onceAndEnds() {
        let once = Schedule.once(at: S.date("2026-03-01T10:00:00+01:00"), duration: .minutes(15), timeZone: S.berlin)
        #expect(once.events(from: S.date("2026-03-01T00:00:00+01:00"), to: S.date("2026-03-02T00:00:00+01:00")).map(\.end)
                == [S.date("2026-03-01T10:15:00+01:00")])
        #expect(once.events(from: S.date("2026-03-01T10:15:00+01:00"), to: S.date("2026-03-02T00:00:00+01:00")).isEmpty)
        // The end bounds starts, not running events: the last event may run past it.
        let bounded = Schedule(ScheduleElement(start: S.date("2026-03-01T23:30:00+01:00"), end: S.date("2026-03-03T00:00:00+01:00"),
                                               interval: DateComponents(day: 1)), timeZone: S.berlin)
        let events = bounded.events(from: S.date("2026-03-01T00:00:00+01:00"), to: S.date("2026-03-10T00:00:00+01:00"))
        #expect(events.map(\.occurrence) == [0, 1])
        #expect(events.last?.end == S.date("2026-03-03T00:30:00+01:00"))
    }
}
