import CareStore
import Consent
import Foundation

/// A study's two stores behind one writer: what one participant action changes in either of them commits whole.
///
/// Finishing a survey stores the run's result and the outcome on its card; finishing the onboarding stores the run, the
/// sealed consent record and the gate's outcome. Through ``commit(_:)`` each is one transaction: a refusal, a failed
/// disk or a killed process leaves all of it or none of it, never a completed survey without its outcome or a sealed
/// consent with the gate still closed.
///
/// ```swift
/// var change = ParticipantChange(participantID: participant.id)
/// change.runs = [completedRun]
/// change.outcomes = [outcome]
/// let committed = try await data.commit(change)
/// ```
///
/// `SQLiteStudyDatabase` (in StudySQLite) keeps both schemas in one SQLite file.
public protocol StudyDataStore: Sendable {
    /// Participants, invitations, sessions, runs and consent records.
    var studyStore: any StudyStore { get }
    /// Care plans, tasks, events and outcomes.
    var careStore: any CareStore { get }
    /// Applies `change` in one transaction: every part is checked as the stores' own writes check it, and when any
    /// part is refused (or the process dies), nothing of it is kept.
    func commit(_ change: ParticipantChange) async throws -> CommittedParticipantChange
    /// Enrols a participant and adds the care plan `carePlan` makes for them, in one transaction: the invitation used
    /// up, the participant and every entity of their plan stored, or (when anything is refused, or the process dies)
    /// none of it. Refuses an invitation as ``StudyStore/enrol(invitationCode:timeZone:language:)`` does.
    func enrol(invitationCode: String?, timeZone: TimeZone, language: String,
               carePlan: @escaping @Sendable (StudyParticipant) throws -> EnrolmentPlan) async throws -> StudyParticipant
}

/// What one participant action writes to both stores, committed whole by ``StudyDataStore/commit(_:)``.
public struct ParticipantChange: Sendable {
    /// Whose data this is: every run, record and outcome must be theirs.
    public var participantID: String
    /// Runs to save (created or replaced), checked as ``StudyStore/saveRun(_:)`` checks them.
    public var runs: [TaskRun] = []
    /// Sealed consent records to append, with their PDFs pending.
    public var consentRecords: [SealedConsentRecord] = []
    /// Outcomes to add, checked as ``CareStore/addOutcomes(_:)`` checks them.
    public var outcomes: [Outcome] = []
    /// Outcomes to remove (a survey withdrawn from its card), checked as ``CareStore/deleteOutcomes(_:)`` checks them.
    public var removedOutcomes: [Outcome] = []
    /// Runs to delete with their results (a participant who leaves and whose data is deleted): each must be theirs.
    public var deletedRunIDs: [UUID] = []
    /// What to do with an outcome whose event has one already (the same survey finished in two tabs at once): by
    /// default the first outcome stands and the rest of the change is stored; with false the whole change is refused.
    public var keepsExistingOutcomes = true

    /// An empty change for the participant `participantID`.
    public init(participantID: String) {
        self.participantID = participantID
    }
}

/// What a committed ``ParticipantChange`` stored.
public struct CommittedParticipantChange: Sendable {
    /// The runs as stored, with their dates.
    public var runs: [TaskRun]
    /// The consent records as stored.
    public var consentRecords: [StoredConsentRecord]
    /// The outcomes added.
    public var outcomes: [Outcome]
    /// The outcomes not added because their event had one already (see ``ParticipantChange/keepsExistingOutcomes``).
    public var outcomesAlreadyRecorded: [Outcome]

    /// Creates a description of a committed change.
    public init(runs: [TaskRun], consentRecords: [StoredConsentRecord], outcomes: [Outcome], outcomesAlreadyRecorded: [Outcome]) {
        self.runs = runs
        self.consentRecords = consentRecords
        self.outcomes = outcomes
        self.outcomesAlreadyRecorded = outcomesAlreadyRecorded
    }
}
