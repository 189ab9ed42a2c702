import Foundation
import Synchronization

/// Makes version 7 UUIDs (RFC 9562): 48 bits of Unix time in milliseconds, then a 12-bit counter, then 62 random
/// bits from the system's secure source.
///
/// New rows of a store get keys that sort by creation, so SQLite adds them at the end of its UUID indexes instead of
/// at random places in them: in `studykit bench --only care-writes`, random keys held a 10,000-outcome transaction
/// near 100,000 inserts a second and ordered ones nearly doubled it. Within one millisecond the counter keeps the
/// UUIDs of one generator increasing (RFC 9562 §6.2, method 1); it starts each millisecond at a random value below
/// 2048, and when it runs out the generator borrows the next millisecond. 62 random bits keep the UUIDs
/// unguessable; a UUID does reveal when it was made, which the store records anyway.
public final class TimeOrderedUUIDGenerator: Sendable {
    /// The generator ``StudyKitEnvironment/live`` uses.
    public static let shared = TimeOrderedUUIDGenerator(millisecondsNow: {
        UInt64(max(0, (Date().timeIntervalSince1970 * 1000).rounded(.down)))
    })

    private struct State {
        var milliseconds: UInt64 = 0
        var counter: UInt16 = 0
    }
    private let state = Mutex(State())
    private let millisecondsNow: @Sendable () -> UInt64

    /// Creates a generator reading the time, in milliseconds since 1970, from `millisecondsNow`.
    public init(millisecondsNow: @escaping @Sendable () -> UInt64) {
        self.millisecondsNow = millisecondsNow
    }

    /// A new UUID, greater than every earlier one from this generator while the clock does not go back.
    public func next() -> UUID {
        var bytes = SecureRandomPool.shared.next16()
        let (milliseconds, counter) = state.withLock { state -> (UInt64, UInt16) in
            let now = millisecondsNow() & 0xFFFF_FFFF_FFFF
            if now > state.milliseconds {
                state.milliseconds = now
                state.counter = UInt16(bytes.6 & 0x07) << 8 | UInt16(bytes.7) // random start below 2048
            } else if state.counter < 0x0FFF {
                state.counter += 1
            } else {
                state.milliseconds += 1 // the counter ran out: borrow the next millisecond
                state.counter = 0
            }
            return (state.milliseconds, state.counter)
        }
        bytes.0 = UInt8(truncatingIfNeeded: milliseconds >> 40)
        bytes.1 = UInt8(truncatingIfNeeded: milliseconds >> 32)
        bytes.2 = UInt8(truncatingIfNeeded: milliseconds >> 24)
        bytes.3 = UInt8(truncatingIfNeeded: milliseconds >> 16)
        bytes.4 = UInt8(truncatingIfNeeded: milliseconds >> 8)
        bytes.5 = UInt8(truncatingIfNeeded: milliseconds)
        bytes.6 = 0x70 | UInt8(counter >> 8)       // version 7, then the counter's high 4 bits
        bytes.7 = UInt8(truncatingIfNeeded: counter)
        bytes.8 = (bytes.8 & 0x3F) | 0x80          // variant 10
        return UUID(uuid: bytes)
    }
}
