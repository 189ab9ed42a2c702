import Consent
import Foundation
import StudyKitEnvironment
import Synchronization

/// A study store in memory, for tests and previews: the same rules as the SQLite store, without a file.
///
/// ```swift
/// let store = InMemoryStudyStore(environment: .live)
/// ```
public actor InMemoryStudyStore: StudyStore {
    let environment: StudyKitEnvironment
    // Each change of the data is counted in `revision` as it is made.
    private var invitationsByHash: [String: Invitation] = [:] { didSet { countChange() } }
    private var participantsByID: [String: StudyParticipant] = [:] { didSet { countChange() } }
    private var sessionsByHash: [String: ParticipantSession] = [:] { didSet { countChange() } }
    private var signInCodes: [String: (participantID: String, expiresAt: Date, used: Bool)] = [:] { didSet { countChange() } }
    private var runsByID: [UUID: TaskRun] = [:] { didSet { countChange() } }
    private var records: [StoredConsentRecord] = [] { didSet { countChange() } }
    // The study team's accounts (InMemoryStudyStore+Researchers).
    var researchersByID: [UUID: Researcher] = [:]
    var researcherSessionsByHash: [String: ResearcherSession] = [:]
    var passwordLinks: [String: (researcherID: UUID, expiresAt: Date, used: Bool)] = [:]
    /// Wrong passwords per SHA-256 of the address tried, then per client address.
    var signInFailures: [String: [String: SignInFailureTally]] = [:]
    private let changes = Atomic<UInt64>(0)

    /// How many changes were made to the data so far.
    public nonisolated var revision: UInt64 { changes.load(ordering: .acquiring) }

    private func countChange() { changes.add(1, ordering: .releasing) }

    private let participantChanges = Mutex<[String: UInt64]>([:])

    public nonisolated func revision(of participantID: String) -> UInt64 { participantChanges.withLock { $0[participantID] ?? 0 } }

    /// Counts a change of `participantID`'s data that their pages show.
    private func countChange(of participantID: String) { participantChanges.withLock { $0[participantID, default: 0] += 1 } }

    /// An empty store using `environment`'s clock, UUIDs and randomness.
    public init(environment: StudyKitEnvironment) {
        self.environment = environment
    }

    /// Makes an invitation with a fresh code.
    public func createInvitation(label: String?, expiresAt: Date?) -> IssuedInvitation {
        let code = StudySecrets.invitationCode(environment.randomBytes)
        let invitation = Invitation(id: environment.makeUUID(), codeSHA256: StudySecrets.codeHash(code), label: label,
                                    createdAt: environment.now(), expiresAt: expiresAt)
        invitationsByHash[invitation.codeSHA256] = invitation
        return IssuedInvitation(invitation: invitation, code: code)
    }

    /// Every invitation, oldest first.
    public func invitations() -> [Invitation] {
        invitationsByHash.values.sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    }

    /// The invitation with this code.
    public func invitation(code: String) -> Invitation? {
        invitationsByHash[StudySecrets.codeHash(code)]
    }

    /// Revokes an unused invitation.
    public func revokeInvitation(id: UUID) throws -> Invitation {
        guard var invitation = invitationsByHash.values.first(where: { $0.id == id }) else { throw StudyStoreError.unknownInvitationID(id) }
        if let usedAt = invitation.usedAt { throw StudyStoreError.invitationUsed(usedAt: usedAt) }
        invitation.revokedAt = invitation.revokedAt ?? environment.now()
        invitationsByHash[invitation.codeSHA256] = invitation
        return invitation
    }

    /// Enrols a new participant, using up the invitation.
    public func enrol(invitationCode: String?, timeZone: TimeZone, language: String) throws -> StudyParticipant {
        let now = environment.now()
        var invitation: Invitation?
        if let invitationCode {
            guard let found = invitationsByHash[StudySecrets.codeHash(invitationCode)] else { throw StudyStoreError.unknownInvitation }
            if let usedAt = found.usedAt { throw StudyStoreError.invitationUsed(usedAt: usedAt) }
            if let revokedAt = found.revokedAt { throw StudyStoreError.invitationRevoked(revokedAt: revokedAt) }
            if let expiresAt = found.expiresAt, now >= expiresAt { throw StudyStoreError.invitationExpired(expiresAt: expiresAt) }
            invitation = found
        }
        let id = environment.makeUUID().uuidString.lowercased()
        let participant = StudyParticipant(id: id, patientID: StudyCareIdentifiers.patientID(participant: id), timeZone: timeZone,
                                           language: language, enrolledAt: now, invitationID: invitation?.id)
        if var invitation {
            invitation.usedAt = now
            invitation.usedBy = id
            invitationsByHash[invitation.codeSHA256] = invitation
        }
        participantsByID[id] = participant
        countChange(of: id)
        return participant
    }

    /// The participant with this id.
    public func participant(id: String) -> StudyParticipant? { participantsByID[id] }

    /// Every participant, by enrolment time.
    public func participants() -> [StudyParticipant] {
        participantsByID.values.sorted { ($0.enrolledAt, $0.id) < ($1.enrolledAt, $1.id) }
    }

    /// Changes the participant's language.
    public func setLanguage(_ language: String, participantID: String) throws -> StudyParticipant {
        guard var participant = participantsByID[participantID] else { throw StudyStoreError.unknownParticipant(participantID) }
        participant.language = language
        participantsByID[participantID] = participant
        countChange(of: participantID)
        return participant
    }

    /// Signs the participant in with a fresh token.
    public func createSession(participantID: String, lifetime: TimeInterval) throws -> IssuedSession {
        guard lifetime > 0 else { throw StudyStoreError.invalidLifetime(lifetime) }
        guard participantsByID[participantID] != nil else { throw StudyStoreError.unknownParticipant(participantID) }
        let now = environment.now()
        let token = StudySecrets.sessionToken(environment.randomBytes)
        let session = ParticipantSession(id: environment.makeUUID(), participantID: participantID, createdAt: now, lastSeenAt: now,
                                         expiresAt: now.addingTimeInterval(lifetime))
        sessionsByHash[StudySecrets.tokenHash(token)] = session
        return IssuedSession(session: session, token: token)
    }

    /// The valid session of this token, touched.
    public func session(token: String) -> ParticipantSession? {
        let hash = StudySecrets.tokenHash(token)
        let now = environment.now()
        guard var session = sessionsByHash[hash], session.isValid(at: now) else { return nil }
        guard now.timeIntervalSince(session.lastSeenAt) >= ParticipantSession.lastSeenResolution else { return session }
        session.lastSeenAt = now
        sessionsByHash[hash] = session
        return session
    }

    /// The participant's sessions, newest first.
    public func sessions(participantID: String) -> [ParticipantSession] {
        sessionsByHash.values.filter { $0.participantID == participantID }
            .sorted { ($0.createdAt, $0.id.uuidString) > ($1.createdAt, $1.id.uuidString) }
    }

    /// Revokes one of the participant's sessions.
    @discardableResult
    public func revokeSession(id: UUID, participantID: String) -> Bool {
        guard let (hash, session) = sessionsByHash.first(where: { $0.value.id == id && $0.value.participantID == participantID }) else { return false }
        if session.revokedAt == nil { sessionsByHash[hash]?.revokedAt = environment.now() }
        return true
    }

    /// A one-time code for another device.
    public func createSignInCode(participantID: String, lifetime: TimeInterval) throws -> IssuedSignInCode {
        guard lifetime > 0 else { throw StudyStoreError.invalidLifetime(lifetime) }
        guard participantsByID[participantID] != nil else { throw StudyStoreError.unknownParticipant(participantID) }
        let code = StudySecrets.signInCode(environment.randomBytes)
        let expiresAt = environment.now().addingTimeInterval(lifetime)
        signInCodes = signInCodes.filter { $0.value.participantID != participantID }
        signInCodes[StudySecrets.codeHash(code)] = (participantID, expiresAt, false)
        return IssuedSignInCode(participantID: participantID, code: code, expiresAt: expiresAt)
    }

    /// Uses up a sign-in code.
    public func redeemSignInCode(_ code: String) -> String? {
        let hash = StudySecrets.codeHash(code)
        guard let entry = signInCodes[hash], !entry.used, environment.now() < entry.expiresAt else { return nil }
        signInCodes[hash]?.used = true
        return entry.participantID
    }

    /// Writes a run, creating or replacing it.
    @discardableResult
    public func saveRun(_ run: TaskRun) throws -> TaskRun {
        let existing = runsByID[run.id]
        try run.checkSave(replacing: existing)
        guard participantsByID[run.participantID] != nil else { throw StudyStoreError.unknownParticipant(run.participantID) }
        var stored = run
        let now = environment.now()
        stored.createdAt = existing?.createdAt ?? now
        stored.updatedAt = now
        runsByID[run.id] = stored
        countChange(of: run.participantID)
        return stored
    }

    /// The participant's run with this id.
    public func run(id: UUID, participantID: String) -> TaskRun? {
        guard let run = runsByID[id], run.participantID == participantID else { return nil }
        return run
    }

    /// Reads the participant's run and saves what `change` makes of it; the actor runs nothing else in between.
    public func updateRun<Value: Sendable>(id: UUID, participantID: String,
                                           _ change: @Sendable (TaskRun) throws -> (save: TaskRun?, value: Value)) throws
        -> (saved: TaskRun?, value: Value)? {
        guard let stored = run(id: id, participantID: participantID) else { return nil }
        let (changed, value) = try change(stored)
        guard let changed else { return (nil, value) }
        guard changed.id == id else { throw StudyStoreError.invalidRun(run: changed.id, reason: "an update of run \(id.uuidString) saves another run") }
        return (try saveRun(changed), value)
    }

    /// The participant's runs, most recently saved first.
    public func runs(participantID: String, taskID: String?) -> [TaskRun] {
        runsByID.values.filter { $0.participantID == participantID && (taskID == nil || $0.taskID == taskID) }
            .sorted { ($0.updatedAt ?? .distantPast, $0.id.uuidString) > ($1.updatedAt ?? .distantPast, $1.id.uuidString) }
    }

    /// The participant's runs still in progress, most recently saved first.
    public func openRuns(participantID: String) -> [TaskRun] {
        runs(participantID: participantID, taskID: nil).filter { $0.state == .inProgress }
    }

    /// Appends a sealed record with its PDF pending.
    @discardableResult
    public func appendConsentRecord(_ sealed: SealedConsentRecord) throws -> StoredConsentRecord {
        guard !records.contains(where: { $0.id == sealed.record.id }) else { throw StudyStoreError.consentRecordExists(sealed.record.id) }
        guard participantsByID[sealed.record.participantIdentifier] != nil else {
            throw StudyStoreError.unknownParticipant(sealed.record.participantIdentifier)
        }
        let stored = StoredConsentRecord(sealed: sealed, sealedJSON: try sealed.jsonData(), storedAt: environment.now(), pdf: .pending)
        records.append(stored)
        countChange(of: sealed.record.participantIdentifier)
        return stored
    }

    /// The participant's records, oldest first.
    public func consentRecords(participantID: String) -> [StoredConsentRecord] {
        records.filter { $0.participantID == participantID }
    }

    /// The participant's record with this id.
    public func consentRecord(id: UUID, participantID: String) -> StoredConsentRecord? {
        records.first { $0.id == id && $0.participantID == participantID }
    }

    /// Sets the state of a record's PDF.
    public func setConsentPDF(_ state: ConsentPDFState, recordID: UUID, participantID: String) throws {
        if case .file(let path) = state, !ConsentPDFState.isSafeRelativePath(path) { throw StudyStoreError.unsafePDFPath(path) }
        guard let index = records.firstIndex(where: { $0.id == recordID && $0.participantID == participantID }) else {
            throw StudyStoreError.unknownConsentRecord(recordID)
        }
        records[index].pdf = state
        countChange(of: participantID)
    }

    /// Records whose PDF is pending or failed, oldest first.
    public func consentRecordsAwaitingPDF() -> [StoredConsentRecord] {
        records.filter { $0.pdf.name != "ready" }
    }
}
