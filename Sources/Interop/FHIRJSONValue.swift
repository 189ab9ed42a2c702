import Foundation

/// A by-name view of ``FHIRJSON`` for the QuestionnaireResponse code: members looked up by name, numbers as
/// `Decimal` (as ``FHIRJSON``'s parser read them, so that `2.1` stays `2.1`). Parsing and writing are
/// ``FHIRJSON``'s; when written, members follow FHIR's element order (see ``memberRank``) so that the output
/// reads like the FHIR examples and is byte-for-byte stable.
enum FHIRJSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, exactly as written.
    case number(Decimal)
    /// A string.
    case string(String)
    /// An array.
    case array([FHIRJSONValue])
    /// An object.
    case object([String: FHIRJSONValue])

    /// Parses JSON text with ``FHIRJSON``'s parser; throws its error (with line and column) when the data is not JSON.
    init(parsing data: Data) throws {
        self.init(try FHIRJSON(data: data))
    }

    /// The same value with members by name: numbers as decimals, integers included.
    init(_ json: FHIRJSON) {
        switch json {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .integer(let number): self = .number(Decimal(number))
        case .decimal(let number, _): self = .number(number)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(FHIRJSONValue.init))
        case .object(let object): self = .object(Dictionary(object.map { ($0.key, FHIRJSONValue($0.value)) }, uniquingKeysWith: { _, last in last }))
        }
    }

    /// As ``FHIRJSON``, members in FHIR's order (``memberRank(_:)``), for writing.
    var fhirJSON: FHIRJSON {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number): return .decimal(number)
        case .string(let text): return .string(text)
        case .array(let elements): return .array(elements.map(\.fhirJSON))
        case .object(let members):
            let keys = members.keys.sorted { (Self.memberRank($0), $0) < (Self.memberRank($1), $1) }
            return .object(FHIRJSONObject(keys.map { (key: $0, value: members[$0]!.fhirJSON) }))
        }
    }

    /// The member `key` of an object; nil for a missing member or a value that is not an object.
    subscript(key: String) -> FHIRJSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string, when this is a string.
    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, when this is a number.
    var number: Decimal? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The flag, when this is `true` or `false`.
    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    var array: [FHIRJSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when this is an object.
    var object: [String: FHIRJSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// A short name of the JSON type, for messages: `a string`, `a number`…
    var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as UTF-8 JSON text, compact or indented by two spaces, written by ``FHIRJSON``.
    func serialized(prettyPrinted: Bool) -> Data {
        Data((fhirJSON.serialized(pretty: prettyPrinted) + (prettyPrinted ? "\n" : "")).utf8)
    }

    /// Where a member goes among its siblings: FHIR's element order for the members a QuestionnaireResponse
    /// uses (an answer's `value[x]` before its nested `item`; `value, unit, system, code, display` suits both
    /// Quantity and Coding), others after them by name.
    static func memberRank(_ key: String) -> Int {
        let order = ["resourceType", "id", "questionnaire", "status", "subject", "authored", "author",
                     "linkId", "text", "answer", "value[x]", "item", "reference", "value", "unit", "system", "code", "display"]
        let name = key.count > 5 && key.hasPrefix("value") && key.dropFirst(5).first?.isUppercase == true ? "value[x]" : key
        return order.firstIndex(of: name) ?? order.count
    }
}
