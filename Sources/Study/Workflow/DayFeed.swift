import CareStore
import Foundation

/// A participant's chosen day: behind the onboarding gate only the onboarding; after it one card per task with
/// events that day, each event with what was recorded for it, whether it can still be changed, and the instant at
/// which something on the day changes by time alone.
///
/// ```swift
/// let feed = try await workflow.day(containing: now, for: participant)
/// for card in feed.cards { print(card.title, card.kind, card.events.map(\.isDone)) }
/// // Nothing in the feed changes by time before feed.changesAt (a write may change it sooner).
/// ```
public struct DayFeed: Hashable, Sendable {
    /// Where the participant stands with the onboarding.
    public enum Onboarding: Hashable, Sendable {
        /// Not completed: it is the only task, and `resumes` says whether a run of it is in progress.
        case required(resumes: Bool)
        /// Completed: the day's cards follow.
        case completed
    }

    /// One task's card for the day, with its events.
    public struct Card: Hashable, Sendable {
        /// The study task's id.
        public var taskID: String
        /// The task's title.
        public var title: String
        /// The task's instructions.
        public var instructions: String?
        /// The card's kind for this day (the study's choice, else CareKit's default for the day's events).
        public var kind: StudyCardKind
        /// Whether the task counts toward the completion rings.
        public var impactsAdherence: Bool
        /// The number a numeric card asks for.
        public var valueEntry: StudyValueEntry?
        /// The day's events of the task, by start.
        public var events: [Event]

        /// Creates a card; see the properties.
        public init(taskID: String, title: String, instructions: String?, kind: StudyCardKind, impactsAdherence: Bool,
                    valueEntry: StudyValueEntry?, events: [Event]) {
            self.taskID = taskID
            self.title = title
            self.instructions = instructions
            self.kind = kind
            self.impactsAdherence = impactsAdherence
            self.valueEntry = valueEntry
            self.events = events
        }

        /// The sum of the numeric values of the card's kind over the day's events (a numeric card's total).
        public var total: Double {
            events.reduce(0) { sum, event in
                sum + event.values.filter { valueEntry == nil || $0.kind == valueEntry?.kind }.compactMap(\.value.numericValue).reduce(0, +)
            }
        }

        /// The day's summed targets of the card's value kind; nil when the schedule sets none.
        public var goal: Double? {
            let targets = events.flatMap(\.targets).filter { valueEntry == nil || $0.kind == nil || $0.kind == valueEntry?.kind }
                .compactMap(\.value.numericValue)
            return targets.isEmpty ? nil : targets.reduce(0, +)
        }
    }

    /// One event of a task on the chosen day.
    public struct Event: Hashable, Sendable {
        /// The event's occurrence index in the task's schedule.
        public var occurrence: Int
        /// When the event starts.
        public var start: Date
        /// When it ends.
        public var end: Date
        /// The schedule's text for it ("after breakfast").
        public var text: String?
        /// What the event expects as its outcome.
        public var targets: [OutcomeValue]
        /// The event's outcome, if one was recorded.
        public var outcome: Outcome?
        /// How complete the event is, as the care store counts it for adherence.
        public var progress: EventProgress
        /// Whether the participant may record or undo it now: it has started, and it overlaps their today unless the
        /// task allows late entry.
        public var isOpen: Bool
        /// Whether a run of this event's survey is in progress.
        public var resumes: Bool

        /// Creates an event; see the properties.
        public init(occurrence: Int, start: Date, end: Date, text: String?, targets: [OutcomeValue], outcome: Outcome?,
                    progress: EventProgress, isOpen: Bool, resumes: Bool) {
            self.occurrence = occurrence
            self.start = start
            self.end = end
            self.text = text
            self.targets = targets
            self.outcome = outcome
            self.progress = progress
            self.isOpen = isOpen
            self.resumes = resumes
        }

        /// The outcome's values; empty without an outcome.
        public var values: [OutcomeValue] { outcome?.values ?? [] }
        /// Whether the event counts as done.
        public var isDone: Bool { progress.isCompleted }
        /// Whether the event lasts the whole day (within an hour, for the days daylight saving shortens).
        public var isAllDay: Bool { end.timeIntervalSince(start) >= 86_400 - 3_600 }
        /// When its outcome was first recorded: the earliest value's time, else the outcome's.
        public var completedAt: Date? {
            outcome.flatMap { outcome in outcome.values.compactMap(\.createdDate).min() ?? outcome.createdDate }
        }

        /// The event's state at `now`.
        public func state(at now: Date) -> State {
            isDone ? .done : start > now ? .upcoming : end <= now ? .missed : .toDo
        }
    }

    /// Where an event stands.
    public enum State: Hashable, Sendable {
        /// The event is complete.
        case done
        /// It has started and not ended: it can be done now.
        case toDo
        /// It has not started yet.
        case upcoming
        /// It ended without being completed.
        case missed
    }

    /// The chosen day in the participant's calendar.
    public var day: DateInterval
    /// The participant's today.
    public var today: DateInterval
    /// The instant the feed was made for.
    public var now: Date
    /// The onboarding gate.
    public var onboarding: Onboarding
    /// The day's cards, by their first event's start, then task.
    public var cards: [Card]
    /// The first instant after ``now`` at which an event's state, whether it is open, or the participant's today
    /// changes by time alone.
    public var changesAt: Date

    /// Whether the chosen day is the participant's today.
    public var isToday: Bool { day == today }

    /// A feed; ``changesAt`` is computed from the events when not given.
    public init(day: DateInterval, today: DateInterval, now: Date, onboarding: Onboarding, cards: [Card], changesAt: Date? = nil) {
        self.day = day
        self.today = today
        self.now = now
        self.onboarding = onboarding
        self.cards = cards
        self.changesAt = changesAt ?? cards.lazy.flatMap(\.events).reduce(today.end) { earliest, event in
            [event.start, event.end].filter { $0 > now }.reduce(earliest, min)
        }
    }
}
