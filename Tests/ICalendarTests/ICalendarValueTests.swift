import Foundation
import ICalendar
import Testing

/// The values inside the lines: durations as RFC 5545's grammar has them, days, date-times in a zone's wall time or
/// UTC whatever the process's zone, and `DTEND`, `EXDATE` and `UNTIL` written in the form of the event's start.
@Suite("Values")
struct ICalendarValueTests {
    private static let stamp = TestTimes.date(2027, 3, 1, 12)

    @Test(arguments: [
        (ICalendarDuration.zero, "PT0S"),
        (.days(1), "P1D"),
        (.days(7), "P7D"),
        (ICalendarDuration(hours: 1, minutes: 30), "PT1H30M"),
        (-ICalendarDuration.minutes(15), "-PT15M"),
        (.hours(9), "PT9H"),
        (ICalendarDuration(days: 1, hours: 2), "P1DT2H"),
        (ICalendarDuration(hours: 1, seconds: 5), "PT1H0M5S"),
        (.seconds(90), "PT1M30S"),
        (-ICalendarDuration(days: 2, minutes: 5), "-P2DT5M"),
        (ICalendarDuration(days: 1, hours: -1), "PT23H"),
        (-ICalendarDuration.zero, "PT0S"),
    ])
    func durationsFollowTheRFCGrammar(_ duration: ICalendarDuration, _ text: String) {
        #expect(duration.serialized() == text)
    }

    @Test func daysRollOverAndCountOn() {
        #expect(ICalendarDay(year: 2027, month: 2, day: 30) == ICalendarDay(year: 2027, month: 3, day: 2))
        #expect(ICalendarDay(year: 2027, month: 12, day: 31).adding(days: 1).serialized() == "20280101")
        #expect(ICalendarDay(year: 2028, month: 3, day: 1).adding(days: -1).serialized() == "20280229")
        // 23:30 UTC on 31 March is already 1 April in Berlin and Tokyo, still 31 March in New York.
        let lateEvening = TestTimes.date(2027, 3, 31, 23, 30)
        #expect(ICalendarDay(containing: lateEvening, in: TestTimes.berlin) == ICalendarDay(year: 2027, month: 4, day: 1))
        #expect(ICalendarDay(containing: lateEvening, in: TestTimes.newYork) == ICalendarDay(year: 2027, month: 3, day: 31))
    }

    private func eventLines(_ event: ICalendarEvent) -> [String] {
        let text = ICalendar(productIdentifier: "-//StudyKit//Tests//EN", timeZoneCoverage: DateInterval(start: Self.stamp, duration: 86_400 * 60), events: [event])
            .serialized()
        let lines = text.components(separatedBy: "\r\n")
        let begin = lines.firstIndex(of: "BEGIN:VEVENT") ?? 0
        return Array(lines[begin...])
    }

    @Test func aZonedStartWritesItsEndExclusionsInItsZoneAndItsUntilInUTC() {
        let berlin = TestTimes.berlin
        let start = TestTimes.date(2027, 3, 27, 9, in: berlin)
        let event = ICalendarEvent(
            uid: "u", timestamp: Self.stamp, start: .zoned(start, in: berlin),
            end: .time(.utc(TestTimes.date(2027, 3, 27, 8, 30))), summary: "S",
            recurrence: ICalendarRecurrence(frequency: .daily, end: .until(.allDay(ICalendarDay(year: 2027, month: 4, day: 2)))),
            excludedStarts: [
                .utc(TestTimes.date(2027, 3, 28, 7)), .zoned(TestTimes.date(2027, 3, 29, 3, in: TestTimes.newYork), in: TestTimes.newYork),
                .allDay(ICalendarDay(year: 2027, month: 3, day: 30)), .utc(TestTimes.date(2027, 3, 28, 7)),
            ]
        )
        let lines = eventLines(event)
        #expect(lines.contains("DTSTART;TZID=Europe/Berlin:20270327T090000"))
        #expect(lines.contains("DTEND;TZID=Europe/Berlin:20270327T093000"))
        // The last day at 09:00 in Berlin (summer time, +02:00) is 07:00 UTC.
        #expect(lines.contains("RRULE:FREQ=DAILY;UNTIL=20270402T070000Z"))
        // After the change 07:00 UTC is 09:00, and 03:00 in New York (-04:00) is 09:00 in Berlin; the repeated one once.
        #expect(lines.filter { $0.hasPrefix("EXDATE") } == [
            "EXDATE;TZID=Europe/Berlin:20270328T090000", "EXDATE;TZID=Europe/Berlin:20270329T090000",
            "EXDATE;TZID=Europe/Berlin:20270330T090000",
        ])
    }

    @Test func anAllDayStartWritesDatesAndEndsTheNextDayUnlessToldOtherwise() {
        let day = ICalendarDay(year: 2027, month: 4, day: 1)
        let oneDay = eventLines(ICalendarEvent(uid: "u", timestamp: Self.stamp, start: .allDay(day), summary: "S"))
        #expect(oneDay.contains("DTSTART;VALUE=DATE:20270401") && oneDay.contains("DTEND;VALUE=DATE:20270402"))
        let threeDays = eventLines(ICalendarEvent(
            uid: "u", timestamp: Self.stamp, start: .allDay(day), end: .time(.allDay(day.adding(days: 3))), summary: "S",
            recurrence: ICalendarRecurrence(frequency: .weekly(on: []), end: .until(.zoned(TestTimes.date(2027, 5, 1, 1, in: TestTimes.tokyo), in: TestTimes.tokyo))),
            excludedStarts: [.zoned(TestTimes.date(2027, 4, 7, 23, 30, in: TestTimes.newYork), in: TestTimes.newYork)]
        ))
        #expect(threeDays.contains("DTEND;VALUE=DATE:20270404"))
        #expect(threeDays.contains("RRULE:FREQ=WEEKLY;UNTIL=20270501"))
        #expect(threeDays.contains("EXDATE;VALUE=DATE:20270407"))
        let byDuration = eventLines(ICalendarEvent(uid: "u", timestamp: Self.stamp, start: .allDay(day), end: .duration(.days(2)), summary: "S"))
        #expect(byDuration.contains("DURATION:P2D") && !byDuration.contains { $0.hasPrefix("DTEND") })
    }

    @Test func recurrencesWriteIntervalCountAndWeekdays() {
        let start = ICalendarTime.utc(TestTimes.date(2027, 4, 5, 9))
        func rule(_ recurrence: ICalendarRecurrence) -> String? {
            eventLines(ICalendarEvent(uid: "u", timestamp: Self.stamp, start: start, summary: "S", recurrence: recurrence))
                .first { $0.hasPrefix("RRULE:") }
        }
        #expect(rule(ICalendarRecurrence(frequency: .daily)) == "RRULE:FREQ=DAILY")
        #expect(rule(ICalendarRecurrence(frequency: .monthly, interval: 3, end: .count(4))) == "RRULE:FREQ=MONTHLY;INTERVAL=3;COUNT=4")
        #expect(rule(ICalendarRecurrence(frequency: .weekly(on: [.monday, .wednesday, .monday, .sunday]), end: .count(0)))
            == "RRULE:FREQ=WEEKLY;COUNT=1;BYDAY=MO,WE,SU")
        #expect(rule(ICalendarRecurrence(frequency: .weekly(on: []), interval: 0)) == "RRULE:FREQ=WEEKLY")
    }

    @Test func dateTimesDoNotDependOnTheProcessZone() {
        // The process's zone is whatever the machine has; the text comes from the zones given.
        let instant = TestTimes.date(2027, 6, 30, 22, 15)
        let lines = eventLines(ICalendarEvent(uid: "u", timestamp: instant, start: .zoned(instant, in: TestTimes.sydney), summary: "S",
                                              lastModified: instant.addingTimeInterval(0.75)))
        #expect(lines.contains("DTSTAMP:20270630T221500Z"))
        #expect(lines.contains("DTSTART;TZID=Australia/Sydney:20270701T081500"))
        #expect(lines.contains("LAST-MODIFIED:20270630T221500Z"))
    }

    @Test func aCalendarListsTheZonesItsEventsUseOnceEachAndCoversTheirInstants() {
        let coverage = DateInterval(start: TestTimes.date(2027, 4, 1), duration: 86_400 * 30)
        let event = { (uid: String, zone: TimeZone, date: Date) in
            ICalendarEvent(uid: uid, timestamp: Self.stamp, start: .zoned(date, in: zone), summary: uid)
        }
        let calendar = ICalendar(productIdentifier: "-//StudyKit//Tests//EN", timeZoneCoverage: coverage, events: [
            event("a", TestTimes.sydney, TestTimes.date(2027, 4, 2)),
            ICalendarEvent(uid: "b", timestamp: Self.stamp, start: .utc(TestTimes.date(2027, 4, 2)), summary: "b"),
            event("c", TestTimes.berlin, TestTimes.date(2027, 4, 3)),
            // Written after the coverage's end, so Berlin's VTIMEZONE must reach the autumn change.
            event("d", TestTimes.berlin, TestTimes.date(2027, 11, 2)),
            event("e", TestTimes.sydney, TestTimes.date(2027, 4, 4)),
        ])
        #expect(calendar.timeZones.map(\.identifier) == ["Australia/Sydney", "Europe/Berlin"])
        let berlin = calendar.timeZones[1]
        #expect(berlin.observances.map(\.localOnset) == ["20270328T020000", "20271031T030000"])
        #expect(calendar.serialized().components(separatedBy: "BEGIN:VTIMEZONE").count == 3)
    }
}
