import Foundation

/// A value in the study database that the store cannot read back.
public struct SQLiteStudyStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The table holding the value.
    public var table: String
    /// The column holding the value.
    public var column: String
    /// What was found there.
    public var value: String

    /// Names the table, column and value that could not be read.
    public var description: String { "the \(table).\(column) value '\(value)' is not valid" }
}
