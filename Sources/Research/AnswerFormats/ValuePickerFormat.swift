import Foundation

/// Choose one value from a wheel or drop-down list.
public struct ValuePickerFormat: Hashable, Sendable, Codable {
    /// The values, in the order listed; at least one. Texts and string values must not be blank, and values
    /// must be distinct; a picker's choices cannot be `exclusive` or have an `other` field.
    public var choices: [TextChoice]
    /// Creates a value picker; see ``choices`` for the rules.
    public init(choices: [TextChoice]) { self.choices = choices }
}

/// Several pickers side by side (for example feet and inches); the answer has one value per picker.
public struct MultipleValuePickerFormat: Hashable, Sendable, Codable {
    /// The pickers, left to right; at least 2, each following the value picker's rules. The answer holds one
    /// value per picker, in this order.
    public var pickers: [ValuePickerFormat]
    /// Text shown between the pickers' values when the answer is displayed.
    public var separator: String
    /// Creates a multiple value picker; see the properties for each setting's rules.
    public init(pickers: [ValuePickerFormat], separator: String = " ") {
        self.pickers = pickers
        self.separator = separator
    }
    private enum CodingKeys: String, CodingKey { case pickers, separator }
    /// Reads the format; `separator` defaults to a single space.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        pickers = try c.decode([ValuePickerFormat].self, forKey: .pickers)
        separator = try c.decodeIfPresent(String.self, forKey: .separator) ?? " "
    }
}

extension ValuePickerFormat: OneOfAListRules {
    static let jsonKeys: Set<String> = ["choices"]

    var wrongKindError: AnswerValidationError { .takesAChoice }

    func addConstructionProblems(to problems: inout FormatProblems) {
        addConstructionProblems(at: "", to: &problems)
    }

    /// The picker's problems at paths under `prefix`: `pickers[1].choices[0].text` in a multiple value picker.
    func addConstructionProblems(at prefix: String, to problems: inout FormatProblems) {
        choices.addListProblems(at: prefix, minimumCount: 1, to: &problems)
        choices.addPlainChoiceProblems(at: prefix, kind: "a value picker", to: &problems)
    }
}

extension MultipleValuePickerFormat: AnswerFormatRules {
    static let jsonKeys: Set<String> = ["pickers", "separator"]
    var choiceValues: [ChoiceValue] { pickers.flatMap(\.choiceValues) }

    var wrongKindError: AnswerValidationError { AnswerValidationError(.takesValueFromEachList) }

    func addConstructionProblems(to problems: inout FormatProblems) {
        if pickers.count < 2 {
            problems.add("pickers", "needs at least 2 pickers (has \(pickers.count)); use a value picker for one")
        }
        for (index, picker) in pickers.enumerated() {
            picker.addConstructionProblems(at: "pickers[\(index)]", to: &problems)
        }
    }

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .components(let values) = answer else { throw wrongKindError }
        guard values.count == pickers.count else {
            throw AnswerValidationError(.chooseInEachList, ["count": .integer(pickers.count)])
        }
        for (value, picker) in zip(values, pickers) where !picker.choices.contains(where: { $0.value.isSameChoice(as: value) }) {
            throw AnswerValidationError(.notAChoice)
        }
    }

    /// One reference per picker, separated by commas (or by spaces when commas do not give one per picker).
    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        var parts = trimmed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count != pickers.count {
            parts = trimmed.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
        }
        guard parts.count == pickers.count else {
            throw AnswerValidationError(.typeValueForEachList, ["count": .integer(pickers.count)])
        }
        var values: [ChoiceValue] = []
        for (index, (part, picker)) in zip(parts, pickers).enumerated() {
            guard let option = picker.choices.option(named: part) else {
                throw AnswerValidationError(.unknownPickerValueTyped, ["text": .text(String(part)), "list": .integer(index + 1), "count": .integer(picker.choices.count)])
            }
            values.append(option.value)
        }
        return .components(values)
    }

    func hint(in context: TextInputContext) -> String {
        "one number for each of the \(pickers.count) lists, separated by commas"
    }

    func display(_ answer: Answer, decimalSeparator: String) -> String {
        guard case .components(let values) = answer else { return standardDisplay(answer, decimalSeparator: decimalSeparator) }
        return values.enumerated().map { index, value in
            index < pickers.count ? pickers[index].choices.text(of: value) : value.description
        }.joined(separator: separator)
    }
}
