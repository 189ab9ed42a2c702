import Foundation

/// Building resources: literals, objects from members in FHIR's customary order, and printing for Bundles and
/// NDJSON. The export builders make resources this way; the FHIRPath evaluator reads them.
///
/// ```swift
/// let coding = FHIRJSON.fields(["system": "http://loinc.org", "code": "72514-3", "display": nil])
/// coding["code"]?.stringValue        // "72514-3"; members given as nil are left out
/// print(coding.serialized())          // {"system":"http://loinc.org","code":"72514-3"}
/// ```
extension FHIRJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
                    ExpressibleByArrayLiteral {
    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer value.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array value.
    public init(arrayLiteral elements: FHIRJSON...) { self = .array(elements) }

    /// An object of the members whose value is not nil, in the order given; nil members are left out, as FHIR
    /// JSON leaves out absent elements instead of writing `null`.
    public static func fields(_ members: KeyValuePairs<String, FHIRJSON?>) -> FHIRJSON {
        .object(FHIRJSONObject(members.compactMap { key, value in value.map { (key: key, value: $0) } }))
    }

    /// An object of these members, in order.
    public static func object(_ members: [FHIRJSONMember]) -> FHIRJSON {
        .object(FHIRJSONObject(members.map { (key: $0.key, value: $0.value) }))
    }

    /// A boolean value.
    public static func boolean(_ flag: Bool) -> FHIRJSON { .bool(flag) }

    /// A finite double as a decimal with the digits Swift prints for it (`6.5`, `3.0`, `0.00001`).
    public static func decimal(_ number: Double) -> FHIRJSON {
        precondition(number.isFinite, "FHIR decimals are finite; builders refuse infinity and NaN before they get here")
        let value = Decimal(string: "\(number)") ?? Decimal(number)
        let text = "\(number)"
        let shown = text.contains("e") ? max(0, -Int(value.exponent)) : text.split(separator: ".").dropFirst().first?.count ?? 0
        return .decimal(value, fractionDigits: shown)
    }

    /// The number of an integer value; nil for any other value.
    public var integerValue: Int? {
        if case .integer(let number) = self { return number }
        return nil
    }

    /// The members of an object value, in order; nil for any other value.
    public var members: [FHIRJSONMember]? {
        guard case .object(let object) = self else { return nil }
        return object.map { FHIRJSONMember(key: $0.key, value: $0.value) }
    }

    /// This value with every string member named `key`, at any depth, passed through `transform`: how a Bundle
    /// turns each `reference` into the `fullUrl` of the entry it names.
    public func replacingStrings(forKey key: String, _ transform: (String) -> String) -> FHIRJSON {
        switch self {
        case .array(let elements):
            return .array(elements.map { $0.replacingStrings(forKey: key, transform) })
        case .object(let object):
            return .object(FHIRJSONObject(object.map { member in
                if member.key == key, case .string(let text) = member.value { return (key: key, value: .string(transform(text))) }
                return (key: member.key, value: member.value.replacingStrings(forKey: key, transform))
            }))
        case .null, .bool, .integer, .decimal, .string:
            return self
        }
    }

    /// The value as JSON text: compact on one line (for NDJSON), or `pretty` with two-space indentation, members in
    /// their order. Strings are escaped as JSON requires and no more; non-ASCII text is written as UTF-8.
    public func serialized(pretty: Bool = false) -> String {
        guard pretty else { return jsonString() }
        var output = ""
        writePretty(to: &output, indent: 0)
        return output
    }

    private func writePretty(to output: inout String, indent: Int) {
        switch self {
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "["
            for (index, element) in elements.enumerated() {
                output += (index > 0 ? ",\n" : "\n") + String(repeating: "  ", count: indent + 1)
                element.writePretty(to: &output, indent: indent + 1)
            }
            output += "\n" + String(repeating: "  ", count: indent) + "]"
        case .object(let object):
            guard object.count > 0 else { output += "{}"; return }
            output += "{"
            for (index, member) in object.enumerated() {
                output += (index > 0 ? ",\n" : "\n") + String(repeating: "  ", count: indent + 1)
                output += FHIRJSON.string(member.key).jsonString() + ": "
                member.value.writePretty(to: &output, indent: indent + 1)
            }
            output += "\n" + String(repeating: "  ", count: indent) + "}"
        default:
            output += jsonString()
        }
    }
}
