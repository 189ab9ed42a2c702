import Foundation

/// The clock and identifiers a ``ConsentRecorder`` uses, injected so that records can be made at fixed
/// times with fixed ids in tests.
public struct ConsentRecordEnvironment: Sendable {
    /// The current time, for ``ConsentRecord/createdAt`` and withdrawal times.
    public var now: @Sendable () -> Date
    /// A fresh identifier for each record.
    public var makeUUID: @Sendable () -> UUID

    /// Creates an environment; tests pass a fixed clock and ids, everything else uses ``live``.
    public init(now: @escaping @Sendable () -> Date, makeUUID: @escaping @Sendable () -> UUID) {
        self.now = now
        self.makeUUID = makeUUID
    }

    /// The system clock and random UUIDs.
    public static var live: ConsentRecordEnvironment {
        ConsentRecordEnvironment(now: { Date() }, makeUUID: { UUID() })
    }
}
