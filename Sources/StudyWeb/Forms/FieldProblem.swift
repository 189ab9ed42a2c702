import Foundation
import Research

/// A problem with one question (or the signature, or a reminder email address) of a posted step, shown beside it when
/// the page is shown again.
public enum FieldProblem: Hashable, Sendable {
    /// Research's refusal of the answer, such as "Enter a number from 0 to 10.", worded in the page's language.
    case answer(AnswerValidationError)
    /// A problem the web runner words itself, in the page's language: a required answer or signature missing,
    /// a choice that is not in the list, a multiple value picker with a list left empty.
    case builtIn(WebStringKey)
    /// A problem the web runner words itself with values put in its placeholders: a reminder email address refused
    /// (`remindersEmailInvalid` with its `problem`), as the reminders page words it.
    case formatted(WebStringKey, [String: String])

    /// The text to show, in the language of `strings`: a study's override of a message counts too.
    public func text(in strings: WebStrings) -> String {
        switch self {
        case .answer(let problem): problem.message(locale: strings.locale) { strings.text(WebStrings.answerKey($0)) }
        case .builtIn(let key): strings[key]
        case .formatted(let key, let values): strings.format(key, values)
        }
    }
}
