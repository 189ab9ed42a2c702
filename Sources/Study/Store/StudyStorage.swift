import Consent
import Foundation
import Research

/// The few operations a database must offer for a ``StorageBackedStudyStore`` to keep a study's data in it: rows stored
/// and found, in transactions.
///
/// Every rule of the study store (what an invitation allows, who may finish a run, the append-only consent records, how
/// long a session lives) is written once, in ``StorageBackedStudyStore``, on top of these primitives, as the care
/// store's are over `CareStorage`. The primitives are `async`, so that a network database fits them; a write runs
/// atomically: when its body throws, nothing of it is kept.
public protocol StudyStorage: Sendable {
    /// Runs `body` in a read transaction that sees one consistent state.
    func read<T: Sendable>(_ body: @escaping @Sendable (any StudyStorageReader) async throws -> T) async throws -> T
    /// Runs `body` in a write transaction; it is durable when this returns, and undone when `body` throws.
    func write<T: Sendable>(_ body: @escaping @Sendable (any StudyStorageWriter) async throws -> T) async throws -> T
}

/// Finding rows inside a transaction. Lists come in the order each method names; nothing is checked here.
public protocol StudyStorageReader {
    /// The invitation whose code has this SHA-256 (hex).
    func invitation(codeSHA256: String) async throws -> Invitation?
    /// The invitation with this id.
    func invitation(id: UUID) async throws -> Invitation?
    /// Every invitation, oldest first (by creation time, then id).
    func invitations() async throws -> [Invitation]

    /// The participant with this id.
    func participant(id: String) async throws -> StudyParticipant?
    /// Every participant, by enrolment time, then id.
    func participants() async throws -> [StudyParticipant]

    /// The session whose token has this SHA-256 (hex), valid or not.
    func session(tokenSHA256: String) async throws -> ParticipantSession?
    /// The participant's sessions, newest first (by creation time, then id, both descending).
    func sessions(participantID: String) async throws -> [ParticipantSession]
    /// ``sessions(participantID:)`` with the SHA-256 (hex) of each session's token, in the same order: what a copy of
    /// the study into another database needs to keep every participant signed in (``StudyDataCopy``).
    func sessionsWithTokenHashes(participantID: String) async throws -> [(session: ParticipantSession, tokenSHA256: String)]

    /// The participant of the sign-in code whose SHA-256 is `codeSHA256`, when it is unused and expires after `now`.
    func participantOfLiveSignInCode(codeSHA256: String, at now: Date) async throws -> String?
    /// Whether a sign-in code with this SHA-256 is stored, live or not.
    func signInCodeExists(codeSHA256: String) async throws -> Bool

    /// The run with this id, whoever's it is.
    func run(id: UUID) async throws -> TaskRun?
    /// The run with this id and the names of its files (``runFileNames(runID:)``): what a post to a run reads first. A
    /// backend whose every statement is a round trip reads both in one.
    func runWithFileNames(id: UUID) async throws -> (run: TaskRun, fileNames: [String])?
    /// The run with this id without its restoration data and result.
    func runSummary(id: UUID) async throws -> TaskRunSummary?
    /// The participant's runs of `taskID` (of every task when nil) in `state` (any when nil), most recently saved first
    /// (by update time, then id, both descending).
    func runs(participantID: String, taskID: String?, state: TaskRunState?) async throws -> [TaskRun]
    /// ``runs(participantID:taskID:state:)`` of every task, as summaries: neither restoration data nor result is read.
    func runSummaries(participantID: String, state: TaskRunState?) async throws -> [TaskRunSummary]

    /// The participant's consent records, oldest first (in the order they were stored).
    func consentRecords(participantID: String) async throws -> [StoredConsentRecord]
    /// How many consent records the participant has.
    func consentRecordCount(participantID: String) async throws -> Int
    /// The consent record with this id, whoever's it is.
    func consentRecord(id: UUID) async throws -> StoredConsentRecord?
    /// Every record whose PDF is not ready (pending or failed), oldest first.
    func consentRecordsAwaitingPDF() async throws -> [StoredConsentRecord]
    /// Whether the participant has a withdrawal record.
    func hasWithdrawalRecord(participantID: String) async throws -> Bool

    /// The names of the files of run `runID`, in name order.
    func runFileNames(runID: UUID) async throws -> [String]
    /// The files of the participant's runs, by run then name.
    func runFiles(participantID: String) async throws -> [StoredRunFile]

    /// The lease on `key` (``StudyLease``), live or lapsed; nil when none was taken or it was released.
    func lease(key: String) async throws -> StudyLease?

    /// The bucket kept for `client` under the sign-in attempt limit of `scope` (``SignInAttemptLimit/serverWide``: the
    /// server-wide bucket); nil when none is kept.
    func signInBucket(scope: String, client: String) async throws -> SignInBucket?
    /// How many client buckets the limit of `scope` keeps, the server-wide one aside.
    func signInClientBucketCount(scope: String) async throws -> Int

    /// The participant's reminder channels, oldest first.
    func reminderChannels(participantID: String) async throws -> [ReminderChannel]
    /// The reminder channel with this id.
    func reminderChannel(id: UUID) async throws -> ReminderChannel?
    /// Every participant's reminder channels, by participant then age: what the sender and exports read.
    func allReminderChannels() async throws -> [ReminderChannel]
    /// What the participant chose about reminders; nil when they have not chosen.
    func reminderPreferences(participantID: String) async throws -> ReminderPreferences?
    /// Every participant's choices about reminders, by participant.
    func allReminderPreferences() async throws -> [String: ReminderPreferences]
    /// The outbox's delivery with this key.
    func reminderDelivery(key: String) async throws -> ReminderDelivery?
    /// The participant's deliveries, latest due first.
    func reminderDeliveries(participantID: String) async throws -> [ReminderDelivery]
    /// Every participant's deliveries due at or after `date`, oldest due first.
    func reminderDeliveries(dueSince date: Date) async throws -> [ReminderDelivery]
}

/// Storing rows inside a transaction. What a method refuses itself (a row whose key is taken) it throws; every rule is the
/// store's.
public protocol StudyStorageWriter: StudyStorageReader {
    /// Stores a new invitation.
    func insert(_ invitation: Invitation) async throws
    /// Marks the invitation used by `participantID` at `date`, when it is still unused; returns whether it was.
    func claimInvitation(id: UUID, by participantID: String, at date: Date) async throws -> Bool
    /// Marks the invitation revoked at `date`, unless it was revoked already (the first date stays).
    func revokeInvitation(id: UUID, at date: Date) async throws

    /// Stores a new participant.
    func insert(_ participant: StudyParticipant) async throws
    /// Changes the participant's language; returns whether the participant is stored.
    func setLanguage(_ language: String, participantID: String) async throws -> Bool

    /// Stores a new session with the SHA-256 of its token.
    func insert(_ session: ParticipantSession, tokenSHA256: String) async throws
    /// Sets the session's last-seen time, when it is neither revoked nor expired at `date`; returns whether it was.
    func touchSession(id: UUID, at date: Date) async throws -> Bool
    /// Marks the participant's session revoked at `date`, unless it was already; returns whether the participant has it.
    func revokeSession(id: UUID, participantID: String, at date: Date) async throws -> Bool

    /// Deletes the sign-in codes used or expired at `now`, and every code of `participantID`.
    func deleteSignInCodes(spentAt now: Date, orOf participantID: String) async throws
    /// Stores a new sign-in code.
    func insertSignInCode(codeSHA256: String, participantID: String, createdAt: Date, expiresAt: Date) async throws
    /// Marks the code used at `now` when it is live then; returns its participant when it was.
    func useSignInCode(codeSHA256: String, at now: Date) async throws -> String?

    /// Stores the run, creating it or replacing the stored one with its id, with the dates given.
    func save(_ run: EncodedTaskRun, createdAt: Date, updatedAt: Date) async throws
    /// Deletes the participant's run, and its files; returns whether there was one.
    func deleteRun(id: UUID, participantID: String) async throws -> Bool
    /// Stores a run's file, creating it or replacing the stored one of its run and name.
    func putRunFile(_ file: StoredRunFile) async throws
    /// Deletes the file `name` of run `runID`; nothing when there is none.
    func deleteRunFile(runID: UUID, name: String) async throws

    /// Appends a consent record (its PDF as the record says: pending when new).
    func append(_ record: StoredConsentRecord) async throws
    /// Sets the state of a stored record's PDF at `date`.
    func setConsentPDF(_ state: ConsentPDFState, recordID: UUID, at date: Date) async throws

    /// Claims `key` for `holder` until `until`, when no lease on it lasts past `now` (none taken, released, or lapsed);
    /// returns whether it did. Two transactions claiming one key at once never both succeed.
    func claimLease(key: String, holder: UUID, until: Date, at now: Date) async throws -> Bool
    /// Drops the lease on `key` when `holder` holds it (a lease another took over after it lapsed stays).
    func releaseLease(key: String, holder: UUID) async throws

    /// Stores `bucket` (full again at `fullAt`) for `client` under the limit of `scope` when the stored bucket is still
    /// `previous` (nil: none is stored), a conditional write; returns whether it was, so that of two processes' failures
    /// counted at once neither is lost.
    func replaceSignInBucket(scope: String, client: String, with bucket: SignInBucket, fullAt: Date,
                             replacing previous: SignInBucket?) async throws -> Bool
    /// Deletes the client buckets of `scope` that are full by `date` (every client bucket of it when nil); the
    /// server-wide bucket stays.
    func deleteSignInClientBuckets(scope: String, fullBy date: Date?) async throws

    /// Stores a new reminder channel.
    func insert(_ channel: ReminderChannel) async throws
    /// Marks the channel confirmed at `date` when it is not yet; returns whether it was.
    func confirmReminderChannel(id: UUID, at date: Date) async throws -> Bool
    /// Deletes the channel; returns whether there was one.
    func deleteReminderChannel(id: UUID) async throws -> Bool
    /// Stores the participant's choices about reminders, replacing earlier ones.
    func setReminderPreferences(_ preferences: ReminderPreferences, participantID: String, at date: Date) async throws
    /// Stores a delivery, replacing the one with its key.
    func put(_ delivery: ReminderDelivery) async throws
    /// Deletes the participant's reminder channels and choices, and with `deliveries` their outbox rows too (a
    /// withdrawal: a participant who left is reached no more; a withdrawal with deletion deletes what was sent).
    func deleteReminderData(participantID: String, deliveries: Bool) async throws
}

/// A run with its restoration data and result as JSON, encoded before a write so that the writer, which serializes
/// every write, spends no time on it.
public struct EncodedTaskRun: Sendable {
    /// The run.
    public let run: TaskRun
    /// Its restoration data as ResearchKit-compatible JSON; nil without any.
    public let restorationJSON: Data?
    /// Its result as JSON; nil without one.
    public let resultJSON: Data?

    /// Encodes `run`'s restoration data and result.
    public init(_ run: TaskRun) throws {
        let encoder = ResearchJSON.encoder(pretty: false)
        self.run = run
        restorationJSON = try run.restorationData.map { try encoder.encode($0) }
        resultJSON = try run.result.map { try encoder.encode($0) }
    }
}

extension StudyStorageReader {
    /// The run, then its files' names, in two reads.
    public func runWithFileNames(id: UUID) async throws -> (run: TaskRun, fileNames: [String])? {
        guard let run = try await run(id: id) else { return nil }
        return (run, try await runFileNames(runID: id))
    }
}
