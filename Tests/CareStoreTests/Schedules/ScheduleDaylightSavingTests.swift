import Foundation
import Testing
@testable import CareStore

@Suite("Schedule across daylight saving")
struct ScheduleDaylightSavingTests {
    typealias S = ScheduleTestSupport

    /// Wall-clock time of each event in a zone, and its UTC instant.
    private func wallClock(_ events: [ScheduleEvent], _ zone: TimeZone) -> [String] { events.map { S.text($0.start, zone) } }
    private func utc(_ events: [ScheduleEvent]) -> [String] { events.map { S.text($0.start, .gmt) } }

    @Test func dailyAtEightStaysAtEightInBerlinInSpring() {
        let schedule = Schedule.dailyAt(hour: 8, start: S.date("2026-03-27T00:00:00+01:00"), timeZone: S.berlin)
        let events = schedule.events(from: S.date("2026-03-27T00:00:00+01:00"), to: S.date("2026-03-31T00:00:00+02:00"))
        #expect(wallClock(events, S.berlin) == [
            "2026-03-27T08:00:00+01:00", "2026-03-28T08:00:00+01:00", "2026-03-29T08:00:00+02:00", "2026-03-30T08:00:00+02:00",
        ])
        #expect(utc(events) == ["2026-03-27T07:00:00Z", "2026-03-28T07:00:00Z", "2026-03-29T06:00:00Z", "2026-03-30T06:00:00Z"])
        #expect(events.map(\.occurrence) == [0, 1, 2, 3])
        #expect(events.allSatisfy { $0.end.timeIntervalSince($0.start) == 3600 })
    }

    @Test func dailyAtEightStaysAtEightInBerlinInAutumn() {
        let schedule = Schedule.dailyAt(hour: 8, start: S.date("2026-03-01T00:00:00+01:00"), timeZone: S.berlin)
        let events = schedule.events(from: S.date("2026-10-24T00:00:00+02:00"), to: S.date("2026-10-27T00:00:00+01:00"))
        #expect(wallClock(events, S.berlin) == ["2026-10-24T08:00:00+02:00", "2026-10-25T08:00:00+01:00", "2026-10-26T08:00:00+01:00"])
        #expect(utc(events) == ["2026-10-24T06:00:00Z", "2026-10-25T07:00:00Z", "2026-10-26T07:00:00Z"])
        // March 1 is occurrence 0; October 24 is day 237 of the schedule.
        #expect(events.map(\.occurrence) == [237, 238, 239])
    }

    @Test func dailyAtEightStaysAtEightInNewYork() {
        let schedule = Schedule.dailyAt(hour: 8, start: S.date("2026-03-07T00:00:00-05:00"), timeZone: S.newYork)
        let spring = schedule.events(from: S.date("2026-03-07T00:00:00-05:00"), to: S.date("2026-03-10T00:00:00-04:00"))
        #expect(wallClock(spring, S.newYork) == ["2026-03-07T08:00:00-05:00", "2026-03-08T08:00:00-04:00", "2026-03-09T08:00:00-04:00"])
        #expect(utc(spring) == ["2026-03-07T13:00:00Z", "2026-03-08T12:00:00Z", "2026-03-09T12:00:00Z"])
        let autumn = schedule.events(from: S.date("2026-10-31T00:00:00-04:00"), to: S.date("2026-11-03T00:00:00-05:00"))
        #expect(wallClock(autumn, S.newYork) == ["2026-10-31T08:00:00-04:00", "2026-11-01T08:00:00-05:00", "2026-11-02T08:00:00-05:00"])
        #expect(utc(autumn) == ["2026-10-31T12:00:00Z", "2026-11-01T13:00:00Z", "2026-11-02T13:00:00Z"])
        #expect(autumn.map(\.occurrence) == [238, 239, 240])
    }

    @Test func allDayEventsLast23And25HoursOnChangeDays() {
        let element = ScheduleElement(start: S.date("2026-03-28T08:00:00+01:00"), interval: DateComponents(day: 1), duration: .allDay)
        let schedule = Schedule(element, timeZone: S.berlin)
        let spring = schedule.events(from: S.date("2026-03-28T12:00:00+01:00"), to: S.date("2026-03-30T12:00:00+02:00"))
        #expect(wallClock(spring, S.berlin) == ["2026-03-28T00:00:00+01:00", "2026-03-29T00:00:00+01:00", "2026-03-30T00:00:00+02:00"])
        #expect(spring.map { $0.end.timeIntervalSince($0.start) / 3600 } == [24, 23, 24])
        #expect(spring.map(\.occurrence) == [0, 1, 2])
        let autumn = schedule.events(from: S.date("2026-10-25T12:00:00+01:00"), to: S.date("2026-10-25T13:00:00+01:00"))
        #expect(autumn.count == 1)
        #expect(S.text(autumn[0].start, S.berlin) == "2026-10-25T00:00:00+02:00")
        #expect(S.text(autumn[0].end, S.berlin) == "2026-10-26T00:00:00+01:00")
        #expect(autumn[0].end.timeIntervalSince(autumn[0].start) == 25 * 3600)
        #expect(autumn[0].occurrence == 211)
    }

    @Test func allDayEventIsListedForAWindowInsideItsDay() {
        let schedule = Schedule(ScheduleElement(start: S.date("2026-03-29T10:00:00+02:00"), duration: .allDay), timeZone: S.berlin)
        let instant = S.date("2026-03-29T23:30:00+02:00")
        #expect(schedule.events(overlapping: DateInterval(start: instant, duration: 0)).count == 1)
        #expect(schedule.events(overlapping: DateInterval(start: S.date("2026-03-30T00:00:00+02:00"), duration: 60)).isEmpty)
    }

    @Test func hourlyEventsFollowRealTimeAcrossTheChange() {
        // Every hour is every 60 minutes: the wall clock jumps from 01:30 to 03:30.
        let element = ScheduleElement(start: S.date("2026-03-29T00:30:00+01:00"), interval: DateComponents(hour: 1), duration: .minutes(10))
        let events = Schedule(element, timeZone: S.berlin).events(from: S.date("2026-03-29T00:00:00+01:00"), to: S.date("2026-03-29T04:00:00+02:00"))
        #expect(wallClock(events, S.berlin) == ["2026-03-29T00:30:00+01:00", "2026-03-29T01:30:00+01:00", "2026-03-29T03:30:00+02:00"])
    }

    @Test func farFromUTCInKiritimatiAndTokyo() {
        // Kiritimati is UTC+14: its 08:00 is 18:00 UTC the day before.
        let kiritimati = Schedule.dailyAt(hour: 8, start: S.date("2026-06-01T00:00:00+14:00"), timeZone: S.kiritimati)
        let events = kiritimati.events(from: S.date("2026-06-02T00:00:00+14:00"), to: S.date("2026-06-03T00:00:00+14:00"))
        #expect(wallClock(events, S.kiritimati) == ["2026-06-02T08:00:00+14:00"])
        #expect(utc(events) == ["2026-06-01T18:00:00Z"])
        #expect(events.first?.occurrence == 1)
        // A UTC day holds the Kiritimati event of the next local day.
        let utcDay = kiritimati.events(from: S.date("2026-06-01T00:00:00Z"), to: S.date("2026-06-02T00:00:00Z"))
        #expect(wallClock(utcDay, S.kiritimati) == ["2026-06-02T08:00:00+14:00"])
        // An all-day event there starts at 10:00 UTC the day before.
        let allDay = Schedule(ScheduleElement(start: S.date("2026-06-02T08:00:00+14:00"), duration: .allDay), timeZone: S.kiritimati)
        #expect(allDay.event(occurrence: 0).map { S.text($0.start, .gmt) } == "2026-06-01T10:00:00Z")

        let tokyo = Schedule.weeklyAt(weekdays: [.monday], hour: 21, start: S.date("2026-01-01T00:00:00+09:00"), timeZone: S.tokyo)
        let mondays = tokyo.events(from: S.date("2026-01-01T00:00:00+09:00"), to: S.date("2026-01-20T00:00:00+09:00"))
        #expect(wallClock(mondays, S.tokyo) == ["2026-01-05T21:00:00+09:00", "2026-01-12T21:00:00+09:00", "2026-01-19T21:00:00+09:00"])
        #expect(utc(mondays) == ["2026-01-05T12:00:00Z", "2026-01-12T12:00:00Z", "2026-01-19T12:00:00Z"])
    }

    @Test func fixedOffsetZonesAndUTC() throws {
        let india = try #require(TimeZone(secondsFromGMT: 19_800)) // +05:30, never changes
        let schedule = Schedule.dailyAt(hour: 8, minute: 30, start: S.date("2026-03-28T00:00:00+05:30"), timeZone: india)
        let events = schedule.events(from: S.date("2026-03-29T00:00:00+05:30"), to: S.date("2026-03-30T00:00:00+05:30"))
        #expect(events.map { S.text($0.start, .gmt) } == ["2026-03-29T03:00:00Z"])
        #expect(events.first?.occurrence == 1)
        let utc = Schedule(ScheduleElement(start: S.date("2026-03-28T23:00:00Z"), interval: DateComponents(day: 1), duration: .allDay),
                           timeZone: try #require(TimeZone(identifier: "UTC")))
        #expect(utc.event(occurrence: 1).map { [S.text($0.start, .gmt), S.text($0.end, .gmt)] } == ["2026-03-29T00:00:00Z", "2026-03-30T00:00:00Z"])
        #expect(utc.events(from: S.date("2026-03-30T00:00:00Z"), to: S.date("2026-03-29T00:00:00Z")).isEmpty)
    }

    @Test func zoneClockAgreesWithCalendar() {
        // Every half hour through both change days, in three zones, including the skipped and repeated hours.
        for (zone, days) in [(S.berlin, ["2026-03-29", "2026-10-25"]), (S.newYork, ["2026-03-08", "2026-11-01"]),
                             (TimeZone(identifier: "Australia/Lord_Howe")!, ["2026-04-05", "2026-10-04"])] {
            let calendar = S.calendar(zone)
            let clock = ZoneClock(zone)
            for day in days {
                let parts = day.split(separator: "-").map { Int($0)! }
                let dayNumber = CivilDate.dayNumber(year: parts[0], month: parts[1], day: parts[2])
                for halfHour in 0..<48 {
                    let expected = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2],
                                                                      hour: halfHour / 2, minute: halfHour % 2 * 30))!
                    let actual = clock.instant(localSeconds: Double(dayNumber) * 86_400 + Double(halfHour) * 1800)
                    #expect(actual == expected, "\(zone.identifier) \(day) \(halfHour / 2):\(halfHour % 2 * 30)")
                }
                #expect(clock.startOfDay(dayNumber) == calendar.startOfDay(for: calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))!))
            }
        }
    }

    @Test func civilDatesMatchCalendar() {
        let calendar = S.calendar(.gmt)
        for day in stride(from: -200_000, through: 200_000, by: 997) {
            let date = Date(timeIntervalSince1970: Double(day) * 86_400)
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
            guard parts.year! > 1582 else { continue } // Calendar switches to the Julian calendar before 1582
            let civil = CivilDate.components(ofDay: day)
            #expect(civil.year == parts.year && civil.month == parts.month && civil.day == parts.day)
            #expect(CivilDate.weekday(ofDay: day) == parts.weekday)
            #expect(CivilDate.dayNumber(year: civil.year, month: civil.month, day: civil.day) == day)
        }
    }
}
