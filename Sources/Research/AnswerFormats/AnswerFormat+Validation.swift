import Foundation
// Interim until the formats branch merges (replaced wholesale by it).
public struct AnswerValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
extension AnswerFormat {
    public func validate(_ answer: Answer) throws(AnswerValidationError) {
        if answer == .dontKnow { guard dontKnow != nil else { throw AnswerValidationError("no") }; return }
        guard answer.kind == type.answerKind else { throw AnswerValidationError("wrong kind") }
    }
    public func normalized(_ answer: Answer) -> Answer? {
        if case .text(let t) = answer, t.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return nil }
        return answer
    }
}
