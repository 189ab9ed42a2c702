import CareStoreSQLite
import Consent
import Foundation
import StudyKitEnvironment
import GRDB
import Research
import Study
import Synchronization

/// A study store in one SQLite file (GRDB, WAL, versioned migrations): participants, invitations, sessions,
/// sign-in codes, task runs and consent records.
///
/// ```swift
/// let store = try SQLiteStudyStore(path: "data/study.sqlite", environment: .live)
/// let issued = try await store.createInvitation(label: nil, expiresAt: nil)
/// ```
///
/// Every write is one transaction, durable when it returns: a killed process keeps every acknowledged write and never
/// leaves half of one; with ``Durability/powerLoss`` (the default) so does a power loss. Reads run on the calling
/// thread: in WAL mode a reader never waits for the writer, and reading a few indexed rows costs less than the
/// thread switches of an asynchronous read. The schema is ``StudyStoreMigrations``.
public final class SQLiteStudyStore: StudyStore {
    /// What an acknowledged write survives.
    public enum Durability: Sendable, Hashable {
        /// A power loss or an operating-system crash: each commit is synced to the disk before the write returns
        /// (`synchronous = FULL`), so every write waits for the disk.
        case powerLoss
        /// The process being killed (a crash, `kill -9`): a commit is in the operating system's hands when the write
        /// returns, and the WAL is synced at checkpoints (`synchronous = NORMAL`, SQLite's recommendation for WAL). A
        /// power loss or an OS crash may lose the last commits before a checkpoint, never half of one, and never
        /// corrupts the file.
        case processCrash
    }

    /// The database's writer, lent to one transaction at a time; shared with the care store in the joint file.
    public let writer: SQLiteWriter
    /// The GRDB connection: a `DatabasePool` for a file, a `DatabaseQueue` in memory. For maintenance such as backups
    /// and integrity checks; study data goes through the ``StudyStore`` methods.
    public var database: any DatabaseWriter { writer.database }
    let environment: StudyKitEnvironment
    private let commits = Atomic<UInt64>(0)
    private let participantCommits = Mutex<[String: UInt64]>([:])
    /// Restoration data as last decoded or saved, by run: a post reads what the previous one saved.
    private let restorations = RestorationDataCache()

    /// A store in the SQLite file at `path`, created with its folder when missing, and migrated when older; its
    /// acknowledged writes survive what `durability` says (a power loss, by default).
    public convenience init(path: String, environment: StudyKitEnvironment, durability: Durability = .powerLoss) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // DatabasePool opens the file in WAL mode.
        try self.init(database: DatabasePool(path: url.path, configuration: Self.configuration()), environment: environment,
                      durability: durability)
        let problems = try appendOnlyProblems()
        if !problems.isEmpty { throw SQLiteStudyStoreOpenError.appendOnlyTriggers(path: url.path, problems: problems) }
    }

    /// What is wrong with the triggers that keep consent records append-only (``StudyStoreMigrations/consentRecordTriggers``):
    /// each one missing or not as created. Empty when all are in place. Opening a file for writing refuses one with
    /// problems; `studykit export` reports them.
    public func appendOnlyProblems() throws -> [String] {
        let found = try readNow { db in
            try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'consentRecord'")
        }
        let existing = Dictionary(found.map { (row: Row) -> (String, String) in (row["name"], row["sql"] ?? "") },
                                  uniquingKeysWith: { first, _ in first })
        func squeezed(_ sql: String) -> String { sql.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        return StudyStoreMigrations.consentRecordTriggers.keys.sorted().compactMap { name in
            guard let sql = existing[name] else { return "the trigger \(name) is missing" }
            return squeezed(sql) == squeezed(StudyStoreMigrations.consentRecordTriggers[name]!) ? nil : "the trigger \(name) was changed"
        }
    }

    /// The store in the existing SQLite file at `path`, opened for reading only: nothing is created, migrated or
    /// written, so a command such as `studykit export` can read a data folder while the server runs. Throws
    /// ``SQLiteStudyStoreOpenError`` when the file is missing or its schema is not the one this version writes (older
    /// files are brought up to date by opening them with ``init(path:environment:)``, as `studykit serve` does).
    public static func readOnly(path: String, environment: StudyKitEnvironment = .live) throws -> SQLiteStudyStore {
        guard FileManager.default.fileExists(atPath: path) else { throw SQLiteStudyStoreOpenError.missing(path: path) }
        let database = try DatabaseQueue(path: path, configuration: configuration(readOnly: true))
        let current = try database.read { db in try StudyStoreMigrations.migrator.hasCompletedMigrations(db) }
        guard current else { throw SQLiteStudyStoreOpenError.outdatedSchema(path: path) }
        return SQLiteStudyStore(readingFrom: database, environment: environment)
    }

    private init(readingFrom database: DatabaseQueue, environment: StudyKitEnvironment) {
        writer = SQLiteWriter(database)
        self.environment = environment
        audit = nil
    }

    /// The store over a database that ``SQLiteStudyDatabase`` opened, migrated and configured, holding the care
    /// store's tables too: nothing is created, migrated or checked here.
    init(sharing writer: SQLiteWriter, environment: StudyKitEnvironment, audit: SQLiteAuditTrail.WriteContext?) {
        self.writer = writer
        self.environment = environment
        self.audit = audit
    }

    /// Who is writing, for the joint file's audit trail; nil for a file of its own (which keeps none).
    private let audit: SQLiteAuditTrail.WriteContext?

    /// Counts a write committed by ``SQLiteStudyDatabase`` for this store's rows in ``revision``, and remembers the
    /// restoration data of the runs it saved, as the store's own writes do.
    func didCommit(savedRuns: [Rows.EncodedRun], participant: String) {
        commits.add(1, ordering: .releasing)
        countChange(of: participant)
        for run in savedRuns { restorations.remember(run) }
    }

    /// The store's clock, for the rows a joined write stores.
    var now: Date { environment.now() }
    /// The store's UUID source, for a participant a joined write enrols.
    func makeUUID() -> UUID { environment.makeUUID() }

    /// An empty store in an in-memory database, for tests: the SQL of the file store without its file.
    public static func inMemory(environment: StudyKitEnvironment) throws -> SQLiteStudyStore {
        try SQLiteStudyStore(database: DatabaseQueue(configuration: configuration()), environment: environment, durability: .powerLoss)
    }

    private init(database: any DatabaseWriter, environment: StudyKitEnvironment, durability: Durability) throws {
        // Durability: with synchronous = FULL a WAL commit is synced before the write returns, so an acknowledged write
        // survives a killed process and a power loss. With NORMAL (GRDB's pool default) the commit is written to the WAL,
        // which is synced only at checkpoints: it survives a killed process, and a power loss can drop the last ones.
        // Set on the writer connection after GRDB's own set-up, which would otherwise override it.
        try database.writeWithoutTransaction { db in
            try db.execute(sql: durability == .powerLoss ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
        }
        try StudyStoreMigrations.migrator.migrate(database)
        writer = SQLiteWriter(database)
        self.environment = environment
        audit = nil
    }

    /// The connection settings of the study store's files, and of the joint file (``SQLiteStudyDatabase``), whose
    /// connections get the audit trail's functions (`audit`).
    static func configuration(readOnly: Bool = false, audit: SQLiteAuditTrail.WriteContext? = nil) -> Configuration {
        var configuration = Configuration()
        if let audit {
            configuration.prepareDatabase { db in SQLiteAuditTrail.registerFunctions(in: db, context: audit) }
        }
        configuration.foreignKeysEnabled = true
        configuration.readonly = readOnly
        // A command-line tool writing while the server runs waits for the lock instead of failing at once.
        configuration.busyMode = .timeout(10)
        return SQLiteWriter.configure(configuration)
    }

    /// Runs `body`, which must run exactly one SELECT, on one of the pool's readers, on the calling thread.
    ///
    /// GRDB's async `read` hops to the pool's waiting queue and back, then to the reader's queue and back: four
    /// thread switches around a query of microseconds, and on the server a page spent more time in them than in
    /// SQLite. The synchronous read runs where the caller is: in WAL mode a reader never waits for the writer, and
    /// every read here is a few indexed rows, so it holds the thread no longer than the switches did. Writes stay
    /// asynchronous: they wait for the writer and, with ``Durability/powerLoss``, for the disk.
    ///
    /// Every read of this store is one statement, which SQLite runs in its own read transaction, on one snapshot of
    /// the file. So it is not wrapped in `BEGIN` and `COMMIT` (GRDB's `unsafeRead`: unsafe only for a body of several
    /// statements, which could see different snapshots); those two statements cost a quarter of a read.
    ///
    /// A database of one connection (in memory, or a file opened for reading only) reads in turn with the writes, whose
    /// transactions may stay open across an `await` (``SQLiteWriter``).
    func read<T>(_ body: (Database) throws -> T) async throws -> T {
        guard database is DatabaseQueue else { return try database.unsafeRead(body) }
        return try await writer.readTransaction { connection in try connection.run(body) }
    }

    /// ``read(_:)`` at once, for a check made while nothing else uses the store (opening it).
    func readNow<T>(_ body: (Database) throws -> T) throws -> T {
        try database.unsafeRead(body)
    }

    /// Runs `body` in a write transaction and counts the commit in ``revision`` (and in ``revision(of:)`` of
    /// `participant`, whose pages show what it writes) before returning.
    func write<T: Sendable>(participant: String? = nil, _ body: @Sendable (Database) throws -> T) async throws -> T {
        let audit = audit, source = AuditTrail.source
        let value = try await SQLiteWithdrawalGuard.refusingWithdrawn {
            try await writer.write { db in try SQLiteAuditTrail.run(audit, as: source, in: db) { try body(db) } }
        }
        commits.add(1, ordering: .releasing)
        if let participant { countChange(of: participant) }
        return value
    }

    /// How many write transactions this store has committed.
    public var revision: UInt64 { commits.load(ordering: .acquiring) }

    /// How many committed writes changed what `participantID`'s pages show, in this process.
    public func revision(of participantID: String) -> UInt64 { participantCommits.withLock { $0[participantID] ?? 0 } }

    /// Counts a committed change of `participantID`'s data (a joined write counts through ``didCommit(savedRuns:participant:)``).
    func countChange(of participantID: String) { participantCommits.withLock { $0[participantID, default: 0] += 1 } }

    // MARK: - Invitations

    /// Makes an invitation with a fresh code.
    public func createInvitation(label: String?, expiresAt: Date?) async throws -> IssuedInvitation {
        let code = StudySecrets.invitationCode(environment.randomBytes)
        let invitation = Invitation(id: environment.makeUUID(), codeSHA256: StudySecrets.codeHash(code), label: label,
                                    createdAt: environment.now(), expiresAt: expiresAt)
        try await write { db in
            try db.execute(sql: "INSERT INTO invitation (id, codeSHA256, label, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?)",
                           arguments: [invitation.id, invitation.codeSHA256, invitation.label, seconds(invitation.createdAt),
                                       invitation.expiresAt.map(seconds)])
        }
        return IssuedInvitation(invitation: invitation, code: code)
    }

    /// Every invitation, oldest first.
    public func invitations() async throws -> [Invitation] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM invitation ORDER BY createdAt, id").map(Rows.invitation)
        }
    }

    /// The invitation with this code.
    public func invitation(code: String) async throws -> Invitation? {
        let hash = StudySecrets.codeHash(code)
        return try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM invitation WHERE codeSHA256 = ?", arguments: [hash]).map(Rows.invitation)
        }
    }

    /// Revokes an unused invitation.
    public func revokeInvitation(id: UUID) async throws -> Invitation {
        let now = seconds(environment.now())
        return try await write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM invitation WHERE id = ?", arguments: [id]) else {
                throw StudyStoreError.unknownInvitationID(id)
            }
            if let usedAt = try Rows.invitation(row).usedAt { throw StudyStoreError.invitationUsed(usedAt: usedAt) }
            try db.execute(sql: "UPDATE invitation SET revokedAt = coalesce(revokedAt, ?) WHERE id = ? AND usedAt IS NULL", arguments: [now, id])
            return try Rows.invitation(try Row.fetchOne(db, sql: "SELECT * FROM invitation WHERE id = ?", arguments: [id])!)
        }
    }

    // MARK: - Participants

    /// Enrols a new participant, using up the invitation in the same transaction.
    public func enrol(invitationCode: String?, timeZone: TimeZone, language: String) async throws -> StudyParticipant {
        let now = environment.now()
        let id = environment.makeUUID().uuidString.lowercased()
        let hash = invitationCode.map(StudySecrets.codeHash)
        return try await write(participant: id) { db in
            try Rows.enrol(id: id, invitationHash: hash, timeZone: timeZone, language: language, now: now, db)
        }
    }

    /// The participant with this id.
    public func participant(id: String) async throws -> StudyParticipant? {
        try await read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM participant WHERE id = ?"), arguments: [id]).map(Rows.participant)
        }
    }

    /// Every participant, by enrolment time.
    public func participants() async throws -> [StudyParticipant] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM participant ORDER BY enrolledAt, id").map(Rows.participant)
        }
    }

    /// Changes the participant's language.
    public func setLanguage(_ language: String, participantID: String) async throws -> StudyParticipant {
        try await write(participant: participantID) { db in
            try db.execute(sql: "UPDATE participant SET language = ? WHERE id = ?", arguments: [language, participantID])
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM participant WHERE id = ?", arguments: [participantID]) else {
                throw StudyStoreError.unknownParticipant(participantID)
            }
            return try Rows.participant(row)
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
        try await write { db in
            try Rows.requireParticipant(participantID, db)
            try db.execute(sql: """
                INSERT INTO session (id, tokenSHA256, participantID, createdAt, lastSeenAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [session.id, StudySecrets.tokenHash(token), participantID, seconds(now), seconds(now), seconds(session.expiresAt)])
        }
        return IssuedSession(session: session, token: token)
    }

    /// The valid session of this token, with its last-seen time set to now when it was older than
    /// ``ParticipantSession/lastSeenResolution``: most page views read and do not write.
    public func session(token: String) async throws -> ParticipantSession? {
        let hash = StudySecrets.tokenHash(token)
        let now = environment.now()
        let found = try await read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM session WHERE tokenSHA256 = ?"), arguments: [hash]).map(Rows.session)
        }
        guard var session = found, session.isValid(at: now) else { return nil }
        guard now.timeIntervalSince(session.lastSeenAt) >= ParticipantSession.lastSeenResolution else { return session }
        let id = session.id
        // Revoked or expired in the meantime: the update matches nothing, and the session is not returned.
        let updated = try await write { db in
            try db.execute(sql: "UPDATE session SET lastSeenAt = ? WHERE id = ? AND revokedAt IS NULL AND expiresAt > ?",
                           arguments: [seconds(now), id, seconds(now)])
            return db.changesCount == 1
        }
        guard updated else { return nil }
        session.lastSeenAt = now
        return session
    }

    /// The participant's sessions, newest first.
    public func sessions(participantID: String) async throws -> [ParticipantSession] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM session WHERE participantID = ? ORDER BY createdAt DESC, id DESC",
                             arguments: [participantID]).map(Rows.session)
        }
    }

    /// Revokes one of the participant's sessions.
    @discardableResult
    public func revokeSession(id: UUID, participantID: String) async throws -> Bool {
        let now = environment.now()
        return try await write { db in
            try db.execute(sql: "UPDATE session SET revokedAt = coalesce(revokedAt, ?) WHERE id = ? AND participantID = ?",
                           arguments: [seconds(now), id, participantID])
            return db.changesCount == 1
        }
    }

    /// A one-time code for another device.
    public func createSignInCode(participantID: String, lifetime: TimeInterval) async throws -> IssuedSignInCode {
        guard lifetime > 0 else { throw StudyStoreError.invalidLifetime(lifetime) }
        let now = environment.now()
        let expiresAt = now.addingTimeInterval(lifetime)
        let randomBytes = environment.randomBytes
        return try await write { db in
            try Rows.requireParticipant(participantID, db)
            // Used and expired codes are of no further use; dropping them keeps the table small and frees their digests.
            // A new code replaces the participant's earlier ones, so that each has at most one code to guess at.
            try db.execute(sql: "DELETE FROM signInCode WHERE usedAt IS NOT NULL OR expiresAt <= ? OR participantID = ?",
                           arguments: [seconds(now), participantID])
            var code = StudySecrets.signInCode(randomBytes)
            // 40 bits: a clash with a live code is improbable, but never hand out a code that signs in someone else.
            while try Bool.fetchOne(db, sql: "SELECT 1 FROM signInCode WHERE codeSHA256 = ?", arguments: [StudySecrets.codeHash(code)]) == true {
                code = StudySecrets.signInCode(randomBytes)
            }
            try db.execute(sql: "INSERT INTO signInCode (codeSHA256, participantID, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
                           arguments: [StudySecrets.codeHash(code), participantID, seconds(now), seconds(expiresAt)])
            return IssuedSignInCode(participantID: participantID, code: code, expiresAt: expiresAt)
        }
    }

    /// Uses up a sign-in code.
    public func redeemSignInCode(_ code: String) async throws -> String? {
        let hash = StudySecrets.codeHash(code)
        let now = seconds(environment.now())
        let liveCode = "SELECT participantID FROM signInCode WHERE codeSHA256 = ? AND usedAt IS NULL AND expiresAt > ?"
        // A wrong code (nearly every guess) is a read: only a live code costs a write, which looks again.
        guard try await read({ db in try String.fetchOne(db.cachedStatement(sql: liveCode), arguments: [hash, now]) }) != nil else { return nil }
        return try await write { db in
            guard let participantID = try String.fetchOne(db, sql: liveCode, arguments: [hash, now]) else { return nil }
            try db.execute(sql: "UPDATE signInCode SET usedAt = ? WHERE codeSHA256 = ?", arguments: [now, hash])
            return participantID
        }
    }

    // MARK: - Task runs

    /// Writes a run atomically, creating or replacing it.
    @discardableResult
    public func saveRun(_ run: TaskRun) async throws -> TaskRun {
        // Encoded before the write, so that the writer, which serializes every write, spends no time on JSON.
        let encoded = try Rows.EncodedRun(run)
        let now = environment.now()
        let saved = try await write(participant: run.participantID) { db in try Rows.save(encoded, now: now, db) }
        restorations.remember(encoded)
        return saved
    }

    /// Reads the run and saves what `change` makes of it in one write transaction.
    public func updateRun<Value: Sendable>(id: UUID, participantID: String,
                                           _ change: @Sendable (TaskRun) throws -> (save: TaskRun?, value: Value)) async throws
        -> (saved: TaskRun?, value: Value)? {
        let now = environment.now()
        return try await write(participant: participantID) { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM taskRun WHERE id = ? AND participantID = ?"),
                                             arguments: [id, participantID]) else { return nil }
            let stored = try Rows.taskRun(row, restorations: restorations)
            let (changed, value) = try change(stored)
            guard let changed else { return (nil, value) }
            guard changed.id == id else {
                throw StudyStoreError.invalidRun(run: changed.id, reason: "an update of run \(id.uuidString) saves another run")
            }
            let encoded = try Rows.EncodedRun(changed)
            let saved = try Rows.save(encoded, replacing: Rows.taskRunSummary(row), now: now, db)
            restorations.remember(encoded)
            return (saved, value)
        }
    }

    /// The participant's run with this id.
    public func run(id: UUID, participantID: String) async throws -> TaskRun? {
        try await read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM taskRun WHERE id = ? AND participantID = ?"),
                             arguments: [id, participantID]).map { try Rows.taskRun($0, restorations: restorations) }
        }
    }

    /// The participant's runs, most recently saved first.
    public func runs(participantID: String, taskID: String?) async throws -> [TaskRun] {
        try await read { db in
            let rows = if let taskID {
                try Row.fetchAll(db, sql: "SELECT * FROM taskRun WHERE participantID = ? AND taskID = ? ORDER BY updatedAt DESC, id DESC",
                                 arguments: [participantID, taskID])
            } else {
                try Row.fetchAll(db, sql: "SELECT * FROM taskRun WHERE participantID = ? ORDER BY updatedAt DESC, id DESC", arguments: [participantID])
            }
            return try rows.map { try Rows.taskRun($0, restorations: restorations) }
        }
    }

    /// The participant's runs in progress, most recently saved first, read by their `state` column.
    public func openRuns(participantID: String) async throws -> [TaskRun] {
        try await read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM taskRun WHERE participantID = ? AND state = ? ORDER BY updatedAt DESC, id DESC"),
                             arguments: [participantID, TaskRunState.inProgress.rawValue]).map { try Rows.taskRun($0, restorations: restorations) }
        }
    }

    /// The participant's runs in progress without their restoration data, which is neither read nor decoded.
    public func openRunSummaries(participantID: String) async throws -> [TaskRunSummary] {
        try await read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(Rows.summaryColumns) FROM taskRun WHERE participantID = ? AND state = ? ORDER BY updatedAt DESC, id DESC
                """), arguments: [participantID, TaskRunState.inProgress.rawValue]).map(Rows.taskRunSummary)
        }
    }

    /// All the participant's runs as summaries, most recently saved first, without their data.
    public func runSummaries(participantID: String) async throws -> [TaskRunSummary] {
        try await read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(Rows.summaryColumns) FROM taskRun WHERE participantID = ? ORDER BY updatedAt DESC, id DESC
                """), arguments: [participantID]).map(Rows.taskRunSummary)
        }
    }

    // MARK: - Consent records

    /// Appends a sealed record with its PDF pending.
    @discardableResult
    public func appendConsentRecord(_ sealed: SealedConsentRecord) async throws -> StoredConsentRecord {
        let json = try sealed.jsonData()
        let now = environment.now()
        return try await write(participant: sealed.record.participantIdentifier) { db in
            try Rows.appendConsentRecord(sealed, json: json, now: now, db)
        }
    }

    private static let recordSelect = """
        SELECT r.sealedJSON, r.storedAt, p.state, p.pdf, p.path, p.failure
        FROM consentRecord r LEFT JOIN consentPDF p ON p.recordID = r.id
        """

    /// The participant's records, oldest first.
    public func consentRecordCount(participantID: String) async throws -> Int {
        try await read { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM consentRecord WHERE participantID = ?"), arguments: [participantID]) ?? 0
        }
    }

    public func consentRecords(participantID: String) async throws -> [StoredConsentRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: "\(Self.recordSelect) WHERE r.participantID = ? ORDER BY r.storedAt, r.rowid",
                             arguments: [participantID]).map(Rows.consentRecord)
        }
    }

    /// The participant's record with this id.
    public func consentRecord(id: UUID, participantID: String) async throws -> StoredConsentRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "\(Self.recordSelect) WHERE r.id = ? AND r.participantID = ?",
                             arguments: [id, participantID]).map(Rows.consentRecord)
        }
    }

    /// Sets the state of a record's PDF.
    public func setConsentPDF(_ state: ConsentPDFState, recordID: UUID, participantID: String) async throws {
        if case .file(let path) = state, !ConsentPDFState.isSafeRelativePath(path) { throw StudyStoreError.unsafePDFPath(path) }
        let now = seconds(environment.now())
        try await write(participant: participantID) { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM consentRecord WHERE id = ? AND participantID = ?",
                                    arguments: [recordID, participantID]) == true else {
                throw StudyStoreError.unknownConsentRecord(recordID)
            }
            var pdf: Data?, path: String?, failure: String?
            switch state {
            case .pending: break
            case .stored(let bytes): pdf = bytes
            case .file(let relativePath): path = relativePath
            case .failed(let reason): failure = reason
            }
            // An upsert, not INSERT OR REPLACE (a delete without delete triggers and an insert): the audit trail shows an update.
            try db.execute(sql: """
                INSERT INTO consentPDF (recordID, state, pdf, path, failure, updatedAt) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (recordID) DO UPDATE SET state = excluded.state, pdf = excluded.pdf, path = excluded.path, failure = excluded.failure,
                    updatedAt = excluded.updatedAt
                """, arguments: [recordID, state.name, pdf, path, failure, now])
        }
    }

    /// Records whose PDF is pending or failed, oldest first.
    public func consentRecordsAwaitingPDF() async throws -> [StoredConsentRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: "\(Self.recordSelect) WHERE p.state IS NULL OR p.state <> 'ready' ORDER BY r.storedAt, r.rowid")
                .map(Rows.consentRecord)
        }
    }
}

// MARK: - Rows

func seconds(_ date: Date) -> Double { date.timeIntervalSinceReferenceDate }
func date(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: seconds) }

/// Reading rows back into values, and the checks writes share.
enum Rows {
    static func requireParticipant(_ id: String, _ db: Database) throws {
        guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM participant WHERE id = ?"), arguments: [id]) == true else {
            throw StudyStoreError.unknownParticipant(id)
        }
    }

    static func invitation(_ row: Row) throws -> Invitation {
        Invitation(id: row["id"], codeSHA256: row["codeSHA256"], label: row["label"], createdAt: date(row["createdAt"]),
                   expiresAt: (row["expiresAt"] as Double?).map(date), usedAt: (row["usedAt"] as Double?).map(date), usedBy: row["usedBy"],
                   revokedAt: (row["revokedAt"] as Double?).map(date))
    }

    static func participant(_ row: Row) throws -> StudyParticipant {
        let zoneName: String = row["timeZone"]
        guard let timeZone = TimeZone(identifier: zoneName) else {
            throw SQLiteStudyStoreError(table: "participant", column: "timeZone", value: zoneName)
        }
        return StudyParticipant(id: row["id"], patientID: row["patientID"], timeZone: timeZone, language: row["language"],
                                enrolledAt: date(row["enrolledAt"]), invitationID: row["invitationID"])
    }

    static func session(_ row: Row) throws -> ParticipantSession {
        ParticipantSession(id: row["id"], participantID: row["participantID"], createdAt: date(row["createdAt"]),
                           lastSeenAt: date(row["lastSeenAt"]), expiresAt: date(row["expiresAt"]), revokedAt: (row["revokedAt"] as Double?).map(date))
    }

    /// The run of `row`; its restoration data from `restorations` when the row holds the JSON last seen there.
    static func taskRun(_ row: Row, restorations: RestorationDataCache) throws -> TaskRun {
        let decoder = ResearchJSON.decoder()
        let stateName: String = row["state"]
        guard let state = TaskRunState(rawValue: stateName) else {
            throw SQLiteStudyStoreError(table: "taskRun", column: "state", value: stateName)
        }
        let id: UUID = row["id"]
        // A run whose JSON was damaged in the file names itself, the column and the place in the JSON.
        func readable<Value>(_ column: String, _ read: (Data) throws -> Value) throws -> Value? {
            guard let json = row[column] as Data? else { return nil }
            do {
                return try read(json)
            } catch let error as DecodingError {
                throw SQLiteStudyStoreError(table: "taskRun", column: column, value: "run \(id.uuidString.lowercased())",
                                            reason: TaskValidator.problem(from: error, in: json).description)
            }
        }
        var run = TaskRun(id: id, participantID: row["participantID"], taskID: row["taskID"], occurrence: row["occurrence"], state: state,
                          restorationData: try readable("restorationData") { try restorations.restorationData(of: id, json: $0, decoder: decoder) },
                          result: try readable("result") { try decoder.decode(TaskResult.self, from: $0) })
        run.createdAt = date(row["createdAt"])
        run.updatedAt = date(row["updatedAt"])
        return run
    }

    /// A run with its restoration data and result as JSON, ready to store.
    struct EncodedRun {
        let run: TaskRun
        let restoration: Data?
        let result: Data?

        init(_ run: TaskRun) throws {
            let encoder = ResearchJSON.encoder(pretty: false)
            self.run = run
            restoration = try run.restorationData.map { try encoder.encode($0) }
            result = try run.result.map { try encoder.encode($0) }
        }
    }

    /// Checks `encoded` against the stored run with its id, if any, and writes it; returns the run as stored.
    static func save(_ encoded: EncodedRun, now: Date, _ db: Database) throws -> TaskRun {
        // The check needs the stored run's participant, task and state, not its data: nothing is decoded.
        let existing = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(summaryColumns) FROM taskRun WHERE id = ?"),
                                        arguments: [encoded.run.id]).map(taskRunSummary)
        return try save(encoded, replacing: existing, now: now, db)
    }

    /// Checks `encoded` against the stored run it replaces (its summary, nil for a new run) and writes it (an update of
    /// the stored row, which the audit trail shows as one); returns the run as stored, with its dates.
    static func save(_ encoded: EncodedRun, replacing existing: TaskRunSummary?, now: Date, _ db: Database) throws -> TaskRun {
        let run = encoded.run
        try run.checkSave(replacing: existing.map {
            TaskRun(id: $0.id, participantID: $0.participantID, taskID: $0.taskID, occurrence: $0.occurrence, state: $0.state)
        })
        try requireParticipant(run.participantID, db)
        var stored = run
        stored.createdAt = existing?.createdAt ?? now
        stored.updatedAt = now
        try db.cachedStatement(sql: """
            INSERT INTO taskRun (id, participantID, taskID, occurrence, state, restorationData, result, createdAt, updatedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET participantID = excluded.participantID, taskID = excluded.taskID, occurrence = excluded.occurrence,
                state = excluded.state, restorationData = excluded.restorationData, result = excluded.result, createdAt = excluded.createdAt,
                updatedAt = excluded.updatedAt
            """).execute(arguments: [run.id, run.participantID, run.taskID, run.occurrence, run.state.rawValue, encoded.restoration,
                                     encoded.result, seconds(stored.createdAt!), seconds(now)])
        return stored
    }

    /// Inserts participant `id`, using up the invitation whose code has SHA-256 `invitationHash` (nil: open enrolment):
    /// refused when it is unknown, used or expired.
    static func enrol(id: String, invitationHash: String?, timeZone: TimeZone, language: String, now: Date, _ db: Database) throws -> StudyParticipant {
        var invitationID: UUID?
        if let invitationHash {
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM invitation WHERE codeSHA256 = ?", arguments: [invitationHash]) else {
                throw StudyStoreError.unknownInvitation
            }
            let found = try invitation(row)
            if let usedAt = found.usedAt { throw StudyStoreError.invitationUsed(usedAt: usedAt) }
            if let revokedAt = found.revokedAt { throw StudyStoreError.invitationRevoked(revokedAt: revokedAt) }
            if let expiresAt = found.expiresAt, now >= expiresAt { throw StudyStoreError.invitationExpired(expiresAt: expiresAt) }
            // The write lock serializes enrolments, and `usedAt IS NULL` makes the claim explicit.
            try db.execute(sql: "UPDATE invitation SET usedAt = ?, usedBy = ? WHERE id = ? AND usedAt IS NULL",
                           arguments: [seconds(now), id, found.id])
            guard db.changesCount == 1 else { throw StudyStoreError.invitationUsed(usedAt: now) }
            invitationID = found.id
        }
        let participant = StudyParticipant(id: id, patientID: StudyCareIdentifiers.patientID(participant: id), timeZone: timeZone,
                                           language: language, enrolledAt: now, invitationID: invitationID)
        try db.execute(sql: """
            INSERT INTO participant (id, patientID, timeZone, language, enrolledAt, invitationID) VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [participant.id, participant.patientID, timeZone.identifier, language, seconds(now), invitationID])
        return participant
    }

    /// Appends a sealed consent record with its PDF pending; refuses a record of an unknown participant or one whose
    /// id is stored already.
    static func appendConsentRecord(_ sealed: SealedConsentRecord, json: Data, now: Date, _ db: Database) throws -> StoredConsentRecord {
        let record = sealed.record
        try requireParticipant(record.participantIdentifier, db)
        if try Bool.fetchOne(db, sql: "SELECT 1 FROM consentRecord WHERE id = ?", arguments: [record.id]) == true {
            throw StudyStoreError.consentRecordExists(record.id)
        }
        try db.execute(sql: "INSERT INTO consentRecord (id, participantID, kind, sealedJSON, storedAt) VALUES (?, ?, ?, ?, ?)",
                       arguments: [record.id, record.participantIdentifier, record.kind.rawValue, json, seconds(now)])
        try db.execute(sql: "INSERT INTO consentPDF (recordID, state, updatedAt) VALUES (?, 'pending', ?)", arguments: [record.id, seconds(now)])
        return StoredConsentRecord(sealed: sealed, sealedJSON: json, storedAt: now, pdf: .pending)
    }

    /// The columns of a ``TaskRunSummary``: a run without its restoration data and result.
    static let summaryColumns = "id, participantID, taskID, occurrence, state, createdAt, updatedAt"

    static func taskRunSummary(_ row: Row) throws -> TaskRunSummary {
        let stateName: String = row["state"]
        guard let state = TaskRunState(rawValue: stateName) else {
            throw SQLiteStudyStoreError(table: "taskRun", column: "state", value: stateName)
        }
        return TaskRunSummary(id: row["id"], participantID: row["participantID"], taskID: row["taskID"], occurrence: row["occurrence"],
                              state: state, createdAt: date(row["createdAt"]), updatedAt: date(row["updatedAt"]))
    }

    static func consentRecord(_ row: Row) throws -> StoredConsentRecord {
        let json: Data = row["sealedJSON"]
        let pdf: ConsentPDFState
        switch row["state"] as String? {
        case nil, "pending": pdf = .pending
        case "failed": pdf = .failed(reason: row["failure"] ?? "")
        case "ready":
            if let path: String = row["path"] { pdf = .file(relativePath: path) } else { pdf = .stored(row["pdf"] ?? Data()) }
        case let other?: throw SQLiteStudyStoreError(table: "consentPDF", column: "state", value: other)
        }
        return StoredConsentRecord(sealed: try SealedConsentRecord(jsonData: json), sealedJSON: json, storedAt: date(row["storedAt"]), pdf: pdf)
    }
}
