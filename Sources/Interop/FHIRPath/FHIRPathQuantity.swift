import Foundation

/// A FHIRPath quantity: a decimal value with a unit, such as `5 'mg'` or `3 days`.
///
/// Units are compared as written (calendar words in the singular), without UCUM conversion.
public struct FHIRPathQuantity: Sendable, Hashable, CustomStringConvertible {
    /// The amount.
    public var value: Decimal
    /// The UCUM code (`mg`, `{score}`) or calendar word (`day`, `year`); `1` when none is given.
    public var unit: String

    /// Creates a quantity; plural calendar words (`days`) are stored in the singular.
    public init(value: Decimal, unit: String) {
        self.value = value
        self.unit = Self.calendarPlurals[unit] ?? unit
    }

    /// The calendar duration words FHIRPath accepts after a number, singular and plural.
    static let calendarWords: Set<String> = [
        "year", "years", "month", "months", "week", "weeks", "day", "days",
        "hour", "hours", "minute", "minutes", "second", "seconds", "millisecond", "milliseconds",
    ]

    private static let calendarPlurals: [String: String] = [
        "years": "year", "months": "month", "weeks": "week", "days": "day",
        "hours": "hour", "minutes": "minute", "seconds": "second", "milliseconds": "millisecond",
    ]

    /// `5 'mg'`, or `3 day` for calendar units.
    public var description: String {
        Self.calendarWords.contains(unit) ? "\(value) \(unit)" : "\(value) '\(unit)'"
    }
}
