import Foundation

/// How finely a weight is stored in kilograms: default (whole kg), low (0.1 kg), high (0.01 kg).
public enum WeightPrecision: String, Hashable, Sendable, Codable {
    /// `default`: whole kilograms; `low`: to 0.1 kg; `high`: to 0.01 kg.
    case `default`, low, high

    /// Largest number of fraction digits of the stored kilograms.
    public var maximumFractionDigits: Int {
        switch self {
        case .default: 0
        case .low: 1
        case .high: 2
        }
    }
}

/// A body weight; the answer is always stored in kilograms.
public struct WeightFormat: Hashable, Sendable, Codable {
    /// The units the participant enters the weight in; the answer is stored in kg whatever the system. Defaults to `local`.
    public var measurementSystem: MeasurementSystem
    /// How many digits after the decimal point the stored kilograms may have. Defaults to `default` (whole kilograms).
    public var precision: WeightPrecision
    /// Smallest accepted weight in kg.
    public var minimum: Decimal?
    /// Largest accepted weight in kg.
    public var maximum: Decimal?
    /// The weight the field starts with, in kg; nil for none. Must be greater than 0, lie within the bounds and
    /// fit ``precision``.
    public var defaultValue: Decimal?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a weight format; see the properties for each setting's rules.
    public init(measurementSystem: MeasurementSystem = .local, precision: WeightPrecision = .default, minimum: Decimal? = nil,
                maximum: Decimal? = nil, defaultValue: Decimal? = nil, dontKnow: DontKnowOption? = nil) {
        self.measurementSystem = measurementSystem
        self.precision = precision
        self.minimum = minimum
        self.maximum = maximum
        self.defaultValue = defaultValue
        self.dontKnow = dontKnow
    }
    private enum CodingKeys: String, CodingKey { case measurementSystem, precision, minimum, maximum, defaultValue, dontKnow }
    /// Reads the format; `measurementSystem` defaults to `local` and `precision` to `default`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        measurementSystem = try c.decodeIfPresent(MeasurementSystem.self, forKey: .measurementSystem) ?? .local
        precision = try c.decodeIfPresent(WeightPrecision.self, forKey: .precision) ?? .default
        minimum = try c.decodeIfPresent(Decimal.self, forKey: .minimum)
        maximum = try c.decodeIfPresent(Decimal.self, forKey: .maximum)
        defaultValue = try c.decodeIfPresent(Decimal.self, forKey: .defaultValue)
        dontKnow = try c.decodeIfPresent(DontKnowOption.self, forKey: .dontKnow)
    }
}

extension WeightFormat: AnswerFormatRules {
    static let jsonKeys: Set<String> = ["measurementSystem", "precision", "minimum", "maximum", "defaultValue", "dontKnow"]

    var unit: String? { "kg" }
    var wrongKindError: AnswerValidationError { AnswerValidationError(.takesWeight) }

    func addConstructionProblems(to problems: inout FormatProblems) {
        BodyMeasurement.addBoundsProblems(minimum: minimum, maximum: maximum, unit: "kg", to: &problems)
        if let value = defaultValue {
            if value <= 0 { problems.add("defaultValue", "must be greater than 0 (is \(value) kg)") }
            if let minimum, value < minimum {
                problems.add("defaultValue", "must be at least minimum (\(value) < \(minimum))")
            }
            if let maximum, value > maximum {
                problems.add("defaultValue", "must be at most maximum (\(value) > \(maximum))")
            }
            let digits = precision.maximumFractionDigits
            if !AnswerNumbers.fits(value, fractionDigits: digits) {
                problems.add("defaultValue", "has more than \(AnswerNumbers.digitsPhrase(digits)) after the decimal point for \(precision.rawValue) precision (\(value))")
            }
        }
    }

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .number(let value) = answer else { throw wrongKindError }
        try BodyMeasurement.validate(value, .weight, minimum: minimum, maximum: maximum)
        let digits = precision.maximumFractionDigits
        guard AnswerNumbers.fits(value, fractionDigits: digits) else {
            throw digits == 0 ? AnswerValidationError(.enterWholeKilograms) : AnswerNumbers.fractionDigitsError(digits)
        }
    }

    private static let kilogramsPerPound = Decimal(string: "0.45359237", locale: TextInput.posix) ?? 0.45359237

    /// "72.5", "72.5 kg", "150 lb", "150 lb 4 oz"; the result in kg, rounded to the precision's fraction digits.
    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        let usCustomary = measurementSystem.usesUSCustomary(in: context.locale)
        let text = TextInput.plainNumerals(trimmed, separator: context.decimalSeparator).lowercased()
        func value(_ digits: Substring) -> Decimal { Decimal(string: String(digits), locale: TextInput.posix) ?? 0 }
        if let match = text.wholeMatch(of: #/(?<n>[0-9]+(?:\.[0-9]*)?)\s*(?<unit>kg|kgs|kilos?|kilograms?)?/#) {
            if match.unit != nil || !usCustomary { return .number(value(match.n)) }
            throw AnswerValidationError(.enterPounds)
        }
        if let match = text.wholeMatch(of: #/(?:(?<lb>[0-9]+(?:\.[0-9]*)?)\s*(?:lb|lbs|pounds?))?\s*(?:(?<oz>[0-9]+(?:\.[0-9]*)?)\s*(?:oz|ounces?))?/#),
           match.lb != nil || match.oz != nil {
            let ounces = match.oz.map(value) ?? 0
            guard match.lb == nil || ounces < 16 else { throw AnswerValidationError(.ouncesRange) }
            let pounds = (match.lb.map(value) ?? 0) + ounces / 16
            return .number(AnswerNumbers.rounded(pounds * Self.kilogramsPerPound, fractionDigits: precision.maximumFractionDigits))
        }
        throw AnswerValidationError(usCustomary ? .enterWeightInPounds : .enterWeightInKilograms)
    }

    func hint(in context: TextInputContext) -> String {
        let example = precision == .default ? "72" : "72\(context.decimalSeparator)5"
        return measurementSystem.usesUSCustomary(in: context.locale)
            ? "your weight in pounds, as in 150 lb\(precision == .high ? " 4 oz" : "") (or in kg, as in \(example) kg)"
            : "your weight in kg, as in \(example)"
    }
}
