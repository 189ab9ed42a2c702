import Foundation

/// Whether one choice or several may be chosen.
public enum ChoiceStyle: String, Hashable, Sendable, Codable {
    /// `single`: exactly one choice is chosen; `multiple`: one or more are.
    case single, multiple
}

/// One option of a choice format: ``TextChoice`` or ``ImageChoice``. What the rules of ``ChoiceFormat`` need of an
/// option, whatever it shows.
public protocol ChoiceOption: Hashable, Sendable, Codable {
    /// The text shown for the option (an image's accessible name); must not be blank.
    var text: String { get }
    /// The value stored in results; distinct among the format's options.
    var value: ChoiceValue { get }
    /// Whether choosing this option clears every other (multiple choice only).
    var exclusive: Bool { get }
    /// The free-text field of an "other" option; nil for an option without one.
    var other: OtherChoice? { get }
}

/// One option of a choice question.
public struct TextChoice: ChoiceOption {
    /// The text shown.
    public var text: String
    /// The value stored in results.
    public var value: ChoiceValue
    /// Smaller text shown under the choice.
    public var detailText: String?
    /// Choosing this option clears every other; choosing another clears this one (multiple choice only).
    public var exclusive: Bool
    /// When set, this is an "other" choice that comes with a free-text field.
    public var other: OtherChoice?

    /// Creates a choice; see the properties for each setting's rules.
    public init(text: String, value: ChoiceValue, detailText: String? = nil, exclusive: Bool = false, other: OtherChoice? = nil) {
        self.text = text
        self.value = value
        self.detailText = detailText
        self.exclusive = exclusive
        self.other = other
    }

    private enum CodingKeys: String, CodingKey { case text, value, detailText, exclusive, other }

    /// Reads a choice; `exclusive` defaults to false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        text = try c.decode(String.self, forKey: .text)
        value = try c.decode(ChoiceValue.self, forKey: .value)
        detailText = try c.decodeIfPresent(String.self, forKey: .detailText)
        exclusive = try c.decodeIfPresent(Bool.self, forKey: .exclusive) ?? false
        other = try c.decodeIfPresent(OtherChoice.self, forKey: .other)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(text, forKey: .text)
        try c.encode(value, forKey: .value)
        try c.encodeIfPresent(detailText, forKey: .detailText)
        if exclusive { try c.encode(true, forKey: .exclusive) }
        try c.encodeIfPresent(other, forKey: .other)
    }
}

/// The free-text field of an "other" choice.
public struct OtherChoice: Hashable, Sendable, Codable {
    /// Placeholder shown in the empty field.
    public var placeholder: String?
    /// Whether the text must be filled in when the choice is chosen.
    public var textRequired: Bool
    /// Creates the free-text field of an "other" choice; see the properties for each setting's rules.
    public init(placeholder: String? = nil, textRequired: Bool = false) {
        self.placeholder = placeholder
        self.textRequired = textRequired
    }
    private enum CodingKeys: String, CodingKey { case placeholder, textRequired }
    /// Reads the field; `textRequired` defaults to false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        placeholder = try c.decodeIfPresent(String.self, forKey: .placeholder)
        textRequired = try c.decodeIfPresent(Bool.self, forKey: .textRequired) ?? false
    }
}

/// One option of an image choice question.
public struct ImageChoice: ChoiceOption {
    /// The image shown when not selected.
    public var image: ImageReference
    /// The image shown when selected; the normal image when nil.
    public var selectedImage: ImageReference?
    /// Text shown for the choice, and its accessible name.
    public var text: String
    /// The value stored in results; distinct among the format's choices.
    public var value: ChoiceValue
    /// Creates an image choice; see the properties for each setting's rules.
    public init(image: ImageReference, selectedImage: ImageReference? = nil, text: String, value: ChoiceValue) {
        self.image = image
        self.selectedImage = selectedImage
        self.text = text
        self.value = value
    }
    /// Always false: a picture cannot clear the other choices.
    public var exclusive: Bool { false }
    /// Always nil: a picture has no free-text field.
    public var other: OtherChoice? { nil }
}

/// Choose one or several options from a list: texts (``TextChoiceFormat``) or pictures (``ImageChoiceFormat``).
///
/// Both kinds follow the same rules, checked once here: at least one option, texts and string values not blank,
/// values distinct (`2` and `2.0` count as the same value), and `exclusive` only in the `multiple` style.
/// In JSON: `{"style": "multiple", "choices": [...]}`, `style` defaulting to `single`.
public struct ChoiceFormat<Option: ChoiceOption>: Hashable, Sendable, Codable {
    /// Whether one choice or several may be chosen. Defaults to `single`.
    public var style: ChoiceStyle
    /// The options, in the order shown; at least one. Texts and string values must not be blank, and values
    /// must be distinct (`2` and `2.0` count as the same value). Only the `multiple` style allows `exclusive`.
    public var choices: [Option]
    /// Creates a choice format; see the properties for each setting's rules.
    public init(style: ChoiceStyle = .single, choices: [Option]) {
        self.style = style
        self.choices = choices
    }
    private enum CodingKeys: String, CodingKey { case style, choices }
    /// Reads the format; `style` defaults to single choice.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        style = try c.decodeIfPresent(ChoiceStyle.self, forKey: .style) ?? .single
        choices = try c.decode([Option].self, forKey: .choices)
    }
}

/// Choose one or several of a list of texts.
public typealias TextChoiceFormat = ChoiceFormat<TextChoice>

/// Choose one or several pictures.
public typealias ImageChoiceFormat = ChoiceFormat<ImageChoice>

extension ChoiceFormat {
    /// The selection after the participant taps `value`, as choice UIs do it.
    ///
    /// Single style: the tapped choice replaces the selection. Multiple style: a tap toggles the choice;
    /// choosing an exclusive choice clears every other, and choosing any other clears the exclusive ones.
    /// The text typed with an "other" choice stays with it while it remains selected. A value that is not one
    /// of the choices leaves the selection as it is.
    public func toggling(_ value: ChoiceValue, in selection: [ChoiceSelection]) -> [ChoiceSelection] {
        guard let choice = choices.first(where: { $0.value.isSameChoice(as: value) }) else { return selection }
        let existing = selection.first { $0.value.isSameChoice(as: choice.value) }
        switch style {
        case .single:
            return [existing ?? ChoiceSelection(choice.value)]
        case .multiple:
            if existing != nil { return selection.filter { !$0.value.isSameChoice(as: choice.value) } }
            if choice.exclusive { return [ChoiceSelection(choice.value)] }
            let kept = selection.filter { selected in
                !choices.contains { $0.exclusive && $0.value.isSameChoice(as: selected.value) }
            }
            return kept + [ChoiceSelection(choice.value)]
        }
    }
}

/// Text choices and image choices alike: the rules below are written once, over any ``ChoiceOption``.
extension ChoiceFormat: AnswerFormatRules {
    static var jsonKeys: Set<String> { ["style", "choices"] }
    var choiceValues: [ChoiceValue] { choices.map(\.value) }

    var wrongKindError: AnswerValidationError { .takesAChoice }

    func addConstructionProblems(to problems: inout FormatProblems) {
        choices.addListProblems(at: "", minimumCount: 1, to: &problems)
        if style == .single {
            for (index, choice) in choices.enumerated() where choice.exclusive {
                problems.add("choices[\(index)].exclusive", "only has a meaning in multiple choice (the style is single)")
            }
        }
    }

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .choices(let selections) = answer else { throw wrongKindError }
        try choices.validate(selections, multiple: style == .multiple)
    }

    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        .choices(try choices.selections(fromText: trimmed))
    }

    func hint(in context: TextInputContext) -> String {
        var text = style == .single ? "choose one: type its number" : "choose any: numbers separated by commas"
        if choices.contains(where: { $0.other != nil }) { text += "; add your own words after a colon, as in 3: my words" }
        return text
    }

    func display(_ answer: Answer, decimalSeparator: String) -> String {
        guard case .choices(let selections) = answer else { return standardDisplay(answer, decimalSeparator: decimalSeparator) }
        return choices.displayText(of: selections)
    }
}

/// The rules of a format whose answer is one option of a fixed list of text choices (a value picker, a text scale):
/// they differ only in their settings' checks, and share validation, typed text, the hint and display.
protocol OneOfAListRules: AnswerFormatRules {
    /// The options, in the order shown.
    var choices: [TextChoice] { get }
}

extension OneOfAListRules {
    var choiceValues: [ChoiceValue] { choices.map(\.value) }

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .choices(let selections) = answer else { throw wrongKindError }
        try choices.validate(selections, multiple: false)
    }

    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        .choices(try choices.selections(fromText: trimmed))
    }

    func hint(in context: TextInputContext) -> String { "choose one: type its number" }

    func display(_ answer: Answer, decimalSeparator: String) -> String {
        guard case .choices(let selections) = answer else { return standardDisplay(answer, decimalSeparator: decimalSeparator) }
        return choices.displayText(of: selections)
    }
}

extension AnswerValidationError {
    /// The refusal of an answer that is not a choice, by a format whose answer is one.
    static let takesAChoice = AnswerValidationError(.takesChoice)
}

/// The rules of a list of choices, which every format built on one shares: choice formats, value pickers, text scales.
extension Array where Element: ChoiceOption {
    /// At least `minimumCount` choices, each with a text and a distinct value; paths under `prefix`.
    func addListProblems(at prefix: String, minimumCount: Int, to problems: inout FormatProblems) {
        let path = FormatProblems.path(prefix, "choices")
        if count < minimumCount {
            problems.add(path, minimumCount == 1 ? "needs at least one choice" : "needs at least \(minimumCount) choices (has \(count))")
        }
        addTextAndValueProblems(at: path, to: &problems)
    }

    /// Texts not blank; values not blank, finite and distinct (`2` and `2.0` are the same value).
    func addTextAndValueProblems(at path: String, to problems: inout FormatProblems) {
        for (index, choice) in enumerated() where choice.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problems.add("\(path)[\(index)].text", "must not be empty")
        }
        let values = map(\.value)
        for (index, value) in values.enumerated() {
            let valuePath = "\(path)[\(index)].value"
            switch value {
            case .string(let text) where text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty:
                problems.add(valuePath, "must not be empty")
            case .decimal(let number) where !number.isFinite:
                problems.add(valuePath, "must be a finite number (is \(number))")
            default:
                if let first = values[..<index].firstIndex(where: { $0.isSameChoice(as: value) }) {
                    problems.add(valuePath, "repeats the value of \(path)[\(first)] (\(value.quotedForProblem)); values must be unique")
                }
            }
        }
    }

    /// Choices of formats that show only the text (`kind`, such as "a value picker"): no exclusive flag, no "other" field.
    func addPlainChoiceProblems(at prefix: String, kind: String, to problems: inout FormatProblems) {
        for (index, choice) in enumerated() {
            let path = FormatProblems.path(prefix, "choices[\(index)]")
            if choice.exclusive { problems.add("\(path).exclusive", "has no meaning in \(kind)") }
            if choice.other != nil { problems.add("\(path).other", "\(kind) has no free-text field") }
        }
    }

    /// Checks a selection: each chosen once and among the choices, one only unless `multiple`, an exclusive choice
    /// alone, text only with an "other" choice (and there when it is required).
    func validate(_ selections: [ChoiceSelection], multiple: Bool) throws(AnswerValidationError) {
        guard !selections.isEmpty else { throw AnswerValidationError(.chooseAnswer) }
        var chosen: [Element] = []
        for selection in selections {
            guard let option = first(where: { $0.value.isSameChoice(as: selection.value) }) else {
                throw AnswerValidationError(.notAChoice)
            }
            guard !chosen.contains(where: { $0.value.isSameChoice(as: option.value) }) else {
                throw AnswerValidationError(.chooseEachOnce)
            }
            chosen.append(option)
        }
        if !multiple, chosen.count > 1 { throw AnswerValidationError(.chooseOnlyOne) }
        if chosen.count > 1, let exclusive = chosen.first(where: \.exclusive) {
            throw AnswerValidationError(.exclusiveChoice, ["choice": .text(exclusive.text)])
        }
        for (selection, option) in zip(selections, chosen) {
            let hasText = selection.text.map { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty } ?? false
            if let other = option.other {
                if other.textRequired, !hasText { throw AnswerValidationError(.otherTextRequired, ["choice": .text(option.text)]) }
                if let text = selection.text {
                    try FreeTextRules.check(text, allowingLineBreaks: false, maximumLength: FreeTextRules.maximumOtherTextLength)
                }
            } else if hasText {
                throw AnswerValidationError(.otherTextNotTaken, ["choice": .text(option.text)])
            }
        }
    }

    /// The choice a single reference names: its 1-based number, a string value, or its text (case-insensitive).
    func option(named reference: String) -> Element? {
        let reference = reference.trimmingCharacters(in: .whitespaces)
        guard !reference.isEmpty else { return nil }
        if reference.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let number = Int(reference), indices.contains(number - 1) else { return nil }
            return self[number - 1]
        }
        if let exact = first(where: { $0.value == .string(reference) }) { return exact }
        return first { option in
            if case .string(let value) = option.value, value.caseInsensitiveCompare(reference) == .orderedSame { return true }
            return option.text.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare(reference) == .orderedSame
        }
    }

    /// References separated by commas; a part that names no choice as a whole is split at spaces.
    func options(referencedBy text: String) throws(AnswerValidationError) -> [Element] {
        var found: [Element] = []
        for part in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            if let match = option(named: part) {
                found.append(match)
                continue
            }
            for word in part.split(whereSeparator: \.isWhitespace).map(String.init) {
                guard let match = option(named: word) else {
                    throw AnswerValidationError(.unknownChoiceTyped, ["text": .text(String(word)), "count": .integer(count)])
                }
                found.append(match)
            }
        }
        return found
    }

    /// The selection typed: references to choices, and an "other" choice's words after a colon (`3: my own words`).
    func selections(fromText text: String) throws(AnswerValidationError) -> [ChoiceSelection] {
        guard !isEmpty else { throw AnswerValidationError(.noChoices) }
        if let match = option(named: text) { return [ChoiceSelection(match.value)] }
        if contains(where: { $0.other != nil }), let colon = text.firstIndex(of: ":") {
            let chosen = try options(referencedBy: String(text[..<colon]))
            let words = text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            var selections = chosen.map { ChoiceSelection($0.value) }
            if !selections.isEmpty, !words.isEmpty { selections[selections.count - 1].text = words }
            return selections
        }
        return try options(referencedBy: text).map { ChoiceSelection($0.value) }
    }

    /// The text of the choice with `value`; the value itself when no choice has it.
    func text(of value: ChoiceValue) -> String {
        first { $0.value.isSameChoice(as: value) }?.text ?? value.description
    }

    /// A selection for people: the choices' texts, each with its typed words ("Often, Other: on weekends").
    func displayText(of selections: [ChoiceSelection]) -> String {
        selections.map { selection in
            let name = text(of: selection.value)
            return selection.text.map { "\(name): \($0)" } ?? name
        }.joined(separator: ", ")
    }
}

extension ChoiceValue {
    /// Whether two values name the same choice: equal, or equal numbers whatever their JSON spelling (`2` and `2.0`).
    public func isSameChoice(as other: ChoiceValue) -> Bool {
        if self == other { return true }
        if let lhs = numericValue, let rhs = other.numericValue { return lhs == rhs }
        return false
    }

    /// The value as it appears in JSON, for problem messages: strings quoted, numbers bare.
    fileprivate var quotedForProblem: String {
        if case .string(let text) = self { return "\"\(text)\"" }
        return description
    }
}
