import Foundation
import StudyKitEnvironment
import Testing
@testable import CareStore

/// Window queries and occurrence indices against a brute-force enumeration from the start.
@Suite("Schedule occurrences against brute force")
struct ScheduleOccurrenceTests {
    typealias S = ScheduleTestSupport

    /// Compares random windows (and instants) between `from` and `limit` with the brute-force list.
    private func compareWindows(_ schedule: Schedule, from: Date, limit: Date, windows: Int, maximumLength: Double, seed: UInt64) {
        let reference = S.bruteForceEvents(schedule, before: limit)
        var random = SeededRandomNumberGenerator(seed: seed)
        let span = limit.timeIntervalSince(from) - maximumLength
        for round in 0..<windows {
            let start = from.addingTimeInterval((Double.random(in: 0..<span, using: &random) / 60).rounded() * 60)
            let length = round % 10 == 0 ? 0 : (Double.random(in: 0...maximumLength, using: &random) / 60).rounded() * 60
            let window = DateInterval(start: start, duration: length)
            let expected = length == 0 ? reference.filter { $0.start <= start && $0.end > start } : S.overlapping(reference, window)
            let actual = schedule.events(overlapping: window)
            #expect(actual == expected, "window \(S.text(window.start, schedule.timeZone)) + \(length / 3600) h")
            if actual != expected { return }
        }
        for _ in 0..<60 {
            let index = Int.random(in: 0..<reference.count, using: &random)
            #expect(schedule.event(occurrence: index) == reference[index], "occurrence \(index)")
        }
        #expect(schedule.event(occurrence: reference.count - 1) == reference.last)
    }

    @Test func twentyYearDailySchedule() {
        let schedule = Schedule.dailyAt(hour: 8, start: S.date("2006-01-01T00:00:00+01:00"), text: "exercise", timeZone: S.berlin)
        compareWindows(schedule, from: S.date("2006-01-01T00:00:00+01:00"), limit: S.date("2026-06-01T00:00:00+02:00"),
                       windows: 300, maximumLength: 86_400 * 10, seed: 1)
        // The day of the 20th anniversary is occurrence 7305 (20 years of days, five of them leap years).
        let day = schedule.events(from: S.date("2026-01-01T00:00:00+01:00"), to: S.date("2026-01-02T00:00:00+01:00"))
        #expect(day.map(\.occurrence) == [7305])
    }

    @Test func compositeScheduleOfEveryKindOfElement() throws {
        let start = S.date("2024-01-01T08:00:00-05:00")
        let schedule = Schedule(elements: [
            ScheduleElement(start: start, interval: DateComponents(day: 1)),
            ScheduleElement(start: start, interval: DateComponents(day: 2), duration: .minutes(30)),
            ScheduleElement(start: S.date("2025-06-01T00:00:00-04:00"), end: S.date("2025-06-10T00:00:00-04:00"),
                            interval: DateComponents(hour: 1), duration: .hours(2)),
            ScheduleElement(start: S.date("2024-01-31T09:00:00-05:00"), interval: DateComponents(month: 1)),
            ScheduleElement(start: S.date("2024-01-04T10:00:00-05:00"), recurrenceRule: try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,TH"),
                            duration: .allDay),
            ScheduleElement(start: S.date("2024-01-01T08:00:00-05:00"), recurrenceRule: try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=1MO,-1FR")),
            ScheduleElement(start: S.date("2024-03-01T12:00:00-05:00"), recurrenceRule: try RecurrenceRule(parsing: "FREQ=DAILY;BYHOUR=12;COUNT=50")),
            ScheduleElement(start: S.date("2024-03-10T02:30:00-05:00"), duration: .seconds(90)),
            ScheduleElement(start: S.date("2024-02-03T01:00:00-05:00"), recurrenceRule: try RecurrenceRule(parsing: "FREQ=HOURLY;INTERVAL=5;BYDAY=SA")),
            ScheduleElement(start: S.date("2024-01-01T08:00:00-05:00"), interval: DateComponents(hour: 1, weekOfYear: 1), duration: .allDay),
        ], timeZone: S.newYork)
        #expect(schedule.problems.isEmpty)
        compareWindows(schedule, from: S.date("2023-12-25T00:00:00-05:00"), limit: S.date("2026-01-01T00:00:00-05:00"),
                       windows: 400, maximumLength: 86_400 * 4, seed: 2)
    }

    /// Occurrence indices come from URLs: the largest ones find no event instead of overflowing.
    @Test func hugeOccurrenceIndicesFindNothing() throws {
        let start = S.date("2026-01-01T08:00:00+09:00")
        let daily = Schedule.dailyAt(hour: 8, start: start, text: nil, timeZone: S.tokyo)
        let composite = Schedule(elements: [
            ScheduleElement(start: start, interval: DateComponents(day: 1)),
            ScheduleElement(start: start, interval: DateComponents(weekOfYear: 1)),
            ScheduleElement(start: start.addingTimeInterval(86_400 * 14)),
            ScheduleElement(start: start, recurrenceRule: try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO")),
        ], timeZone: S.tokyo)
        let onceOnly = Schedule(elements: [ScheduleElement(start: start), ScheduleElement(start: start.addingTimeInterval(3_600))],
                                timeZone: S.tokyo)
        for schedule in [daily, composite, onceOnly] {
            for occurrence in [Int.max, Int.max - 1, Int(Int32.max), 1 << 53] {
                #expect(schedule.event(occurrence: occurrence) == nil, "\(occurrence)")
            }
            #expect(schedule.events(occurrences: [Int.max, 0]).keys.sorted() == [0])
        }
        #expect(onceOnly.event(occurrence: 2) == nil && onceOnly.event(occurrence: 1) != nil)
    }

    @Test func identicalElementsTieByElementIndex() {
        let start = S.date("2026-01-01T08:00:00+09:00")
        let schedule = Schedule(elements: (0..<3).map { _ in ScheduleElement(start: start, interval: DateComponents(day: 1)) }, timeZone: S.tokyo)
        let events = schedule.events(from: S.date("2026-01-11T00:00:00+09:00"), to: S.date("2026-01-12T00:00:00+09:00"))
        #expect(events.map(\.occurrence) == [30, 31, 32])
        #expect(events.map(\.elementIndex) == [0, 1, 2])
        #expect(schedule.event(occurrence: 31)?.elementIndex == 1)
        compareWindows(schedule, from: start, limit: S.date("2027-01-01T00:00:00+09:00"), windows: 100, maximumLength: 86_400 * 3, seed: 3)
    }

    @Test func longRunningEventsThatStartedBeforeTheWindowKeepTheirIndices() {
        // Weekly three-day events next to a daily one: a window in the middle of a three-day event.
        let start = S.date("2026-01-05T09:00:00+01:00")
        let schedule = Schedule(elements: [
            ScheduleElement(start: start, interval: DateComponents(weekOfYear: 1), duration: .hours(72)),
            ScheduleElement(start: start.addingTimeInterval(3600), interval: DateComponents(day: 1), duration: .minutes(5)),
        ], timeZone: S.berlin)
        let events = schedule.events(from: S.date("2026-01-14T12:00:00+01:00"), to: S.date("2026-01-14T12:00:01+01:00"))
        #expect(events.map(\.occurrence) == [8]) // Jan 12 09:00: after Jan 5 (weekly) and Jan 5…11 10:00 (daily)
        compareWindows(schedule, from: start, limit: S.date("2027-01-01T00:00:00+01:00"), windows: 200, maximumLength: 86_400 * 2, seed: 4)
    }
}

@Suite("Schedule events by occurrence, in a batch")
struct ScheduleBatchOccurrenceTests {
    @Test func matchOneByOneLookups() throws {
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let start = Date(timeIntervalSince1970: 1_774_587_600) // 2026-03-27T06:00:00+01:00
        let composite = Schedule(elements: [
            ScheduleElement(start: start, interval: DateComponents(day: 1)),
            ScheduleElement(start: start.addingTimeInterval(3_600), interval: DateComponents(weekOfYear: 1)),
        ], timeZone: zone)
        for schedule in [Schedule.dailyAt(hour: 8, start: start, timeZone: zone), composite] {
            let wanted = [0, 1, 5, 40, 400, 3, 5]
            let batch = schedule.events(occurrences: wanted)
            #expect(batch.count == Set(wanted).count)
            for occurrence in wanted { #expect(batch[occurrence] == schedule.event(occurrence: occurrence)) }
            #expect(schedule.events(occurrences: [-1]).isEmpty)
        }
    }
}
