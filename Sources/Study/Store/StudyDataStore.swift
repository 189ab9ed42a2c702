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
    /// The participant leaving the study, with ``consentRecords`` holding the sealed withdrawal: whether they have
    /// left already, and which of their data goes, are decided inside the change's transaction, so that nothing they
    /// write meanwhile (an outcome, a run started in another tab) outlives the withdrawal, and a second withdrawal
    /// (another tab, an investigator at the same moment) is refused as ``StudyRefusal/withdrawn``.
    public var withdrawal: Withdrawal?

    /// What a withdrawal deletes with it, decided in the transaction that records it.
    public struct Withdrawal: Hashable, Sendable {
        /// Whether the participant's data is deleted with the withdrawal; false keeps everything.
        public var deletesData: Bool
        /// The study tasks whose runs are kept when the data is deleted (the onboarding's, which holds the consent).
        public var keptRunTaskIDs: Set<String>
        /// The care tasks whose outcomes are deleted, every outcome ever stored on them with its values (earlier, replaced
        /// ones too), not only marked deleted.
        public var deletedOutcomeTaskIDs: Set<String>

        /// A withdrawal that deletes (`deletesData`) the runs of every task but `keptRunTaskIDs` and the outcomes of
        /// `deletedOutcomeTaskIDs`.
        public init(deletesData: Bool, keptRunTaskIDs: Set<String> = [], deletedOutcomeTaskIDs: Set<String> = []) {
            self.deletesData = deletesData
            self.keptRunTaskIDs = keptRunTaskIDs
            self.deletedOutcomeTaskIDs = deletedOutcomeTaskIDs
        }
    }

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
    /// The runs deleted: those the change named and those its ``ParticipantChange/withdrawal`` deleted.
    public var deletedRunIDs: [UUID]

    /// Creates a description of a committed change.
    public init(runs: [TaskRun], consentRecords: [StoredConsentRecord], outcomes: [Outcome], outcomesAlreadyRecorded: [Outcome],
                deletedRunIDs: [UUID] = []) {
        self.runs = runs
        self.consentRecords = consentRecords
        self.outcomes = outcomes
        self.outcomesAlreadyRecorded = outcomesAlreadyRecorded
        self.deletedRunIDs = deletedRunIDs
    }
}
