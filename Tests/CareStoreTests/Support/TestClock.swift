import Foundation
import StudyKitEnvironment
@testable import CareStore

/// A clock that tests move by hand, and UUIDs counted from 1, so that runs are reproducible.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private var uuidCounter = 0

    /// A clock at `start` (by default 2026-03-20 12:00 UTC).
    init(_ start: Date = Date(timeIntervalSince1970: 1_774_008_000)) { current = start }

    var now: Date { lock.withLock { current } }

    func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }

    func set(_ date: Date) { lock.withLock { current = date } }

    func nextUUID() -> UUID {
        lock.withLock {
            uuidCounter += 1
            return UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", uuidCounter))!
        }
    }

    /// The UUID `nextUUID()` returned (or will return) the `n`th time.
    static func uuid(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))! }

    /// A store environment on this clock.
    var environment: StudyKitEnvironment {
        StudyKitEnvironment(now: { self.now }, makeUUID: { self.nextUUID() })
    }
}
