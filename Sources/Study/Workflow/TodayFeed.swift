import Foundation

/// A participant's day: behind the onboarding gate only the onboarding, after it one card per event of their tasks,
/// each with its state, and the instant at which the first card changes by time alone.
///
/// ```swift
/// let feed = try await workflow.today(for: participant)
/// for card in feed.cards { print(card.title, card.state) }
/// // Nothing on the page changes by time before feed.changesAt (a write may change it sooner).
/// ```
public struct TodayFeed: Hashable, Sendable {
    /// Where the participant stands with the onboarding.
    public enum Onboarding: Hashable, Sendable {
        /// Not completed: it is the only task, and `resumes` says whether a run of it is in progress.
        case required(resumes: Bool)
        /// Completed: the day's cards follow.
        case completed
    }

    /// One event of one of the participant's tasks.
    public struct Card: Hashable, Sendable {
        /// The study task's id.
        public var taskID: String
        /// The task's title.
        public var title: String
        /// The task's instructions.
        public var instructions: String?
        /// The event's occurrence index in the task's schedule.
        public var occurrence: Int
        /// When the event starts.
        public var start: Date
        /// When it ends.
        public var end: Date
        /// Whether the card starts a survey; otherwise it is ticked off.
        public var hasSurvey: Bool
        /// Whether the event has an outcome.
        public var isDone: Bool
        /// Whether a run of this event is in progress.
        public var resumes: Bool

        /// Creates a card.
        public init(taskID: String, title: String, instructions: String?, occurrence: Int, start: Date, end: Date, hasSurvey: Bool,
                    isDone: Bool, resumes: Bool) {
            self.taskID = taskID
            self.title = title
            self.instructions = instructions
            self.occurrence = occurrence
            self.start = start
            self.end = end
            self.hasSurvey = hasSurvey
            self.isDone = isDone
            self.resumes = resumes
        }

        /// Whether the event lasts the whole day (within an hour, for the days daylight saving shortens).
        public var isAllDay: Bool { end.timeIntervalSince(start) >= 86_400 - 3_600 }

        /// The card's state at `now`.
        public func state(at now: Date) -> State {
            isDone ? .done : start > now ? .upcoming : end <= now ? .missed : .toDo
        }
    }

    /// What a card shows.
    public enum State: Hashable, Sendable {
        /// The event has an outcome.
        case done
        /// It has started and not ended: it can be done now.
        case toDo
        /// It has not started yet.
        case upcoming
        /// It ended without an outcome.
        case missed
    }

    /// The participant's local day.
    public var day: DateInterval
    /// The instant the feed was made for.
    public var now: Date
    /// The onboarding gate.
    public var onboarding: Onboarding
    /// The day's cards, by start time, then task.
    public var cards: [Card]
    /// The first instant after ``now`` at which a card's state or the day changes by time alone: an upcoming event
    /// starting, an event to do ending, or the day ending.
    public var changesAt: Date

    /// A feed; ``changesAt`` is computed from the cards when not given.
    public init(day: DateInterval, now: Date, onboarding: Onboarding, cards: [Card], changesAt: Date? = nil) {
        self.day = day
        self.now = now
        self.onboarding = onboarding
        self.cards = cards
        self.changesAt = changesAt ?? cards.reduce(day.end) { earliest, card in
            switch card.state(at: now) {
            case .upcoming: min(earliest, card.start)
            case .toDo: min(earliest, card.end)
            case .done, .missed: earliest
            }
        }
    }
}
