import Foundation

/// One value recorded in an outcome, or expected as a schedule's target: a number, a yes/no, text, bytes or a date,
/// with what it measures (`kind`) and its unit.
///
/// ```swift
/// let steps = OutcomeValue(.integer(3_200), kind: "steps")
/// let pain = OutcomeValue(.double(6.5), kind: "pain", units: "NRS")
/// ```
public struct OutcomeValue: Hashable, Sendable, Codable {
    /// The value itself.
    public var value: Value
    /// What the value measures (for example `"pain"` or a LOINC code); nil when the task measures one thing.
    public var kind: String?
    /// The unit of a numeric value (`"mg"`, `"steps"`).
    public var units: String?
    /// When the value was recorded; nil for a schedule's target.
    public var createdDate: Date?

    /// Creates a value of a kind, in units, recorded at `createdDate`.
    public init(_ value: Value, kind: String? = nil, units: String? = nil, createdDate: Date? = nil) {
        self.value = value
        self.kind = kind
        self.units = units
        self.createdDate = createdDate
    }

    /// The typed content of an outcome value. JSON: `{"integer": 3}`, `{"double": 6.5}`, `{"boolean": true}`,
    /// `{"text": "…"}`, `{"binary": "<base64>"}`, `{"date": "2026-03-29T08:00:00Z"}`.
    public enum Value: Hashable, Sendable, Codable {
        case integer(Int)
        case double(Double)
        case boolean(Bool)
        case text(String)
        case binary(Data)
        case date(Date)

        private enum CodingKeys: String, CodingKey { case integer, double, boolean, text, binary, date }

        /// A number as a value: an integer when it is whole (below 10¹⁵), else a double.
        public static func number(_ value: Double) -> Value {
            value == value.rounded() && abs(value) < 1e15 ? .integer(Int(value)) : .double(value)
        }

        /// Reads the one key that names the value's type.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            guard c.allKeys.count == 1, let key = c.allKeys.first else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "an outcome value has exactly one of the keys integer, double, boolean, text, binary, date"))
            }
            switch key {
            case .integer: self = .integer(try c.decode(Int.self, forKey: key))
            case .double: self = .double(try c.decode(Double.self, forKey: key))
            case .boolean: self = .boolean(try c.decode(Bool.self, forKey: key))
            case .text: self = .text(try c.decode(String.self, forKey: key))
            case .binary:
                let text = try c.decode(String.self, forKey: key)
                guard let data = Data(base64Encoded: text) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "binary values are base64 text")
                }
                self = .binary(data)
            case .date:
                let text = try c.decode(String.self, forKey: key)
                guard let date = (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
                        ?? (try? Date.ISO8601FormatStyle().parse(text)) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "'\(text)' is not an ISO 8601 date-time with offset")
                }
                self = .date(date)
            }
        }

        /// Writes `{"integer": 3}` and so on; binary as base64, dates as ISO 8601 in UTC.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .integer(let value): try c.encode(value, forKey: .integer)
            case .double(let value): try c.encode(value, forKey: .double)
            case .boolean(let value): try c.encode(value, forKey: .boolean)
            case .text(let value): try c.encode(value, forKey: .text)
            case .binary(let value): try c.encode(value.base64EncodedString(), forKey: .binary)
            case .date(let value): try c.encode(value.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)), forKey: .date)
            }
        }

        /// The value as a number, for sums and means: integers and doubles as they are, booleans as 1 or 0.
        public var numericValue: Double? {
            switch self {
            case .integer(let value): Double(value)
            case .double(let value): value
            case .boolean(let value): value ? 1 : 0
            case .text, .binary, .date: nil
            }
        }
    }
}
