import CareStorePostgres
import Foundation
import Logging
import PostgresNIO
import Study
import StudyKitEnvironment

/// A study store kept in PostgreSQL: the study store's rules over ``PostgresStudyStorage``.
///
/// ```swift
/// let client = PostgresClient(configuration: try PostgresDatabaseURL("postgres://studykit@db.example.org/study").configuration)
/// async let running: Void = client.run() // or a Service of the server's ServiceGroup
/// let store = try await PostgresStudyStore.open(client: client)
/// let issued = try await store.createInvitation(label: "clinic A", expiresAt: nil)
/// ```
///
/// The study team's accounts are kept in the same schema (``PostgresStudyStorage/researcherAccounts``), so this store is
/// a `ResearcherStore` too.
public typealias PostgresStudyStore = StorageBackedStudyStore<PostgresStudyStorage>

extension StorageBackedStudyStore where Storage == PostgresStudyStorage {
    /// The store in `schema` of the database `client` connects to, migrated first (``PostgresStudyMigrations``: the
    /// schema and its tables are created when missing). `client` must be running (`client.run()`) for as long as the
    /// store is used.
    public static func open(client: PostgresClient, schema: PostgresCareSchema = .public, environment: StudyKitEnvironment = .live,
                            logger: Logger = PostgresStudyStorage.silentLogger) async throws -> PostgresStudyStore {
        try await PostgresStudyMigrations.migrate(schema, with: client, logger: logger)
        return PostgresStudyStore(storage: PostgresStudyStorage(client: client, schema: schema, environment: environment, logger: logger),
                                  environment: environment)
    }
}

/// A study's rows in PostgreSQL through postgres-nio's connection pool (`PostgresClient`): participants, invitations,
/// sessions, sign-in codes, task runs and consent records, in the tables of ``PostgresStudyMigrations``, and the study
/// team's accounts beside them (``PostgresResearcherAccounts``, over ``PostgresResearcherStorage``).
///
/// ```swift
/// try await PostgresStudyMigrations.migrate(.public, with: client)
/// let store = StorageBackedStudyStore(storage: PostgresStudyStorage(client: client), environment: .live)
/// ```
///
/// Each read or write is one transaction on one connection the pool lends for its duration (BEGIN … COMMIT, or
/// ROLLBACK when its body throws). A read is `REPEATABLE READ READ ONLY`: it sees one committed state. A write is
/// `SERIALIZABLE`, so that the store's read-then-write rules (an invitation used once, one withdrawal, a run replaced
/// only by its participant) hold across server processes: PostgreSQL refuses the loser of a conflict (SQLSTATE 40001 or
/// 40P01), and the write is run again, body and all, on the state the winner committed, for up to ten seconds
/// (`PostgresTransactionRunner.retryingConcurrencyRefusals`). The database's refusal of a withdrawn participant's data
/// (``PostgresWithdrawalGuard``) is thrown as ``StudyRefusal/withdrawn``; other database errors as postgres-nio's
/// `PSQLError`.
public final class PostgresStudyStorage: StudyStorage, ResearcherAccountsKeeping {
    /// The connection pool. Whoever made it runs it (`run()`) and ends it.
    public let client: PostgresClient
    /// The schema holding the tables.
    public let schema: PostgresCareSchema
    private let logger: Logger
    /// The study team's accounts in the same schema, over the same pool.
    public let researcherAccounts: PostgresResearcherAccounts
    /// Where its write transactions run (with the audit trail's flush in a ``PostgresStudyDatabase``).
    let transactions: PostgresWriteTransactions

    /// A logger that writes nothing: the default, since a store's callers report its errors themselves.
    public static let silentLogger = Logger(label: "studykit.study-store.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Storage in `schema` of the database `client` connects to, which must hold the study store's tables: migrate
    /// first (``PostgresStudyMigrations``), unless another process did; the study team's accounts use `environment`'s
    /// clock, UUIDs and randomness. Nothing is read or written here.
    public convenience init(client: PostgresClient, schema: PostgresCareSchema = .public, environment: StudyKitEnvironment = .live,
                            logger: Logger = PostgresStudyStorage.silentLogger) {
        self.init(transactions: PostgresWriteTransactions(client: client, schema: schema, logger: logger, audit: nil), environment: environment)
    }

    /// Storage whose writes run through `transactions` (a ``PostgresStudyDatabase``'s, which end with the audit trail's flush).
    init(transactions: PostgresWriteTransactions, environment: StudyKitEnvironment) {
        client = transactions.client
        schema = transactions.schema
        logger = transactions.logger
        self.transactions = transactions
        researcherAccounts = PostgresResearcherAccounts(storage: PostgresResearcherStorage(transactions: transactions), environment: environment)
    }

    /// Runs `body` in a read-only transaction that sees one snapshot of the committed state.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any StudyStorageReader) async throws -> T) async throws -> T {
        let schema = schema, logger = logger
        return try await PostgresTransactionRunner.readOnly(client, logger: logger) { connection in
            try await body(PostgresStudyRows(connection: connection, schema: schema, logger: logger))
        }
    }

    /// Runs `body` in a serializable transaction, again when PostgreSQL refuses it for a concurrent one; it is
    /// committed when this returns.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StudyStorageWriter) async throws -> T) async throws -> T {
        let schema = schema, logger = logger
        return try await transactions.serializable { connection in
            try await body(PostgresStudyRows(connection: connection, schema: schema, logger: logger))
        }
    }

    /// The storage's rows inside a transaction the caller holds on `connection` (``PostgresStudyDatabase``'s joint ones).
    func writer(in connection: PostgresConnection) -> any StudyStorageWriter {
        PostgresStudyRows(connection: connection, schema: schema, logger: logger)
    }

    /// Runs `body` on a leased connection between `BEGIN ISOLATION LEVEL SERIALIZABLE` and COMMIT, again (after a short
    /// pause that grows) when PostgreSQL refuses it for a concurrent transaction; the database's refusal of a withdrawn
    /// participant's data is thrown as ``StudyRefusal/withdrawn``.
    static func serializable<T: Sendable>(_ client: PostgresClient, logger: Logger,
                                          _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await PostgresTransactionRunner.retryingConcurrencyRefusals {
                try await PostgresTransactionRunner.withConnection(client) { connection in
                    try await PostgresTransactionRunner.run(on: connection, begin: "BEGIN ISOLATION LEVEL SERIALIZABLE", logger: logger, body)
                }
            }
        } catch {
            throw PostgresWithdrawalGuard.refusal(for: error)
        }
    }
}
