import Consent
import Foundation
import StudyKitEnvironment
import Synchronization

/// A study store in memory, for tests and previews: the study store's rules over ``InMemoryStudyStorage``, with the
/// study team's accounts beside it (``InMemoryResearcherAccounts``).
///
/// ```swift
/// let store = InMemoryStudyStore(environment: .live)
/// ```
public typealias InMemoryStudyStore = StorageBackedStudyStore<InMemoryStudyStorage>

extension StorageBackedStudyStore where Storage == InMemoryStudyStorage {
    /// An empty store using `environment`'s clock, UUIDs and randomness.
    public convenience init(environment: StudyKitEnvironment) {
        self.init(storage: InMemoryStudyStorage(researchers: InMemoryResearcherAccounts(environment: environment)), environment: environment)
    }
}

/// A study's rows in memory. A write changes the tables in place and keeps an undo log, which it replays when the write
/// fails, so a failed write leaves nothing behind; writes run one at a time, and a read takes a copy between them.
public final class InMemoryStudyStorage: StudyStorage, ResearcherAccountsKeeping {
    private let tables = Mutex(Tables())
    /// Held by a write for its whole transaction, which may await, and by a read while it takes its copy.
    private let gate = AsyncGate()
    /// The study team's accounts.
    public let researcherAccounts: InMemoryResearcherAccounts

    /// Empty storage, with `researchers` as the study team's accounts.
    public init(researchers: InMemoryResearcherAccounts) {
        researcherAccounts = researchers
    }

    /// Runs `body` on a copy of the tables taken between writes (cheap: the copy shares storage until a write changes
    /// it), so a write that starts meanwhile is not seen.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any StudyStorageReader) async throws -> T) async throws -> T {
        let snapshot = await gate.withLock { tables.withLock { $0 } }
        return try await body(Transaction(tables: snapshot))
    }

    /// Runs `body` holding the gate; when it throws, the tables it changed are put back as they were.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StudyStorageWriter) async throws -> T) async throws -> T {
        try await gate.withLock {
            let before = tables.withLock { $0 }
            let transaction = Transaction(tables: before)
            let value = try await body(transaction)
            tables.withLock { $0 = transaction.tables }
            return value
        }
    }

    /// The rows.
    struct Tables: Sendable {
        var invitations: [UUID: Invitation] = [:]
        var participants: [String: StudyParticipant] = [:]
        var sessions: [String: ParticipantSession] = [:]
        var signInCodes: [String: (participantID: String, expiresAt: Date, used: Bool)] = [:]
        var runs: [UUID: TaskRun] = [:]
        var runFiles: [UUID: [String: StoredRunFile]] = [:]
        var records: [StoredConsentRecord] = []
        var leases: [String: StudyLease] = [:]
        var signInBuckets: [SignInBucketKey: (bucket: SignInBucket, fullAt: Date)] = [:]
        var reminderChannels: [UUID: ReminderChannel] = [:]
        var reminderPreferences: [String: ReminderPreferences] = [:]
        var reminderDeliveries: [String: ReminderDelivery] = [:]
    }

    /// A sign-in bucket's key: its limit's scope and its client (empty for the server-wide one).
    struct SignInBucketKey: Hashable, Sendable {
        var scope: String
        var client: String
    }

    /// A transaction over its own copy of the tables (copy-on-write: only what it changes is copied).
    private final class Transaction: StudyStorageWriter {
        var tables: Tables

        init(tables: Tables) { self.tables = tables }

        func invitation(codeSHA256: String) -> Invitation? { tables.invitations.values.first { $0.codeSHA256 == codeSHA256 } }
        func invitation(id: UUID) -> Invitation? { tables.invitations[id] }
        func invitations() -> [Invitation] {
            tables.invitations.values.sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
        }

        func participant(id: String) -> StudyParticipant? { tables.participants[id] }
        func participants() -> [StudyParticipant] { tables.participants.values.sorted { ($0.enrolledAt, $0.id) < ($1.enrolledAt, $1.id) } }

        func session(tokenSHA256: String) -> ParticipantSession? { tables.sessions[tokenSHA256] }
        func sessions(participantID: String) -> [ParticipantSession] {
            tables.sessions.values.filter { $0.participantID == participantID }
                .sorted { ($0.createdAt, $0.id.uuidString) > ($1.createdAt, $1.id.uuidString) }
        }
        func sessionsWithTokenHashes(participantID: String) -> [(session: ParticipantSession, tokenSHA256: String)] {
            tables.sessions.filter { $0.value.participantID == participantID }.map { (session: $0.value, tokenSHA256: $0.key) }
                .sorted { ($0.session.createdAt, $0.session.id.uuidString) > ($1.session.createdAt, $1.session.id.uuidString) }
        }

        func participantOfLiveSignInCode(codeSHA256: String, at now: Date) -> String? {
            guard let code = tables.signInCodes[codeSHA256], !code.used, now < code.expiresAt else { return nil }
            return code.participantID
        }
        func signInCodeExists(codeSHA256: String) -> Bool { tables.signInCodes[codeSHA256] != nil }

        func run(id: UUID) -> TaskRun? { tables.runs[id] }
        func runSummary(id: UUID) -> TaskRunSummary? { tables.runs[id].map(TaskRunSummary.init) }
        func runs(participantID: String, taskID: String?, state: TaskRunState?) -> [TaskRun] {
            tables.runs.values
                .filter { $0.participantID == participantID && (taskID == nil || $0.taskID == taskID) && (state == nil || $0.state == state) }
                .sorted { ($0.updatedAt ?? .distantPast, $0.id.uuidString) > ($1.updatedAt ?? .distantPast, $1.id.uuidString) }
        }
        func runSummaries(participantID: String, state: TaskRunState?) -> [TaskRunSummary] {
            runs(participantID: participantID, taskID: nil, state: state).map(TaskRunSummary.init)
        }

        func consentRecords(participantID: String) -> [StoredConsentRecord] { tables.records.filter { $0.participantID == participantID } }
        func consentRecordCount(participantID: String) -> Int { tables.records.count { $0.participantID == participantID } }
        func consentRecord(id: UUID) -> StoredConsentRecord? { tables.records.first { $0.id == id } }
        func consentRecordsAwaitingPDF() -> [StoredConsentRecord] { tables.records.filter { $0.pdf.name != "ready" } }
        func hasWithdrawalRecord(participantID: String) -> Bool {
            tables.records.contains { $0.participantID == participantID && $0.sealed.record.kind == .withdrawal }
        }

        func insert(_ invitation: Invitation) throws {
            guard tables.invitations[invitation.id] == nil else { throw StudyStorageRowError.keyTaken(table: "invitation", key: invitation.id.uuidString) }
            tables.invitations[invitation.id] = invitation
        }

        func claimInvitation(id: UUID, by participantID: String, at date: Date) -> Bool {
            guard var invitation = tables.invitations[id], invitation.usedAt == nil else { return false }
            invitation.usedAt = date
            invitation.usedBy = participantID
            tables.invitations[id] = invitation
            return true
        }

        func revokeInvitation(id: UUID, at date: Date) {
            guard tables.invitations[id] != nil, tables.invitations[id]?.revokedAt == nil else { return }
            tables.invitations[id]?.revokedAt = date
        }

        func insert(_ participant: StudyParticipant) throws {
            guard tables.participants[participant.id] == nil else { throw StudyStorageRowError.keyTaken(table: "participant", key: participant.id) }
            tables.participants[participant.id] = participant
        }

        func setLanguage(_ language: String, participantID: String) -> Bool {
            guard tables.participants[participantID] != nil else { return false }
            tables.participants[participantID]?.language = language
            return true
        }

        func insert(_ session: ParticipantSession, tokenSHA256: String) throws {
            guard tables.sessions[tokenSHA256] == nil else { throw StudyStorageRowError.keyTaken(table: "session", key: session.id.uuidString) }
            tables.sessions[tokenSHA256] = session
        }

        func touchSession(id: UUID, at date: Date) -> Bool {
            guard let (hash, session) = tables.sessions.first(where: { $0.value.id == id }), session.isValid(at: date) else { return false }
            tables.sessions[hash]?.lastSeenAt = date
            return true
        }

        func revokeSession(id: UUID, participantID: String, at date: Date) -> Bool {
            guard let (hash, session) = tables.sessions.first(where: { $0.value.id == id && $0.value.participantID == participantID }) else {
                return false
            }
            if session.revokedAt == nil { tables.sessions[hash]?.revokedAt = date }
            return true
        }

        func deleteSignInCodes(spentAt now: Date, orOf participantID: String) {
            tables.signInCodes = tables.signInCodes.filter { !$0.value.used && now < $0.value.expiresAt && $0.value.participantID != participantID }
        }

        func insertSignInCode(codeSHA256: String, participantID: String, createdAt: Date, expiresAt: Date) throws {
            guard tables.signInCodes[codeSHA256] == nil else { throw StudyStorageRowError.keyTaken(table: "signInCode", key: codeSHA256) }
            tables.signInCodes[codeSHA256] = (participantID, expiresAt, false)
        }

        func useSignInCode(codeSHA256: String, at now: Date) -> String? {
            guard let participantID = participantOfLiveSignInCode(codeSHA256: codeSHA256, at: now) else { return nil }
            tables.signInCodes[codeSHA256]?.used = true
            return participantID
        }

        func save(_ run: EncodedTaskRun, createdAt: Date, updatedAt: Date) {
            var stored = run.run
            stored.createdAt = createdAt
            stored.updatedAt = updatedAt
            tables.runs[stored.id] = stored
        }

        func deleteRun(id: UUID, participantID: String) -> Bool {
            guard tables.runs[id]?.participantID == participantID else { return false }
            tables.runs[id] = nil
            tables.runFiles[id] = nil
            return true
        }

        func runFileNames(runID: UUID) -> [String] {
            (tables.runFiles[runID]?.keys).map { $0.sorted() } ?? []
        }

        func runFiles(participantID: String) -> [StoredRunFile] {
            tables.runFiles.values.flatMap(\.values).filter { $0.participantID == participantID }
                .sorted { ($0.runID.uuidString, $0.name) < ($1.runID.uuidString, $1.name) }
        }

        func putRunFile(_ file: StoredRunFile) throws {
            guard tables.runs[file.runID]?.participantID == file.participantID else {
                throw StudyStorageRowError.missingParent(table: "runFile", key: "\(file.runID.uuidString)/\(file.name)")
            }
            tables.runFiles[file.runID, default: [:]][file.name] = file
        }

        func deleteRunFile(runID: UUID, name: String) {
            tables.runFiles[runID]?[name] = nil
            if tables.runFiles[runID]?.isEmpty == true { tables.runFiles[runID] = nil }
        }

        func append(_ record: StoredConsentRecord) throws {
            guard consentRecord(id: record.id) == nil else { throw StudyStorageRowError.keyTaken(table: "consentRecord", key: record.id.uuidString) }
            tables.records.append(record)
        }

        func lease(key: String) -> StudyLease? { tables.leases[key] }

        func claimLease(key: String, holder: UUID, until: Date, at now: Date) -> Bool {
            if let lease = tables.leases[key], lease.isLive(at: now) { return false }
            tables.leases[key] = StudyLease(key: key, holder: holder, until: until)
            return true
        }

        func releaseLease(key: String, holder: UUID) {
            if tables.leases[key]?.holder == holder { tables.leases[key] = nil }
        }

        func signInBucket(scope: String, client: String) -> SignInBucket? {
            tables.signInBuckets[SignInBucketKey(scope: scope, client: client)]?.bucket
        }

        func signInClientBucketCount(scope: String) -> Int {
            tables.signInBuckets.keys.count { $0.scope == scope && $0.client != SignInAttemptLimit.serverWide }
        }

        func replaceSignInBucket(scope: String, client: String, with bucket: SignInBucket, fullAt: Date, replacing previous: SignInBucket?) -> Bool {
            let key = SignInBucketKey(scope: scope, client: client)
            guard tables.signInBuckets[key]?.bucket == previous else { return false }
            tables.signInBuckets[key] = (bucket, fullAt)
            return true
        }

        func deleteSignInClientBuckets(scope: String, fullBy date: Date?) {
            tables.signInBuckets = tables.signInBuckets.filter { key, value in
                key.scope != scope || key.client == SignInAttemptLimit.serverWide || (date.map { value.fullAt > $0 } ?? false)
            }
        }

        func reminderChannels(participantID: String) -> [ReminderChannel] {
            tables.reminderChannels.values.filter { $0.participantID == participantID }
                .sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
        }
        func reminderChannel(id: UUID) -> ReminderChannel? { tables.reminderChannels[id] }
        func allReminderChannels() -> [ReminderChannel] {
            tables.reminderChannels.values.sorted { ($0.participantID, $0.createdAt, $0.id.uuidString) < ($1.participantID, $1.createdAt, $1.id.uuidString) }
        }
        func reminderPreferences(participantID: String) -> ReminderPreferences? { tables.reminderPreferences[participantID] }
        func allReminderPreferences() -> [String: ReminderPreferences] { tables.reminderPreferences }
        func reminderDelivery(key: String) -> ReminderDelivery? { tables.reminderDeliveries[key] }
        func reminderDeliveries(participantID: String) -> [ReminderDelivery] {
            tables.reminderDeliveries.values.filter { $0.participantID == participantID }.sorted { ($0.dueAt, $0.key) > ($1.dueAt, $1.key) }
        }
        func reminderDeliveries(dueSince date: Date) -> [ReminderDelivery] {
            tables.reminderDeliveries.values.filter { $0.dueAt >= date }.sorted { ($0.dueAt, $0.key) < ($1.dueAt, $1.key) }
        }

        func insert(_ channel: ReminderChannel) throws {
            guard tables.reminderChannels[channel.id] == nil else {
                throw StudyStorageRowError.keyTaken(table: "reminderChannel", key: channel.id.uuidString)
            }
            guard !hasWithdrawalRecord(participantID: channel.participantID) else { throw StudyRefusal.withdrawn }
            tables.reminderChannels[channel.id] = channel
        }
        func confirmReminderChannel(id: UUID, at date: Date) -> Bool {
            guard var channel = tables.reminderChannels[id], channel.confirmedAt == nil else { return false }
            channel.confirmedAt = date
            tables.reminderChannels[id] = channel
            return true
        }
        func deleteReminderChannel(id: UUID) -> Bool { tables.reminderChannels.removeValue(forKey: id) != nil }
        func setReminderPreferences(_ preferences: ReminderPreferences, participantID: String, at date: Date) {
            tables.reminderPreferences[participantID] = preferences
        }
        func put(_ delivery: ReminderDelivery) throws {
            if tables.reminderDeliveries[delivery.key] == nil, hasWithdrawalRecord(participantID: delivery.participantID) {
                throw StudyRefusal.withdrawn
            }
            tables.reminderDeliveries[delivery.key] = delivery
        }
        func deleteReminderData(participantID: String, deliveries: Bool) {
            tables.reminderChannels = tables.reminderChannels.filter { $0.value.participantID != participantID }
            tables.reminderPreferences[participantID] = nil
            if deliveries { tables.reminderDeliveries = tables.reminderDeliveries.filter { $0.value.participantID != participantID } }
        }

        func setConsentPDF(_ state: ConsentPDFState, recordID: UUID, at date: Date) {
            guard let index = tables.records.firstIndex(where: { $0.id == recordID }) else { return }
            tables.records[index].pdf = state
        }
    }
}

/// A row a storage cannot store as asked.
public enum StudyStorageRowError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A row with this key is stored already.
    case keyTaken(table: String, key: String)
    /// A conditional write found the row changed since the transaction read it.
    case changedMeanwhile(table: String, key: String)
    /// The row belongs to one that is not stored (a run's file without the run, or with another participant).
    case missingParent(table: String, key: String)

    /// What was refused, naming the table and key.
    public var description: String {
        switch self {
        case .keyTaken(let table, let key): "a \(table) row with the key \(key) is stored already"
        case .changedMeanwhile(let table, let key): "the \(table) row with the key \(key) changed while a write was counting on it"
        case .missingParent(let table, let key): "the \(table) row with the key \(key) belongs to no stored row"
        }
    }
}
