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
}
