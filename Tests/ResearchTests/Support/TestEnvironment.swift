import Foundation
import StudyKitEnvironment
@testable import Research

/// A clock that tests move by hand, and UUIDs counted from 1, so that runs are reproducible.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private var uuidCounter = 0

    init(_ start: Date = Date(timeIntervalSince1970: 1_774_771_200)) { current = start } // 2026-03-29T08:00:00Z

    var now: Date { lock.withLock { current } }

    func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }

    func nextUUID() -> UUID {
        lock.withLock {
            uuidCounter += 1
            return UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", uuidCounter))!
        }
    }

    /// A session environment on this clock, in `timeZone` (Tokyo by default: far from UTC).
    func environment(timeZone: TimeZone = TimeZone(identifier: "Asia/Tokyo")!, locale: Locale = Locale(identifier: "en_US_POSIX")) -> StudyKitEnvironment {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return StudyKitEnvironment(now: { self.now }, makeUUID: { self.nextUUID() }, calendar: calendar, locale: locale)
    }
}

/// Small builders for test tasks.
enum Build {
    static func instruction(_ id: String) -> Step { Step(identifier: id, kind: .instruction, title: id) }
    static func completion(_ id: String = "done") -> Step { Step(identifier: id, kind: .completion, title: "Thank you") }
    static func scale(_ id: String, optional: Bool = true) -> Step {
        Step(identifier: id, kind: .question(.scale(ScaleFormat(minimum: 0, maximum: 10))), text: "How much?", isOptional: optional)
    }
    static func boolean(_ id: String, optional: Bool = true) -> Step {
        Step(identifier: id, kind: .question(.boolean(BooleanFormat())), text: "Yes or no?", isOptional: optional)
    }
    static func form(_ id: String, items: [String], required: Set<String> = []) -> Step {
        Step(identifier: id, kind: .form(FormContent(items: items.map {
            FormItem(identifier: $0, text: $0, answerFormat: .scale(ScaleFormat(minimum: 0, maximum: 3)), isOptional: !required.contains($0))
        })))
    }
    static func ref(_ step: String, _ item: String? = nil) -> AnswerReference { AnswerReference(step: step, item: item) }
}
