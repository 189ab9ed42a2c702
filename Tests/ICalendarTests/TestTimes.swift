import Foundation

/// Instants for the tests, made with Foundation's Gregorian calendar in a zone named explicitly.
enum TestTimes {
    static let utc = TimeZone(identifier: "UTC")!
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let sydney = TimeZone(identifier: "Australia/Sydney")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    /// A Gregorian calendar in `zone`.
    static func calendar(in zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// The instant the wall clock in `zone` shows `year`-`month`-`day` `hour`:`minute`.
    static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, in zone: TimeZone = utc) -> Date {
        calendar(in: zone).date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    /// `date` as an ISO 8601 instant in UTC: `2027-03-28T07:00:00Z`.
    static func iso(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: utc))
    }
}
