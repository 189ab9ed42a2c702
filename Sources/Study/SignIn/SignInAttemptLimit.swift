import Foundation

/// The rules of one limit on wrong sign-in secrets (participants' one-time codes, the console's passwords): a bucket of
/// tries per client address and one shared server-wide, each refilling with time. While either bucket of a request is
/// empty, its secret is not even checked.
///
/// ```swift
/// let limit = SignInAttemptLimit.participantCodes
/// guard try await store.allowsSignInAttempt(from: client, under: limit, at: now) else { throw tooManyRequests }
/// if wrong { try await store.recordFailedSignInAttempt(from: client, under: limit, at: now) }
/// ```
///
/// The buckets are rows of the study's database (``StudyStore/allowsSignInAttempt(from:under:at:)``), so that every
/// server process over one database counts the same failures; the rules are here, once. One address may try
/// ``clientBurst`` wrong secrets at once and ``clientFailuresPerSecond`` over time, far below the server-wide rate, so a
/// flood from one address runs into its own limit and leaves the server-wide bucket, which every sign-in shares,
/// nearly full. At most ``clientLimit`` client buckets are kept per limit: beyond it, those that have refilled are
/// forgotten first (a full bucket and no bucket allow the same), and when none has, all of them (the server-wide
/// bucket still holds).
public struct SignInAttemptLimit: Hashable, Sendable {
    /// Whose buckets these are (``participantCodes``, ``consolePasswords``): limits of different scopes never share one.
    public var scope: String
    /// Wrong secrets accepted server-wide in a burst.
    public var burst: Double
    /// Wrong secrets accepted server-wide per second over time.
    public var failuresPerSecond: Double
    /// Wrong secrets accepted from one client address in a burst.
    public var clientBurst: Double
    /// Wrong secrets accepted from one client address per second over time.
    public var clientFailuresPerSecond: Double
    /// The most client addresses whose buckets are kept.
    public var clientLimit: Int

    /// A limit of `scope` (not empty) with these rates; the defaults are the server's: 100 wrong secrets at once and 10 a
    /// second server-wide, 10 at once and one every ten seconds per client address, 10,000 addresses kept.
    public init(scope: String, burst: Double = 100, failuresPerSecond: Double = 10, clientBurst: Double = 10,
                clientFailuresPerSecond: Double = 0.1, clientLimit: Int = 10_000) {
        precondition(!scope.isEmpty, "a sign-in attempt limit needs a scope")
        self.scope = scope
        self.burst = burst
        self.failuresPerSecond = failuresPerSecond
        self.clientBurst = clientBurst
        self.clientFailuresPerSecond = clientFailuresPerSecond
        self.clientLimit = clientLimit
    }

    /// Participants' one-time sign-in codes. A code has 40 bits and lives ten minutes, and a participant has at most
    /// one: at ten wrong guesses a second, finding any one of a hundred live codes takes some thirty years on average.
    public static let participantCodes = SignInAttemptLimit(scope: "participantCode")
    /// The console's passwords, before the count per address tried (``ResearcherStore/recordFailedSignIn(email:client:pauseAfter:pauseFor:)``),
    /// so that one place cannot try many accounts quickly either.
    public static let consolePasswords = SignInAttemptLimit(scope: "consolePassword")

    /// The client of the server-wide bucket's row: no client address is empty.
    public static let serverWide = ""

    /// The client address a bucket is kept under: `client`, or `"unknown"` for an empty one, which would otherwise be
    /// the server-wide bucket's.
    public static func bucketClient(_ client: String) -> String { client.isEmpty ? "unknown" : client }

    /// Whether a client whose bucket is `client` (nil: none kept, as good as full) may try a secret at `now`, with the
    /// server-wide bucket `server` (nil: none yet, full): both hold a try once refilled.
    public func allowsAttempt(server: SignInBucket?, client: SignInBucket?, at now: Date) -> Bool {
        let serverTokens = server?.refilled(at: now, capacity: burst, perSecond: failuresPerSecond).tokens ?? burst
        guard let client else { return serverTokens >= 1 }
        return client.refilled(at: now, capacity: clientBurst, perSecond: clientFailuresPerSecond).tokens >= 1 && serverTokens >= 1
    }

    /// The server-wide bucket after a wrong secret at `now`: refilled, then one try taken.
    public func serverBucket(afterFailureIn bucket: SignInBucket?, at now: Date) -> SignInBucket {
        (bucket ?? SignInBucket(tokens: burst, refilledAt: now)).refilled(at: now, capacity: burst, perSecond: failuresPerSecond).takingOne()
    }

    /// A client's bucket after a wrong secret at `now`: refilled, then one try taken.
    public func clientBucket(afterFailureIn bucket: SignInBucket?, at now: Date) -> SignInBucket {
        (bucket ?? SignInBucket(tokens: clientBurst, refilledAt: now))
            .refilled(at: now, capacity: clientBurst, perSecond: clientFailuresPerSecond).takingOne()
    }

    /// When the server-wide bucket `bucket` is full again.
    public func serverFullAt(_ bucket: SignInBucket) -> Date { bucket.fullAt(capacity: burst, perSecond: failuresPerSecond) }

    /// When a client's bucket `bucket` is full again: from then on it may be forgotten.
    public func clientFullAt(_ bucket: SignInBucket) -> Date { bucket.fullAt(capacity: clientBurst, perSecond: clientFailuresPerSecond) }
}

/// The tries a bucket of a ``SignInAttemptLimit`` holds, and when it last gained any: a row of the study's database.
public struct SignInBucket: Hashable, Sendable {
    /// Tries left (fractional: the bucket refills continuously).
    public var tokens: Double
    /// When the tries were last counted.
    public var refilledAt: Date

    /// A bucket holding `tokens` tries at `refilledAt`.
    public init(tokens: Double, refilledAt: Date) {
        self.tokens = tokens
        self.refilledAt = refilledAt
    }

    /// The bucket at `now`, with what it gained since ``refilledAt`` up to `capacity` (nothing when the clock went back).
    public func refilled(at now: Date, capacity: Double, perSecond: Double) -> SignInBucket {
        guard now > refilledAt else { return self }
        return SignInBucket(tokens: min(capacity, tokens + now.timeIntervalSince(refilledAt) * perSecond), refilledAt: now)
    }

    /// The bucket with one try taken out (never below empty).
    public func takingOne() -> SignInBucket { SignInBucket(tokens: max(0, tokens - 1), refilledAt: refilledAt) }

    /// When the bucket holds `capacity` tries again.
    public func fullAt(capacity: Double, perSecond: Double) -> Date {
        guard tokens < capacity, perSecond > 0 else { return tokens < capacity ? .distantFuture : refilledAt }
        return refilledAt.addingTimeInterval((capacity - tokens) / perSecond)
    }
}
