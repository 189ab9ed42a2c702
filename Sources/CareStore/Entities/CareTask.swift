import Foundation

/// Something the patient is asked to do on a schedule: take a medication, do an exercise, fill in a survey.
///
/// The schedule yields the task's events; an ``Outcome`` records what was done for one event.
public struct CareTask: VersionedEntity {
    public static let kind = EntityKind.task
    public var id: String
    public var title: String?
    public var instructions: String?
    /// Whether the task counts toward the patient's daily adherence (the completion rings). Defaults to true.
    public var impactsAdherence: Bool
    public var schedule: Schedule
    /// The UUID of the care plan version the task belongs to.
    public var carePlanUUID: UUID?
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
/// There is at most one live outcome per event; deleting it writes a tombstone, after which a new one may be added.
public struct Outcome: Hashable, Sendable, Codable, Identifiable {
    /// Identifies the outcome.
    public var uuid: UUID
    /// The UUID of the task version whose schedule yields the event.
    public var taskUUID: UUID
    /// The event's occurrence index in that version's schedule.
    public var occurrenceIndex: Int
    public var values: [OutcomeValue]
    /// When the store saved the outcome; set by the store.
    public var createdDate: Date?
    /// When the outcome was deleted; set by the store.
    public var deletedDate: Date?
    public var notes: [Note]
    public var tags: [String]
    public var remoteID: String?
    public var source: String?
    public var userInfo: [String: String]
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
