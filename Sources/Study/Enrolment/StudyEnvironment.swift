import Foundation

/// The clock and identifiers the study code uses, injected so that enrolment, outcomes and stores can be tested at
/// fixed times with predictable identifiers.
public struct StudyEnvironment: Sendable {
    /// The current time.
    public var now: @Sendable () -> Date
    /// A fresh UUID for each new entity, outcome or record.
    public var makeUUID: @Sendable () -> UUID

    /// Creates an environment from a clock and a UUID source.
    public init(now: @escaping @Sendable () -> Date, makeUUID: @escaping @Sendable () -> UUID) {
        self.now = now
        self.makeUUID = makeUUID
    }

    /// The system clock and random UUIDs: what a server uses.
    public static var live: StudyEnvironment {
        StudyEnvironment(now: { Date() }, makeUUID: { UUID() })
    }
}
