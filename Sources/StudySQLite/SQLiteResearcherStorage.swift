import CareStoreSQLite
import Foundation
import GRDB
import Study
import StudyKitEnvironment

/// The study team's accounts in the study's SQLite file: the accounts' rules over ``SQLiteResearcherStorage``.
public typealias SQLiteResearcherAccounts = StorageBackedResearcherAccounts<SQLiteResearcherStorage>

/// The study team's accounts' rows in the study's SQLite file: researchers, their sessions and password links, and the
/// wrong passwords tried (`consoleSignInFailure`), in the tables of ``StudyStoreMigrations``, so that every server
/// process on the file agrees.
///
/// Every write is one transaction on the file's writer (``SQLiteConnections``, shared with the study and care stores),
/// with the writing task's `AuditTrail.source` as who writes in the joint file's audit trail; a read runs on a
/// read-only connection of its own.
public final class SQLiteResearcherStorage: ResearcherStorage {
    /// The file's connections.
    public let connections: SQLiteConnections
    /// Who is writing, for the joint file's audit trail; nil for a file of its own.
    private let audit: SQLiteAuditTrail.WriteContext?

    init(connections: SQLiteConnections, audit: SQLiteAuditTrail.WriteContext?) {
        self.connections = connections
        self.audit = audit
    }

    /// Runs `body` in a read transaction (``SQLiteConnections/read(_:)``).
    public func read<T: Sendable>(_ body: @escaping @Sendable (any ResearcherStorageReader) async throws -> T) async throws -> T {
        try await connections.read { connection in try await body(SQLiteResearcherRows(connection)) }
    }

    /// Runs `body` in a write transaction on the writer, with the writing task's `AuditTrail.source` as who writes.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any ResearcherStorageWriter) async throws -> T) async throws -> T {
        let audit = audit, source = AuditTrail.source
        return try await connections.transaction { connection in
            try await SQLiteAuditTrail.run(audit, as: source, on: connection) { try await body(SQLiteResearcherRows(connection)) }
        }
    }
}
