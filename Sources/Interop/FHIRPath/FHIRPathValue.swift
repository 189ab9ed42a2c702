import Foundation

/// A result collection of a FHIRPath expression: FHIRPath results are always collections, in order.
public typealias FHIRPathCollection = [FHIRPathValue]

/// One item of a FHIRPath collection: an element of a resource, or a FHIRPath system value.
public enum FHIRPathValue: Sendable, Hashable {
    /// An element of a resource (an object, array element or primitive found by navigation).
    case node(FHIRPathNode)
    /// A System.Boolean.
    case boolean(Bool)
    /// A System.Integer.
    case integer(Int)
    /// A System.Decimal.
    case decimal(Decimal)
    /// A System.String.
    case string(String)
    /// A System.Date.
    case date(FHIRPathTemporal)
    /// A System.DateTime.
    case dateTime(FHIRPathTemporal)
    /// A System.Time.
    case time(FHIRPathTemporal)
    /// A System.Quantity.
    case quantity(FHIRPathQuantity)

    /// A resource as a collection item, for the environment of ``FHIRPathExpression/evaluate(on:environment:)``
    /// (such as `%questionnaire`); `root` names where it came from.
    public static func resource(_ json: FHIRJSON, root: String = "resource") -> FHIRPathValue {
        .node(FHIRPathNode(resource: json, root: root))
    }

    /// The value as JSON, to print or compare: a node gives its JSON; Booleans, integers and strings give the
    /// JSON of the same kind; decimals are written with at least one fraction digit (`10.0`), so they stay
    /// apart from integers in the text; dates, date-times and times give their text without `@`
    /// (`2020-01-01`, `10:30`); a quantity gives `{"value": 5, "unit": "mg"}`.
    public var json: FHIRJSON {
        switch self {
        case .node(let node): node.json
        case .boolean(let value): .bool(value)
        case .integer(let value): .integer(value)
        case .decimal(let value): .decimal(value, fractionDigits: max(1, -Int(value.exponent)))
        case .string(let value): .string(value)
        case .date(let value), .dateTime(let value), .time(let value): .string(value.text)
        case .quantity(let quantity): .object(FHIRJSONObject([("value", .decimal(quantity.value)), ("unit", .string(quantity.unit))]))
        }
    }

    /// The FHIRPath type name: `System.Integer` and the like for system values; for nodes, `FHIR.` and the
    /// node's FHIR type, or `FHIR.Element` when it is unknown.
    public var typeName: String {
        switch self {
        case .node(let node): "FHIR.\(node.fhirType ?? "Element")"
        case .boolean: "System.Boolean"
        case .integer: "System.Integer"
        case .decimal: "System.Decimal"
        case .string: "System.String"
        case .date: "System.Date"
        case .dateTime: "System.DateTime"
        case .time: "System.Time"
        case .quantity: "System.Quantity"
        }
    }
}
