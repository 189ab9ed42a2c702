import Foundation
// Interim until the schedules branch merges (replaced wholesale by it): enough to build the store against.
public struct ScheduleElement: Hashable, Sendable, Codable {
    public var start: Date
    public var end: Date?
    public var interval: DateComponents?
    public var durationSeconds: TimeInterval = 3600
    public var text: String?
    public var targetValues: [OutcomeValue] = []
    public init(start: Date, end: Date? = nil, interval: DateComponents? = nil, text: String? = nil, targetValues: [OutcomeValue] = []) {
        self.start = start; self.end = end; self.interval = interval; self.text = text; self.targetValues = targetValues
    }
}
public struct ScheduleEvent: Hashable, Sendable {
    public var occurrence: Int
    public var start: Date
    public var end: Date
    public var elementIndex: Int
    public var text: String?
    public var targetValues: [OutcomeValue]
}
public struct Schedule: Hashable, Sendable, Codable {
    public var elements: [ScheduleElement]
    public var timeZone: TimeZone
    public init(elements: [ScheduleElement], timeZone: TimeZone) { self.elements = elements; self.timeZone = timeZone }
    public static func dailyAt(hour: Int, minute: Int, start: Date, end: Date? = nil, timeZone: TimeZone) -> Schedule {
        var c = Calendar(identifier: .gregorian); c.timeZone = timeZone
        let s = c.date(bySettingHour: hour, minute: minute, second: 0, of: start)!
        return Schedule(elements: [ScheduleElement(start: s, end: end, interval: DateComponents(day: 1))], timeZone: timeZone)
    }
    private func all(until limit: Date, maxPerElement: Int = .max) -> [ScheduleEvent] {
        var c = Calendar(identifier: .gregorian); c.timeZone = timeZone
        var raw: [(Date, Int, ScheduleElement)] = []
        for (i, e) in elements.enumerated() {
            var k = 0
            while true {
                var step = DateComponents()
                if let iv = e.interval { step.day = (iv.day ?? 0) * k; step.hour = (iv.hour ?? 0) * k } else if k > 0 { break }
                guard k < maxPerElement, let d = c.date(byAdding: step, to: e.start), d < limit, e.end.map({ d < $0 }) ?? true else { break }
                raw.append((d, i, e)); k += 1
            }
        }
        raw.sort { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
        return raw.enumerated().map { ScheduleEvent(occurrence: $0, start: $1.0, end: $1.0 + $1.2.durationSeconds, elementIndex: $1.1, text: $1.2.text, targetValues: $1.2.targetValues) }
    }
    public func events(overlapping window: DateInterval) -> [ScheduleEvent] {
        all(until: window.end).filter { $0.end > window.start && $0.start < window.end }
    }
    public func event(occurrence: Int) -> ScheduleEvent? {
        all(until: .distantFuture, maxPerElement: occurrence + 1).first { $0.occurrence == occurrence }
    }
}
