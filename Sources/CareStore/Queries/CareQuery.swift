import Foundation

/// Which versioned entities to fetch: filters (all must hold; an empty set means no condition), the date the
/// versions must be in effect at, an order and a page.
///
/// ``CareStore/fetch(_:query:)`` takes, for each id, the version in effect at the end of ``dateInterval`` and
/// returns it if that version passes every filter. ``CareStore/events(taskQuery:window:)`` and
/// ``CareStore/adherence(taskQuery:window:calendar:)`` apply the filters to each task version on its own, and use
/// their window in place of ``dateInterval``, ``sortOrder``, ``limit`` and ``offset``, which they ignore.
///
/// ```swift
/// var query = CareQuery(for: DateInterval(start: monday, duration: 86_400))
/// query.carePlanIDs = ["knee-rehab"]
/// let tasks = try await store.fetch(CareTask.self, query: query)
/// ```
public struct CareQuery: Hashable, Sendable {
    /// Entities with these developer ids. A fetch returns at most one version of each.
    public var ids: Set<String> = []
    /// Only these versions. A fetch matches them against each id's version in effect, so the UUID of
    /// an older version selects nothing; events keep only the events these versions own.
    public var uuids: Set<UUID> = []
    /// Entities whose ``VersionInfo/remoteID`` is one of these; a version without a remote id never
    /// matches.
    public var remoteIDs: Set<String> = []
    /// Entities whose ``VersionInfo/groupIdentifier`` is one of these; a version without one
    /// never matches.
    public var groupIdentifiers: Set<String> = []
    /// Entities carrying at least one of these tags.
    public var tags: Set<String> = []
    /// Tasks and contacts whose care plan UUID is that of any version of the care plans with these ids (deleted
    /// ones included); when no care plan has one of these ids, nothing. Ignored when fetching patients or care plans.
    public var carePlanIDs: Set<String> = []
    /// Care plans whose patient UUID is that of any version of the patients with these ids (deleted ones
    /// included); when no patient has one of these ids, nothing. Ignored when fetching any other kind.
    public var patientIDs: Set<String> = []
    /// Return, for each id, the version in effect at the end of this interval: the newest one effective strictly
    /// before the end (the start is not used). Nil returns each id's newest version, even one that takes effect
    /// in the future. Ids whose selected version is a delete's tombstone are left out.
    public var dateInterval: DateInterval?
    /// The order of the results: each key breaks the ties of the keys before it, and id (ascending) breaks the
    /// rest. By id when empty.
    public var sortOrder: [CareSortKey] = []
    /// At most this many results, counted after ``offset``; nil means no limit, and a negative limit returns
    /// nothing.
    public var limit: Int?
    /// How many results to skip first, after sorting; a negative offset counts as 0.
    public var offset: Int = 0

    /// A query with no filters, for the newest versions.
    public init() {}

    /// A query for the versions in effect at the end of `dateInterval`.
    public init(for dateInterval: DateInterval) {
        self.dateInterval = dateInterval
    }
}

/// One key to sort fetched entities by, with its direction (`ascending: false` reverses it).
public enum CareSortKey: Hashable, Sendable {
    /// By developer id, compared character by character (so "task10" comes before "task2").
    case id(ascending: Bool)
    /// By the effective date of the version returned.
    case effectiveDate(ascending: Bool)
    /// By title: a task's or care plan's title, a patient's or contact's family name then given
    /// name, compared as Finder compares file names (ignoring case, numbers by value). A task
    /// without a title sorts as empty text.
    case title(ascending: Bool)
    /// By ``VersionInfo/createdDate``, when the entity was added. An entity without one
    /// counts as created at the earliest possible date.
    case createdDate(ascending: Bool)
}

/// Which outcomes to fetch.
public struct OutcomeQuery: Hashable, Sendable {
    /// Outcomes of the tasks with these ids (any version).
    public var taskIDs: Set<String> = []
    /// Outcomes of these task versions. With ``taskIDs`` as well, only the versions in both.
    public var taskUUIDs: Set<UUID> = []
    /// Only the outcomes with these UUIDs. Deleted and replaced outcomes are never returned, so an
    /// outcome's UUID from before an update selects nothing.
    public var uuids: Set<UUID> = []
    /// Outcomes whose ``Outcome/remoteID`` is one of these; an outcome without one never matches.
    public var remoteIDs: Set<String> = []
    /// Outcomes carrying at least one of these tags.
    public var tags: Set<String> = []
    /// Outcomes whose event starts in this interval: at or after its start, before its end.
    public var dateInterval: DateInterval?
    /// Whether results run from the earliest event start to the latest (the default) or the reverse. Outcomes
    /// of events that start together are ordered by UUID string, ascending either way.
    public var ascending: Bool = true
    /// At most this many outcomes, counted after ``offset``; nil means no limit.
    public var limit: Int?
    /// How many outcomes to skip first, after sorting; a negative offset counts as 0.
    public var offset: Int = 0

    /// A query with no filters.
    public init() {}
}

/// One event of a task with what was recorded for it.
public struct CareEvent: Hashable, Sendable {
    /// The task version whose schedule yields the event.
    public var task: CareTask
    /// The event as the task version's schedule yields it: start, end, occurrence index and
    /// target values.
    public var scheduleEvent: ScheduleEvent
    /// The event's live outcome, if one was recorded.
    public var outcome: Outcome?
    /// How complete the event is.
    public var progress: EventProgress
}

/// How complete one event is: whether an outcome exists, or how far its values go toward the targets.
public struct EventProgress: Hashable, Sendable {
    /// The summed outcome values that count toward the targets (or 1 when an outcome exists and there are no targets).
    public var value: Double
    /// The summed targets (1 when there are none).
    public var target: Double

    /// Progress from 0 to 1.
    public var fractionCompleted: Double { target > 0 ? min(1, max(0, value / target)) : (value > 0 ? 1 : 0) }
    /// Whether the event counts as done.
    public var isCompleted: Bool { fractionCompleted >= 1 }

    /// The progress of an event without targets: done when an outcome exists.
    public init(completed: Bool) {
        value = completed ? 1 : 0
        target = 1
    }

    /// The progress of an event with these targets and this outcome: with no targets, done when an outcome
    /// exists; with targets, the outcome's values of each target's kind summed against the summed targets.
    public init(targets: [OutcomeValue], outcome: Outcome?) {
        let numericTargets = targets.compactMap { target in target.value.numericValue.map { (target.kind, $0) } }
        guard !numericTargets.isEmpty else {
            value = outcome == nil ? 0 : 1
            target = 1
            return
        }
        target = numericTargets.reduce(0) { $0 + $1.1 }
        let kinds = Set(numericTargets.map(\.0))
        value = (outcome?.values ?? []).reduce(0) { sum, recorded in
            guard kinds.contains(recorded.kind) || kinds.contains(nil), let number = recorded.value.numericValue else { return sum }
            return sum + number
        }
    }
}

/// A day's adherence over the tasks that impact adherence.
public struct DailyAdherence: Hashable, Sendable {
    /// The day (its start in the calendar's zone).
    public var date: Date
    /// How the day went: no tasks in effect, no events, or the mean progress of its events.
    public var state: State

    /// Whether there was anything to do that day, and how much of it was done.
    public enum State: Hashable, Sendable {
        /// No task that impacts adherence was in effect.
        case noTasks
        /// Tasks were in effect but had no events that day.
        case noEvents
        /// The mean progress of the day's events, from 0 to 1.
        case progress(Double)
    }
}

/// How a task's outcome values are summarised per day for charts.
public enum InsightAggregate: String, Hashable, Sendable, Codable {
    /// How many events have an outcome.
    case count
    /// The sum of the values.
    case sum
    /// The mean of the values.
    case mean
}

/// One day of an insight chart.
public struct DailyInsight: Hashable, Sendable {
    /// The day (its start in the calendar's zone).
    public var date: Date
    /// The aggregate; nil for a mean over no values.
    public var value: Double?
    /// How many values went into it.
    public var sampleCount: Int
}
