import Foundation

/// A value in a study database's tables that its storage cannot read back (a row edited by hand, say), whichever the
/// backend.
public struct StoredValueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The table holding the value.
    public var table: String
    /// The column holding the value.
    public var column: String
    /// What was found there; for a JSON column, which row (such as `run 6f1d…`).
    public var value: String
    /// For a JSON column: what is wrong and where in the JSON; nil for a plain value.
    public var reason: String?

    /// A value of `table`.`column` that cannot be read: `value` itself, or, with `reason`, the row whose JSON is wrong.
    public init(table: String, column: String, value: String, reason: String? = nil) {
        self.table = table
        self.column = column
        self.value = value
        self.reason = reason
    }

    /// Names the table, column and value (or row and what is wrong in its JSON) that could not be read.
    public var description: String {
        guard let reason else { return "the \(table).\(column) value '\(value)' is not valid" }
        return "the \(table).\(column) of \(value) cannot be read: \(reason)"
    }
}
