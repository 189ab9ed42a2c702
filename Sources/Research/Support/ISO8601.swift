import Foundation

/// ISO 8601 parsing and printing used by every JSON format in StudyKit.
public enum ISO8601 {
    /// Parses a date and time with an offset or `Z`, with or without fractional seconds.
    public static func date(from text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }

    /// Prints a date and time with the offset of `timeZone`, e.g. `2026-03-29T08:00:00+02:00`,
    /// with milliseconds only when the instant has them.
    public static func string(from date: Date, in timeZone: TimeZone = .gmt) -> String {
        // To the nearest millisecond, the most the text keeps. The formatter truncates, and 29.167 read back is the double
        // 29.16699999…, so half a microsecond is added: what was read is written again as it was.
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let hasFraction = milliseconds.truncatingRemainder(dividingBy: 1000) != 0
        let date = Date(timeIntervalSince1970: milliseconds / 1000 + (hasFraction ? 0.000_000_5 : 0))
        var style = Date.ISO8601FormatStyle(includingFractionalSeconds: hasFraction, timeZone: timeZone)
        style = style.year().month().day().time(includingFractionalSeconds: hasFraction).timeZone(separator: .colon)
        let text = date.formatted(style)
        return text
    }

    /// Parses `YYYY-MM-DD` into its parts; nil when malformed (no range check on the day).
    public static func day(from text: String) -> (year: Int, month: Int, day: Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        return (year, month, day)
    }

    /// Prints the calendar day of `date` in `timeZone` as `YYYY-MM-DD`.
    public static func dayString(from date: Date, in timeZone: TimeZone, calendar identifier: Calendar.Identifier = .gregorian) -> String {
        var calendar = Calendar(identifier: identifier)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
