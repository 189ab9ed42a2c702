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

    /// How long a request waits for a connection of the pool, while the pool serves no one, before it is told
    /// that the database does not answer: a pool that cannot connect (PostgreSQL restarting, unreachable) would
    /// otherwise keep the request waiting until it connects again. While the pool does serve others (it is busy, not
    /// cut off: the tests, hundreds at once on a loaded machine, wait their turn for many seconds), the
    /// request waits on, up to ``busyPoolWait``.
    public static let connectionWait: Duration = .seconds(10)

    /// The longest a request waits for a connection of a pool that keeps serving others: inside a
    /// proxy's timeout (deploy/nginx: 60 s).
    public static let busyPoolWait: Duration = .seconds(45)

    /// How long a transaction may take once it has its connection before the database is taken not to answer: its
    /// connection is closed (PostgreSQL rolls back what was not committed) and the caller is told to try again.
    public static let transactionLimit: Duration = .seconds(20)

    /// Sets how long a request on `client`'s pool waits for a connection while the pool serves no one, in place of
    /// ``connectionWait``: for a pool on a machine so loaded that connecting may take longer (the test suite's, hundreds
    /// of tests at once on two cores), where a refusal would be a false alarm. A server's pools keep ``connectionWait``.
    public static func setConnectionWait(_ wait: Duration, for client: PostgresClient) {
        PoolActivity.of(client).connectionWait = wait
    }

    /// Runs `body` on a connection leased from `client`, waiting at most `chosenWait` (the pool's wait,
    /// ``setConnectionWait(_:for:)``, or ``connectionWait`` when nil) for it and at most
    /// ``transactionLimit`` for `body` after; throws `DatabaseUnavailable` (StudyKitEnvironment) when no connection
    /// was lent in time, when `body` ran past its limit, or when the connection failed under it (PostgreSQL stopped,
    /// the network cut), so that the caller says "try again in a moment" instead of failing or hanging. Every other
    /// error of `body` is thrown as it is.
    ///
    /// Both waits hold even when postgres-nio's own calls do not end: with `sslmode=prefer`, a lease asked for, or a
    /// query sent, while PostgreSQL restarted was seen to wait for ever, cancelled or not. The lease runs in a task of
    /// its own, which this call stops waiting for; should it be lent a connection after the caller stopped waiting,
    /// `body` is not run on it (the caller was told nothing was written, and may have asked again), and a body past
    /// its limit has its connection closed.
    public static func withConnection<T: Sendable>(_ client: PostgresClient, waitingAtMost chosenWait: Duration? = nil,
                                                   _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let activity = PoolActivity.of(client)
        let lease = LeaseRace<T>(wait: chosenWait ?? activity.connectionWait ?? connectionWait, activity: activity)
        let leasing = Task {
            do {
                let value = try await client.withConnection { connection in
                    guard lease.take(connection) else { throw DatabaseUnavailable("the connection was lent after the request stopped waiting for it") }
                    activity.lent()
                    defer { activity.served() }
                    return try await body(connection)
                }
                lease.finish(.success(value))
            } catch {
                lease.finish(.failure(error))
            }
        }
        // Both waits are kept by the one watchdog of every lease, not by a timer of this lease's own.
        LeaseWatchdog.shared.watch(lease, leasing: leasing)
        do {
            return try await withTaskCancellationHandler {
                try await lease.value()
            } onCancel: {
                if lease.abandonIfWaiting(CancellationError()) { leasing.cancel() }
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

/// One lease of ``PostgresTransactionRunner/withConnection(_:waitingAtMost:_:)``: waiting for a connection, lent one
/// (its body runs), or abandoned (the caller stopped waiting); and the caller's wait for its result, which the first of
/// the body's end, the abandonment and the overrun of the transaction's limit settles.
private final class LeaseRace<T: Sendable>: WatchedLease {
    private struct State {
        var lent: PostgresConnection?
        var lentAt: ContinuousClock.Instant?
        var abandoned = false
        var result: Result<T, any Error>?
        var waiter: CheckedContinuation<T, any Error>?
    }
    private let state = Mutex(State())
    /// When the lease was asked for.
    private let started = ContinuousClock().now
    /// How long it waits for a connection while the pool serves no one.
    private let wait: Duration
    private let activity: PoolActivity

    init(wait: Duration, activity: PoolActivity) {
        self.wait = wait
        self.activity = activity
    }

    /// Marks the lease lent on `connection`, so that its body runs; false when the caller has stopped waiting.
    func take(_ connection: PostgresConnection) -> Bool {
        state.withLock { state in
            guard !state.abandoned, state.result == nil else { return false }
            state.lent = connection
            state.lentAt = ContinuousClock().now
            return true
        }
    }

    /// Settles the caller's wait with `error` when no connection was lent yet; false when one was.
    func abandonIfWaiting(_ error: any Error) -> Bool {
        let settled = state.withLock { state -> Bool in
            guard state.lent == nil, state.result == nil else { return false }
            state.abandoned = true
            return true
        }
        if settled { finish(.failure(error)) }
        return settled
    }

    /// Settles the caller's wait with `result`, unless it is settled already.
    func finish(_ result: Result<T, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<T, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }

    /// The result, once settled.
    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let settled = state.withLock { state -> Result<T, any Error>? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let settled { continuation.resume(with: settled) }
        }
    }

    func check(at now: ContinuousClock.Instant) -> WatchedLeaseVerdict {
        let (lent, lentAt, settled) = state.withLock { ($0.lent, $0.lentAt, $0.result != nil) }
        if settled { return .settled }
        if let lent, let lentAt {
            guard now - lentAt >= PostgresTransactionRunner.transactionLimit else { return .watching }
            finish(.failure(DatabaseUnavailable("a transaction ran past \(PostgresTransactionRunner.transactionLimit): the database stopped answering")))
            return .overran(lent)
        }
        let waited = now - started
        guard waited >= wait else { return .watching }
        // A pool that has a connection lent now, or served a request within the last wait, is busy, not cut off (a
        // first wave of long transactions may not have ended within the wait): the request waits on, up to busyPoolWait.
        if activity.isServing(since: now - wait) && waited < PostgresTransactionRunner.busyPoolWait { return .watching }
        let error = DatabaseUnavailable("no connection within \(waited) (is PostgreSQL running and reachable?)")
        return abandonIfWaiting(error) ? .abandoned : .watching
    }
}

/// What ``LeaseWatchdog`` found of a lease.
private enum WatchedLeaseVerdict {
    /// Its wait goes on.
    case watching
    /// Its caller has its result: nothing more to watch.
    case settled
    /// It waited past its wait for a connection: its caller was told, and its lease is to be cancelled.
    case abandoned
    /// Its body ran past the transaction's limit: its caller was told, and this connection is to be closed.
    case overran(PostgresConnection)
}

/// A lease the watchdog keeps the waits of.
private protocol WatchedLease: AnyObject, Sendable {
    /// Settles the lease's wait when a limit passed by `now`, saying what became of it.
    func check(at now: ContinuousClock.Instant) -> WatchedLeaseVerdict
}

/// The waits of every lease of the process, checked by one task every ``tick``: a lease's wait for a connection
/// (``PostgresTransactionRunner/connectionWait``) and its body's limit (``PostgresTransactionRunner/transactionLimit``)
/// are kept within a tick of their time, without a timer and a task per transaction (each cancelled ten-second timer
/// stayed queued in the dispatch timers for its ten seconds; the page rate measured the same either way).
private final class LeaseWatchdog: Sendable {
    static let shared = LeaseWatchdog()
    /// How often the waits are checked.
    static let tick: Duration = .milliseconds(100)

    private struct Watched {
        let lease: any WatchedLease
        let leasing: Task<Void, Never>
    }
    private struct State {
        var watched: [ObjectIdentifier: Watched] = [:]
        var running = false
    }
    private let state = Mutex(State())

    /// Keeps `lease`'s waits until its caller has its result; `leasing` is cancelled when it is abandoned.
    func watch(_ lease: any WatchedLease, leasing: Task<Void, Never>) {
        let start = state.withLock { state -> Bool in
            state.watched[ObjectIdentifier(lease)] = Watched(lease: lease, leasing: leasing)
            defer { state.running = true }
            return !state.running
        }
        if start { Task.detached { await self.run() } }
    }

    private func run() async {
        while true {
            try? await Task.sleep(for: Self.tick)
            let now = ContinuousClock.now
            let watched = state.withLock { state -> [(ObjectIdentifier, Watched)]? in
                if state.watched.isEmpty {
                    state.running = false
                    return nil
                }
                return Array(state.watched)
            }
            guard let watched else { return }
            var done: [ObjectIdentifier] = []
            for (id, entry) in watched {
                switch entry.lease.check(at: now) {
                case .watching: continue
                case .settled: break
                case .abandoned: entry.leasing.cancel()
                case .overran(let connection): Task { try? await connection.close() }
                }
                done.append(id)
            }
            state.withLock { state in for id in done { state.watched[id] = nil } }
        }
    }
}

/// How many connections of a pool are lent now, and when it last served a request whole (a connection lent, the
/// body run on it), to tell a busy pool (serving others) from one cut off from its database.
private final class PoolActivity: Sendable {
    private struct State {
        var lentNow = 0
        var lastServed: ContinuousClock.Instant?
        var connectionWait: Duration?
    }
    /// A pool's activity, held beside a weak reference to the pool: an identifier of a pool that has ended may be
    /// given to a new one, which must not inherit its activity.
    private struct Entry {
        weak var client: PostgresClient?
        let activity: PoolActivity
    }
    private let state = Mutex(State())
    private static let pools = Mutex<[ObjectIdentifier: Entry]>([:])

    /// The activity of `client`'s pool (one per pool, for as long as the pool lives).
    static func of(_ client: PostgresClient) -> PoolActivity {
        pools.withLock { pools in
            if let entry = pools[ObjectIdentifier(client)], entry.client === client { return entry.activity }
            pools = pools.filter { $0.value.client != nil }
            let activity = PoolActivity()
            pools[ObjectIdentifier(client)] = Entry(client: client, activity: activity)
            return activity
        }
    }

    /// How long a request waits for a connection while the pool serves no one; nil for ``PostgresTransactionRunner/connectionWait``.
    var connectionWait: Duration? {
        get { state.withLock { $0.connectionWait } }
        set { state.withLock { $0.connectionWait = newValue } }
    }

    /// Notes a connection lent to a request.
    func lent() { state.withLock { $0.lentNow += 1 } }

    /// Notes that a request lent a connection has given it back now.
    func served() {
        state.withLock { state in
            state.lentNow -= 1
            state.lastServed = ContinuousClock().now
        }
    }

    /// Whether a connection is lent now, or a request was served at or after `instant`.
    func isServing(since instant: ContinuousClock.Instant) -> Bool {
        state.withLock { state in state.lentNow > 0 || state.lastServed.map { $0 >= instant } ?? false }
    }
}
