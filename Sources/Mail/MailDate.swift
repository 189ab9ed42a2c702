import Foundation

/// The date of a message as RFC 5322 §3.3 writes it, in UTC: `Tue, 03 Mar 2026 09:05:00 +0000`. Computed from the
/// seconds since 1970, so that it depends on no locale, calendar setting or time zone of the machine.
enum MailDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `date` in the header's format, whole seconds (earlier fractions are dropped).
    static func string(from date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let day = secondOfDay < 0 ? days - 1 : days
        let second = secondOfDay < 0 ? secondOfDay + 86_400 : secondOfDay
        let (year, month, dayOfMonth) = civilDate(daysSince1970: day)
        let weekday = weekdays[((day % 7) + 7) % 7]   // 1970-01-01 was a Thursday.
        return "\(weekday), \(twoDigits(dayOfMonth)) \(months[month - 1]) \(year) "
            + "\(twoDigits(second / 3600)):\(twoDigits(second / 60 % 60)):\(twoDigits(second % 60)) +0000"
    }

    private static func twoDigits(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
