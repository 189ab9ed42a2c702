import CareStore
import Foundation
import StudyKitEnvironment
import Research
import Study
import Synchronization

/// The repository's folders and copies of example studies for tests to break.
enum StudyFixtures {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let examples = repository.appendingPathComponent("examples")
    static let recover = examples.appendingPathComponent("studies/recover")
    static let recoverClassic = examples.appendingPathComponent("studies/recover-classic")
    static let cognition = examples.appendingPathComponent("studies/cognition")

    /// A temporary copy of `examples/consent` and `examples/studies`, laid out as in the repository, so that the
    /// studies' `../../consent` paths work; the body gets the copy of the Recover study.
    static func withRecoverCopy<T>(_ body: (URL) throws -> T) throws -> T {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("study-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("examples"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: examples.appendingPathComponent("consent"), to: root.appendingPathComponent("examples/consent"))
        try FileManager.default.copyItem(at: examples.appendingPathComponent("studies"), to: root.appendingPathComponent("examples/studies"))
        let recover = root.appendingPathComponent("examples/studies/recover")
        try untranslate(recover)
        return try body(recover)
    }

    /// Takes Recover's translations out of a copy and lets every language fall back, so that a test may change the
    /// study's texts and tasks freely (the translations would then name texts the copy no longer has, or miss new ones).
    static func untranslate(_ recover: URL) throws {
        try? FileManager.default.removeItem(at: recover.appendingPathComponent("translations"))
        try edit("study.yaml", in: recover, replacing: "languages: [en, ja, zh-Hans, ko, es]\n",
                 with: "languages: [en, ja, zh-Hans, ko, es]\ntranslation:\n  fallback: [ja, zh-Hans, ko, es]\n")
    }

    /// Takes the reminder email address out of a Recover copy's onboarding, for a test that gives it a study file
    /// without reminders (where the address would be refused: nothing would be sent to it).
    static func withoutReminderEmail(_ recover: URL) throws {
        let onboarding = try String(contentsOf: recover.appendingPathComponent("onboarding.json"), encoding: .utf8)
        guard let line = onboarding.split(separator: "\n").first(where: { $0.contains(#""kind": "email""#) }) else {
            throw FixtureError.missing(#""kind": "email""#, "onboarding.json")
        }
        try edit("onboarding.json", in: recover, replacing: ",\n" + line, with: "")
    }

    /// Replaces `old` with `new` in `file` of `folder`; fails the test when `old` is not there.
    static func edit(_ file: String, in folder: URL, replacing old: String, with new: String) throws {
        let url = folder.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        guard text.contains(old) else { throw FixtureError.missing(old, file) }
        try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
    }

    enum FixtureError: Error { case missing(String, String) }
}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    func set(_ date: Date) { current.withLock { $0 = date } }
}

/// UUIDs 00000000-0000-0000-0000-000000000001, …2, … in order.
final class CountingUUIDs: Sendable {
    private let next = Mutex(1)
    func make() -> UUID {
        let value = next.withLock { value in
            defer { value += 1 }
            return value
        }
        return UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", value))!
    }
}

enum Zones {
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let kiritimati = TimeZone(identifier: "Pacific/Kiritimati")!
    static let utc = TimeZone(identifier: "UTC")!
}

/// The instant of a wall-clock time in `timeZone`.
func wallTime(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, in timeZone: TimeZone) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
}

/// The wall clock of `date` in `timeZone`.
func wallClock(_ date: Date, in timeZone: TimeZone) -> DateComponents {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    return calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
}

/// A session environment at a fixed time in `timeZone`.
func sessionEnvironment(_ clock: TestClock, uuids: CountingUUIDs, timeZone: TimeZone) -> StudyKitEnvironment {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    return StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }, calendar: calendar, locale: Locale(identifier: "en_US"))
}
