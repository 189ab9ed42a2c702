import CareStore
import CareStoreSQLite
import Consent
import Foundation
import StudyKitEnvironment
import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Study

/// The study server's one SQLite file: the study store's tables (participants, sessions, runs, consent records) and
/// the care store's (care plans, tasks, outcomes) side by side, under one writer, so that what one participant action
/// changes in both commits in one transaction (``commit(_:)``).
///
/// ```swift
/// let data = try SQLiteStudyDatabase(path: "data/study.sqlite", environment: .live)
/// let participant = try await data.studyStore.participant(id: id)
/// let committed = try await data.commit(change)      // run, consent record and outcomes: all or nothing
/// ```
///
/// Each store still works alone through its own protocol, and passes its own conformance suite over this file. Data
/// folders written before the two were joined hold a second file, `care.sqlite`: ``mergeCareFile(at:)`` moves its rows
/// in, once, in one transaction.
public final class SQLiteStudyDatabase: StudyDatabase {
    /// The file's writer, lent to one transaction at a time (both stores write through it).
    public let connections: SQLiteConnections
    /// The GRDB connection: a `DatabasePool` for a file, a `DatabaseQueue` in memory.
    public var database: any DatabaseWriter { connections.database }
    /// The study store over this file.
    public let sqliteStudyStore: SQLiteStudyStore
    /// The care store over this file.
    public let sqliteCareStore: SQLiteCareStore
    /// Who is writing, for the audit trail; nil for a file opened for reading.
    let audit: SQLiteAuditTrail.WriteContext?
    /// The audit trail's anchor file (`DATA/study.audit-anchor.json`) of a file opened for writing; nil in memory or read-only.
    public var auditAnchorURL: URL? { audit?.anchorURL }

    /// The study store, for the workflow.
    public var studyStore: any StudyStore { sqliteStudyStore }
    /// The care store, for the workflow.
    public var careStore: any CareStore { sqliteCareStore }

    /// The study team's accounts, in the same file.
    public var researchers: any ResearcherStore { sqliteStudyStore }

    /// Returns when a read of the file answers (`SELECT 1` on a reader); throws the file's error when it does not.
    public func checkAvailability() async throws {
        try await connections.read { connection in try connection.run { db in _ = try Int.fetchOne(db, sql: "SELECT 1") } }
    }

    /// Calls `observer` with each committed care write (``StorageBackedCareStore/observeCommits(_:)``).
    public func observeCareCommits(_ observer: @escaping @Sendable (CareChange) -> Void) {
        sqliteCareStore.observeCommits(observer)
    }

    /// The database of the data folder at `dataFolder` for a server: the folder made owner-only (and the file created
    /// owner-only), the file opened for writing with the audit trail's anchor written at most every `auditAnchorInterval`,
    /// and the care store's own file of a folder from before the two stores shared one file merged in, once. Throws an
    /// error that names the folder or file at fault.
    public static func openForServer(dataFolder: URL, environment: StudyKitEnvironment, durability: SQLiteStudyStore.Durability,
                                     auditAnchorInterval: Duration) throws -> SQLiteStudyDatabase {
        let folder = try StudyDataFolder(url: dataFolder)
        try folder.prepare()
        try folder.createOwnerOnlyFiles(named: [folder.database.lastPathComponent])
        let database = try SQLiteStudyDatabase(path: folder.database.path, environment: environment, durability: durability,
                                               auditAnchorInterval: auditAnchorInterval)
        // A data folder from before the two stores shared one file: its care data moves in, once.
        try database.mergeCareFile(at: folder.legacyCareDatabase)
        // One from before run files lived in the database: they move in.
        try database.moveRunFilesIn(from: folder.legacyRunFiles)
        return database
    }

    /// The migration that joined the two stores' files into one: a file that has it is laid out as one.
    static let jointMigration = "joint v1: files merged into this one"

    /// The file's schema: the study store's migrations, then the care store's, then this type's own.
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        StudyStoreMigrations.register(in: &migrator)
        CareStoreMigrations.register(in: &migrator)
        migrator.registerMigration(jointMigration) { db in
            try db.create(table: "mergedFile") { t in
                t.primaryKey("name", .text)
                t.column("mergedAt", .double).notNull()
            }
        }
        migrator.registerMigration("joint v2: the audit trail") { db in try SQLiteAuditTrail.create(in: db) }
        migrator.registerMigration("joint v3: a withdrawn participant's runs and outcomes refused in the file") { db in
            try SQLiteWithdrawalGuard.create(in: db)
        }
        migrator.registerMigration("joint v4: audit rows show what an update changed, and participants' data as keyed digests") { db in
            try SQLiteAuditTrail.recreateTableTriggers(in: db)
        }
        migrator.registerMigration("joint v5: the files attached in runs are in the audit trail") { db in
            try SQLiteAuditTrail.recreateTableTriggers(in: db)
        }
        migrator.registerMigration("joint v6: reminders' channels, choices and deliveries are in the audit trail, and refused for a withdrawn participant") { db in
            try SQLiteAuditTrail.recreateTableTriggers(in: db)
            try SQLiteWithdrawalGuard.createReminderTriggers(in: db)
        }
        return migrator
    }

    /// The file at `path`, created with its folder when missing and migrated when older (a study store's file from
    /// before the join gains the care store's tables). Refuses a file whose consent records' append-only triggers are
    /// missing or changed (``SQLiteStudyStoreOpenError/appendOnlyTriggers(path:problems:)``). Acknowledged writes
    /// survive what `durability` says.
    ///
    /// The audit trail's anchor is written after every commit by default; with `auditAnchorInterval` (the server's 100
    /// ms), the commits of a burst are anchored together at most that long after the first (``SQLiteAuditAnchorFile``).
    public convenience init(path: String, environment: StudyKitEnvironment = .live,
                            durability: SQLiteStudyStore.Durability = .powerLoss, auditAnchorInterval: Duration = .zero) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // An empty file (made owner-only by the server before it opens it) is as new as a missing one.
        let isNew = ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0) == 0
        let audit = SQLiteAuditTrail.WriteContext(now: environment.now)
        try self.init(database: DatabasePool(path: url.path, configuration: SQLiteStudyStorage.configuration(readOnly: false, audit: audit)),
                      environment: environment, durability: durability, migrate: true, audit: audit)
        let problems = try sqliteStudyStore.appendOnlyProblems()
        if !problems.isEmpty { throw SQLiteStudyStoreOpenError.appendOnlyTriggers(path: url.path, problems: problems) }
        let auditProblems = try database.read { db in try SQLiteAuditTrail.triggerProblems(in: db) }
        if !auditProblems.isEmpty { throw SQLiteStudyStoreOpenError.auditTriggers(path: url.path, problems: auditProblems) }
        // The trail's key and anchor live beside the file, outside it: DATA/keys/ and DATA/study.audit-anchor.json.
        let head = try database.read { db in try SQLiteAuditTrail.head(db) }
        let database = self.database
        let keying = try SQLiteAuditKeying.open(database: url, isNew: isNew, head: head, hashOfRow: { sequence in
            try database.read { db in try String.fetchOne(db, sql: "SELECT hash FROM auditLog WHERE sequence = ?", arguments: [sequence]) }
        }, interval: auditAnchorInterval, now: environment.now, readHead: {
            try database.read { db in try SQLiteAuditTrail.head(db) }
        })
        audit.install(key: keying.key, anchor: keying.anchor)
    }

    /// An empty database in memory, for tests: the SQL of the file without the file.
    public static func inMemory(environment: StudyKitEnvironment = .live) throws
        -> SQLiteStudyDatabase {
        let audit = SQLiteAuditTrail.WriteContext(now: environment.now)
        // A trail that lives only as long as the process: a key of its own, nothing to anchor.
        audit.install(key: try AuditKey(rawRepresentation: Data(environment.randomBytes(AuditKey.byteCount))), anchor: nil)
        return try SQLiteStudyDatabase(database: DatabaseQueue(configuration: SQLiteStudyStorage.configuration(readOnly: false, audit: audit)),
                                       environment: environment, durability: .powerLoss, migrate: true, audit: audit)
    }

    /// The existing file at `path`, opened for reading only (nothing is created, migrated or written), as
    /// `studykit export` reads a data folder while the server runs. Throws ``SQLiteStudyStoreOpenError`` when the file
    /// is missing or its schema is not the one this version writes.
    public static func readOnly(path: String, environment: StudyKitEnvironment = .live)
        throws -> SQLiteStudyDatabase {
        guard FileManager.default.fileExists(atPath: path) else { throw SQLiteStudyStoreOpenError.missing(path: path) }
        let database = try DatabaseQueue(path: path, configuration: SQLiteStudyStorage.configuration(readOnly: true))
        guard try database.read({ db in try migrator.hasCompletedMigrations(db) }) else { throw SQLiteStudyStoreOpenError.outdatedSchema(path: path) }
        return try SQLiteStudyDatabase(database: database, environment: environment,
                                       durability: .powerLoss, migrate: false)
    }

    /// The two stores of a data folder, opened for reading only, whichever layout it has: the one file at `path`, or,
    /// in a folder not yet opened by a server since the stores were joined, that file and the care store's own file at
    /// `legacyCarePath` beside it. Throws ``SQLiteStudyStoreOpenError`` or ``SQLiteCareStorageOpenError`` naming the file.
    public static func readOnlyStores(path: String, legacyCarePath: String) throws -> (study: SQLiteStudyStore, care: SQLiteCareStore) {
        guard FileManager.default.fileExists(atPath: path) else { throw SQLiteStudyStoreOpenError.missing(path: path) }
        let legacyExists = FileManager.default.fileExists(atPath: legacyCarePath)
        // The file is opened once: its schema decides the layout, and the same connection then reads both stores.
        let file = try DatabaseQueue(path: path, configuration: SQLiteStudyStorage.configuration(readOnly: true))
        let (applied, isCurrent) = try file.read { db in (try migrator.appliedIdentifiers(db), try migrator.hasCompletedMigrations(db)) }
        guard applied.contains(jointMigration) else {
            return (try SQLiteStudyStore.readOnly(path: path), try SQLiteCareStore.readOnly(path: legacyCarePath))
        }
        // One file, written by an older StudyKit: read only after a server has migrated it.
        guard isCurrent else { throw SQLiteStudyStoreOpenError.outdatedSchema(path: path) }
        let database = try SQLiteStudyDatabase(database: file, environment: .live, durability: .powerLoss, migrate: false)
        // A care file beside the joint database that was never merged into it (a merge refused at start) still holds
        // the care data: read from it, not from the joint file's empty tables.
        let merged = try database.database.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM mergedFile WHERE name = ?", arguments: [URL(fileURLWithPath: legacyCarePath).lastPathComponent]) == true
        }
        if legacyExists && !merged {
            return (database.sqliteStudyStore, try SQLiteCareStore.readOnly(path: legacyCarePath))
        }
        return (database.sqliteStudyStore, database.sqliteCareStore)
    }

    private init(database: any DatabaseWriter, environment: StudyKitEnvironment,
                 durability: SQLiteStudyStore.Durability, migrate: Bool, audit: SQLiteAuditTrail.WriteContext? = nil) throws {
        if migrate {
            // Set on the writer connection after GRDB's own set-up, which would otherwise override it: commits synced
            // to disk (FULL) or handed to the operating system (NORMAL); a 32 MiB page cache for outcome batches.
            try database.writeWithoutTransaction { db in
                try db.execute(sql: durability == .powerLoss ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
                try db.execute(sql: "PRAGMA cache_size = -32768")
                // Deleted rows (a participant's data deleted on withdrawal) are overwritten with zeros, not left in free space.
                try db.execute(sql: "PRAGMA secure_delete = ON")
            }
            try Self.migrator.migrate(database)
        }
        connections = SQLiteConnections(database)
        self.audit = audit
        sqliteStudyStore = SQLiteStudyStore(storage: SQLiteStudyStorage(sharing: connections, environment: environment, audit: audit),
                                            environment: environment)
        var aroundEachWrite: (@Sendable (SQLiteLentConnection, () async throws -> Void) async throws -> Void)?
        if let audit {
            let around = audit.aroundWrites()
            // A care write refused by the file because its participant has withdrawn reads as the workflow's refusal.
            aroundEachWrite = { connection, body in
                do { try await around(connection, body) } catch { throw SQLiteWithdrawalGuard.refusal(for: error) }
            }
        }
        sqliteCareStore = SQLiteCareStore(storage: SQLiteCareStorage(sharing: connections, aroundEachWrite: aroundEachWrite), environment: environment)
    }


    // MARK: - One participant action, one transaction

    /// Applies `change` in one transaction of the file: runs saved, consent records appended and outcomes added, each
    /// checked as the stores check their own writes, after checking that every part belongs to the change's
    /// participant. When anything is refused, nothing is kept.
    public func commit(_ change: ParticipantChange) async throws -> CommittedParticipantChange {
        let prepared = try PreparedParticipantChange(change)
        let participantID = prepared.participantID
        let now = sqliteStudyStore.environment.now()
        let studyStore = sqliteStudyStore, careStore = sqliteCareStore
        let audit = audit, source = AuditTrail.source
        let (committed, careChange) = try await SQLiteWithdrawalGuard.refusingWithdrawn {
            try await connections.transaction { connection -> (CommittedParticipantChange, CareChange) in
                try await SQLiteAuditTrail.run(audit, as: source, on: connection) {
                    try await StudyDataTransaction(studyStore: studyStore, careStore: careStore, study: studyStore.storage.writer(in: connection),
                                                   care: SQLiteCareStorage.writer(in: connection)).apply(prepared, at: now)
                }
            }
        }
        sqliteStudyStore.countCommit(of: participantID)
        if !careChange.outcomeTaskIDs.isEmpty { careStore.announce(careChange) }
        // What was deleted leaves no copy in the write-ahead log: its frames are moved into the file (whose deleted
        // cells secure_delete zeroed) and the log is emptied, as far as readers allow now; else at the next checkpoint.
        if prepared.withdrawal?.deletesData == true { try await checkpointAndTruncateLog() }
        return committed
    }

    /// Moves the write-ahead log into the file and truncates it to nothing (`wal_checkpoint(TRUNCATE)`); a reader that
    /// holds an older snapshot leaves it for the next checkpoint.
    func checkpointAndTruncateLog() async throws {
        try await connections.writeWithoutTransaction { db in _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Enrols a participant with their care plan in one transaction (see ``StudyDataStore/enrol(invitationCode:timeZone:language:carePlan:)``):
    /// the patient, then the care plan for it, then its tasks and contacts, each added as the care store adds them.
    public func enrol(invitationCode: String?, timeZone: TimeZone, language: String,
                      carePlan: @escaping @Sendable (StudyParticipant) throws -> EnrolmentPlan) async throws -> StudyParticipant {
        let now = sqliteStudyStore.environment.now()
        let id = sqliteStudyStore.environment.makeUUID().uuidString.lowercased()
        let hash = invitationCode.map(StudySecrets.codeHash)
        let careStore = sqliteCareStore, studyStore = sqliteStudyStore
        let audit = audit, source = AuditTrail.source
        let (participant, careChange) = try await connections.transaction { connection -> (StudyParticipant, CareChange) in
            try await SQLiteAuditTrail.run(audit, as: source, on: connection) {
                try await StudyDataTransaction(studyStore: studyStore, careStore: careStore, study: studyStore.storage.writer(in: connection),
                                               care: SQLiteCareStorage.writer(in: connection))
                    .enrol(id: id, invitationCodeSHA256: hash, timeZone: timeZone, language: language, at: now, carePlan: carePlan)
            }
        }
        sqliteStudyStore.countCommit(of: id)
        careStore.announce(careChange)
        return participant
    }

    // MARK: - Data folders from before the join

    /// Moves the rows of a care store's own file (`care.sqlite`, as data folders held it before the two stores shared
    /// one file) into this one, in one transaction, and renames the old file to `care.sqlite.merged` beside it. Returns
    /// false when there is no file at `url`.
    ///
    /// Safe to run again after a crash at any point: the merge is recorded in the same transaction as the rows, so a
    /// file found again after a committed merge is only renamed. A file whose schema is not the current care store's, or
    /// care rows already here from another source, are refused without changing anything.
    @discardableResult
    public func mergeCareFile(at url: URL) throws -> Bool {
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: url.path) else { return false }
        do {
            try merge(careFile: url)
        } catch let error as SQLiteStudyDatabaseMergeError {
            throw error
        } catch {
            throw SQLiteStudyDatabaseMergeError.unreadable(path: url.path, reason: "\(error)")
        }
        return true
    }

    private func merge(careFile url: URL) throws {
        let fileManager = FileManager.default
        // One merge at a time in this data folder, whichever process runs it (a server starting while `studykit invite` runs).
        let lock = try FolderLock(url.deletingLastPathComponent())
        defer { lock.release() }
        guard fileManager.fileExists(atPath: url.path) else { return } // merged meanwhile by the other process
        let name = url.lastPathComponent
        let aside = url.deletingLastPathComponent().appendingPathComponent(name + ".merged")
        let recorded = try database.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM mergedFile WHERE name = ?", arguments: [name]) == true
        }
        // A set-aside file is never replaced: a file of this name appearing after a merge was written by something else
        // (an older StudyKit started on the folder again), and its rows are not in this database.
        if fileManager.fileExists(atPath: aside.path) { throw SQLiteStudyDatabaseMergeError.reappeared(path: url.path) }
        // A server still running on the file, even idle, would go on writing to it after it is set aside.
        if Self.isOpenInAnotherProcess(url) { throw SQLiteStudyDatabaseMergeError.inUse(path: url.path) }
        if !recorded {
            try copyRows(of: url, name: name)
        }
        // Merged (now, or by a run stopped before this rename): the file is set aside with whatever companions it has.
        for suffix in ["", "-wal", "-shm"] where fileManager.fileExists(atPath: url.path + suffix) {
            try fileManager.moveItem(atPath: url.path + suffix, toPath: aside.path + suffix)
        }
    }

    /// Copies the care rows of the file at `url` into this database and records the merge, in one transaction; then
    /// makes sure the commit is in the database file itself before the caller renames anything.
    private func copyRows(of url: URL, name: String) throws {
        let old = try DatabaseQueue(path: url.path, configuration: SQLiteStudyStorage.configuration(readOnly: false))
        // Only a care store's own file is merged, never migrated: any other database (a copy of study.sqlite, a file of
        // another version) is refused as it is.
        let (applied, hasStudyTables) = try old.read { db in
            (try CareStoreMigrations.migrator.appliedIdentifiers(db), try db.tableExists("participant"))
        }
        // A file of an older StudyKit lacks the later migrations; the tables copied are all the first one's.
        guard CareStoreMigrations.canRead(applied: applied), !hasStudyTables else {
            try old.close()
            throw SQLiteStudyDatabaseMergeError.unreadable(path: url.path, reason: "its schema is not the care store's")
        }
        // Its last commits may still be in its WAL: moved into the file, which only succeeds when no other process has
        // it open (an older server still running would go on writing to a file about to be set aside).
        let busy = try old.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try old.close()
        guard busy == 0 else { throw SQLiteStudyDatabaseMergeError.inUse(path: url.path) }
        let now = sqliteStudyStore.environment.now()
        let source = AuditTrail.source
        try database.writeWithoutTransaction { db in try SQLiteAuditTrail.run(audit, as: source, in: db) {
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM version LIMIT 1") == true {
                throw SQLiteStudyDatabaseMergeError.careRowsPresent(path: url.path)
            }
            try db.execute(sql: "ATTACH DATABASE ? AS legacyCare", arguments: [url.path])
            defer { try? db.execute(sql: "DETACH DATABASE legacyCare") }
            try db.inTransaction {
                for table in CareStoreMigrations.tables {
                    try db.execute(sql: "INSERT INTO main.\(table) SELECT * FROM legacyCare.\(table)")
                }
                try db.execute(sql: "INSERT INTO mergedFile (name, mergedAt) VALUES (?, ?)",
                               arguments: [name, now.timeIntervalSinceReferenceDate])
                return .commit
            }
            // With synchronous = NORMAL the commit may be only in the WAL until a checkpoint: written through before the
            // old file is renamed, so that a power loss cannot keep the rename and lose the rows.
            _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(FULL)")
        } }
    }
}

extension SQLiteStudyDatabase {
    /// Whether another process has the WAL-mode database at `url` open: every connection holds a shared lock on the
    /// "DMS" byte of its `-shm` file for as long as it is open (byte 128, SQLite's unix VFS), which `F_GETLK` sees. A
    /// file without `-shm` is open nowhere. Locks of this process are not seen, so close its own connections first.
    static func isOpenInAnotherProcess(_ url: URL) -> Bool {
        let descriptor = open(url.path + "-shm", O_RDWR)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 128
        lock.l_len = 1
        guard fcntl(descriptor, F_GETLK, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }
}

/// An exclusive lock on a folder, held by this process until released (`flock`, so it goes with the process).
struct FolderLock {
    let descriptor: Int32

    init(_ folder: URL) throws {
        descriptor = open(folder.path, O_RDONLY)
        guard descriptor >= 0 else { throw SQLiteStudyDatabaseMergeError.unreadable(path: folder.path, reason: "the folder cannot be opened") }
        guard flock(descriptor, LOCK_EX) == 0 else {
            close(descriptor)
            throw SQLiteStudyDatabaseMergeError.unreadable(path: folder.path, reason: "the folder cannot be locked")
        }
    }

    func release() {
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

/// Why a care store's file could not be merged into the study database.
public enum SQLiteStudyDatabaseMergeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The study database holds care rows already, and the file was never merged into it.
    case careRowsPresent(path: String)
    /// The file cannot be read as a care store's database.
    case unreadable(path: String, reason: String)
    /// Another process has the file open (an older server still running on the folder).
    case inUse(path: String)
    /// The file was set aside after a merge already, and one of its name appeared again.
    case reappeared(path: String)

    /// The problem, naming the file.
    public var description: String {
        switch self {
        case .careRowsPresent(let path):
            "\(path) was not merged: the study database beside it holds care plans and outcomes already. Keep the one that is "
                + "current and move the other out of the data folder"
        case .inUse(let path):
            "\(path) is open in another process (an older StudyKit server still running on this data folder?): stop it, then "
                + "start again; nothing was changed"
        case .reappeared(let path):
            "\(path) appeared again after the care data was merged into study.sqlite (\(path).merged is the file merged): an "
                + "older StudyKit may have written to it since, and its rows are not in study.sqlite. Nothing was changed; "
                + "compare the two files, keep what is needed, and move \(path) out of the data folder"
        case .unreadable(let path, let reason):
            "\(path) is a care store's file from before study.sqlite held both stores, and it cannot be merged: \(reason). "
                + "Nothing was changed; restore it from a backup, or move it out of the data folder if it holds no participant's data"
        }
    }
}
