import Foundation

/// Why an answer was refused, in words the participant sees: "Enter a number from 0 to 10."
///
/// The server, the web page and the terminal runner all show this message as it is, so it is a whole
/// sentence addressed to the participant and never mentions JSON keys or internal values.
public struct AnswerValidationError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The sentence shown to the participant.
    public var message: String

    /// Creates an error with the sentence shown to the participant.
    public init(_ message: String) { self.message = message }

    /// The message itself.
    public var description: String { message }

    /// The message itself, so that `localizedDescription` shows it too.
    public var errorDescription: String? { message }
}
