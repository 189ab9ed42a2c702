import Foundation

/// What FHIR R4 says about a Questionnaire item's `type` that both the importer and the response reader need.
enum FHIRItemType {
    /// The `[x]` suffix of the answers an item of `type` takes (`answerBoolean` in an `enableWhen`, `valueBoolean` in a
    /// response): `Boolean` for boolean, `Quantity` for quantity…; nil for choice items, whose answers take their
    /// options' type, and for groups and display items.
    /// Whether an item of `type` with `options` answer options is answered from a list: a choice or open-choice
    /// item always; an integer, date, time, string or text item when it has an `answerOption` list (R4 allows one).
    static func takesAnswerList(_ type: String, options: Int) -> Bool {
        type == "choice" || type == "open-choice" || (options > 0 && listTypes[type] != nil)
    }

    /// The item types that may carry an `answerOption` list besides choices, with the option value type each takes.
    static let listTypes: [String: String] = ["integer": "Integer", "date": "Date", "time": "Time", "string": "String", "text": "String"]

    static func answerSuffix(_ type: String) -> String? {
        switch type {
        case "boolean": "Boolean"
        case "decimal": "Decimal"
        case "integer": "Integer"
        case "date": "Date"
        case "dateTime": "DateTime"
        case "time": "Time"
        case "string", "text": "String"
        case "url": "Uri"
        case "quantity": "Quantity"
        case "attachment": "Attachment"
        default: nil
        }
    }
}
