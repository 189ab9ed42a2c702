import Foundation

/// The value a choice stands for in results: a string, an integer or a decimal number.
///
/// In JSON it is the bare value: `"often"`, `3` or `2.5`.
///
/// Numbers are equal by value: `.integer(2)` equals `.decimal(2.0)`, as JSON cannot tell them apart.
public enum ChoiceValue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A text value, such as `"often"`.
    case string(String)
    /// A whole number, such as `3`.
    case integer(Int)
    /// A number with a fraction, such as `2.5`.
    case decimal(Double)

    /// Reads a bare JSON string or number; a whole number that fits in `Int` (also when written `2.0`)
    /// becomes ``integer(_:)``, any other number ``decimal(_:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let decimal = try? container.decode(Double.self) {
            self = .decimal(decimal)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else {
            throw DecodingError.typeMismatch(
                ChoiceValue.self,
                .init(codingPath: decoder.codingPath, debugDescription: "a choice value must be a string or a number"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .decimal(let value): try container.encode(value)
        }
    }

    /// The value as a number, when it is one.
    public var numericValue: Double? {
        switch self {
        case .string: nil
        case .integer(let value): Double(value)
        case .decimal(let value): value
        }
    }

    /// The value as plain text, without quotes: `often`, `3`, `2.5` (always with a `.`, whatever the locale).
    public var description: String {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
        case .decimal(let value): String(value) // locale-independent: always a '.' separator
        }
    }
}

extension ChoiceValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// Creates a ``string(_:)`` value from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates an ``integer(_:)`` value from an integer literal.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// Creates a ``decimal(_:)`` value from a floating-point literal.
    public init(floatLiteral value: Double) { self = .decimal(value) }
}

/// One chosen option of a choice question: its value and, for an "other" choice, the free text typed with it.
///
/// In JSON a selection without text is the bare value; with text it is `{"value": "other", "text": "…"}`.
public struct ChoiceSelection: Hashable, Sendable, Codable {
    /// The chosen option's value.
    public var value: ChoiceValue
    /// Free text typed with an "other" choice.
    public var text: String?

    /// Creates a selection of `value`, with the free text of an "other" choice when given.
    public init(_ value: ChoiceValue, text: String? = nil) {
        self.value = value
        self.text = text
    }

    private enum CodingKeys: String, CodingKey { case value, text }

    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: CodingKeys.self), keyed.contains(.value) {
            value = try keyed.decode(ChoiceValue.self, forKey: .value)
            text = try keyed.decodeIfPresent(String.self, forKey: .text)
        } else {
            value = try ChoiceValue(from: decoder)
            text = nil
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if let text {
            var keyed = encoder.container(keyedBy: CodingKeys.self)
            try keyed.encode(value, forKey: .value)
            try keyed.encode(text, forKey: .text)
        } else {
            try value.encode(to: encoder)
        }
    }
}

extension ChoiceValue {
    /// Strings equal strings; numbers equal numbers of the same value, whether written `2` or `2.0`.
    public static func == (lhs: ChoiceValue, rhs: ChoiceValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.string, _), (_, .string): false
        default: lhs.numericValue == rhs.numericValue
        }
    }

    /// Hashes numbers by value, consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let value): hasher.combine(0); hasher.combine(value)
        case .integer, .decimal: hasher.combine(1); hasher.combine(numericValue)
        }
    }
}
