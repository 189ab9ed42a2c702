import Foundation

/// What FHIR R4 says about a Questionnaire item's `type` that both the importer and the response reader need.
enum FHIRItemType {
    /// The `[x]` suffix of the answers an item of `type` takes (`answerBoolean` in an `enableWhen`, `valueBoolean` in a
    /// response): `Boolean` for boolean, `Quantity` for quantity…; nil for choice items, whose answers take their
    /// options' type, and for groups and display items.
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
