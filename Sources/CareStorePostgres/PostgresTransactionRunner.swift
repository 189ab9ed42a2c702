import Logging
import PostgresNIO
import StudyKitEnvironment
import Synchronization

/// BEGIN, the body, then COMMIT, or ROLLBACK when the body throws, on one connection; and statements run to their end.
///
/// ```swift
/// try await client.withConnection { connection in
///     try await PostgresTransactionRunner.run(on: connection, begin: "BEGIN ISOLATION LEVEL SERIALIZABLE", logger: logger) { connection in
///         try await PostgresTransactionRunner.execute("UPDATE …", on: connection, logger: logger)
///     }
/// }
/// ```
public enum PostgresTransactionRunner {
    /// Runs `body` between `begin` and COMMIT on `connection`, which has no transaction open. When `body` or COMMIT
    /// throws, the transaction is rolled back (PostgreSQL ends a transaction whose COMMIT failed by itself); when the
    /// rollback fails too, the connection is closed, so the pool never lends it again inside a broken transaction.
    public static func run<T>(on connection: PostgresConnection, begin: PostgresQuery, logger: Logger,
                       _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await execute(begin, on: connection, logger: logger)
        let result: T
        do {
            result = try await body(connection)
        } catch {
            do {
                try await execute("ROLLBACK", on: connection, logger: logger)
            } catch {
                try? await connection.close()
            }
            throw error
        }
        try await execute("COMMIT", on: connection, logger: logger)
        return result
    }

    /// Runs a statement and reads its result to the end, which is where an error of a statement that returns no rows
    /// (an INSERT's unique violation, a trigger's refusal) arrives.
    public static func execute(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws {
        for try await _ in try await connection.query(query, logger: logger) {}
    }

    /// Runs `body`, a whole serializable transaction, again while PostgreSQL refuses it for what a concurrent one did
    /// (``PostgresCareStorage/isConcurrencyRefusal(_:)``), after a pause that grows to at most 50 ms, drawn at random
    /// so that transactions refused together do not meet again at once; for at most `patience` in all, then the
    /// refusal is thrown. Many writers of one participant at once (a burst of posts racing a withdrawal) can be refused
    /// several times each: a bound on attempts alone failed under load, a bound on time does not.
    public static func retryingConcurrencyRefusals<T>(patience: Duration = .seconds(10), _ body: () async throws -> T) async throws -> T {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: patience)
        var attempt = 1
        while true {
            do {
                return try await body()
            } catch let error as PSQLError where PostgresCareStorage.isConcurrencyRefusal(error) && clock.now < deadline {
                try await Task.sleep(for: .microseconds(Int.random(in: 0...min(50_000, 1_000 * attempt * attempt))))
                attempt += 1
            }
        }
    }

    /// How long a request waits for a connection of the pool before it is told that the database does not answer. A
    /// pool that cannot connect (PostgreSQL restarting, unreachable) would otherwise keep the request waiting until it
    /// connects again; a pool whose connections are all busy lends one as soon as one is free, which on a machine
    /// loaded to its limit (the tests, with both cores busy) took more than 3 s: 10 s tells the two apart and stays
    /// well inside a proxy's timeout (deploy/nginx: 60 s).
    public static let connectionWait: Duration = .seconds(10)

    /// Runs `body` on a connection leased from `client`, waiting at most `wait` for it; throws
    /// `DatabaseUnavailable` (StudyKitEnvironment) when none was lent in time, or when the connection fails under
    /// `body` (PostgreSQL stopped, the network cut), so that the caller says "try again in a moment" instead of failing
    /// or hanging. Every other error of `body` is thrown as it is.
    public static func withConnection<T: Sendable>(_ client: PostgresClient, waitingAtMost wait: Duration = connectionWait,
                                                   _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let leased = LeaseFlag()
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    try await client.withConnection { connection in
                        leased.set()
                        return try await body(connection)
                    }
                }
                group.addTask {
                    try await Task.sleep(for: wait)
                    if !leased.isSet { throw DatabaseUnavailable("no connection within \(wait) (is PostgreSQL running and reachable?)") }
                    return nil
                }
                while let value = try await group.next() {
                    if let value {
                        group.cancelAll()
                        return value
                    }
                }
                preconditionFailure("the leasing task ends with a value or an error")
            }
        } catch let error as PSQLError where isConnectionFailure(error) {
            throw DatabaseUnavailable("\(error.code): \(String(reflecting: error))")
        }
    }

    /// Whether `error` says that the connection, not the statement, failed: it could not be made, was closed, or the
    /// server is shutting down or starting (SQLSTATE class 08, 57P01 to 57P03).
    public static func isConnectionFailure(_ error: PSQLError) -> Bool {
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed: return true
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        default: return false
        }
    }

    /// Runs `body` in one read-only transaction (`REPEATABLE READ READ ONLY`: every statement sees the same committed
    /// state) on a connection leased from `client` (``withConnection(_:waitingAtMost:_:)``).
    public static func readOnly<T: Sendable>(_ client: PostgresClient, logger: Logger,
                                            _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await withConnection(client) { connection in
            try await run(on: connection, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger, body)
        }
    }

    /// How many rows `query` returns on `connection` (an UPDATE's or DELETE's with `RETURNING 1`: how many it changed).
    public static func rowCount(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        var count = 0
        for try await _ in try await connection.query(query, logger: logger) { count += 1 }
        return count
    }
}

/// Whether a connection was lent: set by the leasing task, read by the one that waits for it.
private final class LeaseFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
