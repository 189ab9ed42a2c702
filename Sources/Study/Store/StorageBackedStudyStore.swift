import Consent
import Foundation
import StudyKitEnvironment
import Synchronization

/// The study store's rules, written once over a ``StudyStorage``: what an invitation allows, how long sessions and
/// sign-in codes live, who may save or finish a run, and that consent records are only ever appended. In memory, SQLite
/// and PostgreSQL are backends of it (their storage types); each passes the same conformance suite.
///
/// ```swift
/// let store = StorageBackedStudyStore(storage: InMemoryStudyStorage(), environment: .live)
/// let issued = try await store.createInvitation(label: "clinic A", expiresAt: nil)
/// let participant = try await store.enrol(invitationCode: issued.code, timeZone: .current, language: "en")
/// ```
///
/// A database that also holds the care store's tables writes one participant action to both in one transaction
/// through the methods taking a writer (``enrol(id:invitationCodeSHA256:timeZone:language:at:in:)``,
/// ``save(_:at:in:)``, ``appendConsentRecord(_:json:at:in:)``), which apply exactly these rules.
public final class StorageBackedStudyStore<Storage: StudyStorage>: StudyStore {
    /// Where the rows are kept.
    public let storage: Storage
    /// The clock, UUIDs and randomness of the store.
    public let environment: StudyKitEnvironment
    private let commits = Atomic<UInt64>(0)
    private let participantCommits = Mutex<[String: UInt64]>([:])
    /// Added to every participant's revision: ``countCommitOfEveryone()``.
    private let everyone = Atomic<UInt64>(0)

    /// A store over `storage` using `environment`'s clock, UUIDs and randomness.
    public init(storage: Storage, environment: StudyKitEnvironment) {
        self.storage = storage
        self.environment = environment
    }

    // MARK: - Revision

    /// How many write transactions this store has committed.
    public var revision: UInt64 { commits.load(ordering: .acquiring) }

    /// How many committed writes changed what `participantID`'s pages show, in this process (and, where the database
    /// tells it, in others), plus one for each time every participant's may have changed unseen
    /// (``countCommitOfEveryone()``).
    public func revision(of participantID: String) -> UInt64 {
        participantCommits.withLock { $0[participantID] ?? 0 } + everyone.load(ordering: .acquiring)
    }

    /// Moves every participant's ``revision(of:)``: for when commits of other processes may have gone unheard (a
    /// change feed that lost its connection and listens again), so that whatever is kept per revision (a page, whether
    /// a participant has withdrawn) is read afresh.
    public func countCommitOfEveryone() {
        everyone.add(1, ordering: .releasing)
    }

    /// Counts a committed write in ``revision``, and in ``revision(of:)`` of `participantID` when its pages show it: the
    /// store's own writes count themselves; a write of the caller's transaction (a joint commit) is counted by the caller.
    public func countCommit(of participantID: String?) {
        commits.add(1, ordering: .releasing)
        if let participantID { participantCommits.withLock { $0[participantID, default: 0] += 1 } }
    }

    /// Runs `body` in a write transaction and counts it once committed.
    func write<T: Sendable>(participant: String? = nil, _ body: @escaping @Sendable (any StudyStorageWriter) async throws -> T) async throws -> T {
        let value = try await storage.write(body)
        countCommit(of: participant)
        return value
    }

    // MARK: - Invitations

    /// Makes an invitation with a fresh code.
    public func createInvitation(label: String?, expiresAt: Date?) async throws -> IssuedInvitation {
        let code = StudySecrets.invitationCode(environment.randomBytes)
        let invitation = Invitation(id: environment.makeUUID(), codeSHA256: StudySecrets.codeHash(code), label: label,
                                    createdAt: environment.now(), expiresAt: expiresAt)
        try await write { writer in try await writer.insert(invitation) }
        return IssuedInvitation(invitation: invitation, code: code)
    }

    /// Every invitation, oldest first.
    public func invitations() async throws -> [Invitation] {
        try await storage.read { reader in try await reader.invitations() }
    }

    /// The invitation with this code.
    public func invitation(code: String) async throws -> Invitation? {
        let hash = StudySecrets.codeHash(code)
        return try await storage.read { reader in try await reader.invitation(codeSHA256: hash) }
    }

    /// Revokes an unused invitation (a revoked one stays revoked at its first date).
    public func revokeInvitation(id: UUID) async throws -> Invitation {
        let now = environment.now()
        return try await write { writer in
            guard let invitation = try await writer.invitation(id: id) else { throw StudyStoreError.unknownInvitationID(id) }
            if let usedAt = invitation.usedAt { throw StudyStoreError.invitationUsed(usedAt: usedAt) }
            try await writer.revokeInvitation(id: id, at: now)
            guard let revoked = try await writer.invitation(id: id) else { throw StudyStoreError.unknownInvitationID(id) }
            return revoked
        }
    }

    // MARK: - Participants

    /// Enrols a new participant, using up the invitation in the same transaction.
    public func enrol(invitationCode: String?, timeZone: TimeZone, language: String) async throws -> StudyParticipant {
        let now = environment.now()
        let id = environment.makeUUID().uuidString.lowercased()
        let hash = invitationCode.map(StudySecrets.codeHash)
        return try await write(participant: id) { writer in
            try await self.enrol(id: id, invitationCodeSHA256: hash, timeZone: timeZone, language: language, at: now, in: writer)
        }
    }

    /// Stores participant `id`, using up the invitation whose code has SHA-256 `invitationCodeSHA256` (nil: open
    /// enrolment), inside the caller's transaction: refused when the invitation is unknown, used, revoked or expired.
    public func enrol(id: String, invitationCodeSHA256: String?, timeZone: TimeZone, language: String, at now: Date,
                      in writer: any StudyStorageWriter) async throws -> StudyParticipant {
        var invitationID: UUID?
        if let invitationCodeSHA256 {
            guard let found = try await writer.invitation(codeSHA256: invitationCodeSHA256) else { throw StudyStoreError.unknownInvitation }
            if let usedAt = found.usedAt { throw StudyStoreError.invitationUsed(usedAt: usedAt) }
            if let revokedAt = found.revokedAt { throw StudyStoreError.invitationRevoked(revokedAt: revokedAt) }
            if let expiresAt = found.expiresAt, now >= expiresAt { throw StudyStoreError.invitationExpired(expiresAt: expiresAt) }
            // The claim holds only while the invitation is unused: a second enrolment racing this one finds it used.
            guard try await writer.claimInvitation(id: found.id, by: id, at: now) else { throw StudyStoreError.invitationUsed(usedAt: now) }
            invitationID = found.id
        }
        let participant = StudyParticipant(id: id, patientID: StudyCareIdentifiers.patientID(participant: id), timeZone: timeZone,
                                           language: language, enrolledAt: now, invitationID: invitationID)
        try await writer.insert(participant)
        return participant
    }

    /// The participant with this id.
    public func participant(id: String) async throws -> StudyParticipant? {
        try await storage.read { reader in try await reader.participant(id: id) }
    }

    /// Every participant, by enrolment time.
    public func participants() async throws -> [StudyParticipant] {
        try await storage.read { reader in try await reader.participants() }
    }

    /// Changes the participant's language.
    public func setLanguage(_ language: String, participantID: String) async throws -> StudyParticipant {
        try await write(participant: participantID) { writer in
            guard try await writer.setLanguage(language, participantID: participantID),
                  let participant = try await writer.participant(id: participantID) else {
                throw StudyStoreError.unknownParticipant(participantID)
            }
            return participant
        }
    }

    // MARK: - Sessions and sign-in codes

    /// Signs the participant in with a fresh token.
    public func createSession(participantID: String, lifetime: TimeInterval) async throws -> IssuedSession {
        guard lifetime > 0 else { throw StudyStoreError.invalidLifetime(lifetime) }
        let now = environment.now()
        let token = StudySecrets.sessionToken(environment.randomBytes)
        let session = ParticipantSession(id: environment.makeUUID(), participantID: participantID, createdAt: now, lastSeenAt: now,
                                         expiresAt: now.addingTimeInterval(lifetime))
        try await write { writer in
            try await Self.requireParticipant(participantID, in: writer)
            try await writer.insert(session, tokenSHA256: StudySecrets.tokenHash(token))
        }
        return IssuedSession(session: session, token: token)
    }

    /// The valid session of this token, with its last-seen time set to now when it was older than
    /// ``ParticipantSession/lastSeenResolution``: most page views read and do not write.
    public func session(token: String) async throws -> ParticipantSession? {
        let hash = StudySecrets.tokenHash(token)
        let now = environment.now()
        guard var session = try await storage.read({ reader in try await reader.session(tokenSHA256: hash) }), session.isValid(at: now) else {
            return nil
        }
        guard now.timeIntervalSince(session.lastSeenAt) >= ParticipantSession.lastSeenResolution else { return session }
        let id = session.id
        // Revoked or expired in the meantime: nothing is touched, and the session is not returned.
        guard try await write({ writer in try await writer.touchSession(id: id, at: now) }) else { return nil }
        session.lastSeenAt = now
        return session
    }

    /// The participant's sessions, newest first.
    public func sessions(participantID: String) async throws -> [ParticipantSession] {
        try await storage.read { reader in try await reader.sessions(participantID: participantID) }
    }

    /// Revokes one of the participant's sessions.
    @discardableResult
    public func revokeSession(id: UUID, participantID: String) async throws -> Bool {
        let now = environment.now()
        return try await write { writer in try await writer.revokeSession(id: id, participantID: participantID, at: now) }
    }

    /// A one-time code for another device; it replaces the participant's earlier codes, so each participant has at most
    /// one code to guess at.
    public func createSignInCode(participantID: String, lifetime: TimeInterval) async throws -> IssuedSignInCode {
        guard lifetime > 0 else { throw StudyStoreError.invalidLifetime(lifetime) }
        let now = environment.now()
        let expiresAt = now.addingTimeInterval(lifetime)
        let randomBytes = environment.randomBytes
        return try await write { writer in
            try await Self.requireParticipant(participantID, in: writer)
            // Used and expired codes are of no further use; dropping them keeps the table small and frees their digests.
            try await writer.deleteSignInCodes(spentAt: now, orOf: participantID)
            var code = StudySecrets.signInCode(randomBytes)
            // 40 bits: a clash with a live code is improbable, but never hand out a code that signs in someone else.
            while try await writer.signInCodeExists(codeSHA256: StudySecrets.codeHash(code)) { code = StudySecrets.signInCode(randomBytes) }
            try await writer.insertSignInCode(codeSHA256: StudySecrets.codeHash(code), participantID: participantID, createdAt: now, expiresAt: expiresAt)
            return IssuedSignInCode(participantID: participantID, code: code, expiresAt: expiresAt)
        }
    }

    /// Uses up a sign-in code; nil when it is unknown, used or expired.
    public func redeemSignInCode(_ code: String) async throws -> String? {
        let hash = StudySecrets.codeHash(code)
        let now = environment.now()
        // A wrong code (nearly every guess) is a read: only a live code costs a write, which looks again.
        guard try await storage.read({ reader in try await reader.participantOfLiveSignInCode(codeSHA256: hash, at: now) }) != nil else { return nil }
        return try await write { writer in try await writer.useSignInCode(codeSHA256: hash, at: now) }
    }

    // MARK: - Task runs

    /// Writes a run atomically, creating or replacing it.
    @discardableResult
    public func saveRun(_ run: TaskRun) async throws -> TaskRun {
        let encoded = try EncodedTaskRun(run)
        let now = environment.now()
        return try await write(participant: run.participantID) { writer in try await self.save(encoded, at: now, in: writer) }
    }

    /// Checks `encoded` against the stored run with its id, if any (``TaskRun/checkSave(replacing:)``), and stores it
    /// inside the caller's transaction; returns the run as stored, with its dates.
    public func save(_ encoded: EncodedTaskRun, at now: Date, in writer: any StudyStorageWriter) async throws -> TaskRun {
        // The check needs the stored run's participant, task and state, not its data: nothing is decoded.
        try await save(encoded, replacing: try await writer.runSummary(id: encoded.run.id), at: now, in: writer)
    }

    private func save(_ encoded: EncodedTaskRun, replacing existing: TaskRunSummary?, at now: Date,
                      in writer: any StudyStorageWriter) async throws -> TaskRun {
        let run = encoded.run
        try run.checkSave(replacing: existing.map {
            TaskRun(id: $0.id, participantID: $0.participantID, taskID: $0.taskID, occurrence: $0.occurrence, state: $0.state)
        })
        try await Self.requireParticipant(run.participantID, in: writer)
        var stored = run
        stored.createdAt = existing?.createdAt ?? now
        stored.updatedAt = now
        try await writer.save(encoded, createdAt: stored.createdAt!, updatedAt: now)
        return stored
    }

    /// Reads the participant's run and saves what `change` makes of it, in one write transaction: no other write comes
    /// between the read and the save.
    public func updateRun<Value: Sendable>(id: UUID, participantID: String,
                                           _ change: @escaping @Sendable (TaskRun) async throws -> (save: TaskRun?, value: Value)) async throws
        -> (saved: TaskRun?, value: Value)? {
        let now = environment.now()
        // The transaction's body may outlive this call (a backend that stops waiting for a database that does not
        // answer), so `change` escapes.
        return try await write(participant: participantID) { writer -> (saved: TaskRun?, value: Value)? in
            guard let stored = try await writer.run(id: id), stored.participantID == participantID else { return nil }
            let (changed, value) = try await change(stored)
            return (try await self.save(changed, over: stored, at: now, in: writer), value)
        }
    }

    /// Reads the participant's run, and unless another finisher's claim on it is live, saves what `change` makes of it
    /// and takes the claim for `finisher` when `change` finishes it: all in one write transaction, so the claim is
    /// atomic with reading the run's state, in this process and any other over the same database.
    public func updateRun<Value: Sendable>(id: UUID, participantID: String, finisher: RunFinisher,
                                           _ change: @escaping @Sendable (TaskRun, StagedRunFiles) async throws -> (save: TaskRun?, value: Value, finishes: Bool)) async throws
        -> RunUpdate<Value>? {
        guard finisher.lease > 0 else { throw StudyStoreError.invalidLifetime(finisher.lease) }
        let now = environment.now()
        let key = StudyLease.runFinishKey(id)
        // `change` escapes, as in ``updateRun(id:participantID:_:)``.
        return try await write(participant: participantID) { writer -> RunUpdate<Value>? in
            guard let (stored, fileNames) = try await writer.runWithFileNames(id: id), stored.participantID == participantID else { return nil }
            if let lease = try await writer.lease(key: key), lease.isLive(at: now) { return .beingFinished }
            let files = StagedRunFiles(runID: id, participantID: participantID, stored: fileNames)
            let (changed, value, finishes) = try await change(stored, files)
            if finishes, try await !writer.claimLease(key: key, holder: finisher.id, until: now.addingTimeInterval(finisher.lease), at: now) {
                // Not reached while transactions are serialized (the lease was read lapsed above); were it, another has it.
                return .beingFinished
            }
            let saved = try await self.save(changed, over: stored, at: now, in: writer)
            // The files go with the state that refers to them: stored with a saved run or one about to be finished, never
            // with a refused post (whose state is not saved).
            if changed != nil || finishes { try await Self.store(files, in: writer) }
            return .changed(saved: saved, value: value, finishing: finishes)
        }
    }

    /// Stores what `files` staged, in the caller's transaction.
    private static func store(_ files: StagedRunFiles, in writer: any StudyStorageWriter) async throws {
        for (name, data) in files.changes {
            if let data {
                try await writer.putRunFile(StoredRunFile(runID: files.runID, participantID: files.participantID, name: name, data: data))
            } else {
                try await writer.deleteRunFile(runID: files.runID, name: name)
            }
        }
    }

    /// The files attached in the participant's runs, by run then name.
    public func runFiles(participantID: String) async throws -> [StoredRunFile] {
        try await storage.read { reader in try await reader.runFiles(participantID: participantID) }
    }

    /// Deletes the files of the participant's run `id` that are not in `keeping`: a finished run keeps those its result
    /// refers to. Nothing when the run is not theirs.
    public func keepOnlyRunFiles(_ keeping: Set<String>, ofRun id: UUID, participantID: String) async throws {
        // Most runs have no file to let go: they cost a read, not a write.
        let names = try await storage.read { reader in try await reader.runFileNames(runID: id) }
        guard names.contains(where: { !keeping.contains($0) }) else { return }
        try await write(participant: participantID) { writer in
            guard try await writer.runSummary(id: id)?.participantID == participantID else { return }
            for name in try await writer.runFileNames(runID: id) where !keeping.contains(name) {
                try await writer.deleteRunFile(runID: id, name: name)
            }
        }
    }

    /// Releases `finisher`'s claim on finishing run `id` (a claim that lapsed and another took over stays).
    public func releaseRunFinish(id: UUID, finisher: RunFinisher) async throws {
        try await storage.write { writer in try await writer.releaseLease(key: StudyLease.runFinishKey(id), holder: finisher.id) }
    }

    /// Saves `changed` over `stored` (its id checked) inside the caller's transaction; nil saves nothing.
    private func save(_ changed: TaskRun?, over stored: TaskRun, at now: Date, in writer: any StudyStorageWriter) async throws -> TaskRun? {
        guard let changed else { return nil }
        guard changed.id == stored.id else {
            throw StudyStoreError.invalidRun(run: changed.id, reason: "an update of run \(stored.id.uuidString) saves another run")
        }
        return try await save(try EncodedTaskRun(changed), replacing: TaskRunSummary(stored), at: now, in: writer)
    }

    /// The participant's run with this id.
    public func run(id: UUID, participantID: String) async throws -> TaskRun? {
        try await storage.read { reader in
            guard let run = try await reader.run(id: id), run.participantID == participantID else { return nil }
            return run
        }
    }

    /// The participant's runs, most recently saved first.
    public func runs(participantID: String, taskID: String?) async throws -> [TaskRun] {
        try await storage.read { reader in try await reader.runs(participantID: participantID, taskID: taskID, state: nil) }
    }

    /// The participant's runs in progress, most recently saved first.
    public func openRuns(participantID: String) async throws -> [TaskRun] {
        try await storage.read { reader in try await reader.runs(participantID: participantID, taskID: nil, state: .inProgress) }
    }

    /// The participant's runs in progress without their restoration data, which is neither read nor decoded.
    public func openRunSummaries(participantID: String) async throws -> [TaskRunSummary] {
        try await storage.read { reader in try await reader.runSummaries(participantID: participantID, state: .inProgress) }
    }

    /// All the participant's runs as summaries, most recently saved first, without their data.
    public func runSummaries(participantID: String) async throws -> [TaskRunSummary] {
        try await storage.read { reader in try await reader.runSummaries(participantID: participantID, state: nil) }
    }

    // MARK: - Consent records

    /// Appends a sealed record with its PDF pending.
    @discardableResult
    public func appendConsentRecord(_ sealed: SealedConsentRecord) async throws -> StoredConsentRecord {
        let json = try sealed.jsonData()
        let now = environment.now()
        return try await write(participant: sealed.record.participantIdentifier) { writer in
            try await self.appendConsentRecord(sealed, json: json, at: now, in: writer)
        }
    }

    /// Appends a sealed consent record (as `json`) with its PDF pending inside the caller's transaction; refuses a record
    /// of an unknown participant or one whose id is stored already.
    public func appendConsentRecord(_ sealed: SealedConsentRecord, json: Data, at now: Date,
                                    in writer: any StudyStorageWriter) async throws -> StoredConsentRecord {
        try await Self.requireParticipant(sealed.record.participantIdentifier, in: writer)
        if try await writer.consentRecord(id: sealed.record.id) != nil { throw StudyStoreError.consentRecordExists(sealed.record.id) }
        let stored = StoredConsentRecord(sealed: sealed, sealedJSON: json, storedAt: now, pdf: .pending)
        try await writer.append(stored)
        return stored
    }

    /// The participant's records, oldest first.
    public func consentRecords(participantID: String) async throws -> [StoredConsentRecord] {
        try await storage.read { reader in try await reader.consentRecords(participantID: participantID) }
    }

    /// How many records the participant has, without reading them.
    public func consentRecordCount(participantID: String) async throws -> Int {
        try await storage.read { reader in try await reader.consentRecordCount(participantID: participantID) }
    }

    /// The participant's record with this id.
    public func consentRecord(id: UUID, participantID: String) async throws -> StoredConsentRecord? {
        try await storage.read { reader in
            guard let record = try await reader.consentRecord(id: id), record.participantID == participantID else { return nil }
            return record
        }
    }

    /// Sets the state of a record's PDF; a file's path must stay inside the data folder.
    public func setConsentPDF(_ state: ConsentPDFState, recordID: UUID, participantID: String) async throws {
        if case .file(let path) = state, !ConsentPDFState.isSafeRelativePath(path) { throw StudyStoreError.unsafePDFPath(path) }
        let now = environment.now()
        try await write(participant: participantID) { writer in
            guard let record = try await writer.consentRecord(id: recordID), record.participantID == participantID else {
                throw StudyStoreError.unknownConsentRecord(recordID)
            }
            try await writer.setConsentPDF(state, recordID: recordID, at: now)
        }
    }

    /// Claims the printing of the record's PDF for `lease` seconds, when no other claim on it is live.
    public func claimConsentPDF(recordID: UUID, for lease: TimeInterval) async throws -> Bool {
        guard lease > 0 else { throw StudyStoreError.invalidLifetime(lease) }
        let now = environment.now()
        let holder = environment.makeUUID()
        return try await write { writer in
            guard try await writer.consentRecord(id: recordID) != nil else { throw StudyStoreError.unknownConsentRecord(recordID) }
            return try await writer.claimLease(key: StudyLease.consentPDFKey(recordID), holder: holder, until: now.addingTimeInterval(lease), at: now)
        }
    }

    /// Records whose PDF is pending or failed, oldest first.
    public func consentRecordsAwaitingPDF() async throws -> [StoredConsentRecord] {
        try await storage.read { reader in try await reader.consentRecordsAwaitingPDF() }
    }

    // MARK: - Shared checks

    private static func requireParticipant(_ id: String, in reader: any StudyStorageReader) async throws {
        guard try await reader.participant(id: id) != nil else { throw StudyStoreError.unknownParticipant(id) }
    }
}
