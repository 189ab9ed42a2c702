import Foundation
import GRDB
import StudyKitEnvironment

/// The connections of one SQLite database: its one writer, lent to one write transaction at a time for as long as the
/// transaction runs, and read-only connections lent to read transactions.
///
/// A storage transaction's work may await between its statements (the storage primitives are asynchronous, so that a
/// network database fits them too), which GRDB's `write`, whose work is one synchronous closure, cannot hold. Here a
/// transaction takes the writer in turn (``AsyncGate``), begins, runs each statement at once on the connection through
/// ``SQLiteLentConnection/run(_:)`` (GRDB's synchronous access: no thread switch while no one else holds the connection),
/// and commits or rolls back. Every write to the database goes through this type, so that no other write runs inside a
/// transaction left open across an `await`.
///
/// ```swift
/// let connections = SQLiteConnections(try DatabasePool(path: path, configuration: SQLiteConnections.configure(configuration)))
/// let count = try await connections.transaction { connection in
///     try connection.run { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('hello')") }
///     return try connection.run { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM note") ?? 0 }
/// }
/// ```
///
/// The database's configuration must allow a transaction to stay open between two accesses
/// (``configure(_:)``).
public final class SQLiteConnections: Sendable {
    /// The GRDB connection: a `DatabasePool` for a file, a `DatabaseQueue` in memory.
    public let database: any DatabaseWriter
    private let gate = AsyncGate()
    /// Read-only connections beside the writer for a pool (a file in WAL mode, where readers never wait for the
    /// writer), at most as many kept as the pool's readers; nil for a database of one connection.
    private let readers: CallingThreadReaders?

    /// The connections of `database`, whose configuration went through ``configure(_:)``.
    public init(_ database: any DatabaseWriter) {
        self.database = database
        if let pool = database as? DatabasePool {
            readers = CallingThreadReaders(path: pool.path, configuration: pool.configuration, limit: pool.configuration.maximumReaderCount)
        } else {
            readers = nil
        }
    }

    /// Runs `body` in a read transaction that sees the last committed state: on a read-only connection of its own beside
    /// the writer for a file, whose statements run on the calling thread (a server's small reads cost less there than
    /// the thread switches of GRDB's asynchronous reads), with its BEGIN and COMMIT prepared once per connection; in turn
    /// with the writes on a database of one connection (``readTransaction(_:)``).
    public func read<T>(_ body: (SQLiteLentConnection) async throws -> T) async throws -> T {
        guard let readers else { return try await readTransaction(body) }
        return try await readers.withConnection { queue in
            let connection = SQLiteLentConnection(reader: queue)
            // The connection is given without a transaction; the one begun here isolates the body, so that every
            // statement in it sees the same committed state.
            try connection.run { db in try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute() }
            do {
                let result = try await body(connection)
                try connection.run { db in try db.cachedStatement(sql: "COMMIT TRANSACTION").execute() }
                return result
            } catch {
                // The connection goes back with no transaction left open.
                try? connection.run { db in if db.isInsideTransaction { try db.cachedStatement(sql: "ROLLBACK TRANSACTION").execute() } }
                throw error
            }
        }
    }

    /// `configuration` with what lending the writer needs: a transaction may stay open between two of GRDB's accesses.
    public static func configure(_ configuration: Configuration) -> Configuration {
        var configuration = configuration
        configuration.allowsUnsafeTransactions = true
        return configuration
    }

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`), committed when it returns and rolled back when it throws;
    /// no other write of this process runs until it ends.
    public func transaction<T>(_ body: (SQLiteLentConnection) async throws -> T) async throws -> T {
        try await gate.withLock {
            let connection = SQLiteLentConnection(database: database)
            return try await connection.transaction(beginning: "BEGIN IMMEDIATE TRANSACTION", body)
        }
    }

    /// Runs `body` in one read transaction on the writer connection, in turn with the writes: for a database of one
    /// connection (in memory, or a file opened for reading only), whose reads cannot run beside its writes.
    public func readTransaction<T>(_ body: (SQLiteLentConnection) async throws -> T) async throws -> T {
        try await gate.withLock {
            let connection = SQLiteLentConnection(database: database)
            return try await connection.transaction(beginning: "BEGIN DEFERRED TRANSACTION", body)
        }
    }

    /// Runs `body`, whose work is synchronous, in one write transaction of GRDB's, in turn with the other writes.
    public func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await gate.withLock { try await database.write(body) }
    }

    /// Runs `body` on the writer outside any transaction (a checkpoint, a pragma), in turn with the writes.
    public func writeWithoutTransaction<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await gate.withLock { try await database.writeWithoutTransaction(body) }
    }
}

/// A connection lent to one transaction: ``run(_:)`` runs statements on it at once, on the calling thread.
///
/// Only valid inside the transaction it was given to (``SQLiteConnections/transaction(_:)``, or a read of
/// ``SQLiteCareStorage``).
public struct SQLiteLentConnection: @unchecked Sendable {
    // @unchecked: a connection is used by the one task its transaction runs in, one statement at a time.
    private let access: (_ body: (Database) throws -> Void) throws -> Void

    /// The connection of `database`'s writer (or its one connection).
    init(database: any DatabaseWriter) {
        access = { body in try Self.runOutsideAsyncContext(database, body) }
    }

    /// The connection of a read-only queue that the caller holds.
    init(reader: DatabaseQueue) {
        access = { body in try Self.runOutsideAsyncContext(reader, body) }
    }

    /// Runs `body` on the connection now, inside the transaction, and returns what it returns.
    public func run<T>(_ body: (Database) throws -> T) throws -> T {
        var result: Result<T, any Error>?
        try access { db in result = Result { try body(db) } }
        guard let result else { preconditionFailure("the connection ran nothing") }
        return try result.get()
    }

    /// Begins a transaction with `begin`, runs `body`, and commits; rolls back when anything throws.
    func transaction<T>(beginning begin: String, _ body: (SQLiteLentConnection) async throws -> T) async throws -> T {
        try run { db in try db.execute(sql: begin) }
        do {
            let value = try await body(self)
            try run { db in try db.execute(sql: "COMMIT TRANSACTION") }
            return value
        } catch {
            // A statement that failed may have ended the transaction already (SQLite rolls back on some errors).
            try? run { db in if db.isInsideTransaction { try db.execute(sql: "ROLLBACK TRANSACTION") } }
            throw error
        }
    }

    /// GRDB's synchronous access, from a function that is not async: the connection is free (its transaction's holder
    /// is the caller), so it runs here without a thread switch.
    private static func runOutsideAsyncContext(_ database: any DatabaseWriter, _ body: (Database) throws -> Void) throws {
        try database.writeWithoutTransaction(body)
    }
}
