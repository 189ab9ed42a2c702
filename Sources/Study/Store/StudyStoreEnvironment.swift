import Foundation

/// The clock, identifiers and randomness a study store uses, injected so that expiry, single use and hashing are
/// tested at fixed times with known secrets.
public struct StudyStoreEnvironment: Sendable {
    /// The current time: creation, last-seen and expiry times come from it.
    public var now: @Sendable () -> Date
    /// A fresh UUID for invitations, sessions and participant ids.
    public var makeUUID: @Sendable () -> UUID
    /// `count` random bytes for codes and tokens; they must come from a cryptographically secure source.
    public var randomBytes: @Sendable (Int) -> [UInt8]

    /// Creates an environment.
    public init(now: @escaping @Sendable () -> Date, makeUUID: @escaping @Sendable () -> UUID,
                randomBytes: @escaping @Sendable (Int) -> [UInt8]) {
        self.now = now
        self.makeUUID = makeUUID
        self.randomBytes = randomBytes
    }

    /// The system clock, random UUIDs and the system's secure random generator (getrandom on Linux, the keychain's
    /// generator on Apple systems).
    public static var live: StudyStoreEnvironment {
        StudyStoreEnvironment(now: { Date() }, makeUUID: { UUID() }, randomBytes: { count in
            var generator = SystemRandomNumberGenerator()
            return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        })
    }
}
