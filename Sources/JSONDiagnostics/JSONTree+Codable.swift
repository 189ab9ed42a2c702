import Foundation

/// A tree read from, or written to, any `Decoder` or `Encoder`: how a `Decodable` type that checks its JSON part by
/// part (a care schedule) gets the whole value first, and how a tree read from YAML is handed to a JSON reader.
///
/// Read through a `Decoder`, a tree loses what ``init(data:)`` keeps: decoders do not give members in their written
/// order (they come sorted by key, so that problems are reported in a stable order), a member given twice has already
/// been merged, and a number's text is rebuilt from its value. Read documents with ``init(data:)`` where that matters.
extension JSONTree: Codable {
    /// Reads whatever value the decoder holds.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: MemberKey.self) {
            self = .object(try container.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
                Member(key: $0.stringValue, value: try container.decode(JSONTree.self, forKey: $0))
            })
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONTree] = []
            while !container.isAtEnd { elements.append(try container.decode(JSONTree.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int.self) {
            self = .number(String(integer))
        } else if let number = try? container.decode(Double.self) {
            self = .number(Self.text(of: number))
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Writes the tree; a number is written as an integer when its text is one, otherwise as the `Double` it reads as.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .number(let text):
            var container = encoder.singleValueContainer()
            if let integer = Int(text) {
                try container.encode(integer)
            } else if let number = Double(text), number.isFinite {
                try container.encode(number)
            } else {
                throw EncodingError.invalidValue(text, EncodingError.Context(codingPath: encoder.codingPath,
                                                                           debugDescription: "'\(text)' is not a finite number"))
            }
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let members):
            var container = encoder.container(keyedBy: MemberKey.self)
            for member in members { try container.encode(member.value, forKey: MemberKey(member.key)) }
        }
    }

    /// A number from a `Double`: `.number(1.5)` is `.number("1.5")`; a whole value is written without a fraction.
    public static func number(_ value: Double) -> JSONTree { .number(text(of: value)) }

    /// A `Double` as number text: whole values without a fraction (`3`, not `3.0`), others as Swift's shortest
    /// round-tripping form.
    static func text(of number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return "\(number)"
    }
}

/// Any member name as a coding key.
public struct MemberKey: CodingKey, Sendable {
    /// The member's name.
    public var stringValue: String
    /// Always nil: members are named.
    public var intValue: Int? { nil }
    /// A key named `name`.
    public init(_ name: String) { stringValue = name }
    /// A key named `stringValue`.
    public init?(stringValue: String) { self.stringValue = stringValue }
    /// Never: members are named, not numbered.
    public init?(intValue: Int) { nil }
}
