import CareStore
import Foundation
import StudyKitEnvironment
import GRDB

/// A care store kept in one SQLite file: the store's rules over ``SQLiteCareStorage``.
///
/// ```swift
/// let store = try SQLiteCareStore(path: "data/care.sqlite")
/// let plans = try await store.add([CarePlan(id: "knee", title: "Knee rehabilitation", effectiveDate: start)])
/// ```
public typealias SQLiteCareStore = StorageBackedCareStore<SQLiteCareStorage>

extension StorageBackedCareStore where Storage == SQLiteCareStorage {
    /// A store in the SQLite file at `path`, created with its folder when missing, and migrated to the current
    /// schema when older; `durability` as ``SQLiteCareStorage/init(path:durability:)`` says.
    public convenience init(path: String, environment: StudyKitEnvironment = .live,
                            durability: SQLiteCareStorage.Durability = .powerLoss) throws {
        self.init(storage: try SQLiteCareStorage(path: path, durability: durability), environment: environment)
    }

    /// The store in the existing SQLite file at `path`, opened for reading only (nothing is created, migrated or
    /// written; adding to it throws). See ``SQLiteCareStorage/readOnly(path:)``.
    public static func readOnly(path: String, environment: StudyKitEnvironment = .live) throws -> SQLiteCareStore {
        SQLiteCareStore(storage: try SQLiteCareStorage.readOnly(path: path), environment: environment)
    }

    /// An empty store in an in-memory SQLite database, for tests and previews: the SQL of the file store without
    /// its file.
    public static func inMemory(environment: StudyKitEnvironment = .live) throws -> SQLiteCareStore {
        SQLiteCareStore(storage: try SQLiteCareStorage.inMemory(), environment: environment)
    }
}

/// Care data in SQLite through GRDB: one file in WAL mode, where readers see a consistent snapshot while a write
/// goes on, and every write is durable once it returns (against a power loss, or against a killed process only:
/// see ``Durability``).
///
/// ```swift
/// let storage = try SQLiteCareStorage(path: "data/care.sqlite")
/// let store = StorageBackedCareStore(storage: storage)
/// ```
///
/// The schema is ``CareStoreMigrations``. Database errors are thrown as GRDB's `DatabaseError`; a write whose
/// body throws is rolled back whole. Writes hold the writer through ``SQLiteConnections``, so their work may await.
public final class SQLiteCareStorage: CareStorage {
    /// What an acknowledged write survives.
    public enum Durability: Sendable, Hashable {
        /// A power loss or an operating-system crash: each commit is synced to the disk before the write returns
        /// (`synchronous = FULL`), so every write waits for the disk.
        case powerLoss
        /// The process being killed (a crash, `kill -9`): a commit is in the operating system's hands when the write
        /// returns, and the WAL is synced at checkpoints (`synchronous = NORMAL`, SQLite's recommendation for WAL). A
        /// power loss or an OS crash may lose the last commits before a checkpoint, never half of one, and never
        /// corrupts the file.
        case processCrash
    }

    /// The database's writer, lent to one transaction at a time (``SQLiteConnections``).
    public let connections: SQLiteConnections
    /// The GRDB connection: a `DatabasePool` for a file, a `DatabaseQueue` in memory. For maintenance such as
    /// backups and integrity checks; care data goes through ``read(_:)`` and ``write(_:)``.
    public var database: any DatabaseWriter { connections.database }
    /// What wraps each write (see ``init(sharing:aroundEachWrite:)``); nil for none.
    private let aroundEachWrite: (@Sendable (SQLiteLentConnection, () async throws -> Void) async throws -> Void)?

    /// Storage in the SQLite file at `path`, created with its folder when missing, and migrated to the current
    /// schema when older. Its writes survive what `durability` says (a power loss, by default).
    public convenience init(path: String, durability: Durability = .powerLoss) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // DatabasePool opens the file in WAL mode.
        try self.init(database: DatabasePool(path: url.path, configuration: Self.configuration()), durability: durability)
    }

    /// The storage in the existing SQLite file at `path`, opened for reading only: nothing is created, migrated or
    /// written, so a command such as `studykit export` can read a data folder while the server runs. Throws
    /// ``SQLiteCareStorageOpenError`` when the file is missing or its schema is not the one this version writes.
    public static func readOnly(path: String) throws -> SQLiteCareStorage {
        guard FileManager.default.fileExists(atPath: path) else { throw SQLiteCareStorageOpenError.missing(path: path) }
        var configuration = configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: path, configuration: configuration)
        let applied = try database.read { db in try CareStoreMigrations.migrator.appliedIdentifiers(db) }
        guard CareStoreMigrations.canRead(applied: applied) else { throw SQLiteCareStorageOpenError.outdatedSchema(path: path) }
        return SQLiteCareStorage(sharing: SQLiteConnections(database))
    }

    /// Storage over a database that another owner opened, migrated and configured (``SQLiteConnections/configure(_:)``),
    /// holding the care store's tables (``CareStoreMigrations/register(in:)``) beside its own: the study server's one
    /// file, where a participant's action writes both schemas in one transaction. Nothing is created or migrated here.
    ///
    /// `aroundEachWrite`, when given, runs each write's work inside its transaction, in the writing task: how the
    /// file's owner tells its triggers who is writing (an audit trail).
    public init(sharing connections: SQLiteConnections,
                aroundEachWrite: (@Sendable (SQLiteLentConnection, () async throws -> Void) async throws -> Void)? = nil) {
        self.connections = connections
        self.aroundEachWrite = aroundEachWrite
    }

    /// The storage's reads and writes inside a transaction the caller holds on a database with the care store's
    /// tables: pass it to ``StorageBackedCareStore/addOutcomes(_:in:)`` or ``StorageBackedCareStore/add(_:in:)``.
    public static func writer(in connection: SQLiteLentConnection) -> any CareStorageWriter {
        SQLiteCareTransaction(connection)
    }

    /// Empty storage in an in-memory database.
    public static func inMemory() throws -> SQLiteCareStorage {
        try SQLiteCareStorage(database: DatabaseQueue(configuration: configuration()), durability: .powerLoss)
    }

    private init(database: any DatabaseWriter, durability: Durability) throws {
        // Durability: with synchronous = FULL, a WAL commit is synced to disk before the write returns, so an
        // acknowledged write survives a killed process and a power loss. With NORMAL (GRDB's choice when it opens a
        // pool in WAL mode) a commit is written to the WAL, which is synced only at checkpoints: an acknowledged write
        // survives a killed process (the operating system has it), and a power loss can drop the last ones.
        // The setting is per connection and only the writer connection commits; it is set here, after GRDB's own
        // set-up of the connection, which would otherwise override it.
        //
        // The writer also gets a 32 MiB page cache (SQLite's default is 2 MiB, and pages are only allocated when
        // used): a batch of 10,000 outcomes dirties about 5 MiB of rows and index pages scattered by random UUIDs,
        // and in the default cache it spills pages to the WAL mid-transaction and reads index pages back, which
        // doubled its writes and quadrupled its reads.
        try database.writeWithoutTransaction { db in
            try db.execute(sql: durability == .powerLoss ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA cache_size = -32768")
        }
        try CareStoreMigrations.migrator.migrate(database)
        connections = SQLiteConnections(database)
        aroundEachWrite = nil
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        // Another process (an import from the command line while the server runs) waits for the write lock
        // instead of failing at once.
        configuration.busyMode = .timeout(10)
        return SQLiteConnections.configure(configuration)
    }

    /// Runs the body in a read transaction that sees the last committed state (``SQLiteConnections/read(_:)``).
    public func read<T: Sendable>(_ body: @escaping @Sendable (any CareStorageReader) async throws -> T) async throws -> T {
        try await connections.read { connection in try await body(SQLiteCareTransaction(connection)) }
    }

    /// Runs the body in a write transaction on the writer (``SQLiteConnections/transaction(_:)``); the transaction is
    /// durable (as the storage's ``Durability`` says) when this returns.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any CareStorageWriter) async throws -> T) async throws -> T {
        try await connections.transaction { connection in
            let transaction = SQLiteCareTransaction(connection)
            guard let aroundEachWrite else { return try await body(transaction) }
            var result: T?
            try await aroundEachWrite(connection) { result = try await body(transaction) }
            guard let result else { preconditionFailure("aroundEachWrite must run the write's work") }
            return result
        }
    }
}

/// A value in the database that the storage cannot read back.
public struct SQLiteCareStorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The table holding the value.
    public var table: String
    /// The column holding the value.
    public var column: String
    /// What was found there.
    public var value: String

    /// Names the table, column and value that could not be read.
    public var description: String { "the \(table).\(column) value '\(value)' is not valid" }
}
