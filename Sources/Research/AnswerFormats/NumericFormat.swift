import Foundation

/// Whether a numeric answer is a whole number or may have a fraction.
public enum NumericStyle: String, Hashable, Sendable, Codable {
    /// `integer`: whole numbers only; `decimal`: numbers with a fraction, up to
    /// ``NumericFormat/maximumFractionDigits`` digits.
    case integer, decimal
}

/// A number typed in, with an optional unit and inclusive bounds.
public struct NumericFormat: Hashable, Sendable, Codable {
    /// Whether the answer must be a whole number. Required in JSON; an integer format's bounds must be whole numbers.
    public var style: NumericStyle
    /// The unit shown with the number and stored in its question result, such as "mg"; nil for none.
    /// Must not be blank. A typed answer may end with it ("5 mg").
    public var unit: String?
    /// Smallest accepted value (inclusive).
    public var minimum: Decimal?
    /// Largest accepted value (inclusive).
    public var maximum: Decimal?
    /// Most digits after the decimal point (decimal style); unlimited when nil.
    public var maximumFractionDigits: Int?
    /// The value the field starts with; nil for none. Must lie within the bounds and have no more fraction
    /// digits than the style allows.
    public var defaultValue: Decimal?
    /// Text shown in the empty field; nil for none.
    public var placeholder: String?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a numeric format; see the properties for each setting's rules.
    public init(style: NumericStyle, unit: String? = nil, minimum: Decimal? = nil, maximum: Decimal? = nil,
                maximumFractionDigits: Int? = nil, defaultValue: Decimal? = nil, placeholder: String? = nil, dontKnow: DontKnowOption? = nil) {
        self.style = style
        self.unit = unit
        self.minimum = minimum
        self.maximum = maximum
        self.maximumFractionDigits = maximumFractionDigits
        self.defaultValue = defaultValue
        self.placeholder = placeholder
        self.dontKnow = dontKnow
    }
}

extension NumericFormat: AnswerFormatRules {
    static let jsonKeys: Set<String> = [
        "style", "unit", "minimum", "maximum", "maximumFractionDigits", "defaultValue", "placeholder", "dontKnow",
    ]

    var wrongKindError: AnswerValidationError { .takesANumber }

    func addConstructionProblems(to problems: inout FormatProblems) {
        if let minimum, let maximum, maximum <= minimum {
            problems.add("maximum", "must be greater than minimum (\(maximum) \(maximum == minimum ? "=" : "<") \(minimum))")
        }
        if let digits = maximumFractionDigits {
            if digits < 0 {
                problems.add("maximumFractionDigits", "must not be negative (is \(digits))")
            } else if style == .integer, digits != 0 {
                problems.add("maximumFractionDigits", "must be 0 or left out for an integer format (is \(digits))")
            }
        }
        if style == .integer {
            for (key, bound) in [("minimum", minimum), ("maximum", maximum)] {
                if let bound, !AnswerNumbers.fits(bound, fractionDigits: 0) {
                    problems.add(key, "must be a whole number for an integer format (is \(bound))")
                }
            }
        }
        if let unit, unit.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problems.add("unit", "must not be empty; leave it out for a number without unit")
        }
        if let value = defaultValue {
            if let minimum, value < minimum {
                problems.add("defaultValue", "must be at least minimum (\(value) < \(minimum))")
            }
            if let maximum, value > maximum {
                problems.add("defaultValue", "must be at most maximum (\(value) > \(maximum))")
            }
            let allowed = style == .integer ? 0 : maximumFractionDigits
            if let allowed, allowed >= 0, !AnswerNumbers.fits(value, fractionDigits: allowed) {
                problems.add("defaultValue", allowed == 0
                    ? "must be a whole number (is \(value))"
                    : "has more than \(AnswerNumbers.digitsPhrase(allowed)) after the decimal point (\(value))")
            }
        }
    }

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .number(let value) = answer else { throw wrongKindError }
        let digits = style == .integer ? 0 : maximumFractionDigits.map { max(0, $0) }
        if digits == 0, !AnswerNumbers.fits(value, fractionDigits: 0) { throw AnswerValidationError(.enterWholeNumber) }
        try AnswerNumbers.checkBounds(value, minimum: minimum, maximum: maximum, .number)
        if let digits, !AnswerNumbers.fits(value, fractionDigits: digits) { throw AnswerNumbers.fractionDigitsError(digits) }
    }

    /// A number, optionally followed by the format's unit ("5 mg").
    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        var number = trimmed
        if let unit = unit?.trimmingCharacters(in: .whitespaces), !unit.isEmpty,
           number.lowercased().hasSuffix(unit.lowercased()) {
            number = String(number.dropLast(unit.count)).trimmingCharacters(in: .whitespaces)
        }
        return .number(try TextInput.number(number, separator: context.decimalSeparator, whole: style == .integer))
    }

    func hint(in context: TextInputContext) -> String {
        let whole = style == .integer || maximumFractionDigits == 0
        var text = AnswerNumbers.rangePhrase(noun: whole ? "a whole number" : "a number", minimum: minimum,
                                             maximum: maximum, unit: nil, decimalSeparator: context.decimalSeparator)
        if !whole, let digits = maximumFractionDigits { text += ", up to \(AnswerNumbers.digitsPhrase(digits)) after the decimal point" }
        if let unit { text += ", in \(unit)" }
        return text
    }
}
