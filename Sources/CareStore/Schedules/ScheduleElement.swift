import Foundation
import JSONDiagnostics

/// One repeating part of a schedule: a start, an optional end, how it repeats (a calendar interval, an RFC 5545
/// recurrence rule, or not at all), how long each event lasts, and what the events say and expect.
///
/// ```swift
/// // Every day at the start's time of day, for an hour, until May.
/// let daily = ScheduleElement(start: start, end: may, interval: DateComponents(day: 1), text: "after breakfast")
/// // Mondays, Wednesdays and Fridays, all day.
/// let weekly = ScheduleElement(start: start, recurrenceRule: try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE,FR"),
///                              duration: .allDay)
/// ```
///
/// An element repeats by ``interval`` or by ``recurrenceRule``, never both: setting one clears the other.
public struct ScheduleElement: Hashable, Sendable, Codable {
    /// When the first event starts. Later events keep its time of day on the schedule's wall clock.
    public var start: Date
    /// The moment from which no event starts (exclusive); nil for an element that never ends.
    public var end: Date?
    /// How long each event lasts; one hour unless set.
    public var duration: ScheduleDuration
    /// Text shown with each event, such as "after breakfast".
    public var text: String?
    /// What each event expects as its outcome, such as `OutcomeValue(.integer(10), kind: "repetitions")`.
    public var targetValues: [OutcomeValue]

    /// How an element repeats.
    enum Repetition: Hashable, Sendable {
        case once
        case interval(DateComponents)
        case rule(RecurrenceRule)
    }

    /// The stored repetition, which keeps ``interval`` and ``recurrenceRule`` exclusive.
    var repetition: Repetition

    /// Repeat by calendar components: event k starts at `start` plus k times this interval, computed by the calendar
    /// in the schedule's time zone (so 08:00 stays 08:00 across daylight saving, and monthly on the 31st gives the
    /// last day of shorter months without drifting). Nil, with no recurrence rule, means the element happens once.
    /// Weeks are `weekOfYear`. Setting an interval clears ``recurrenceRule``.
    public var interval: DateComponents? {
        get {
            if case .interval(let components) = repetition { return components }
            return nil
        }
        set {
            if let newValue {
                repetition = .interval(newValue)
            } else if case .interval = repetition {
                repetition = .once
            }
        }
    }

    /// Repeat by an RFC 5545 recurrence rule whose `DTSTART` is ``start``. Setting a rule clears ``interval``.
    public var recurrenceRule: RecurrenceRule? {
        get {
            if case .rule(let rule) = repetition { return rule }
            return nil
        }
        set {
            if let newValue {
                repetition = .rule(newValue)
            } else if case .rule = repetition {
                repetition = .once
            }
        }
    }

    /// Creates an element that repeats by a calendar interval, or happens once when `interval` is nil.
    public init(start: Date, end: Date? = nil, interval: DateComponents? = nil, duration: ScheduleDuration = .oneHour,
                text: String? = nil, targetValues: [OutcomeValue] = []) {
        self.start = start
        self.end = end
        self.repetition = interval.map(Repetition.interval) ?? .once
        self.duration = duration
        self.text = text
        self.targetValues = targetValues
    }

    /// Creates an element that repeats by an RFC 5545 recurrence rule, starting (`DTSTART`) at `start`.
    public init(start: Date, end: Date? = nil, recurrenceRule: RecurrenceRule, duration: ScheduleDuration = .oneHour,
                text: String? = nil, targetValues: [OutcomeValue] = []) {
        self.start = start
        self.end = end
        self.repetition = .rule(recurrenceRule)
        self.duration = duration
        self.text = text
        self.targetValues = targetValues
    }

    /// Reads an element in the schedule JSON shape (see ``Schedule``); dates need an offset.
    public init(from decoder: any Decoder) throws {
        let value = try JSONTree(from: decoder)
        var reader = ScheduleReader()
        guard let element = reader.element(value, path: ""), reader.problems.isEmpty else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath,
                                                                    debugDescription: reader.problems.map(\.description).joined(separator: "; ")))
        }
        self = element
    }

    /// Writes the element in the schedule JSON shape, with dates in UTC (a ``Schedule`` writes them with its zone's offset).
    public func encode(to encoder: any Encoder) throws {
        try ElementEncoding(element: self, timeZone: .gmt).encode(to: encoder)
    }
}

extension DateComponents {
    /// The interval components a schedule supports, with their JSON keys, in JSON order.
    static let scheduleIntervalKeys: [(key: String, component: Calendar.Component)] = [
        ("years", .year), ("months", .month), ("weeks", .weekOfYear), ("days", .day),
        ("hours", .hour), ("minutes", .minute), ("seconds", .second),
    ]
}
