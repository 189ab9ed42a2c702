/// A JSON value as the canonical writer sees it: numbers are kept as their final text, so that what is
/// written is exactly what was decided when the value was made.
///
/// Build one with ``CanonicalJSON/value(of:)`` from any `Encodable`, or by hand; write it with
/// ``CanonicalJSON/bytes(of:)``.
public indirect enum CanonicalJSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, already in canonical form (see ``CanonicalJSON/numberText(_:)``).
    case number(String)
    /// A string, written with minimal escaping.
    case string(String)
    /// An array, in order.
    case array([CanonicalJSONValue])
    /// An object; its members are written sorted by key (UTF-16 code units), whatever order they were added in.
    case object([String: CanonicalJSONValue])
}
