import Foundation
import JSONDiagnostics

/// A JSON value as FHIR resources use it: integers and decimals are kept apart, decimals keep the number of
/// fraction digits they were written with, and object members keep their order.
///
/// Parse a resource with ``init(data:)`` and write it back with ``data(sortedKeys:)``:
///
/// ```swift
/// let response = try FHIRJSON(data: Data(#"{"resourceType": "QuestionnaireResponse", "item": []}"#.utf8))
/// response["resourceType"]?.stringValue  // "QuestionnaireResponse"
/// ```
///
/// Equality compares the JSON as written: `1` (an integer) differs from `1.0` (a decimal with one fraction
/// digit), and `1.5` differs from `1.50`; object members compare regardless of their order.
public enum FHIRJSON: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or exponent that fits in `Int`.
    case integer(Int)
    /// Any other number; `fractionDigits` is how many digits it had after the decimal point as written
    /// (taking an exponent into account, so `1.50` has 2 and `15e-1` has 1), used when writing it back.
    case decimal(Decimal, fractionDigits: Int)
    /// A string.
    case string(String)
    /// An array.
    case array([FHIRJSON])
    /// An object, with its members in the order they were written.
    case object(FHIRJSONObject)

    /// Parses one JSON value (with surrounding whitespace) from UTF-8 data.
    ///
    /// - Throws: ``FHIRJSONError`` naming the byte offset, line and column of the first problem.
    public init(data: Data) throws(FHIRJSONError) {
        let tree: JSONTree
        do {
            tree = try JSONTree(data: data)
        } catch {
            throw FHIRJSONError(message: (error.path.isEmpty ? "" : "\(error.path): ") + error.message, offset: error.offset,
                                line: error.line, column: error.column)
        }
        self = try Self(tree: tree)
    }

    /// The value `tree` holds, with its numbers told apart: an integer is written without a fraction or exponent and
    /// fits in `Int`; any other number is a decimal, which remembers its fraction digits.
    private init(tree: JSONTree) throws(FHIRJSONError) {
        switch tree {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .string(let value): self = .string(value)
        case .array(let elements):
            var values: [FHIRJSON] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try FHIRJSON(tree: element)) }
            self = .array(values)
        case .object(let members):
            var object = FHIRJSONObject()
            for member in members { object[member.key] = try FHIRJSON(tree: member.value) }
            self = .object(object)
        case .number(let text):
            let isInteger = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
            if isInteger, let value = Int(text) {
                self = .integer(value)
                return
            }
            guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN else {
                throw FHIRJSONError(message: "the number \(text) is out of range for a FHIR decimal", offset: 0, line: 0, column: 0)
            }
            self = .decimal(value, fractionDigits: Self.fractionDigits(ofNumber: text))
        }
    }

    /// How many digits `text` has after the decimal point, taking an exponent into account (`1.50`: 2, `15e-1`: 1).
    private static func fractionDigits(ofNumber text: String) -> Int {
        let lowered = text.lowercased()
        let parts = lowered.split(separator: "e", maxSplits: 1)
        let mantissa = parts[0]
        let written = mantissa.firstIndex(of: ".").map { mantissa.distance(from: $0, to: mantissa.endIndex) - 1 } ?? 0
        let exponent = parts.count == 2 ? max(-10_000, min(10_000, Int(parts[1].prefix(6)) ?? 0)) : 0
        return max(0, written - exponent)
    }

    /// Parses one JSON value from a string; see ``init(data:)``.
    public init(string: String) throws(FHIRJSONError) {
        try self.init(data: Data(string.utf8))
    }

    /// A decimal written with as many fraction digits as `value` has (at least none).
    public static func decimal(_ value: Decimal) -> FHIRJSON {
        .decimal(value, fractionDigits: max(0, -Int(value.exponent)))
    }

    /// The member named `key` when this is an object that has one; nil otherwise.
    public subscript(key: String) -> FHIRJSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` when this is an array that has one; nil otherwise.
    public subscript(index: Int) -> FHIRJSON? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// The string when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The Boolean when this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as a `Decimal` when this is an integer or a decimal.
    public var decimalValue: Decimal? {
        switch self {
        case .integer(let value): Decimal(value)
        case .decimal(let value, _): value
        default: nil
        }
    }

    /// The elements when this is an array.
    public var arrayValue: [FHIRJSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The object when this is an object.
    public var objectValue: FHIRJSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The JSON text as UTF-8: compact (no whitespace), members in their order, or sorted by key (by their
    /// UTF-8 bytes) when `sortedKeys` is true, so the same value always gives the same bytes.
    public func data(sortedKeys: Bool = false) -> Data {
        var text = ""
        write(to: &text, sortedKeys: sortedKeys)
        return Data(text.utf8)
    }

    /// The JSON text; see ``data(sortedKeys:)``.
    public func jsonString(sortedKeys: Bool = false) -> String {
        var text = ""
        write(to: &text, sortedKeys: sortedKeys)
        return text
    }

    private func write(to text: inout String, sortedKeys: Bool) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .integer(let value): text += String(value)
        case .decimal(let value, let fractionDigits): text += Self.decimalText(value, fractionDigits: fractionDigits)
        case .string(let value): Self.writeString(value, to: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                element.write(to: &text, sortedKeys: sortedKeys)
            }
            text += "]"
        case .object(let object):
            text += "{"
            let keys = sortedKeys ? object.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) } : object.keys
            for (index, key) in keys.enumerated() {
                if index > 0 { text += "," }
                Self.writeString(key, to: &text)
                text += ":"
                object[key]!.write(to: &text, sortedKeys: sortedKeys)
            }
            text += "}"
        }
    }

    /// Plain decimal notation (no exponent), padded with zeros to `fractionDigits` fraction digits.
    static func decimalText(_ value: Decimal, fractionDigits: Int) -> String {
        var text = value.description
        let currentDigits = text.firstIndex(of: ".").map { text.distance(from: $0, to: text.endIndex) - 1 } ?? 0
        if fractionDigits > currentDigits {
            if currentDigits == 0 { text += "." }
            text += String(repeating: "0", count: fractionDigits - currentDigits)
        }
        return text
    }

    private static func writeString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }
}
