import Foundation

/// A day of the Gregorian calendar, without a time or a zone: what an all-day event starts on (`VALUE=DATE`,
/// written `YYYYMMDD`).
///
/// ```swift
/// let day = ICalendarDay(year: 2027, month: 4, day: 1)            // 20270401
/// let today = ICalendarDay(containing: now, in: participantZone)  // the participant's date now
/// ```
public struct ICalendarDay: Hashable, Comparable, Sendable {
    /// The year (2027).
    public let year: Int
    /// The month, 1 to 12.
    public let month: Int
    /// The day of the month, 1 to 31.
    public let day: Int

    /// The day `year`-`month`-`day`. Values out of range roll over as `DateComponents` do: 2027-02-30 is 2027-03-02.
    public init(year: Int, month: Int, day: Int) {
        let calendar = DateTimeText.gregorian(in: DateTimeText.utc)
        let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)) ?? Date(timeIntervalSince1970: 0)
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        self.year = parts.year ?? year
        self.month = parts.month ?? month
        self.day = parts.day ?? day
    }

    /// The day on which `date` falls in `timeZone`.
    public init(containing date: Date, in timeZone: TimeZone) {
        let parts = DateTimeText.gregorian(in: timeZone).dateComponents([.year, .month, .day], from: date)
        self.init(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    /// The day `count` days later (earlier, for a negative `count`).
    public func adding(days count: Int) -> ICalendarDay {
        ICalendarDay(year: year, month: month, day: day + count)
    }

    /// The instant this day shows `hour`:`minute`:`second` in `timeZone` (for a wall time a daylight-saving change skips,
    /// the instant Foundation's Gregorian calendar gives: the wall time just after the gap).
    public func date(hour: Int = 0, minute: Int = 0, second: Int = 0, in timeZone: TimeZone) -> Date {
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return DateTimeText.gregorian(in: timeZone).date(from: components) ?? Date(timeIntervalSince1970: 0)
    }

    /// The day as RFC 5545 writes a `DATE`: `20270401`.
    public func serialized() -> String {
        DateTimeText.padded(year, to: 4) + DateTimeText.padded(month, to: 2) + DateTimeText.padded(day, to: 2)
    }

    /// Whether `left` comes before `right`.
    public static func < (left: ICalendarDay, right: ICalendarDay) -> Bool {
        (left.year, left.month, left.day) < (right.year, right.month, right.day)
    }
}
