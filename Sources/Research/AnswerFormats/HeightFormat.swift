import Foundation

/// A body height; the answer is always stored in centimetres.
public struct HeightFormat: Hashable, Sendable, Codable {
    /// The units the participant enters the height in; the answer is stored in cm whatever the system. Defaults to `local`.
    public var measurementSystem: MeasurementSystem
    /// Smallest accepted height in cm.
    public var minimum: Decimal?
    /// Largest accepted height in cm.
    public var maximum: Decimal?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a height format; see the properties for each setting's rules.
    public init(measurementSystem: MeasurementSystem = .local, minimum: Decimal? = nil, maximum: Decimal? = nil, dontKnow: DontKnowOption? = nil) {
        self.measurementSystem = measurementSystem
        self.minimum = minimum
        self.maximum = maximum
        self.dontKnow = dontKnow
    }
    private enum CodingKeys: String, CodingKey { case measurementSystem, minimum, maximum, dontKnow }
    /// Reads the format; `measurementSystem` defaults to `local`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        measurementSystem = try c.decodeIfPresent(MeasurementSystem.self, forKey: .measurementSystem) ?? .local
        minimum = try c.decodeIfPresent(Decimal.self, forKey: .minimum)
        maximum = try c.decodeIfPresent(Decimal.self, forKey: .maximum)
        dontKnow = try c.decodeIfPresent(DontKnowOption.self, forKey: .dontKnow)
    }
}

extension HeightFormat: AnswerFormatRules {
    static let jsonKeys: Set<String> = ["measurementSystem", "minimum", "maximum", "dontKnow"]

    var unit: String? { "cm" }
    var wrongKindError: AnswerValidationError { AnswerValidationError(.takesHeight) }

    func addConstructionProblems(to problems: inout FormatProblems) {
        BodyMeasurement.addBoundsProblems(minimum: minimum, maximum: maximum, unit: "cm", to: &problems)
    }

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .number(let value) = answer else { throw wrongKindError }
        try BodyMeasurement.validate(value, .height, minimum: minimum, maximum: maximum)
    }

    private static let centimetresPerInch = Decimal(string: "2.54", locale: TextInput.posix) ?? 2.54

    /// "172", "172 cm", "1.72 m", `5'8"`, `5 ft 8 in`, `68 in`; the result in cm with at most 2 fraction digits.
    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        let usCustomary = measurementSystem.usesUSCustomary(in: context.locale)
        let text = TextInput.plainNumerals(trimmed, separator: context.decimalSeparator).lowercased()
            .replacingOccurrences(of: "’", with: "'").replacingOccurrences(of: "′", with: "'")
            .replacingOccurrences(of: "”", with: "\"").replacingOccurrences(of: "″", with: "\"")
            .replacingOccurrences(of: "''", with: "\"")
        func value(_ digits: Substring) -> Decimal { Decimal(string: String(digits), locale: TextInput.posix) ?? 0 }
        if let match = text.wholeMatch(of: #/(?<n>[0-9]+(?:\.[0-9]*)?)\s*(?<unit>cm|m)?/#) {
            if match.unit == "m" { return .number(value(match.n) * 100) }
            if match.unit == "cm" || !usCustomary { return .number(value(match.n)) }
            throw AnswerValidationError(.enterFeetAndInches)
        }
        if let match = text.wholeMatch(of: #/(?<n>[0-9]+(?:\.[0-9]*)?)\s*(?:"|in|inch|inches)/#) {
            return .number(AnswerNumbers.rounded(value(match.n) * Self.centimetresPerInch, fractionDigits: 2))
        }
        if let match = text.wholeMatch(of: #/(?<ft>[0-9]+)\s*(?:'|ft|feet|foot)\s*(?:(?<inch>[0-9]+(?:\.[0-9]*)?)\s*(?:"|in|inch|inches)?)?/#) {
            let inches = match.inch.map(value) ?? 0
            guard inches < 12 else { throw AnswerValidationError(.inchesRange) }
            return .number(AnswerNumbers.rounded((value(match.ft) * 12 + inches) * Self.centimetresPerInch, fractionDigits: 2))
        }
        throw AnswerValidationError(usCustomary ? .enterHeightInFeet : .enterHeightInCentimetres)
    }

    func hint(in context: TextInputContext) -> String {
        measurementSystem.usesUSCustomary(in: context.locale)
            ? "your height in feet and inches, as in 5' 8\" (or in cm, as in 172 cm)"
            : "your height in cm, as in 172"
    }
}
