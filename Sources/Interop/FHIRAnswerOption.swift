import Foundation
import Research

/// One allowed answer of a choice item, of the kinds the importer takes.
enum FHIRAnswerOption: Hashable, Sendable {
    /// A Coding (from `answerOption.valueCoding` or a contained ValueSet concept); stored by its code.
    case coding(FHIRAnswerCoding, code: String)
    /// An `answerOption.valueInteger`.
    case integer(Int)
    /// An `answerOption.valueString`.
    case string(String)
    /// An `answerOption.valueDate`, kept as written.
    case date(String)
    /// An `answerOption.valueTime`, kept as written.
    case time(String)

    /// The value a Research choice stores for this option, as the importer sets it.
    var choiceValue: ChoiceValue {
        switch self {
        case .coding(_, let code): .string(code)
        case .integer(let value): .integer(value)
        case .string(let value), .date(let value), .time(let value): .string(value)
        }
    }

    /// The `value[x]` member that answers with this option, such as `("valueCoding", {…})`.
    var answerMember: (key: String, value: FHIRJSONValue) {
        switch self {
        case .coding(let coding, _): ("valueCoding", coding.json)
        case .integer(let value): ("valueInteger", .number(Decimal(value)))
        case .string(let value): ("valueString", .string(value))
        case .date(let value): ("valueDate", .string(value))
        case .time(let value): ("valueTime", .string(value))
        }
    }

    /// The name of the `value[x]` member that answers with this kind of option.
    var answerKey: String { answerMember.key }
}
