import Foundation

extension Condition: CustomStringConvertible {
    /// The canonical one-line text form, which ``init(parsing:)`` reads back into the same tree.
    ///
    /// Operators are separated by single spaces and parentheses appear only where precedence needs them:
    /// around an `or` inside an `and`, and around an `and` or `or` after `not`. Trees the parser cannot
    /// produce print as their closest equivalent: an empty `and` as `true`, an empty `or` as `false`,
    /// a one-element `and`/`or` as its element, and a nested chain of the same operator as one chain.
    public var description: String { rendered.text }

    /// How tightly a printed condition binds, loosest first; a child binding looser than its parent
    /// requires is put in parentheses.
    private enum Precedence: Int, Comparable {
        case or, and, not, primary

        static func < (lhs: Precedence, rhs: Precedence) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The text of the condition and how tightly it binds.
    private var rendered: (text: String, precedence: Precedence) {
        switch self {
        case .constant(let value):
            return (value ? "true" : "false", .primary)
        case .and(let operands):
            return Condition.chain(operands, keyword: "and", precedence: .and, empty: true)
        case .or(let operands):
            return Condition.chain(operands, keyword: "or", precedence: .or, empty: false)
        case .not(let operand):
            return ("not " + operand.text(bindingAtLeast: .not), .not)
        case .answered(let reference):
            return ("answered(\(reference))", .primary)
        case .expression(let calculation):
            return ("expression(\(ConditionValue.string(calculation.language)), \(ConditionValue.string(calculation.expression)))", .primary)
        case .dontKnow(let reference):
            return ("dontKnow(\(reference))", .primary)
        case .comparison(let reference, let comparison, let value):
            return ("\(reference) \(comparison.rawValue) \(value)", .primary)
        case .inRange(let reference, let lower, let upper):
            return ("\(reference) in \(lower)...\(upper)", .primary)
        case .contains(let reference, let value):
            return ("\(reference) contains \(value)", .primary)
        case .matches(let reference, let pattern):
            return ("\(reference) matches \(ConditionValue.string(pattern))", .primary)
        }
    }

    private static func chain(_ operands: [Condition], keyword: String, precedence: Precedence, empty: Bool)
        -> (text: String, precedence: Precedence) {
        switch operands.count {
        case 0: return (empty ? "true" : "false", .primary)
        case 1: return operands[0].rendered
        default: return (operands.map { $0.text(bindingAtLeast: precedence) }.joined(separator: " \(keyword) "), precedence)
        }
    }

    /// The text, in parentheses when the condition binds looser than `minimum`.
    private func text(bindingAtLeast minimum: Precedence) -> String {
        let (text, precedence) = rendered
        return precedence < minimum ? "(\(text))" : text
    }
}

extension AnswerReference: CustomStringConvertible {
    /// The text form: `step`, `step.item`, `task:step` or `task:step.item`, with identifiers in
    /// backticks where they are not plain words; ``init(parsing:)`` reads it back.
    public var description: String {
        var text = task.map { AnswerReference.quoted($0) + ":" } ?? ""
        text += AnswerReference.quoted(step)
        if let item { text += "." + AnswerReference.quoted(item) }
        return text
    }

    /// The identifier as written in the text form: bare when it is a plain non-keyword word,
    /// otherwise in backticks with inner backticks doubled.
    static func quoted(_ identifier: String) -> String {
        if ConditionSyntax.isBareIdentifier(identifier) { return identifier }
        return "`" + identifier.replacingOccurrences(of: "`", with: "``") + "`"
    }
}

extension ConditionValue: CustomStringConvertible {
    /// The literal as written in the text form: `7`, `-2.5`, `"fever"` (escaped), `true`.
    ///
    /// Numbers print without exponent and without trailing zeros in the fraction.
    public var description: String {
        switch self {
        case .number(let value):
            return value.plainDescription
        case .boolean(let value):
            return value ? "true" : "false"
        case .string(let value):
            var text = "\""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case "\n": text += "\\n"
                case "\t": text += "\\t"
                case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                    text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                default:
                    text.unicodeScalars.append(scalar)
                }
            }
            return text + "\""
        }
    }
}

extension Decimal {
    /// The number in plain decimal notation, without exponent and without trailing fractional zeros:
    /// `7`, `2.5`, `-0.001`.
    var plainDescription: String {
        let text = description
        guard text.contains("."), !text.contains(where: { $0 == "e" || $0 == "E" }) else { return text }
        var trimmed = Substring(text)
        while trimmed.hasSuffix("0") { trimmed = trimmed.dropLast() }
        if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}
