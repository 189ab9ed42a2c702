import CareStore
import Foundation

/// One participant's data for an export: who they are, their consent records with the PDFs, their care plan, tasks,
/// outcomes and task runs.
public struct ParticipantExportData: Sendable {
    /// The participant.
    public var participant: StudyParticipant
    /// Their sealed consent and withdrawal records, oldest first.
    public var consentRecords: [StoredConsentRecord]
    /// The printed PDF of each record that has one, by record id.
    public var consentPDFs: [UUID: Data]
    /// Their care plan's current version; nil when enrolment never made one.
    public var carePlan: CarePlan?
    /// The current version of each of their care tasks (the onboarding task included), in the study's order.
    public var tasks: [CareTask]
    /// Every version of each of their care tasks, tombstones included: the version an outcome belongs to is found here.
    public var taskVersions: [CareTask]
    /// Their live outcomes, by event start.
    public var outcomes: [Outcome]
    /// Their task runs (onboarding and surveys), most recently saved first; completed runs carry their task results.
    public var runs: [TaskRun]
    /// What could not be read (such as a PDF file that is missing), each in a sentence.
    public var problems: [String]
    /// The files attached in their runs, by run and file name.
    public var runFiles: [UUID: [String: Data]] = [:]
    /// The reminders the study sent them, or tried to: the outbox's deliveries, latest due first.
    public var reminderDeliveries: [ReminderDelivery] = []

    /// Creates a participant's data.
    public init(participant: StudyParticipant, consentRecords: [StoredConsentRecord] = [], consentPDFs: [UUID: Data] = [:],
                carePlan: CarePlan? = nil, tasks: [CareTask] = [], taskVersions: [CareTask] = [], outcomes: [Outcome] = [],
                runs: [TaskRun] = [], problems: [String] = []) {
        self.participant = participant
        self.consentRecords = consentRecords
        self.consentPDFs = consentPDFs
        self.carePlan = carePlan
        self.tasks = tasks
        self.taskVersions = taskVersions
        self.outcomes = outcomes
        self.runs = runs
        self.problems = problems
    }

    /// The study task id of a care task of this participant (`pain` for `p-0042/pain`); nil for someone else's.
    public func studyTaskID(of task: CareTask) -> String? {
        StudyCareIdentifiers.studyTaskID(careTaskID: task.id, participant: participant.id)
    }

    /// Their runs oldest first (by first save, then UUID): the order the CSV, JSON and own-copy exports write them in.
    public var runsOldestFirst: [TaskRun] {
        runs.sorted { ($0.createdAt ?? .distantPast, $0.id.uuidString) < ($1.createdAt ?? .distantPast, $1.id.uuidString) }
    }

    /// The task version an outcome belongs to; nil when it is not among ``taskVersions``.
    public func taskVersion(of outcome: Outcome) -> CareTask? {
        taskVersions.first { $0.version.uuid == outcome.taskUUID }
    }
}
