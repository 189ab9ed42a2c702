import CareStoreSQLite
import Consent
import Foundation
import StudyKitEnvironment
import GRDB
import Research
import Study

/// A study store in one SQLite file (GRDB, WAL, versioned migrations): the study store's rules over
/// ``SQLiteStudyStorage``, with the study team's accounts (``SQLiteResearcherAccounts``, over ``SQLiteResearcherStorage``) in the same file.
///
/// ```swift
/// let store = try SQLiteStudyStore(path: "data/study.sqlite", environment: .live)
/// let issued = try await store.createInvitation(label: nil, expiresAt: nil)
/// ```
public typealias SQLiteStudyStore = StorageBackedStudyStore<SQLiteStudyStorage>

extension StorageBackedStudyStore where Storage == SQLiteStudyStorage {
    /// What an acknowledged write survives.
    public typealias Durability = SQLiteStudyStorage.Durability

    /// A store in the SQLite file at `path`, created with its folder when missing, and migrated when older; its
    /// acknowledged writes survive what `durability` says (a power loss, by default). Refuses a file whose consent
    /// records' append-only triggers are missing or changed.
    public convenience init(path: String, environment: StudyKitEnvironment, durability: Durability = .powerLoss) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // DatabasePool opens the file in WAL mode.
        let storage = try SQLiteStudyStorage(database: DatabasePool(path: url.path, configuration: SQLiteStudyStorage.configuration()),
                                             environment: environment, durability: durability)
        self.init(storage: storage, environment: environment)
        let problems = try appendOnlyProblems()
        if !problems.isEmpty { throw SQLiteStudyStoreOpenError.appendOnlyTriggers(path: url.path, problems: problems) }
    }

    /// The store in the existing SQLite file at `path`, opened for reading only: nothing is created, migrated or
    /// written, so a command such as `studykit export` can read a data folder while the server runs. Throws
    /// ``SQLiteStudyStoreOpenError`` when the file is missing or its schema is not the one this version writes (older
    /// files are brought up to date by opening them with ``init(path:environment:durability:)``, as `studykit serve` does).
    public static func readOnly(path: String, environment: StudyKitEnvironment = .live) throws -> SQLiteStudyStore {
        guard FileManager.default.fileExists(atPath: path) else { throw SQLiteStudyStoreOpenError.missing(path: path) }
        let database = try DatabaseQueue(path: path, configuration: SQLiteStudyStorage.configuration(readOnly: true))
        let current = try database.read { db in try StudyStoreMigrations.migrator.hasCompletedMigrations(db) }
        guard current else { throw SQLiteStudyStoreOpenError.outdatedSchema(path: path) }
        return SQLiteStudyStore(storage: SQLiteStudyStorage(sharing: SQLiteConnections(database), environment: environment, audit: nil),
                                environment: environment)
    }

    /// An empty store in an in-memory database, for tests: the SQL of the file store without its file.
    public static func inMemory(environment: StudyKitEnvironment) throws -> SQLiteStudyStore {
        SQLiteStudyStore(storage: try SQLiteStudyStorage(database: DatabaseQueue(configuration: SQLiteStudyStorage.configuration()),
                                                         environment: environment, durability: .powerLoss),
                         environment: environment)
    }

    /// The GRDB connection: a `DatabasePool` for a file, a `DatabaseQueue` in memory. For maintenance such as backups
    /// and integrity checks; study data goes through the ``StudyStore`` methods.
    public var database: any DatabaseWriter { storage.connections.database }

    /// What is wrong with the triggers that keep consent records append-only (``StudyStoreMigrations/consentRecordTriggers``):
    /// each one missing or not as created. Empty when all are in place. Opening a file for writing refuses one with
    /// problems; `studykit export` reports them.
    public func appendOnlyProblems() throws -> [String] {
        let found = try database.unsafeRead { db in
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
}

/// A study's rows in SQLite through GRDB: participants, invitations, sessions, sign-in codes, task runs and consent
/// records, in the tables of ``StudyStoreMigrations``, and the study team's accounts beside them.
///
/// Every write is one transaction on the file's writer (``SQLiteConnections``), durable when it returns: a killed process
/// keeps every acknowledged write and never leaves half of one; with ``Durability/powerLoss`` (the default) so does a
/// power loss. Reads run on a read-only connection of their own, on the calling thread: in WAL mode a reader never waits
/// for the writer, and reading a few indexed rows costs less than the thread switches of an asynchronous read.
public final class SQLiteStudyStorage: StudyStorage, ResearcherAccountsKeeping {
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

    /// The file's connections: its writer, lent to one transaction at a time, and its readers.
    public let connections: SQLiteConnections
    /// Who is writing, for the joint file's audit trail; nil for a file of its own (which keeps none).
    let audit: SQLiteAuditTrail.WriteContext?
    /// Restoration data as last decoded or saved, by run: a post reads what the previous one saved.
    let restorations = RestorationDataCache()
    /// The study team's accounts in the same file.
    public let researcherAccounts: SQLiteResearcherAccounts

    /// Storage over a database that ``SQLiteStudyDatabase`` opened, migrated and configured (holding the care store's
    /// tables too), or a file opened for reading: nothing is created, migrated or checked here.
    init(sharing connections: SQLiteConnections, environment: StudyKitEnvironment, audit: SQLiteAuditTrail.WriteContext?) {
        self.connections = connections
        self.audit = audit
        researcherAccounts = SQLiteResearcherAccounts(storage: SQLiteResearcherStorage(connections: connections, audit: audit), environment: environment)
    }

    /// Storage in `database`, migrated here, whose writes survive what `durability` says.
    convenience init(database: any DatabaseWriter, environment: StudyKitEnvironment, durability: Durability) throws {
        // Durability: with synchronous = FULL a WAL commit is synced before the write returns, so an acknowledged write
        // survives a killed process and a power loss. With NORMAL (GRDB's pool default) the commit is written to the WAL,
        // which is synced only at checkpoints: it survives a killed process, and a power loss can drop the last ones.
        // Set on the writer connection after GRDB's own set-up, which would otherwise override it.
        try database.writeWithoutTransaction { db in
            try db.execute(sql: durability == .powerLoss ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
        }
        try StudyStoreMigrations.migrator.migrate(database)
        self.init(sharing: SQLiteConnections(database), environment: environment, audit: nil)
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
        return SQLiteConnections.configure(configuration)
    }

    /// Runs `body` in a read transaction (``SQLiteConnections/read(_:)``).
    public func read<T: Sendable>(_ body: @escaping @Sendable (any StudyStorageReader) async throws -> T) async throws -> T {
        try await connections.read { connection in try await body(SQLiteStudyRows(connection, restorations: restorations)) }
    }

    /// Runs `body` in a write transaction on the writer, with the writing task's ``AuditTrail/source`` as who writes; a
    /// row the file refuses because its participant has withdrawn is refused as the workflow's ``StudyRefusal/withdrawn``.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StudyStorageWriter) async throws -> T) async throws -> T {
        let audit = audit, source = AuditTrail.source, restorations = restorations
        return try await SQLiteWithdrawalGuard.refusingWithdrawn {
            try await connections.transaction { connection in
                try await SQLiteAuditTrail.run(audit, as: source, on: connection) {
                    try await body(SQLiteStudyRows(connection, restorations: restorations))
                }
            }
        }
    }

    /// The storage's rows inside a transaction the caller holds on the joint file (``SQLiteStudyDatabase/commit(_:)``).
    func writer(in connection: SQLiteLentConnection) -> any StudyStorageWriter {
        SQLiteStudyRows(connection, restorations: restorations)
    }
}

// MARK: - Rows

func seconds(_ date: Date) -> Double { date.timeIntervalSinceReferenceDate }
func date(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: seconds) }

/// Reading rows back into values.
enum Rows {
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
