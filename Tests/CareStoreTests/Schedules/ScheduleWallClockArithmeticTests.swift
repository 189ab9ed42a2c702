import Foundation
import Testing
@testable import CareStore

/// Day, week, month and year intervals are computed on the wall clock without `Calendar`; these tests hold that
/// arithmetic to `Calendar.date(byAdding:to:)` (start + k × interval), event by event, where it is hardest: starts
/// inside and beside daylight-saving gaps and overlaps, on the 29th–31st, and in zones far from UTC.
@Suite("Schedule wall-clock arithmetic agrees with Calendar")
struct ScheduleWallClockArithmeticTests {
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Kiritimati", "Asia/Kolkata",
                        "America/Santiago", "Pacific/Apia", "UTC"]
    /// Starts at awkward wall-clock times: in New York's and Berlin's spring gaps, in autumn overlaps, on month ends.
    static let starts = ["2026-03-08T02:30:00-05:00", "2026-03-29T02:30:00+01:00", "2026-10-25T02:30:00+02:00",
                         "2026-11-01T01:30:00-04:00", "2024-01-31T08:00:00+01:00", "2024-02-29T23:15:30+01:00",
                         "2025-12-31T00:00:00+14:00", "2026-04-05T02:15:00+10:30"]
    static let intervals: [DateComponents] = [DateComponents(day: 1), DateComponents(day: 3), DateComponents(weekOfYear: 1),
                                              DateComponents(weekOfYear: 2), DateComponents(month: 1), DateComponents(month: 5),
                                              DateComponents(year: 1), DateComponents(year: 1, month: 1)]

    @Test(arguments: zones)
    func everyEventMatchesCalendar(zoneIdentifier: String) throws {
        let zone = try #require(TimeZone(identifier: zoneIdentifier))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        for startText in Self.starts {
            let start = ScheduleTestSupport.date(startText)
            for interval in Self.intervals {
                let schedule = Schedule(elements: [ScheduleElement(start: start, interval: interval)], timeZone: zone)
                let occurrences = Array(0..<400)
                let events = schedule.events(occurrences: occurrences)
                for k in occurrences {
                    var step = DateComponents()
                    for (_, component) in DateComponents.scheduleIntervalKeys {
                        if let value = interval.value(for: component) { step.setValue(value * k, for: component) }
                    }
                    let expected = try #require(calendar.date(byAdding: step, to: start))
                    #expect(events[k]?.start == expected, "\(zoneIdentifier) \(startText) every \(interval) event \(k)")
                }
            }
        }
    }
}
