import Foundation
import Synchronization

/// Limits wrong sign-in codes per client address and server-wide: each is a bucket of failures that refills with
/// time; while either bucket of a request is empty, its code is not even looked up.
///
/// A code has 40 bits and lives ten minutes, and a participant has at most one: at ten wrong guesses a second,
/// finding any one of a hundred live codes takes some thirty years on average. One address may try ``clientBurst``
/// wrong codes at once and ``clientFailuresPerSecond`` over time (one every ten seconds), far below the server-wide
/// rate, so a flood from one address runs into its own limit and leaves the server-wide bucket, which every
/// participant's sign-in shares, nearly full. Only a flood spread over many addresses can still hold real sign-ins
/// back until it stops; invitation links and existing sessions are never affected.
///
/// Behind a proxy every request has the proxy's address: the server then takes the client's address from
/// `X-Forwarded-For`, but only from proxies it was told to trust (``ClientAddress``).
final class SignInAttemptLimiter: Sendable {
    /// Wrong codes accepted server-wide in a burst.
    let burst: Double
    /// Wrong codes accepted server-wide per second over time.
    let failuresPerSecond: Double
    /// Wrong codes accepted from one client address in a burst.
    let clientBurst: Double
    /// Wrong codes accepted from one client address per second over time.
    let clientFailuresPerSecond: Double
    /// The most client addresses remembered; beyond it, those whose buckets have refilled are forgotten first.
    let clientLimit: Int
    private let state: Mutex<State>

    private struct State {
        var server: TokenBucket
        var clients: [String: TokenBucket] = [:]
    }

    /// Full buckets.
    init(burst: Double = 100, failuresPerSecond: Double = 10, clientBurst: Double = 10, clientFailuresPerSecond: Double = 0.1,
         clientLimit: Int = 10_000) {
        self.burst = burst
        self.failuresPerSecond = failuresPerSecond
        self.clientBurst = clientBurst
        self.clientFailuresPerSecond = clientFailuresPerSecond
        self.clientLimit = clientLimit
        state = Mutex(State(server: TokenBucket(tokens: burst)))
    }

    /// Whether `client` may try a code at `now`: its own bucket and the server's both hold a try.
    func allowsAttempt(from client: String, at now: Date) -> Bool {
        state.withLock { state in
            state.server.refill(at: now, capacity: burst, perSecond: failuresPerSecond)
            guard var bucket = state.clients[client] else { return state.server.tokens >= 1 }
            bucket.refill(at: now, capacity: clientBurst, perSecond: clientFailuresPerSecond)
            state.clients[client] = bucket
            return bucket.tokens >= 1 && state.server.tokens >= 1
        }
    }

    /// Counts a wrong code that `client` tried at `now`, against its bucket and the server's.
    func recordFailure(from client: String, at now: Date) {
        state.withLock { state in
            state.server.refill(at: now, capacity: burst, perSecond: failuresPerSecond)
            state.server.take()
            var bucket = state.clients[client] ?? TokenBucket(tokens: clientBurst)
            bucket.refill(at: now, capacity: clientBurst, perSecond: clientFailuresPerSecond)
            bucket.take()
            if state.clients[client] == nil, state.clients.count >= clientLimit { forgetRefilledClients(&state, at: now) }
            state.clients[client] = bucket
        }
    }

    /// Drops the clients whose buckets are full again; when none is, drops them all (the server-wide bucket still holds).
    private func forgetRefilledClients(_ state: inout State, at now: Date) {
        state.clients = state.clients.filter { _, bucket in
            var bucket = bucket
            bucket.refill(at: now, capacity: clientBurst, perSecond: clientFailuresPerSecond)
            return bucket.tokens < clientBurst
        }
        if state.clients.count >= clientLimit { state.clients.removeAll() }
    }
}

/// Tries that a bucket holds, and when it last gained any.
private struct TokenBucket {
    var tokens: Double
    var updatedAt: Date?

    /// Adds what the bucket gained since it was last touched, up to `capacity` (nothing when the clock went back).
    mutating func refill(at now: Date, capacity: Double, perSecond: Double) {
        guard let last = updatedAt else {
            updatedAt = now
            return
        }
        guard now > last else { return }
        tokens = min(capacity, tokens + now.timeIntervalSince(last) * perSecond)
        updatedAt = now
    }

    /// Takes one try out (never below empty).
    mutating func take() { tokens = max(0, tokens - 1) }
}
