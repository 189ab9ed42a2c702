import Foundation
import Synchronization

/// Limits wrong sign-in codes, server-wide: a bucket of ``burst`` failures that refills at ``failuresPerSecond``;
/// while it is empty, codes are not even looked up.
///
/// A code has 40 bits and lives ten minutes, and a participant has at most one: at ten wrong guesses a second,
/// finding any one of a hundred live codes takes some thirty years on average. The limit is for everyone at once
/// (behind a proxy every participant has the proxy's address), so a flood of guesses can hold back real sign-ins
/// until it stops; the invitation links and existing sessions are not affected.
final class SignInAttemptLimiter: Sendable {
    /// Wrong codes accepted in a burst.
    let burst: Double
    /// Wrong codes accepted per second over time.
    let failuresPerSecond: Double
    private let state: Mutex<(tokens: Double, updatedAt: Date?)>

    /// A full bucket.
    init(burst: Double = 100, failuresPerSecond: Double = 10) {
        self.burst = burst
        self.failuresPerSecond = failuresPerSecond
        state = Mutex((burst, nil))
    }

    /// Whether a code may be tried at `now`.
    func allowsAttempt(at now: Date) -> Bool {
        state.withLock { state in
            refill(&state, at: now)
            return state.tokens >= 1
        }
    }

    /// Counts a wrong code tried at `now`.
    func recordFailure(at now: Date) {
        state.withLock { state in
            refill(&state, at: now)
            state.tokens = max(0, state.tokens - 1)
        }
    }

    /// Adds what the bucket gained since it was last touched (nothing when the clock went back).
    private func refill(_ state: inout (tokens: Double, updatedAt: Date?), at now: Date) {
        guard let updatedAt = state.updatedAt else {
            state.updatedAt = now
            return
        }
        guard now > updatedAt else { return }
        state.tokens = min(burst, state.tokens + now.timeIntervalSince(updatedAt) * failuresPerSecond)
        state.updatedAt = now
    }
}
