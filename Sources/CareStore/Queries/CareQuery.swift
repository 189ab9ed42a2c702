import Foundation

/// Which versioned entities to fetch: filters (all must hold; an empty set means no condition), the date the
/// versions must be in effect at, an order and a page.
///
/// ```swift
/// var query = CareQuery(for: DateInterval(start: monday, duration: 86_400))
/// query.carePlanIDs = ["knee-rehab"]
/// let tasks = try await store.fetch(CareTask.self, query: query)
/// ```
public struct CareQuery: Hashable, Sendable {
    public var ids: Set<String> = []
    public var uuids: Set<UUID> = []
    public var remoteIDs: Set<String> = []
    public var groupIdentifiers: Set<String> = []
    /// Entities carrying at least one of these tags.
    public var tags: Set<String> = []
    /// Tasks and contacts of the care plans with these ids.
    public var carePlanIDs: Set<String> = []
    /// Care plans of the patients with these ids.
    public var patientIDs: Set<String> = []
    /// Return, for each id, the version in effect at the end of this interval (effective before its end);
    /// nil returns the newest version. Entities deleted by then are left out.
    public var dateInterval: DateInterval?
    /// The order of the results; by id when empty.
    public var sortOrder: [CareSortKey] = []
    /// At most this many results.
    public var limit: Int?
    /// Skip this many results first.
    public var offset: Int = 0

    /// A query with no filters, for the newest versions.
    public init() {}

    /// A query for the versions in effect at the end of `dateInterval`.
    public init(for dateInterval: DateInterval) {
        self.dateInterval = dateInterval
    }
}

/// One key to sort entities or outcomes by.
public enum CareSortKey: Hashable, Sendable {
    case id(ascending: Bool)
    case effectiveDate(ascending: Bool)
    case title(ascending: Bool)
    case createdDate(ascending: Bool)
}

/// Which outcomes to fetch.
public struct OutcomeQuery: Hashable, Sendable {
    /// Outcomes of the tasks with these ids (any version).
    public var taskIDs: Set<String> = []
    /// Outcomes of these task versions.
    public var taskUUIDs: Set<UUID> = []
    public var uuids: Set<UUID> = []
    public var remoteIDs: Set<String> = []
    /// Outcomes carrying at least one of these tags.
    public var tags: Set<String> = []
    /// Outcomes whose event starts in this interval.
    public var dateInterval: DateInterval?
    /// Ordered by event start (ascending) unless set.
    public var ascending: Bool = true
    public var limit: Int?
    public var offset: Int = 0

    /// A query with no filters.
    public init() {}
}

/// One event of a task with what was recorded for it.
public struct CareEvent: Hashable, Sendable {
    /// The task version whose schedule yields the event.
    public var task: CareTask
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
