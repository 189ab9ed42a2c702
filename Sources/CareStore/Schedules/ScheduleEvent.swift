import Foundation

/// One computed event of a schedule: when it starts and ends, which element made it, and its rank in the schedule.
///
/// Events are computed from the schedule, never stored; an outcome refers to an event by its ``occurrence``.
public struct ScheduleEvent: Hashable, Sendable, Codable {
    /// The chronological rank of the event within the whole schedule, counted from 0 at the schedule's first event,
    /// across all elements; events that start at the same moment are ranked by element index.
    public var occurrence: Int
    /// When the event starts (for an all-day event, the start of its day in the schedule's time zone).
    public var start: Date
    /// When the event ends (exclusive).
    public var end: Date
    /// The index of the schedule element that made the event.
    public var elementIndex: Int
    /// The element's text, such as "after breakfast".
    public var text: String?
    /// What the element expects as the outcome, such as 10 repetitions.
    public var targetValues: [OutcomeValue]

    /// Creates an event; ``Schedule`` makes them.
    public init(occurrence: Int, start: Date, end: Date, elementIndex: Int, text: String? = nil, targetValues: [OutcomeValue] = []) {
        self.occurrence = occurrence
        self.start = start
        self.end = end
        self.elementIndex = elementIndex
        self.text = text
        self.targetValues = targetValues
    }

    /// The time the event takes, as an interval from ``start`` to ``end``.
    public var dateInterval: DateInterval { DateInterval(start: start, end: end) }
}
