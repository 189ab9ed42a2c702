import Foundation

/// A JSON value as the QuestionnaireResponse code reads and writes it: `Sendable`, and with numbers kept as
/// `Decimal` read from their text, so that `2.1` stays `2.1` on the way in and on the way out.
///
/// Objects are unordered when read; when written, members follow FHIR's element order (see
/// ``memberRank``) so that the output reads like the FHIR examples and is byte-for-byte stable.
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

    /// Parses JSON text; throws the decoder's error when the data is not JSON.
    init(parsing data: Data) throws {
        self = try JSONDecoder().decode(FHIRJSONValue.self, from: data)
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

    /// The value as UTF-8 JSON text, compact or indented by two spaces.
    func serialized(prettyPrinted: Bool) -> Data {
        var text = ""
        write(into: &text, prettyPrinted: prettyPrinted, depth: 0)
        if prettyPrinted { text += "\n" }
        return Data(text.utf8)
    }

    /// Where a member goes among its siblings: FHIR's element order for the members a QuestionnaireResponse
    /// uses (`value, unit, system, code, display` suits both Quantity and Coding), others after them by name.
    static func memberRank(_ key: String) -> Int {
        let order = ["resourceType", "id", "questionnaire", "status", "subject", "authored", "author",
                     "linkId", "text", "answer", "item", "reference", "value", "unit", "system", "code", "display"]
        return order.firstIndex(of: key) ?? order.count
    }

    private func write(into text: inout String, prettyPrinted: Bool, depth: Int) {
        let newline = prettyPrinted ? "\n" + String(repeating: "  ", count: depth + 1) : ""
        let closing = prettyPrinted ? "\n" + String(repeating: "  ", count: depth) : ""
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let value): text += value.description
        case .string(let value): Self.writeString(value, into: &text)
        case .array(let elements):
            guard !elements.isEmpty else { text += "[]"; return }
            text += "["
            for (index, element) in elements.enumerated() {
                text += (index == 0 ? "" : ",") + newline
                element.write(into: &text, prettyPrinted: prettyPrinted, depth: depth + 1)
            }
            text += closing + "]"
        case .object(let members):
            guard !members.isEmpty else { text += "{}"; return }
            let keys = members.keys.sorted { (Self.memberRank($0), $0) < (Self.memberRank($1), $1) }
            text += "{"
            for (index, key) in keys.enumerated() {
                text += (index == 0 ? "" : ",") + newline
                Self.writeString(key, into: &text)
                text += prettyPrinted ? ": " : ":"
                members[key]?.write(into: &text, prettyPrinted: prettyPrinted, depth: depth + 1)
            }
            text += closing + "}"
        }
    }

    private static func writeString(_ value: String, into text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                text += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

extension FHIRJSONValue: Decodable {
    /// Reads any JSON value; booleans are never taken for numbers, nor numbers for booleans.
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Decimal.self) {
            self = .number(value)
        } else if let value = try? container.decode([FHIRJSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: FHIRJSONValue].self))
        }
    }
}
