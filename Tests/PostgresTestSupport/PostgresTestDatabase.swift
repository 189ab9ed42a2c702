import CareStorePostgres
import Foundation
import PostgresNIO

/// The PostgreSQL database the test targets share (one helper, not a copy per target), from `STUDYKIT_TEST_POSTGRES_URL` (`postgres://USER@HOST:PORT/DB`), and a
/// fresh schema in it for each store a test makes.
///
/// `make test` always sets the variable: it starts a private cluster (`scripts/postgres-cluster start DIR`, which
/// prints the URL) and stops it afterwards, so there the conformance suite always runs on PostgreSQL too, and a
/// cluster that does not start fails `make test` before any test runs. Run by hand (`swift test`) without the
/// variable, the PostgreSQL backends are left out of the conformance suites' backends, and the PostgreSQL-only suites
/// (and CareStoreTests' `postgreSQLIsConfigured`) are reported as skipped, each with the reason and how to set the
/// variable: never a silent pass. To run them by hand:
///
/// ```
/// scripts/postgres-cluster start /tmp/pg   # prints the URL
/// STUDYKIT_TEST_POSTGRES_URL=postgres://studykit@127.0.0.1:PORT/studykit_test swift test
/// scripts/postgres-cluster stop /tmp/pg
/// ```
///
/// Each store lives in a schema of its own, `t_` and a random UUID's hex, so the tests run in parallel without
/// seeing each other's rows; the schemas are left for the cluster's end (`make test` removes the whole cluster).
/// One connection pool serves the whole test process; it runs until the process exits.
public enum PostgresTestDatabase {
    /// The environment variable that holds the database's URL.
    public static let variable = "STUDYKIT_TEST_POSTGRES_URL"

    /// The URL the tests connect to; nil when the variable is not set.
    public static let url: String? = ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }

    /// Whether PostgreSQL tests run in this process.
    public static var isConfigured: Bool { url != nil }

    /// Why PostgreSQL tests are skipped when the variable is not set.
    public static let notConfigured = """
        \(variable) is not set, so the PostgreSQL backends were left out of the conformance suites: `make test` sets it, \
        or start a cluster with `scripts/postgres-cluster start DIR` and export the URL it prints
        """

    /// The test process's connection pool, running from its first use until the process exits. Tests run in
    /// parallel; the cluster allows 200 connections, shared with the other test processes.
    public static let client: Result<PostgresClient, any Error> = Result { try runningForever(makeClient(maximumConnections: 24)) }

    /// A second connection pool over the same database, as a second server process has: what one pool's connections
    /// hold (a session, a prepared statement) the other's never see. Small, and running until the process exits.
    public static let otherClient: Result<PostgresClient, any Error> = Result { try runningForever(makeClient(maximumConnections: 8)) }

    /// A pool of its own on the test database (another server process's), not running yet: run it
    /// (``runningClient(maximumConnections:user:)`` does). `user` replaces the URL's role.
    public static func makeClient(maximumConnections: Int = 4, user: String? = nil) throws -> PostgresClient {
        guard let url else { throw PostgresCareStorageError.invalidURL("", reason: "\(variable) is not set") }
        var address = try PostgresDatabaseURL(url)
        if let user { address.username = user }
        var configuration = address.configuration
        // The cluster of `make test` listens on 127.0.0.1 only, without TLS.
        configuration.tls = .disable
        configuration.options.maximumConnections = maximumConnections
        let client = PostgresClient(configuration: configuration)
        // Hundreds of tests at once on a two-core machine can keep a pool from connecting for more than the server's
        // 10 s: not the outage that wait is for.
        PostgresTransactionRunner.setConnectionWait(.seconds(30), for: client)
        return client
    }

    /// A pool of its own on the test database (``makeClient(maximumConnections:user:)``), running until `running` is
    /// cancelled.
    public static func runningClient(maximumConnections: Int = 4, user: String? = nil) throws -> (client: PostgresClient, running: Task<Void, Never>) {
        let client = try makeClient(maximumConnections: maximumConnections, user: user)
        return (client, Task { await client.run() })
    }

    private static func runningForever(_ client: PostgresClient) -> PostgresClient {
        Task.detached { await client.run() }
        return client
    }

    /// A schema name no other test uses.
    public static func freshSchema() throws -> PostgresCareSchema {
        try PostgresCareSchema("t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))
    }
}
