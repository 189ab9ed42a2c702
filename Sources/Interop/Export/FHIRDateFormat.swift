import Foundation
import Research

/// How the export writes FHIR dates and times: dateTimes with the offset of a time zone, instants in UTC, dates and
/// times of day on a zone's wall clock.
enum FHIRDateFormat {
    /// A FHIR dateTime with seconds and the offset `zone` has at that instant: `2026-03-29T08:00:00+02:00`
    /// (milliseconds only when the instant has them; `Z` in UTC).
    static func dateTime(_ date: Date, in zone: TimeZone) -> String {
        ISO8601.string(from: date, in: zone)
    }

    /// A FHIR instant: the moment in UTC, `2026-03-29T06:00:00Z`.
    static func instant(_ date: Date) -> String {
        ISO8601.string(from: date, in: .gmt)
    }

    /// The calendar day of `date` on `zone`'s wall clock, `2026-03-29`: a FHIR date (or a dateTime of day precision).
    static func date(_ date: Date, in zone: TimeZone) -> String {
        ISO8601.dayString(from: date, in: zone)
    }

    /// The wall-clock time of `date` in `zone` as a FHIR time, `08:00:00`.
    static func time(of date: Date, in zone: TimeZone) -> String {
        let parts = calendar(zone).dateComponents([.hour, .minute, .second], from: date)
        return time(hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0)
    }

    /// A FHIR time from its parts, `08:00:00`.
    static func time(hour: Int, minute: Int, second: Int) -> String {
        String(format: "%02d:%02d:%02d", hour, minute, second)
    }

    /// The weekday of `date` on `zone`'s wall clock as a FHIR days-of-week code (`mon` … `sun`).
    static func dayOfWeek(of date: Date, in zone: TimeZone) -> String {
        dayOfWeekCode(calendarWeekday: calendar(zone).component(.weekday, from: date))
    }

    /// The FHIR code of a `Calendar` weekday number (1 is Sunday).
    static func dayOfWeekCode(calendarWeekday: Int) -> String {
        ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][(calendarWeekday - 1) % 7]
    }

    /// The FHIR code of a weekday (`mon` … `sun`).
    static func dayOfWeekCode(_ weekday: Locale.Weekday) -> String {
        switch weekday {
        case .monday: "mon"
        case .tuesday: "tue"
        case .wednesday: "wed"
        case .thursday: "thu"
        case .friday: "fri"
        case .saturday: "sat"
        case .sunday: "sun"
        @unknown default: "mon"
        }
    }

    /// A gregorian calendar in `zone`.
    static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }
}
