import Foundation

/// Dates, date-times and UTC offsets as RFC 5545 writes them (§3.3.4, §3.3.5, §3.3.14), always through a Gregorian
/// calendar in a zone given explicitly: never the process's zone or locale.
enum DateTimeText {
    /// Coordinated Universal Time.
    static let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0)!

    /// A Gregorian calendar in `timeZone`, with the POSIX locale (which the numbers written do not depend on, but so
    /// that nothing of the process's locale is read).
    static func gregorian(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = Locale(identifier: "en_US_POSIX")
        calendar.timeZone = timeZone
        return calendar
    }

    /// `value` in decimal with leading zeros to `width` digits (a minus sign first when negative).
    static func padded(_ value: Int, to width: Int) -> String {
        let digits = String(value.magnitude)
        let zeros = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + zeros + digits
    }

    /// The wall time `date` shows in `timeZone`, `YYYYMMDDTHHMMSS` (a local `DATE-TIME`, to go with a `TZID`).
    /// Fractions of a second are dropped.
    static func local(_ date: Date, in timeZone: TimeZone) -> String {
        let parts = gregorian(in: timeZone).dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return padded(parts.year ?? 0, to: 4) + padded(parts.month ?? 0, to: 2) + padded(parts.day ?? 0, to: 2) + "T"
            + padded(parts.hour ?? 0, to: 2) + padded(parts.minute ?? 0, to: 2) + padded(parts.second ?? 0, to: 2)
    }

    /// `date` in UTC, `YYYYMMDDTHHMMSSZ`.
    static func utc(_ date: Date) -> String {
        local(date, in: utc) + "Z"
    }

    /// An offset from UTC, `+HHMM` (`+HHMMSS` when it has seconds); zero is `+0000`, as the RFC forbids `-0000`.
    static func utcOffset(_ seconds: Int) -> String {
        let magnitude = seconds.magnitude
        let hours = Int(magnitude / 3600), minutes = Int(magnitude % 3600 / 60), remainder = Int(magnitude % 60)
        var text = (seconds < 0 ? "-" : "+") + padded(hours, to: 2) + padded(minutes, to: 2)
        if remainder != 0 { text += padded(remainder, to: 2) }
        return text
    }
}
