import Foundation

/// An age in whole years.
public struct AgeFormat: Hashable, Sendable, Codable {
    /// Youngest accepted age in years, inclusive; not negative. Defaults to 0.
    public var minimumAge: Int
    /// Oldest accepted age in years, inclusive; greater than ``minimumAge`` and at most 150. Defaults to 125.
    public var maximumAge: Int
    /// The age the field starts with; nil for none. Must lie within ``minimumAge``...``maximumAge``.
    public var defaultValue: Int?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates an age format; see the properties for each setting's rules.
    public init(minimumAge: Int = 0, maximumAge: Int = 125, defaultValue: Int? = nil, dontKnow: DontKnowOption? = nil) {
        self.minimumAge = minimumAge
        self.maximumAge = maximumAge
        self.defaultValue = defaultValue
        self.dontKnow = dontKnow
    }
    private enum CodingKeys: String, CodingKey { case minimumAge, maximumAge, defaultValue, dontKnow }
    /// Reads the format; `minimumAge` defaults to 0 and `maximumAge` to 125.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        minimumAge = try c.decodeIfPresent(Int.self, forKey: .minimumAge) ?? 0
        maximumAge = try c.decodeIfPresent(Int.self, forKey: .maximumAge) ?? 125
        defaultValue = try c.decodeIfPresent(Int.self, forKey: .defaultValue)
        dontKnow = try c.decodeIfPresent(DontKnowOption.self, forKey: .dontKnow)
    }
}

extension AgeFormat: AnswerFormatRules {
    static let jsonKeys: Set<String> = ["minimumAge", "maximumAge", "defaultValue", "dontKnow"]

    /// The oldest age an age format may accept.
    static let largestMaximumAge = 150

    var unit: String? { "years" }
    var wrongKindError: AnswerValidationError { .takesANumber }

    func addConstructionProblems(to problems: inout FormatProblems) {
        if minimumAge < 0 { problems.add("minimumAge", "must not be negative (is \(minimumAge))") }
        if maximumAge > Self.largestMaximumAge {
            problems.add("maximumAge", "must be at most \(Self.largestMaximumAge) (is \(maximumAge))")
        }
        if maximumAge <= minimumAge {
            problems.add("maximumAge", "must be greater than minimumAge (\(maximumAge) \(maximumAge == minimumAge ? "=" : "<") \(minimumAge))")
        }
        if let value = defaultValue, value < minimumAge || value > maximumAge {
            problems.add("defaultValue", "must be within minimumAge...maximumAge (\(minimumAge)...\(maximumAge)); is \(value)")
        }
    }

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .number(let value) = answer else { throw wrongKindError }
        guard AnswerNumbers.fits(value, fractionDigits: 0) else { throw AnswerValidationError(.enterWholeNumber) }
        guard value >= Decimal(minimumAge), value <= Decimal(maximumAge) else {
            throw AnswerValidationError(.ageRange, ["minimum": .integer(minimumAge), "maximum": .integer(maximumAge)])
        }
    }

    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        .number(try TextInput.number(trimmed, separator: context.decimalSeparator, whole: true))
    }

    func hint(in context: TextInputContext) -> String {
        "an age in whole years, from \(minimumAge) to \(maximumAge)"
    }

    func display(_ answer: Answer, decimalSeparator: String) -> String {
        guard case .number(let value) = answer else { return standardDisplay(answer, decimalSeparator: decimalSeparator) }
        return AnswerNumbers.numberText(value, decimalSeparator: decimalSeparator) + (value == 1 ? " year" : " years")
    }
}
