import Foundation
import Synchronization
import Testing
@testable import StudyKitEnvironment

@Suite("Time-ordered UUIDs")
struct TimeOrderedUUIDGeneratorTests {
    /// Bytes of a UUID, most significant first, for ordering.
    private func bytes(_ uuid: UUID) -> [UInt8] { withUnsafeBytes(of: uuid.uuid) { Array($0) } }

    @Test func areVersion7WithTheRFCVariantAndCarryTheTime() {
        let generator = TimeOrderedUUIDGenerator(millisecondsNow: { 1_764_000_000_123 })
        for _ in 0..<1_000 {
            let uuid = generator.next()
            let characters = Array(uuid.uuidString)
            #expect(characters[14] == "7")
            #expect("89AB".contains(characters[19]))
            let milliseconds = bytes(uuid).prefix(6).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            #expect(milliseconds == 1_764_000_000_123 || milliseconds == 1_764_000_000_124) // borrowing once at most
        }
    }

    @Test func increaseWithinOneMillisecondAndAcrossMilliseconds() {
        let clock = Mutex<UInt64>(1_000)
        let generator = TimeOrderedUUIDGenerator(millisecondsNow: { clock.withLock { $0 } })
        var previous = bytes(generator.next())
        for step in 0..<20_000 {
            if step % 3_000 == 0 { clock.withLock { $0 += 1 } }
            let current = bytes(generator.next())
            #expect(current.lexicographicallyPrecedes(previous) == false && current != previous)
            previous = current
        }
    }

    @Test func doNotRepeatAcrossGenerators() {
        let first = TimeOrderedUUIDGenerator(millisecondsNow: { 42 })
        let second = TimeOrderedUUIDGenerator(millisecondsNow: { 42 })
        let uuids = Set((0..<5_000).flatMap { _ in [first.next(), second.next()] })
        #expect(uuids.count == 10_000)
    }
}
