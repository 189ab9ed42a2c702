import CareStore
import Foundation
import Logging
import PostgresNIO
import StudyKitEnvironment

/// A care store kept in PostgreSQL: the store's rules over ``PostgresCareStorage``.
///
/// ```swift
/// let client = PostgresClient(configuration: try PostgresDatabaseURL("postgres://studykit@db.example.org/study").configuration)
/// async let running: Void = client.run() // or a Service of the server's ServiceGroup
/// let store = try await PostgresCareStore.open(client: client)
/// let plans = try await store.add([CarePlan(id: "knee", title: "Knee rehabilitation", effectiveDate: start)])
/// ```
public typealias PostgresCareStore = StorageBackedCareStore<PostgresCareStorage>

extension StorageBackedCareStore where Storage == PostgresCareStorage {
    /// The store in `schema` of the database `client` connects to, migrated first (``PostgresCareMigrations``: the
    /// schema and its tables are created when missing). `client` must be running (`client.run()`) for as long as the
    /// store is used.
    public static func open(client: PostgresClient, schema: PostgresCareSchema = .public, environment: StudyKitEnvironment = .live,
                            logger: Logger = PostgresCareStorage.silentLogger) async throws -> PostgresCareStore {
        let storage = PostgresCareStorage(client: client, schema: schema, logger: logger)
        try await storage.migrate()
        return PostgresCareStore(storage: storage, environment: environment)
    }
}

/// Care data in PostgreSQL through postgres-nio's connection pool (`PostgresClient`), for several server processes
/// over one database.
///
/// ```swift
/// let storage = PostgresCareStorage(client: client, schema: .public)
/// try await storage.migrate()
/// let store = StorageBackedCareStore(storage: storage)
/// ```
///
/// Each read or write is one transaction on one connection the pool lends for its duration (BEGIN … COMMIT, or
/// ROLLBACK when its body throws). A read is `REPEATABLE READ READ ONLY`: every statement in it sees the same
/// committed state. A write is `SERIALIZABLE`: PostgreSQL lets it commit only if running it alone would have given
/// the same result, so two processes that update the same task at once cannot both link a new version after the same
/// head, nor both add a live outcome to the same event, nor one orphan the outcomes the other adds; the loser's
/// transaction is refused with a serialization failure (SQLSTATE 40001, or a deadlock, 40P01) and run again, body and
/// all, on the state the winner committed, for up to ten seconds (``PostgresTransactionRunner/retryingConcurrencyRefusals(patience:_:)``). The body must therefore be safe to run more
/// than once: it reads what it needs through the writer, as ``StorageBackedCareStore``'s do. The schema's triggers and
/// unique indexes keep the same rules for anyone else who writes (``PostgresCareMigrations``).
///
/// The schema is ``PostgresCareMigrations``; database errors are thrown as postgres-nio's `PSQLError`.
public final class PostgresCareStorage: CareStorage {
    /// The connection pool. Whoever made it runs it (`run()`) and ends it.
    public let client: PostgresClient
    /// The schema holding the store's tables.
    public let schema: PostgresCareSchema
    private let logger: Logger

    /// A logger that writes nothing: the default, since a store's callers report its errors themselves.
    public static let silentLogger = Logger(label: "studykit.care-store.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Storage in `schema` of the database `client` connects to, which must hold the store's tables: call
    /// ``migrate()`` first, unless another process did. Nothing is read or written here.
    public init(client: PostgresClient, schema: PostgresCareSchema = .public, logger: Logger = PostgresCareStorage.silentLogger) {
        self.client = client
        self.schema = schema
        self.logger = logger
    }

    /// Creates the schema and its tables when missing and applies the migrations they lack, once, whoever else
    /// starts at the same time (``PostgresCareMigrations/migrate(_:with:logger:)``). Returns the names of the
    /// migrations applied now.
    @discardableResult
    public func migrate() async throws -> [String] {
        try await PostgresCareMigrations.migrate(schema, with: client, logger: logger)
    }

    /// Runs the body in a read-only transaction that sees one snapshot of the committed state.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any CareStorageReader) async throws -> T) async throws -> T {
        try await transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { transaction in try await body(transaction) }
    }

    /// Runs the body in a serializable transaction, again when PostgreSQL refuses it for a concurrent one; it is
    /// committed (durable, as the server's `synchronous_commit` says) when this returns.
    ///
    /// The writers take turns: the transaction's first statement waits for the writers before it (`LOCK TABLE
    /// versionRevision`, which takes no snapshot, so the body sees what they committed). Every change of a version
    /// raises that one row, so writers that overlapped would all but one be refused at the end and run again, ever more
    /// often as more wait: twelve at once on a loaded machine ran past the retry's patience. Reads do not wait.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any CareStorageWriter) async throws -> T) async throws -> T {
        let turn = PostgresQuery(unsafeSQL: "LOCK TABLE \(schema.qualified("versionRevision")) IN EXCLUSIVE MODE"), logger = logger
        return try await PostgresTransactionRunner.retryingConcurrencyRefusals {
            try await transaction(begin: "BEGIN ISOLATION LEVEL SERIALIZABLE") { transaction in
                try await PostgresTransactionRunner.execute(turn, on: transaction.connection, logger: logger)
                return try await body(transaction)
            }
        }
    }

    /// Whether PostgreSQL refused a transaction for what another did at the same time, so that running it again can
    /// succeed: a serialization failure, a deadlock, or a unique index that another transaction's row now fills (the
    /// one live outcome of an event, the one next version of a version), which the rerun sees and refuses in the
    /// store's own terms.
    public static func isConcurrencyRefusal(_ error: PSQLError) -> Bool {
        switch error.serverInfo?[.sqlState] {
        case "40001", "40P01": true
        case "23505": ["outcome_live_on_taskuuid_occurrenceindex", "version_one_next"].contains(error.serverInfo?[.constraintName])
        default: false
        }
    }

    /// Runs `body` between `begin` and COMMIT on one leased connection.
    private func transaction<T: Sendable>(begin: PostgresQuery, _ body: @escaping @Sendable (PostgresCareTransaction) async throws -> T) async throws -> T {
        let schema = schema, logger = logger
        return try await PostgresTransactionRunner.withConnection(client) { connection in
            try await PostgresTransactionRunner.run(on: connection, begin: begin, logger: logger) { connection in
                try await body(PostgresCareTransaction(connection: connection, schema: schema, logger: logger))
            }
        }
    }

    /// The storage's reads and writes inside a transaction the caller holds on `connection` (a database that keeps other
    /// tables beside the care store's in the same schema, and writes to both in one transaction): no BEGIN or COMMIT is
    /// run here, and nothing is run again on a serialization failure; the caller does both.
    public func writer(in connection: PostgresConnection) -> any CareStorageWriter {
        PostgresCareTransaction(connection: connection, schema: schema, logger: logger)
    }
}
