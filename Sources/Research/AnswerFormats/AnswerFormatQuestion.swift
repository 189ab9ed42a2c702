import Foundation

/// Something ``AnswerFormat`` asks of a case's rules, answered with the rules' concrete type (see
/// ``AnswerFormat/ask(_:)``). Each is what one public method of ``AnswerFormat`` does with the rules; what every format
/// shares ("I don't know", answers of the wrong kind) is done here, once.
protocol AnswerFormatQuestion {
    /// What the rules answer.
    associatedtype Reply
    /// Asks `rules`.
    func ask<Rules: AnswerFormatRules>(_ rules: Rules) -> Reply
}

/// The format's "I don't know" option.
struct DontKnowQuestion: AnswerFormatQuestion {
    func ask<Rules: AnswerFormatRules>(_ rules: Rules) -> DontKnowOption? { rules.dontKnow }
}

/// The values of the format's choices.
struct ChoiceValuesQuestion: AnswerFormatQuestion {
    func ask<Rules: AnswerFormatRules>(_ rules: Rules) -> [ChoiceValue] { rules.choiceValues }
}

/// The unit the format's answers are stored in.
struct UnitQuestion: AnswerFormatQuestion {
    func ask<Rules: AnswerFormatRules>(_ rules: Rules) -> String? { rules.unit }
}

/// The refusal of an answer of the wrong shape.
struct WrongKindQuestion: AnswerFormatQuestion {
    func ask<Rules: AnswerFormatRules>(_ rules: Rules) -> AnswerValidationError { rules.wrongKindError }
}

/// Everything wrong with the settings, the "I don't know" text included.
struct ConstructionQuestion: AnswerFormatQuestion {
    func ask<Rules: AnswerFormatRules>(_ rules: Rules) -> [FormatProblem] {
        var problems = FormatProblems()
        rules.addConstructionProblems(to: &problems)
        if let text = rules.dontKnow?.text, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problems.add("dontKnow.text", "must not be empty; leave it out to use the standard “I don't know”")
        }
        return problems.list
    }
}

/// Why `answer` is refused; nil when it is valid.
struct ValidationQuestion: AnswerFormatQuestion {
    var answer: Answer
    /// The kind of answer the format takes.
    var kind: AnswerKind

    func ask<Rules: AnswerFormatRules>(_ rules: Rules) -> AnswerValidationError? {
        if case .dontKnow = answer {
            return rules.dontKnow == nil ? AnswerValidationError(.noDontKnow) : nil
        }
        guard answer.kind == kind else { return rules.wrongKindError }
        do {
            try rules.validate(answer)
            return nil
        } catch {
            return error
        }
    }
}

/// `answer` as stored, or nil for no answer.
struct NormalizationQuestion: AnswerFormatQuestion {
    var answer: Answer
    func ask<Rules: AnswerFormatRules>(_ rules: Rules) -> Answer? { rules.normalized(answer) }
}

/// Typed text (never blank) read as a normalised answer, not yet validated: "I don't know" when the format offers it.
struct TextInputQuestion: AnswerFormatQuestion {
    var trimmed: String
    var typed: String
    var context: TextInputContext

    func ask<Rules: AnswerFormatRules>(_ rules: Rules) -> Result<Answer?, AnswerValidationError> {
        if let option = rules.dontKnow, TextInput.isDontKnow(trimmed, option: option) { return .success(.dontKnow) }
        do {
            return .success(rules.normalized(try rules.answer(fromText: trimmed, typed: typed, in: context)))
        } catch {
            return .failure(error)
        }
    }
}

/// What to type at the terminal's prompt.
struct HintQuestion: AnswerFormatQuestion {
    var context: TextInputContext

    func ask<Rules: AnswerFormatRules>(_ rules: Rules) -> String {
        let text = rules.hint(in: context)
        return rules.dontKnow == nil ? text : text + "; ? if you don't know"
    }
}

/// An answer as text for people.
struct DisplayQuestion: AnswerFormatQuestion {
    var answer: Answer
    var decimalSeparator: String

    func ask<Rules: AnswerFormatRules>(_ rules: Rules) -> String {
        if case .dontKnow = answer { return rules.dontKnow?.text ?? "I don't know" }
        return rules.display(answer, decimalSeparator: decimalSeparator)
    }
}
