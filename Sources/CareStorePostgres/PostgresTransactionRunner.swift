import Logging
import PostgresNIO

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

    /// Runs `body` in one read-only transaction (`REPEATABLE READ READ ONLY`: every statement sees the same committed
    /// state) on a connection leased from `client`.
    public static func readOnly<T: Sendable>(_ client: PostgresClient, logger: Logger,
                                            _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
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
