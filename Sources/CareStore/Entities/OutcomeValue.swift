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
