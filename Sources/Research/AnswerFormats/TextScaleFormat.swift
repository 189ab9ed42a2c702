import Foundation

/// A slider over 2 to 8 labelled positions.
public struct TextScaleFormat: Hashable, Sendable, Codable {
    /// The positions, from the start of the slider to its end; 2 to 8 of them. Texts and string values must
    /// not be blank, and values must be distinct; positions cannot be `exclusive` or have an `other` field.
    public var choices: [TextChoice]
    /// Index of the position the slider starts at.
    public var defaultIndex: Int?
    /// Shows the slider upright instead of across. Defaults to false.
    public var vertical: Bool
    /// Creates a text scale; see the properties for each setting's rules.
    public init(choices: [TextChoice], defaultIndex: Int? = nil, vertical: Bool = false) {
        self.choices = choices
        self.defaultIndex = defaultIndex
        self.vertical = vertical
    }
    private enum CodingKeys: String, CodingKey { case choices, defaultIndex, vertical }
    /// Reads the format; `vertical` defaults to false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        choices = try c.decode([TextChoice].self, forKey: .choices)
        defaultIndex = try c.decodeIfPresent(Int.self, forKey: .defaultIndex)
        vertical = try c.decodeIfPresent(Bool.self, forKey: .vertical) ?? false
    }
}

extension TextScaleFormat: OneOfAListRules {
    static let jsonKeys: Set<String> = ["choices", "defaultIndex", "vertical"]

    /// How many positions a text scale may have, as in ResearchKit.
    static let choiceCounts: ClosedRange<Int> = 2...8

    var wrongKindError: AnswerValidationError { .takesAChoice }

    func addConstructionProblems(to problems: inout FormatProblems) {
        let counts = Self.choiceCounts
        if !counts.contains(choices.count) {
            problems.add("choices", "a text scale has \(counts.lowerBound) to \(counts.upperBound) choices (has \(choices.count))")
        }
        choices.addTextAndValueProblems(at: "choices", to: &problems)
        choices.addPlainChoiceProblems(at: "", kind: "a text scale", to: &problems)
        if let index = defaultIndex, !choices.indices.contains(index) {
            problems.add("defaultIndex", choices.isEmpty
                ? "has no choice to point to (is \(index))"
                : "must be from 0 to \(choices.count - 1) (is \(index))")
        }
    }
}
