import CareStore
import Foundation

/// A week of a participant's care plan as CareKit's calendar header shows it: one completion ring per day, over the
/// tasks that impact adherence, exactly as the care store computes their adherence.
///
/// ```swift
/// let week = try await workflow.week(containing: date, for: participant)
/// for day in week.days { print(day.day.start, day.ring, day.isToday) }
/// ```
///
/// The week starts on the first weekday of the participant's language (Sunday for English and Japanese, Monday for
/// Spanish) and its days are calendar days in their time zone, so a day with a daylight-saving change is 23 or 25 hours.
public struct WeekStrip: Hashable, Sendable {
    /// One day of the week.
    public struct Day: Hashable, Sendable {
        /// The day, from its start to the next day's, in the participant's zone.
        public var day: DateInterval
        /// How much of the day's adherence-relevant events is done.
        public var ring: Ring
        /// Whether the day is the participant's today.
        public var isToday: Bool
        /// Whether the day starts after the participant's today (CareKit dims such days).
        public var isFuture: Bool
    }

    /// A day's completion ring.
    public enum Ring: Hashable, Sendable {
        /// No task that impacts adherence was in effect that day.
        case noTasks
        /// Tasks were in effect, but none had an event that day.
        case noEvents
        /// There were events and none of them has progress yet.
        case notStarted
        /// Some progress: the mean of the events' progress, above 0 and below 1.
        case partial(Double)
        /// Every event of the day is done.
        case complete

        /// The ring of a day whose adherence the care store computed as `state`.
        public init(_ state: DailyAdherence.State) {
            switch state {
            case .noTasks: self = .noTasks
            case .noEvents: self = .noEvents
            case .progress(let fraction) where fraction <= 0: self = .notStarted
            case .progress(let fraction) where fraction >= 1: self = .complete
            case .progress(let fraction): self = .partial(fraction)
            }
        }

        /// The share of the ring that is filled, from 0 to 1; nil when the day had nothing to do.
        public var fractionCompleted: Double? {
            switch self {
            case .noTasks, .noEvents: nil
            case .notStarted: 0
            case .partial(let fraction): fraction
            case .complete: 1
            }
        }
    }

    /// The seven days, first weekday first.
    public var days: [Day]
    /// A date in the week before, for "previous week".
    public var previousWeek: Date
    /// A date in the week after, for "next week".
    public var nextWeek: Date
}
