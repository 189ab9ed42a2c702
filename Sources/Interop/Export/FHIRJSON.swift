import Foundation

/// A FHIR resource, or any part of one, as JSON: what the export builders produce and the Bundle and NDJSON
/// writers print.
///
/// Objects keep their members in the order they were built, so resources print in FHIR's customary order
/// (`resourceType` and `id` first) and the same data always prints the same bytes.
///
/// ```swift
/// let coding = FHIRJSON.fields(["system": "http://loinc.org", "code": "72514-3", "display": nil])
/// coding["code"]?.stringValue        // "72514-3"; members given as nil are left out
/// print(coding.serialized())          // {"system":"http://loinc.org","code":"72514-3"}
/// ```
public indirect enum FHIRJSON: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
                               ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral {
    /// A JSON string: FHIR's string, code, uri, id, date, dateTime, instant, time and base64Binary values.
    case string(String)
    /// A JSON number without a fraction: FHIR's integer, positiveInt and unsignedInt values.
    case integer(Int)
    /// A JSON number that may have a fraction: FHIR's decimal values. Always finite.
    case decimal(Double)
    /// `true` or `false`.
    case boolean(Bool)
    /// A JSON array.
    case array([FHIRJSON])
    /// A JSON object, its members in order.
    case object([FHIRJSONMember])

    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer value.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A boolean value.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    /// An array value.
    public init(arrayLiteral elements: FHIRJSON...) { self = .array(elements) }

    /// An object of the members whose value is not nil, in the order given; nil members are left out, as FHIR
    /// JSON leaves out absent elements instead of writing `null`.
    public static func fields(_ members: KeyValuePairs<String, FHIRJSON?>) -> FHIRJSON {
        .object(members.compactMap { key, value in value.map { FHIRJSONMember(key: key, value: $0) } })
    }

    // MARK: Reading

    /// The value of the object member `key`; nil when this is not an object or has no such member.
    public subscript(key: String) -> FHIRJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The array element at `index`; nil when this is not an array or the index is out of range.
    public subscript(index: Int) -> FHIRJSON? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The text of a string value; nil for any other value.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number of an integer value; nil for any other value.
    public var integerValue: Int? {
        if case .integer(let number) = self { return number }
        return nil
    }

    /// The number of a decimal or integer value; nil for any other value.
    public var decimalValue: Double? {
        switch self {
        case .decimal(let number): number
        case .integer(let number): Double(number)
        default: nil
        }
    }

    /// The flag of a boolean value; nil for any other value.
    public var booleanValue: Bool? {
        if case .boolean(let flag) = self { return flag }
        return nil
    }

    /// The elements of an array value; nil for any other value.
    public var arrayValue: [FHIRJSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members of an object value, in order; nil for any other value.
    public var members: [FHIRJSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// This value with every string member named `key`, at any depth, passed through `transform`: how a Bundle
    /// turns each `reference` into the `fullUrl` of the entry it names.
    public func replacingStrings(forKey key: String, _ transform: (String) -> String) -> FHIRJSON {
        switch self {
        case .array(let elements):
            return .array(elements.map { $0.replacingStrings(forKey: key, transform) })
        case .object(let members):
            return .object(members.map { member in
                if member.key == key, case .string(let text) = member.value {
                    return FHIRJSONMember(key: key, value: .string(transform(text)))
                }
                return FHIRJSONMember(key: member.key, value: member.value.replacingStrings(forKey: key, transform))
            })
        case .string, .integer, .decimal, .boolean:
            return self
        }
    }

    // MARK: Printing

    /// The value as JSON text: compact on one line (for NDJSON), or `pretty` with two-space indentation. Strings
    /// are escaped as JSON requires and no more (a `/` stays a `/`); non-ASCII text is written as UTF-8.
    public func serialized(pretty: Bool = false) -> String {
        var output = ""
        write(to: &output, pretty: pretty, indent: 0)
        return output
    }

    private func write(to output: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .string(let text):
            Self.writeString(text, to: &output)
        case .integer(let number):
            output += String(number)
        case .decimal(let number):
            output += Self.decimalText(number)
        case .boolean(let flag):
            output += flag ? "true" : "false"
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
                element.write(to: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { output += "\n" + String(repeating: "  ", count: indent) }
            output += "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
                Self.writeString(member.key, to: &output)
                output += pretty ? ": " : ":"
                member.value.write(to: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { output += "\n" + String(repeating: "  ", count: indent) }
            output += "}"
        }
    }

    /// A finite double as a JSON number: `6.5`, `3.0`, `1e-05`.
    static func decimalText(_ number: Double) -> String {
        precondition(number.isFinite, "FHIR decimals are finite; builders refuse infinity and NaN before they get here")
        return "\(number)"
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

extension FHIRJSON: Decodable {
    /// Reads any JSON value. Object members come back with `resourceType` and `id` first and the rest sorted by
    /// key (a decoder does not keep the order of the text). A whole number such as `2` or `2.0` reads as an integer.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
            let keys = container.allKeys.sorted { left, right in
                let leftRank = Self.keyRank(left.stringValue), rightRank = Self.keyRank(right.stringValue)
                return leftRank != rightRank ? leftRank < rightRank : left.stringValue < right.stringValue
            }
            self = .object(try keys.map { FHIRJSONMember(key: $0.stringValue, value: try container.decode(FHIRJSON.self, forKey: $0)) })
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [FHIRJSON] = []
            while !container.isAtEnd { elements.append(try container.decode(FHIRJSON.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .boolean(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .integer(number)
        } else if let number = try? container.decode(Double.self) {
            self = .decimal(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "FHIR JSON has no null values")
        }
    }

    private static func keyRank(_ key: String) -> Int {
        switch key {
        case "resourceType": 0
        case "id": 1
        default: 2
        }
    }

    private struct AnyCodingKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
