import Foundation
import Study

/// Limits wrong sign-in secrets per client address and server-wide, by the rules of a ``Study/SignInAttemptLimit``,
/// with its buckets kept in the study's database (``Study/StudyStore/allowsSignInAttempt(from:under:at:)``), so that
/// every server process over one database counts the same failures: while either bucket of a request is empty, its
/// secret is not even looked up.
///
/// ```swift
/// let limiter = SignInAttemptLimiter(store: data.studyStore, limit: .participantCodes)
/// guard try await limiter.allowsAttempt(from: client, at: environment.now()) else { throw tooManyRequests }
/// ```
///
/// Participants' sign-in codes (``StudyService/signInAttempts``) and the console's passwords
/// (``ResearcherAccounts/attempts``) each have their own limit, of their own scope. Behind a proxy every request has
/// the proxy's address: the server then takes the client's address from `X-Forwarded-For`, but only from proxies it was
/// told to trust (``ClientAddress``).
struct SignInAttemptLimiter: Sendable {
    /// Where the buckets are kept.
    let store: any StudyStore
    /// The rules and rates.
    let limit: SignInAttemptLimit

    /// A limiter of `limit` over the buckets `store` keeps.
    init(store: any StudyStore, limit: SignInAttemptLimit) {
        self.store = store
        self.limit = limit
    }

    /// A limiter with these rates over buckets of its own, in memory (for tests).
    init(burst: Double = 100, failuresPerSecond: Double = 10, clientBurst: Double = 10, clientFailuresPerSecond: Double = 0.1,
         clientLimit: Int = 10_000) {
        self.init(store: InMemoryStudyStore(environment: .live),
                  limit: SignInAttemptLimit(scope: "limiter", burst: burst, failuresPerSecond: failuresPerSecond, clientBurst: clientBurst,
                                            clientFailuresPerSecond: clientFailuresPerSecond, clientLimit: clientLimit))
    }

    /// Wrong secrets accepted server-wide in a burst.
    var burst: Double { limit.burst }
    /// Wrong secrets accepted from one client address in a burst.
    var clientBurst: Double { limit.clientBurst }

    /// Whether `client` may try a secret at `now`: its own bucket and the server's both hold a try.
    func allowsAttempt(from client: String, at now: Date) async throws -> Bool {
        try await store.allowsSignInAttempt(from: client, under: limit, at: now)
    }

    /// Counts a wrong secret that `client` tried at `now`, against its bucket and the server's.
    func recordFailure(from client: String, at now: Date) async throws {
        try await store.recordFailedSignInAttempt(from: client, under: limit, at: now)
    }
}
