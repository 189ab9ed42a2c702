import Foundation

/// Something the patient is asked to do on a schedule: take a medication, do an exercise, fill in a survey.
///
/// The schedule yields the task's events; an ``Outcome`` records what was done for one event.
public struct CareTask: VersionedEntity {
    /// The store keeps tasks under ``EntityKind/task``.
    public static let kind = EntityKind.task
    /// The developer's identifier for the task, the same in every version. Outcome queries
    /// (``OutcomeQuery/taskIDs``) and insights name a task by it.
    public var id: String
    /// The task's name as the patient sees it, such as "Knee extensions". It is the key of
    /// ``CareSortKey/title(ascending:)``; a task without one sorts as empty text.
    public var title: String?
    /// What the patient should do and how, in the care team's words.
    public var instructions: String?
    /// Whether the task counts toward the patient's daily adherence (the completion rings). Defaults to true.
    public var impactsAdherence: Bool
    /// When the task's events occur, and the values each is expected to reach. A version owns the events
    /// its schedule yields from its effective date until the next version takes effect; an outcome names
    /// its event by the event's occurrence index in this schedule.
    public var schedule: Schedule
    /// The UUID of the care plan version the task belongs to.
    public var carePlanUUID: UUID?
    /// This version's identity, dates and bookkeeping fields. The store sets its UUID, dates and links
    /// when it saves the task.
    public var version: VersionInfo
    /// The care plan.
    public var parentUUID: UUID? { carePlanUUID }

    /// Creates a task version in effect from `effectiveDate`.
    public init(id: String, title: String? = nil, instructions: String? = nil, impactsAdherence: Bool = true, schedule: Schedule,
                carePlanUUID: UUID? = nil, effectiveDate: Date, timeZone: TimeZone = .current, uuid: UUID = UUID()) {
        self.id = id
        self.title = title
        self.instructions = instructions
        self.impactsAdherence = impactsAdherence
        self.schedule = schedule
        self.carePlanUUID = carePlanUUID
        self.version = VersionInfo(uuid: uuid, effectiveDate: effectiveDate, timeZone: timeZone)
    }
}

/// What the patient did for one event of a task: the values recorded, for the task version and occurrence
/// the event belongs to.
///
/// There is at most one live outcome per event; deleting it marks it deleted (it stays readable by UUID), after which a new one may be added.
public struct Outcome: Hashable, Sendable, Codable, Identifiable {
    /// Identifies the outcome. The store gives every outcome it adds a fresh UUID, replacing the one set here,
    /// and an update replaces the outcome with a new one under a new UUID; use the UUID of the returned outcome.
    public var uuid: UUID
    /// The UUID of the task version whose schedule yields the event.
    public var taskUUID: UUID
    /// The event's occurrence index in that version's schedule.
    public var occurrenceIndex: Int
    /// What was recorded for the event. Numeric values of a target's kind (of any kind, for a target
    /// without one) add up to the event's ``EventProgress``; insights aggregate them per day.
    public var values: [OutcomeValue]
    /// When the store saved the outcome; set by the store.
    public var createdDate: Date?
    /// When the outcome was deleted, or replaced by an update; set by the store. Fetches return only outcomes
    /// without one.
    public var deletedDate: Date?
    /// Notes the patient or the care team attached to the outcome.
    public var notes: [Note]
    /// Free labels. ``OutcomeQuery/tags`` selects outcomes carrying at least one of its tags.
    public var tags: [String]
    /// The outcome's identifier on a remote server, which ``OutcomeQuery/remoteIDs`` matches; nil when it
    /// has none.
    public var remoteID: String?
    /// Where the outcome came from, such as the app or a connected device.
    public var source: String?
    /// Small extra data for the app, as strings. The store keeps it and never reads it.
    public var userInfo: [String: String]
    /// The time zone the outcome was recorded in. Dates are absolute; this zone lets an app show them in
    /// the local time the patient saw.
    public var timeZone: TimeZone

    /// The outcome's UUID.
    public var id: UUID { uuid }

    /// Creates an outcome for event `occurrenceIndex` of the task version `taskUUID`.
    public init(taskUUID: UUID, occurrenceIndex: Int, values: [OutcomeValue], uuid: UUID = UUID(), timeZone: TimeZone = .current,
                notes: [Note] = [], tags: [String] = [], remoteID: String? = nil, source: String? = nil, userInfo: [String: String] = [:]) {
        self.uuid = uuid
        self.taskUUID = taskUUID
        self.occurrenceIndex = occurrenceIndex
        self.values = values
        self.createdDate = nil
        self.deletedDate = nil
        self.notes = notes
        self.tags = tags
        self.remoteID = remoteID
        self.source = source
        self.userInfo = userInfo
        self.timeZone = timeZone
    }
}
