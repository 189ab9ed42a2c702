import Foundation

/// Yes or no, with optional custom texts for the two answers.
public struct BooleanFormat: Hashable, Sendable, Codable {
    /// The text of the yes answer; "Yes" when nil. Must not be blank, and must differ from the no text (ignoring case).
    public var yesText: String?
    /// The text of the no answer; "No" when nil. Must not be blank, and must differ from the yes text (ignoring case).
    public var noText: String?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a yes-or-no format; see the properties for each setting's rules.
    public init(yesText: String? = nil, noText: String? = nil, dontKnow: DontKnowOption? = nil) {
        self.yesText = yesText
        self.noText = noText
        self.dontKnow = dontKnow
    }
}

extension BooleanFormat: AnswerFormatRules {
    static let jsonKeys: Set<String> = ["yesText", "noText", "dontKnow"]
    var wrongKindError: AnswerValidationError { AnswerValidationError(.takesYesOrNo) }

    func addConstructionProblems(to problems: inout FormatProblems) {
        if let yes = yesText, yes.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problems.add("yesText", "must not be empty; leave it out to use “Yes”")
        }
        if let no = noText, no.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problems.add("noText", "must not be empty; leave it out to use “No”")
        }
        let yes = yesText ?? "Yes", no = noText ?? "No"
        if yes.trimmingCharacters(in: .whitespacesAndNewlines).caseInsensitiveCompare(no.trimmingCharacters(in: .whitespacesAndNewlines)) == .orderedSame {
            problems.add("noText", "must differ from the yes text (both are “\(no)”)")
        }
    }

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .boolean = answer else { throw wrongKindError }
    }

    /// The format's own texts, or yes, y, true, 1 and no, n, false, 2.
    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        let typed = trimmed.lowercased()
        if let yes = yesText, typed == yes.trimmingCharacters(in: .whitespaces).lowercased() { return .boolean(true) }
        if let no = noText, typed == no.trimmingCharacters(in: .whitespaces).lowercased() { return .boolean(false) }
        if ["yes", "y", "true", "1"].contains(typed) { return .boolean(true) }
        if ["no", "n", "false", "2"].contains(typed) { return .boolean(false) }
        if yesText != nil || noText != nil {
            throw AnswerValidationError(.answerYesOrNoWords, ["yes": yesText.map { .text($0) } ?? .phrase(.yes), "no": noText.map { .text($0) } ?? .phrase(.no)])
        }
        throw AnswerValidationError(.answerYesOrNo)
    }

    func hint(in context: TextInputContext) -> String {
        yesText == nil && noText == nil ? "yes or no" : "\(yesText ?? "yes") or \(noText ?? "no") (or yes / no)"
    }

    func display(_ answer: Answer, decimalSeparator: String) -> String {
        guard case .boolean(let value) = answer else { return standardDisplay(answer, decimalSeparator: decimalSeparator) }
        return value ? yesText ?? "Yes" : noText ?? "No"
    }
}
