/// A problem with one question (or the signature) of a posted step, shown beside it when the page is shown again.
public enum FieldProblem: Hashable, Sendable {
    /// Research's validation message for the answer, such as "Enter a number from 0 to 10." (English, as Research words it).
    case message(String)
    /// A problem the web runner words itself, in the page's language: a required answer or signature missing,
    /// a choice that is not in the list, a multiple value picker with a list left empty.
    case builtIn(WebStringKey)

    /// The text to show, in the language of `strings` where the problem is a built-in one.
    public func text(in strings: WebStrings) -> String {
        switch self {
        case .message(let message): message
        case .builtIn(let key): strings[key]
        }
    }
}
