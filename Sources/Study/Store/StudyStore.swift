import Consent
import Foundation

/// What the study server keeps besides the care store: participants, invitations, signed-in sessions, one-time
/// sign-in codes, task runs and consent records.
///
/// Every read of a participant's data takes the participant's id, so a request signed in as one participant can never
/// reach another's run or record: ``run(id:participantID:)`` returns nil for someone else's run.
///
/// ```swift
/// let issued = try await store.createInvitation(label: "clinic A", expiresAt: nil)      // link with issued.code
/// let participant = try await store.enrol(invitationCode: code, timeZone: zone, language: "ja")
/// let session = try await store.createSession(participantID: participant.id, lifetime: 180 * 86_400)  // cookie: session.token
/// let signedIn = try await store.session(token: cookieValue)                             // nil when unknown, expired or revoked
/// try await store.saveRun(TaskRun(id: run, participantID: participant.id, taskID: "pain", occurrence: 3,
///                                 state: .inProgress, restorationData: session.restorationData))
/// ```
///
/// Secrets are returned once, when made, and stored only as SHA-256 digests (see ``StudySecrets``).
public protocol StudyStore: ReminderStore {
    // MARK: Invitations

    /// Makes an invitation with a fresh code; `expiresAt` nil for one that never expires.
    func createInvitation(label: String?, expiresAt: Date?) async throws -> IssuedInvitation
    /// Every invitation, oldest first.
    func invitations() async throws -> [Invitation]
    /// The invitation with this code (in any case, with or without dashes); nil when none has it.
    func invitation(code: String) async throws -> Invitation?
    /// Revokes an unused invitation so that its code enrols no one; returns it as stored. Revoking one already revoked
    /// keeps the first time. Throws ``StudyStoreError/unknownInvitationID(_:)``, or
    /// ``StudyStoreError/invitationUsed(usedAt:)`` for one already used (its participant withdraws instead).
    @discardableResult
    func revokeInvitation(id: UUID) async throws -> Invitation

    // MARK: Participants

    /// Enrols a new participant now: with an invitation code, which is used up in the same transaction (a code enrols
    /// one participant, however many requests race for it), or with nil for open enrolment — the server passes nil only
    /// when the study's enrolment mode is ``EnrolmentMode/open``. Throws ``StudyStoreError/unknownInvitation``,
    /// ``StudyStoreError/invitationUsed(usedAt:)``, ``StudyStoreError/invitationExpired(expiresAt:)`` or
    /// ``StudyStoreError/invitationRevoked(revokedAt:)``.
    func enrol(invitationCode: String?, timeZone: TimeZone, language: String) async throws -> StudyParticipant
    /// The participant with this id; nil when none has it.
    func participant(id: String) async throws -> StudyParticipant?
    /// Every participant, by enrolment time.
    func participants() async throws -> [StudyParticipant]
    /// Changes the participant's language (from their settings page).
    func setLanguage(_ language: String, participantID: String) async throws -> StudyParticipant

    // MARK: Sessions and sign-in codes

    /// Signs the participant in on a browser: a session with a fresh token that lasts `lifetime` seconds.
    func createSession(participantID: String, lifetime: TimeInterval) async throws -> IssuedSession
    /// The valid session of this token, with its last-seen time set to now when it was older than
    /// ``ParticipantSession/lastSeenResolution``; nil for an unknown, expired or revoked token.
    func session(token: String) async throws -> ParticipantSession?
    /// The participant's sessions, valid or not, newest first.
    func sessions(participantID: String) async throws -> [ParticipantSession]
    /// Revokes one of the participant's sessions (signing that browser out); false when they have no such session.
    @discardableResult
    func revokeSession(id: UUID, participantID: String) async throws -> Bool
    /// A one-time code that signs the participant in on another device within `lifetime` seconds (about ten minutes).
    /// It replaces the participant's earlier codes: only the newest one works.
    func createSignInCode(participantID: String, lifetime: TimeInterval) async throws -> IssuedSignInCode
    /// Uses up a sign-in code and returns the participant it signs in; nil when the code is unknown, used or expired.
    func redeemSignInCode(_ code: String) async throws -> String?

    // MARK: Task runs

    /// Writes a run atomically, creating or replacing it, and returns it as stored (with its dates). Once this returns,
    /// the run survives a killed process. Refuses a run whose id belongs to another participant, a change to a finished
    /// run, a change of task, and a run without what its state needs (see ``TaskRun/checkSave(replacing:)``).
    @discardableResult
    func saveRun(_ run: TaskRun) async throws -> TaskRun
    /// The participant's run with this id; nil when they have none (including when it is someone else's).
    func run(id: UUID, participantID: String) async throws -> TaskRun?
    /// Reads the participant's run with this id and saves what `change` makes of it, in one transaction: no other write
    /// comes between the read and the save, so two posts for one run cannot both start from the same state.
    ///
    /// `change` gets the stored run and returns the run to save (checked as ``saveRun(_:)`` checks it, with the same
    /// id), or nil to save nothing, and a value for the caller. Returns nil when the participant has no run with this
    /// id (including when it is someone else's). When `change` or the save throws, nothing is saved.
    func updateRun<Value: Sendable>(id: UUID, participantID: String,
                                    _ change: @escaping @Sendable (TaskRun) async throws -> (save: TaskRun?, value: Value)) async throws
        -> (saved: TaskRun?, value: Value)?
    /// ``updateRun(id:participantID:_:)`` for a request that may finish the run: one finisher per run, across every
    /// server process over the store's database.
    ///
    /// In the one transaction, after reading the run: when another finisher's claim on it is live, `change` is not
    /// called and this returns ``RunUpdate/beingFinished``; otherwise `change` runs, and when it says the run `finishes`,
    /// `finisher` claims the run for ``RunFinisher/lease`` seconds (a ``StudyLease``) in the same transaction. The claim
    /// is taken there, not after the transaction, so that reading "not being finished" and claiming are atomic: two
    /// posts that both end the run, in one process or two, cannot both see it free. The finish itself (another
    /// transaction, whole or not at all) follows; the caller then releases the claim
    /// (``releaseRunFinish(id:finisher:)``), whether the finish committed or failed. A claim whose finisher died lapses
    /// with its lease, and the run can be finished again. Returns nil when the participant has no run with this id.
    ///
    /// `change` also gets the run's files (``StagedRunFiles``), for the task session it restores to write and remove;
    /// what it staged is stored in the same transaction when the run is saved or finishes, and never when it saves
    /// nothing (a refused post).
    func updateRun<Value: Sendable>(id: UUID, participantID: String, finisher: RunFinisher,
                                    _ change: @escaping @Sendable (TaskRun, StagedRunFiles) async throws -> (save: TaskRun?, value: Value, finishes: Bool)) async throws
        -> RunUpdate<Value>?
    /// The files attached in the participant's runs, by run then name.
    func runFiles(participantID: String) async throws -> [StoredRunFile]
    /// Deletes the files of the participant's run `id` that are not in `keeping` (a finished run keeps those its result
    /// refers to); nothing when the run is not theirs.
    func keepOnlyRunFiles(_ keeping: Set<String>, ofRun id: UUID, participantID: String) async throws
    /// Releases `finisher`'s claim on finishing run `id`, taken by ``updateRun(id:participantID:finisher:_:)``; a claim
    /// that lapsed and another finisher took over is left to them.
    func releaseRunFinish(id: UUID, finisher: RunFinisher) async throws
    /// The participant's runs, of one task or all, most recently saved first.
    func runs(participantID: String, taskID: String?) async throws -> [TaskRun]
    /// The participant's runs still in progress, most recently saved first: what the home page offers to continue,
    /// without reading every finished run's result.
    func openRuns(participantID: String) async throws -> [TaskRun]
    /// The participant's runs still in progress as summaries, most recently saved first: the runs of
    /// ``openRuns(participantID:)`` without their restoration data, which a store need not read or decode.
    func openRunSummaries(participantID: String) async throws -> [TaskRunSummary]
    /// All the participant's runs as summaries, most recently saved first: what the console's enrolment page counts,
    /// without reading any run's data.
    func runSummaries(participantID: String) async throws -> [TaskRunSummary]

    // MARK: Consent records

    /// Appends a sealed consent record (a consent or a withdrawal) for its participant, with its PDF pending. There is
    /// no way to change or remove a record; a withdrawal is a new record.
    @discardableResult
    func appendConsentRecord(_ sealed: SealedConsentRecord) async throws -> StoredConsentRecord
    /// The participant's consent records, oldest first.
    func consentRecords(participantID: String) async throws -> [StoredConsentRecord]
    /// How many consent records the participant has: records are only ever appended, so what was read of them stays
    /// current while this stays the same (a cheap check before each post, without reading any record).
    func consentRecordCount(participantID: String) async throws -> Int
    /// The participant's record with this id; nil when they have none.
    func consentRecord(id: UUID, participantID: String) async throws -> StoredConsentRecord?
    /// Sets the state of a record's PDF (printed, stored as bytes or as a file; or failed).
    func setConsentPDF(_ state: ConsentPDFState, recordID: UUID, participantID: String) async throws
    /// Every record whose PDF is pending or failed, oldest first: the background printer's queue.
    func consentRecordsAwaitingPDF() async throws -> [StoredConsentRecord]
    /// Claims the printing of the record's PDF for `lease` seconds: true when no other claim on it is live, so that of
    /// several server processes on one database one prints it. A claim left by a process that died lapses with its lease.
    func claimConsentPDF(recordID: UUID, for lease: TimeInterval) async throws -> Bool

    // MARK: Sign-in attempts

    /// Whether `client` may try a sign-in secret at `now` under `limit` (``SignInAttemptLimit``): its bucket and the
    /// server-wide one, as kept in the store's database for every server process, both hold a try.
    func allowsSignInAttempt(from client: String, under limit: SignInAttemptLimit, at now: Date) async throws -> Bool
    /// Counts a wrong secret that `client` tried at `now` against its bucket and the server-wide one of `limit`, in one
    /// transaction: failures counted at once by several processes all count.
    func recordFailedSignInAttempt(from client: String, under limit: SignInAttemptLimit, at now: Date) async throws

    // MARK: Revision

    /// A number that grows with every write this store commits, before the write returns. What was read after
    /// seeing a revision stays current while the revision does, so it can be kept: the study server keeps each
    /// participant's home page so. Writes by another process to the same file are not counted.
    var revision: UInt64 { get }
    /// A number that grows with every committed write of one participant's data that their pages show (their
    /// enrolment, language, runs and consent records; not their sessions or sign-in codes), before the write returns:
    /// a page kept while it and the care data's number stay the same is current, whatever other participants do.
    func revision(of participantID: String) -> UInt64
}

extension StudyStore {
    /// The summaries of ``openRuns(participantID:)``: for a store that has no cheaper way to list them.
    public func openRunSummaries(participantID: String) async throws -> [TaskRunSummary] {
        try await openRuns(participantID: participantID).map(TaskRunSummary.init)
    }

    /// The count of ``consentRecords(participantID:)``: for a store that has no cheaper way to count them.
    public func consentRecordCount(participantID: String) async throws -> Int {
        try await consentRecords(participantID: participantID).count
    }

    /// The summaries of ``runs(participantID:taskID:)``: for a store that has no cheaper way to list them.
    public func runSummaries(participantID: String) async throws -> [TaskRunSummary] {
        try await runs(participantID: participantID, taskID: nil).map(TaskRunSummary.init)
    }
}

extension TaskRun {
    /// Checks that this run may be saved over `existing` (the stored run with the same id, if any), throwing the
    /// ``StudyStoreError`` every backend gives: another participant's id, a finished run, another task, an in-progress
    /// run without restoration data, a completed run without a result, or data of another run.
    public func checkSave(replacing existing: TaskRun?) throws(StudyStoreError) {
        if let existing {
            guard existing.participantID == participantID else { throw .runOfAnotherParticipant(run: id) }
            // A finished run is final, but for one step: a completed run may be withdrawn (its result kept).
            guard existing.state == .inProgress || (existing.state == .completed && state == .withdrawn) else {
                throw .runFinished(run: id, state: existing.state)
            }
            guard existing.taskID == taskID else { throw .runTaskChanged(run: id, stored: existing.taskID, given: taskID) }
        }
        if state == .inProgress, restorationData == nil {
            throw .invalidRun(run: id, reason: "an in-progress run needs its restoration data to be resumed")
        }
        if state == .completed || state == .withdrawn, result == nil {
            throw .invalidRun(run: id, reason: "a \(state.rawValue) run needs its result")
        }
        if state == .withdrawn, existing?.state != .completed {
            throw .invalidRun(run: id, reason: "only a completed run can be withdrawn")
        }
        if let restorationData, restorationData.taskRunUUID != id {
            throw .invalidRun(run: id, reason: "the restoration data is of run \(restorationData.taskRunUUID.uuidString)")
        }
        if let result, result.taskRunUUID != id {
            throw .invalidRun(run: id, reason: "the result is of run \(result.taskRunUUID.uuidString)")
        }
    }
}
