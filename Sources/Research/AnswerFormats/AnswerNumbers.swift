import Foundation

/// Numbers in answers and format settings, checked and worded the same way by every format: fraction digits,
/// rounding, bounds, and the phrases ("a number from 0 to 10", "2 digits") that messages and hints use.
enum AnswerNumbers {
    /// Whether `value` has at most `fractionDigits` digits after the decimal point (trailing zeros don't count).
    static func fits(_ value: Decimal, fractionDigits: Int) -> Bool {
        rounded(value, fractionDigits: fractionDigits) == value
    }

    /// `value` rounded to `fractionDigits` digits, halves away from zero (2.345 gives 2.35).
    static func rounded(_ value: Decimal, fractionDigits: Int) -> Decimal {
        var source = value
        var result = Decimal()
        NSDecimalRound(&result, &source, fractionDigits, .plain)
        return result
    }

    /// "1 digit", "2 digits".
    static func digitsPhrase(_ count: Int) -> String { count == 1 ? "1 digit" : "\(count) digits" }

    /// "Use at most 2 digits after the decimal point."
    static func fractionDigitsError(_ digits: Int) -> AnswerValidationError {
        AnswerValidationError(.fractionDigits, ["count": .integer(digits)])
    }

    /// The messages of a quantity out of its bounds: between both, at least the minimum, at most the maximum.
    struct RangeKeys {
        let between: AnswerValidationError.Key
        let atLeast: AnswerValidationError.Key
        let atMost: AnswerValidationError.Key
        static let number = RangeKeys(between: .numberRange, atLeast: .numberAtLeast, atMost: .numberAtMost)
    }

    /// Throws the message of `keys` that fits the bounds when `value` lies outside them: "Enter a number from 0 to 10.".
    static func checkBounds(_ value: Decimal, minimum: Decimal?, maximum: Decimal?, _ keys: RangeKeys) throws(AnswerValidationError) {
        guard !isWithin(value, minimum: minimum, maximum: maximum) else { return }
        switch (minimum, maximum) {
        case let (minimum?, maximum?): throw AnswerValidationError(keys.between, ["minimum": .number(minimum), "maximum": .number(maximum)])
        case let (minimum?, nil): throw AnswerValidationError(keys.atLeast, ["minimum": .number(minimum)])
        case let (nil, maximum?): throw AnswerValidationError(keys.atMost, ["maximum": .number(maximum)])
        case (nil, nil): return
        }
    }

    /// A double as a decimal, through its shortest spelling (0.1 stays 0.1); nil when not finite.
    static func decimal(_ value: Double) -> Decimal? {
        guard value.isFinite else { return nil }
        return Decimal(string: String(value), locale: Locale(identifier: "en_US_POSIX"))
    }

    /// A double in its shortest spelling, without a useless ".0": `10`, `0.25`.
    static func text(_ value: Double) -> String {
        decimal(value).map { "\($0)" } ?? String(value)
    }

    /// Whether `value` lies within the optional inclusive bounds.
    static func isWithin(_ value: Decimal, minimum: Decimal?, maximum: Decimal?) -> Bool {
        if let minimum, value < minimum { return false }
        if let maximum, value > maximum { return false }
        return true
    }

    /// "a number from 0 to 10", "a height of at least 100 cm", "a number"; the unit follows the last number.
    static func rangePhrase(noun: String, minimum: Decimal?, maximum: Decimal?, unit: String?, decimalSeparator: String = ".") -> String {
        let suffix = unit.map { " \($0)" } ?? ""
        func number(_ value: Decimal) -> String { numberText(value, decimalSeparator: decimalSeparator) }
        switch (minimum, maximum) {
        case let (minimum?, maximum?): return "\(noun) from \(number(minimum)) to \(number(maximum))\(suffix)"
        case let (minimum?, nil): return "\(noun) of at least \(number(minimum))\(suffix)"
        case let (nil, maximum?): return "\(noun) of at most \(number(maximum))\(suffix)"
        case (nil, nil): return noun
        }
    }

    /// A decimal as plain digits with the given decimal separator and no grouping: `72.5`, `72,5`.
    static func numberText(_ value: Decimal, decimalSeparator: String = ".") -> String {
        let text = "\(value)"
        return decimalSeparator == "." ? text : text.replacingOccurrences(of: ".", with: decimalSeparator)
    }
}
