import Foundation
// Interim until the formats branch merges (replaced wholesale by it).
extension AnswerFormat {
    public func answer(fromText text: String, locale: Locale = Locale(identifier: "en_US_POSIX"), timeZone: TimeZone = .current, calendar: Calendar.Identifier = .gregorian) throws(AnswerValidationError) -> Answer? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.isEmpty { return nil }
        switch type.answerKind {
        case .number: guard let d = Decimal(string: t) else { throw AnswerValidationError("Enter a number.") }; return .number(d)
        case .boolean: return .boolean(t.hasPrefix("y"))
        case .choices:
            return .choices([ChoiceSelection(.integer(Int(t) ?? 0))])
        default: return .text(t)
        }
    }
    public func hint(locale: Locale = Locale(identifier: "en_US_POSIX")) -> String { type.rawValue }
    public func display(_ answer: Answer, locale: Locale = Locale(identifier: "en_US_POSIX")) -> String { "\(answer)" }
}
