import Foundation

/// What ``PostgresCareStorage`` refuses, beyond the errors PostgreSQL itself reports (postgres-nio's `PSQLError`).
public enum PostgresCareStorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A schema name that cannot be written in SQL without quotes (see ``PostgresCareSchema/name``).
    case invalidSchemaName(String)
    /// A value in the database that the storage cannot read back (a row edited by hand, say): its table, column and
    /// what was found there.
    case invalidValue(table: String, column: String, value: String)
    /// A version that already has a next version was given another: a chain of versions never forks.
    case versionAlreadyReplaced(UUID)
    /// A database URL that does not say how to reach PostgreSQL (see ``PostgresDatabaseURL``).
    case invalidURL(String, reason: String)

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .invalidSchemaName(let name):
            "'\(name)' is not a schema name StudyKit uses: lower-case letters, digits and underscores, starting with a letter or an underscore, at most 63 characters"
        case .invalidValue(let table, let column, let value):
            "the \(table).\(column) value '\(value)' is not valid"
        case .versionAlreadyReplaced(let uuid):
            "the version \(uuid.uuidString) has been replaced already"
        case .invalidURL(let url, let reason):
            "'\(url)' is not a PostgreSQL URL (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE): \(reason)"
        }
    }
}
