import Foundation

/// A FHIRPath quantity: a decimal value with a unit, such as `5 'mg'` or `3 days`.
///
/// Units are UCUM codes or calendar words (kept in the singular); quantities in different units that measure the
/// same thing are compared and added after conversion (see `FHIRPathUnit`).
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

    /// `5 'mg'`, `3 'day'`: the value and the quoted unit, as FHIRPath's `toString()` writes a quantity.
    public var description: String {
        "\(value) '\(unit)'"
    }
}
