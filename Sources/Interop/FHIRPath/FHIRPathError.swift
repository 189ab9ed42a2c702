/// Why a FHIRPath expression could not be parsed or evaluated.
///
/// Parse errors and errors raised by one part of an expression carry the character offset (from 0, in
/// `Character`s of the expression text) where that part starts.
public struct FHIRPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The text is not a FHIRPath expression (or uses syntax this subset does not read).
        case syntax
        /// A function this subset does not implement; the message names it.
        case unsupportedFunction
        /// A function was called with the wrong number or kind of arguments.
        case invalidArguments
        /// An operator or function met a collection of more than one item where it needs one.
        case cardinality
        /// An operator or function met a type it cannot work on (such as `1 < 'a'`).
        case type
        /// `%name` names no variable in the environment.
        case undefinedVariable
        /// Evaluation needed information it could not find (such as `%questionnaire` for `ordinal()`).
        case evaluation
    }

    /// The kind of problem.
    public var kind: Kind
    /// What is wrong, in words.
    public var message: String
    /// Where in the expression (a `Character` offset from 0); nil when the problem has no one place.
    public var offset: Int?

    /// Creates an error; see the properties for each part.
    public init(_ kind: Kind, _ message: String, at offset: Int? = nil) {
        self.kind = kind
        self.message = message
        self.offset = offset
    }

    /// `message (at offset N)`.
    public var description: String {
        offset.map { "\(message) (at offset \($0))" } ?? message
    }
}
