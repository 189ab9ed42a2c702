import Foundation

/// How an event repeats: an RFC 5545 `RRULE` (§3.3.10) of the daily, weekly or monthly kind.
///
/// ```swift
/// ICalendarRecurrence(frequency: .daily, end: .count(56))               // RRULE:FREQ=DAILY;COUNT=56
/// ICalendarRecurrence(frequency: .weekly(on: [.monday, .thursday]), interval: 2,
///                     end: .until(.zoned(lastDay, in: zone)))            // RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=…Z;BYDAY=MO,TH
/// ```
///
/// Occurrences repeat the start's wall time in its zone (09:00 every day, whatever the offset), which is why a
/// participant's schedule is written with zoned starts.
public struct ICalendarRecurrence: Hashable, Sendable {
    /// A day of the week, as `BYDAY` names it.
    public enum Weekday: String, Hashable, Sendable, CaseIterable {
        /// `MO`.
        case monday = "MO"
        /// `TU`.
        case tuesday = "TU"
        /// `WE`.
        case wednesday = "WE"
        /// `TH`.
        case thursday = "TH"
        /// `FR`.
        case friday = "FR"
        /// `SA`.
        case saturday = "SA"
        /// `SU`.
        case sunday = "SU"
    }

    /// How often the event repeats (`FREQ`).
    public enum Frequency: Hashable, Sendable {
        /// Every day (`FREQ=DAILY`).
        case daily
        /// Every week, on `weekdays` (`FREQ=WEEKLY;BYDAY=MO,TH`); on the start's weekday when `weekdays` is empty.
        /// The start should fall on one of `weekdays`: RFC 5545 counts the start as the first occurrence even when it
        /// does not, and readers differ on it.
        case weekly(on: [Weekday])
        /// Every month, on the start's day of the month (`FREQ=MONTHLY`): months without that day are skipped.
        case monthly
    }

    /// When the repetition stops.
    public enum End: Hashable, Sendable {
        /// After `count` occurrences, the first included (`COUNT`).
        case count(Int)
        /// With the last occurrence that starts no later than this time (`UNTIL`). It is written in the form the
        /// RFC asks for the event's start: in UTC for a start with a time (a day given here means that day at the
        /// start's wall time), as a `DATE` for an all-day start (an instant given here means the day it falls on).
        case until(ICalendarTime)
    }

    /// How often the event repeats.
    public var frequency: Frequency
    /// Every how many days, weeks or months (`INTERVAL`); 1 is every one. Values below 1 are written as 1.
    public var interval: Int
    /// When the repetition stops; nil repeats forever.
    public var end: End?

    /// A repetition every `interval` days, weeks or months (by `frequency`) until `end`.
    public init(frequency: Frequency, interval: Int = 1, end: End? = nil) {
        self.frequency = frequency
        self.interval = interval
        self.end = end
    }

    /// The rule as the value of an `RRULE` for an event that starts at `start`: `FREQ=DAILY;COUNT=7`.
    func serialized(forStart start: ICalendarTime) -> String {
        var parts: [String]
        switch frequency {
        case .daily: parts = ["FREQ=DAILY"]
        case .weekly: parts = ["FREQ=WEEKLY"]
        case .monthly: parts = ["FREQ=MONTHLY"]
        }
        if interval > 1 { parts.append("INTERVAL=\(interval)") }
        switch end {
        case .count(let count):
            parts.append("COUNT=\(max(1, count))")
        case .until(let until):
            switch until.inForm(of: start) {
            case .zoned(let date, _), .utc(let date): parts.append("UNTIL=" + DateTimeText.utc(date))
            case .allDay(let day): parts.append("UNTIL=" + day.serialized())
            }
        case nil:
            break
        }
        if case .weekly(let weekdays) = frequency, !weekdays.isEmpty {
            var seen = Set<Weekday>()
            let distinct = weekdays.filter { seen.insert($0).inserted }
            parts.append("BYDAY=" + distinct.map(\.rawValue).joined(separator: ","))
        }
        return parts.joined(separator: ";")
    }
}
