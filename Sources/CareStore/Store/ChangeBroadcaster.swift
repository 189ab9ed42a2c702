import Foundation
import Synchronization

/// Hands every committed change to every open ``CareStore/changes()`` stream.
final class ChangeBroadcaster: Sendable {
    private let listeners = Mutex<[UUID: AsyncStream<CareChange>.Continuation]>([:])

    /// A new stream of changes, open until its consumer stops iterating.
    func stream() -> AsyncStream<CareChange> {
        let (stream, continuation) = AsyncStream<CareChange>.makeStream(bufferingPolicy: .unbounded)
        let key = UUID()
        listeners.withLock { $0[key] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLock { $0.removeValue(forKey: key) }
        }
        return stream
    }

    /// Sends `change` to every open stream.
    func send(_ change: CareChange) {
        let targets = listeners.withLock { Array($0.values) }
        for continuation in targets { continuation.yield(change) }
    }
}

/// The clock and UUID source of a care store, injected so that tests run at fixed times.
public struct CareStoreEnvironment: Sendable {
    /// The current time.
    public var now: @Sendable () -> Date
    /// A fresh UUID for each new version and outcome.
    public var makeUUID: @Sendable () -> UUID

    /// Creates an environment.
    public init(now: @escaping @Sendable () -> Date, makeUUID: @escaping @Sendable () -> UUID) {
        self.now = now
        self.makeUUID = makeUUID
    }

    /// The system clock and random (version 4) UUIDs.
    public static var live: CareStoreEnvironment { CareStoreEnvironment(now: { Date() }, makeUUID: { UUID.randomVersion4() }) }
}

extension UUID {
    /// A random version 4 UUID drawn from the system's secure generator.
    ///
    /// Equivalent to `UUID()`, which on Linux opens the system's random source for every UUID (about 3 µs);
    /// this asks `SystemRandomNumberGenerator` for the 128 bits (under 1 µs), which matters when a store writes
    /// thousands of outcomes at once.
    static func randomVersion4() -> UUID {
        var generator = SystemRandomNumberGenerator()
        // RFC 4122 §4.4: version 4 in the high nibble of byte 6, variant 10 in the top bits of byte 8.
        let high = ((generator.next() as UInt64) & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = ((generator.next() as UInt64) & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { UUID(uuid: $0.load(as: uuid_t.self)) }
    }
}
