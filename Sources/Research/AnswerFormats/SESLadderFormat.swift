import Foundation

/// The MacArthur subjective social status ladder: the participant picks a rung, 1 at the bottom.
public struct SESLadderFormat: Hashable, Sendable, Codable {
    /// How many rungs the ladder has (2–20, usually 10).
    public var numberOfRungs: Int
    /// Text shown at the top of the ladder; nil for none.
    public var topRungText: String?
    /// Text shown at the bottom of the ladder; nil for none.
    public var bottomRungText: String?
    /// Creates a ladder format; see the properties for each setting's rules.
    public init(numberOfRungs: Int = 10, topRungText: String? = nil, bottomRungText: String? = nil) {
        self.numberOfRungs = numberOfRungs
        self.topRungText = topRungText
        self.bottomRungText = bottomRungText
    }
    private enum CodingKeys: String, CodingKey { case numberOfRungs, topRungText, bottomRungText }
    /// Reads the format; `numberOfRungs` defaults to 10.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        numberOfRungs = try c.decodeIfPresent(Int.self, forKey: .numberOfRungs) ?? 10
        topRungText = try c.decodeIfPresent(String.self, forKey: .topRungText)
        bottomRungText = try c.decodeIfPresent(String.self, forKey: .bottomRungText)
    }
}

extension SESLadderFormat: AnswerFormatRules {
    static let jsonKeys: Set<String> = ["numberOfRungs", "topRungText", "bottomRungText"]

    /// How many rungs an SES ladder may have.
    static let rungCounts: ClosedRange<Int> = 2...20

    var wrongKindError: AnswerValidationError { AnswerValidationError(.takesRung) }

    func addConstructionProblems(to problems: inout FormatProblems) {
        let counts = Self.rungCounts
        if !counts.contains(numberOfRungs) {
            problems.add("numberOfRungs", "must be from \(counts.lowerBound) to \(counts.upperBound) (is \(numberOfRungs))")
        }
    }

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .number(let value) = answer else { throw wrongKindError }
        guard AnswerNumbers.fits(value, fractionDigits: 0), value >= 1, value <= Decimal(numberOfRungs) else {
            throw AnswerValidationError(.rungRange, ["count": .integer(numberOfRungs)])
        }
    }

    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        .number(try TextInput.number(trimmed, separator: context.decimalSeparator, whole: true))
    }

    func hint(in context: TextInputContext) -> String {
        "a rung from 1 (bottom) to \(numberOfRungs) (top)"
    }

    func display(_ answer: Answer, decimalSeparator: String) -> String {
        guard case .number(let value) = answer else { return standardDisplay(answer, decimalSeparator: decimalSeparator) }
        return "\(AnswerNumbers.numberText(value, decimalSeparator: decimalSeparator)) of \(numberOfRungs)"
    }
}
