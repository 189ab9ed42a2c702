import Foundation
import Synchronization
import Testing
import StudyKitEnvironment

@Suite("The environment")
struct StudyKitEnvironmentTests {
    @Test func aTestEnvironmentDoesNotDependOnTheMachinesZoneOrLocale() {
        let environment = StudyKitEnvironment(now: { Date(timeIntervalSince1970: 0) }, makeUUID: { UUID() })
        #expect(environment.calendar.identifier == .gregorian)
        #expect(environment.timeZone == .gmt)
        #expect(environment.locale.identifier == "en_US_POSIX")
    }

    @Test func settingTheTimeZoneMovesTheCalendar() {
        var environment = StudyKitEnvironment(now: { Date(timeIntervalSince1970: 1_790_000_000) }, makeUUID: { UUID() })
        environment.timeZone = TimeZone(identifier: "Pacific/Kiritimati")!
        #expect(environment.calendar.timeZone.identifier == "Pacific/Kiritimati")
        // 2026-09-21T14:13:20Z is already the 22nd at UTC+14.
        #expect(environment.calendar.component(.day, from: environment.now()) == 22)
    }

    @Test func aParticipantsCopyKeepsTheClockUUIDsAndRandomness() {
        let counter = Atomic<Int>(0)
        let base = StudyKitEnvironment(now: { Date(timeIntervalSince1970: 42) }, makeUUID: {
            UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", counter.add(1, ordering: .relaxed).newValue))!
        }, randomBytes: { Array(repeating: 7, count: $0) })
        var tokyo = Calendar(identifier: .gregorian)
        tokyo.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        let participant = base.with(calendar: tokyo, locale: Locale(identifier: "ja"))
        #expect(participant.timeZone.identifier == "Asia/Tokyo")
        #expect(participant.locale.identifier == "ja")
        #expect(participant.now() == Date(timeIntervalSince1970: 42))
        #expect(participant.randomBytes(3) == [7, 7, 7])
        // One UUID source: the copy and the original count on from the same place.
        #expect(base.makeUUID().uuidString.hasSuffix("0001"))
        #expect(participant.makeUUID().uuidString.hasSuffix("0002"))
        #expect(base.timeZone == .gmt, "the original keeps its own zone")
    }

    @Test func liveRandomBytesHaveTheLengthAskedForAndDoNotRepeat() {
        let random = StudyKitEnvironment.live.randomBytes
        for count in [0, 1, 5, 16, 17, 32, 100] { #expect(random(count).count == count) }
        let tokens = Set((0..<1_000).map { _ in random(32) })
        #expect(tokens.count == 1_000)
        // Not all one value: 4,000 bytes from a fair source cover nearly every byte value.
        #expect(Set((0..<125).flatMap { _ in random(32) }).count > 200)
    }

    @Test func liveUUIDsAreTimeOrdered() {
        let live = StudyKitEnvironment.live
        let uuids = (0..<100).map { _ in live.makeUUID() }
        #expect(uuids.allSatisfy { Array($0.uuidString)[14] == "7" })
        let bytes = uuids.map { uuid in withUnsafeBytes(of: uuid.uuid) { Array($0) } }
        #expect(zip(bytes, bytes.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) })
    }
}
