import Foundation

/// A duration as RFC 5545 writes it (§3.3.6): `P1D`, `PT1H30M`, `-PT15M`.
///
/// It keeps calendar days apart from exact time, as the RFC does: a day (`P1D`) is "the same wall time the next day",
/// 23 or 25 hours across a daylight-saving change, while hours, minutes and seconds (`PT24H`) are exact.
///
/// ```swift
/// let reminder = -ICalendarDuration.minutes(15)          // -PT15M
/// let morning = ICalendarDuration(hours: 9)               // PT9H
/// let long = ICalendarDuration(days: 1, hours: 1, minutes: 30)  // P1DT1H30M
/// ```
public struct ICalendarDuration: Hashable, Sendable {
    /// Calendar days (nominal: the same wall time that many days later).
    public var days: Int
    /// Exact seconds, on top of ``days``.
    public var seconds: Int

    /// A duration of `days` calendar days plus `hours`, `minutes` and `seconds` of exact time. All may be negative; a
    /// negative duration is one before its anchor (an alarm's `-PT15M`).
    public init(days: Int = 0, hours: Int = 0, minutes: Int = 0, seconds: Int = 0) {
        self.days = days
        self.seconds = hours * 3600 + minutes * 60 + seconds
    }

    /// No time at all: `PT0S` (an alarm at the very start).
    public static let zero = ICalendarDuration()

    /// `count` calendar days: `P1D`.
    public static func days(_ count: Int) -> ICalendarDuration { ICalendarDuration(days: count) }

    /// `count` exact hours: `PT9H`.
    public static func hours(_ count: Int) -> ICalendarDuration { ICalendarDuration(hours: count) }

    /// `count` exact minutes: `PT15M`.
    public static func minutes(_ count: Int) -> ICalendarDuration { ICalendarDuration(minutes: count) }

    /// `count` exact seconds: `PT30S`.
    public static func seconds(_ count: Int) -> ICalendarDuration { ICalendarDuration(seconds: count) }

    /// The same length in the other direction: `-PT15M` from `PT15M`.
    public static prefix func - (duration: ICalendarDuration) -> ICalendarDuration {
        var negated = duration
        negated.days = -duration.days
        negated.seconds = -duration.seconds
        return negated
    }

    /// The duration as RFC 5545 text (`dur-value`): `P1D`, `PT1H30M`, `-PT15M`, `PT0S` for none.
    ///
    /// The RFC gives a duration one sign, so when ``days`` and ``seconds`` have opposite signs the days are written as
    /// exact 24-hour days added to the seconds. Minutes are written as `0M` between hours and seconds (`PT1H0M5S`), as the
    /// RFC's grammar asks.
    public func serialized() -> String {
        var days = days
        var seconds = seconds
        if (days > 0 && seconds < 0) || (days < 0 && seconds > 0) {
            seconds += days * 86_400
            days = 0
        }
        let isNegative = days < 0 || seconds < 0
        days = abs(days)
        seconds = abs(seconds)
        guard days != 0 || seconds != 0 else { return "PT0S" }
        var text = isNegative ? "-P" : "P"
        if days != 0 { text += "\(days)D" }
        if seconds != 0 {
            let hours = seconds / 3600, minutes = seconds % 3600 / 60, remainder = seconds % 60
            text += "T"
            if hours != 0 { text += "\(hours)H" }
            if minutes != 0 || (hours != 0 && remainder != 0) { text += "\(minutes)M" }
            if remainder != 0 { text += "\(remainder)S" }
        }
        return text
    }
}
