import Foundation
@testable import CareStore

/// Helpers for schedule tests: dates from ISO text, zones by name, and a brute-force reference.
enum ScheduleTestSupport {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    static let kiritimati = TimeZone(identifier: "Pacific/Kiritimati")!

    /// A date from ISO 8601 text with an offset; traps on a typo in a test.
    static func date(_ text: String) -> Date {
        guard let date = ScheduleDate.date(from: text) else { fatalError("bad test date \(text)") }
        return date
    }

    /// A date printed with a zone's offset, as the CLI prints it.
    static func text(_ date: Date, _ zone: TimeZone) -> String { ScheduleDate.string(from: date, in: zone) }

    static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// Every event of `schedule` that starts before `limit`, computed the slow and obvious way: each element's
    /// starts listed from its start (Calendar for intervals, the rule iterator for rules), all-day spans from
    /// `Calendar.startOfDay`, merged and sorted, occurrence = position.
    static func bruteForceEvents(_ schedule: Schedule, before limit: Date) -> [ScheduleEvent] {
        let calendar = calendar(schedule.timeZone)
        var all: [(start: Date, end: Date, element: Int)] = []
        for (index, element) in schedule.elements.enumerated() {
            var raws: [Date] = []
            switch element.repetition {
            case .once:
                raws = [element.start]
            case .interval(let interval):
                var k = 0
                while true {
                    var scaled = DateComponents()
                    for (_, component) in DateComponents.scheduleIntervalKeys {
                        if let value = interval.value(for: component) { scaled.setValue(value * k, for: component) }
                    }
                    let date = calendar.date(byAdding: scaled, to: element.start)!
                    if date >= limit || (element.end.map { date >= $0 } ?? false) { break }
                    raws.append(date)
                    k += 1
                }
            case .rule(let rule):
                var iterator = RuleIterator(RuleExpansion(rule: rule, start: element.start, clock: ZoneClock(schedule.timeZone), stop: element.end))
                while let date = iterator.next(), date < limit.addingTimeInterval(86_400) { raws.append(date) }
            }
            for raw in raws {
                if let end = element.end, raw >= end { continue }
                switch element.duration {
                case .allDay:
                    let day = calendar.startOfDay(for: raw)
                    all.append((day, calendar.date(byAdding: .day, value: 1, to: day)!, index))
                case .seconds(let seconds):
                    all.append((raw, raw.addingTimeInterval(seconds), index))
                }
            }
        }
        all.sort { ($0.start, $0.element) < ($1.start, $1.element) }
        return all.enumerated().filter { $0.element.start < limit }.map { offset, item in
            let element = schedule.elements[item.element]
            return ScheduleEvent(occurrence: offset, start: item.start, end: item.end, elementIndex: item.element,
                                 text: element.text, targetValues: element.targetValues)
        }
    }

    /// The brute-force events that overlap a window, by the documented rule.
    static func overlapping(_ events: [ScheduleEvent], _ window: DateInterval) -> [ScheduleEvent] {
        events.filter { $0.start < window.end && $0.end > window.start }
    }
}
