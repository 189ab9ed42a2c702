import CareStorePostgres
import Foundation
import Logging
import PostgresNIO
import Study

/// The study team's accounts in PostgreSQL: the accounts' rules over ``PostgresResearcherStorage``.
public typealias PostgresResearcherAccounts = StorageBackedResearcherAccounts<PostgresResearcherStorage>

/// The study team's accounts' rows in PostgreSQL through postgres-nio's connection pool: researchers, their password
/// links and sessions, and the wrong passwords tried per address and client, in the tables of
/// ``PostgresStudyMigrations`` (v2), beside the study store's.
///
/// As ``PostgresStudyStorage``'s: a read is one `REPEATABLE READ READ ONLY` transaction, a write one `SERIALIZABLE`
/// transaction run again, body and all, when PostgreSQL refuses it for a concurrent one (so that an address is taken
/// once and a link used once across server processes).
public final class PostgresResearcherStorage: ResearcherStorage {
    /// The connection pool. Whoever made it runs it (`run()`) and ends it.
    public let client: PostgresClient
    /// The schema holding the tables.
    public let schema: PostgresCareSchema
    private let logger: Logger
    private let transactions: PostgresWriteTransactions

    /// Storage in `schema` of the database `client` connects to, which must hold the study store's tables: migrate
    /// first (``PostgresStudyMigrations``), unless another process did. Nothing is read or written here.
    public convenience init(client: PostgresClient, schema: PostgresCareSchema = .public, logger: Logger = PostgresStudyStorage.silentLogger) {
        self.init(transactions: PostgresWriteTransactions(client: client, schema: schema, logger: logger, audit: nil))
    }

    /// Storage whose writes run through `transactions` (a ``PostgresStudyDatabase``'s, which end with the audit trail's flush).
    init(transactions: PostgresWriteTransactions) {
        client = transactions.client
        schema = transactions.schema
        logger = transactions.logger
        self.transactions = transactions
    }

    /// Runs `body` in a read-only transaction that sees one snapshot of the committed state.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any ResearcherStorageReader) async throws -> T) async throws -> T {
        let schema = schema, logger = logger
        return try await PostgresTransactionRunner.readOnly(client, logger: logger) { connection in
            try await body(PostgresResearcherRows(connection: connection, schema: schema, logger: logger))
        }
    }

    /// Runs `body` in a serializable transaction, again when PostgreSQL refuses it for a concurrent one; it is
    /// committed when this returns.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any ResearcherStorageWriter) async throws -> T) async throws -> T {
        let schema = schema, logger = logger
        return try await transactions.serializable { connection in
            try await body(PostgresResearcherRows(connection: connection, schema: schema, logger: logger))
        }
    }
}
