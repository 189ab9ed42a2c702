import CareStoreSQLite
import Consent
import Foundation
import GRDB
import Study
import Synchronization

/// The audit trail of the study server's one file: every insert, update and delete of study data (participants,
/// invitations, runs, consent records and their PDFs, researchers, the care store's tasks, outcomes and their values)
/// appends a row to `auditLog`, by a trigger, in the same transaction as the change, whoever writes it. Each row holds
/// who (``AuditTrail/source``, installed by the store as each write begins), when (the store's clock), what (the
/// table and the row's key), the row before and after as JSON (for an update, only the columns that changed; an
/// update that changes nothing appends nothing), why, and the hash chain (``AuditTrail/hash(previousHash:of:key:)``,
/// keyed with the data folder's ``AuditKey``).
///
/// The triggers call functions this type registers on every connection of the store: a program without them (`sqlite3`)
/// cannot change an audited table at all, and `auditLog` itself refuses UPDATE and DELETE. A program that registers
/// look-alike functions can, but without the key its rows do not verify. What participants gave (a run's result and
/// restoration data, outcome values and details) appears only as its keyed digest (``AuditTrail/digest(of:key:)``), so
/// deleting their data leaves nothing of it readable here; other large or secret columns as their SHA-256 (a PDF's
/// bytes, a password's hash). After each commit that appends rows, the new end of the chain is anchored outside the
/// database (``SQLiteAuditAnchorFile``).
enum SQLiteAuditTrail {
    /// Who is writing now on the writer connection: installed at the start of each write transaction by the store
    /// method that runs it, and cleared at its end, so that a write by other code is never put on someone else. Holds
    /// the trail's key and its anchor file once the database is open (``install(key:anchor:)``).
    final class WriteContext: Sendable {
        private let current = Mutex<AuditSource?>(nil)
        private let keying = Mutex<(key: AuditKey, anchor: SQLiteAuditAnchorFile?)?>(nil)
        let now: @Sendable () -> Date

        init(now: @escaping @Sendable () -> Date) { self.now = now }

        /// Sets the trail's key and anchor file, once the database they belong to is open.
        func install(key: AuditKey, anchor: SQLiteAuditAnchorFile?) {
            keying.withLock { $0 = (key, anchor) }
        }

        /// The anchor file's location; nil without one.
        var anchorURL: URL? { keying.withLock { $0?.anchor?.url } }
        /// Writes the anchor still waiting for the end of a burst, if any.
        func flushAnchor() { keying.withLock { $0?.anchor }?.flush() }

        /// The database file whose trail is anchored; nil without an anchor.
        var databaseURL: URL? { keying.withLock { $0?.anchor?.database } }

        /// The trail's key; the triggers' functions fail without one, so nothing is written unkeyed.
        var key: AuditKey {
            get throws {
                guard let key = keying.withLock({ $0?.key }) else { throw SQLiteAuditTrailError.keyNotLoaded }
                return key
            }
        }

        /// Runs `body` (a write's work, on the writer, in `db`) with `source` as who is writing; once the transaction
        /// commits, its new end of the chain is anchored.
        func run<T>(as source: AuditSource, in db: Database, _ body: () throws -> T) throws -> T {
            let anchor = keying.withLock { $0?.anchor }
            // An anchor that could not be written after an earlier commit is written before anything more is.
            try anchor?.writePending()
            current.withLock { $0 = source }
            defer { current.withLock { $0 = nil } }
            let value = try body()
            try anchor?.anchor(after: db)
            return value
        }

        /// Runs `body` (a transaction's work, which may await, on the writer lent to it as `connection`) with `source`
        /// as who is writing; once the transaction commits, its new end of the chain is anchored.
        func run<T>(as source: AuditSource, on connection: SQLiteLentConnection, _ body: () async throws -> T) async throws -> T {
            let anchor = keying.withLock { $0?.anchor }
            try anchor?.writePending()
            current.withLock { $0 = source }
            defer { current.withLock { $0 = nil } }
            let value = try await body()
            try connection.run { db in try anchor?.anchor(after: db) }
            return value
        }

        /// A wrapper of a write's work with the writing task's source, for storage that runs its own transactions (the
        /// care store's).
        func aroundWrites() -> @Sendable (SQLiteLentConnection, () async throws -> Void) async throws -> Void {
            { connection, body in try await self.run(as: AuditTrail.source, on: connection, body) }
        }

        var source: AuditSource {
            current.withLock { $0 } ?? AuditSource(actor: "unattributed write (not through StudyKit's stores)")
        }
    }

    /// Runs `body` with `source` as who is writing in `db`, when the file keeps an audit trail (`context`).
    static func run<T>(_ context: WriteContext?, as source: AuditSource, in db: Database, _ body: () throws -> T) throws -> T {
        guard let context else { return try body() }
        return try context.run(as: source, in: db, body)
    }

    /// Runs `body` with `source` as who is writing on the lent `connection`, when the file keeps an audit trail (`context`).
    static func run<T>(_ context: WriteContext?, as source: AuditSource, on connection: SQLiteLentConnection,
                       _ body: () async throws -> T) async throws -> T {
        guard let context else { return try await body() }
        return try await context.run(as: source, on: connection, body)
    }

    /// Registers the trigger's functions on a connection.
    static func registerFunctions(in db: Database, context: WriteContext) {
        db.add(function: DatabaseFunction("studykit_audit_now", argumentCount: 0, pure: false) { _ in
            Int64((context.now().timeIntervalSince1970 * 1000).rounded())
        })
        db.add(function: DatabaseFunction("studykit_audit_actor", argumentCount: 0, pure: false) { _ in context.source.actor })
        db.add(function: DatabaseFunction("studykit_audit_reason", argumentCount: 0, pure: false) { _ in context.source.reason })
        db.add(function: DatabaseFunction("studykit_audit_hash", argumentCount: 10, pure: true) { values in
            let texts = values.map { value -> String? in
                if value.isNull { return nil }
                if let integer = Int64.fromDatabaseValue(value) { return String(integer) }
                return String.fromDatabaseValue(value) ?? value.description
            }
            return AuditTrail.hash(previousHash: texts[0] ?? "", of: Array(texts[1...]), key: try context.key)
        })
        db.add(function: DatabaseFunction("studykit_audit_digest", argumentCount: 1, pure: true) { values in
            guard !values[0].isNull else { return nil }
            let bytes: Data = switch values[0].storage {
            case .blob(let data): data
            case .string(let text): Data(text.utf8)
            case .int64(let integer): Data(String(integer).utf8)
            case .double(let double): Data(String(double).utf8)
            case .null: Data()
            }
            return AuditTrail.digest(of: bytes, key: try context.key)
        })
        db.add(function: DatabaseFunction("studykit_sha256", argumentCount: 1, pure: true) { values in
            guard !values[0].isNull else { return nil }
            let data = Data.fromDatabaseValue(values[0]) ?? Data((String.fromDatabaseValue(values[0]) ?? "").utf8)
            return ConsentRecord.sha256Hex(of: data)
        })
        db.add(function: DatabaseFunction("studykit_participant_of", argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map { StudyCareIdentifiers.participantID(ofCareID: $0) ?? $0 }
        })
    }

    /// A table whose changes are audited: its key, whose data a row is, and each column as the JSON shows it.
    struct Table {
        let name: String
        let key: String
        let participant: String
        let columns: [Column]
    }

    /// A column of an audited table: its name in the JSON, the stored column whose change it shows, how it is shown
    /// (`P` stands for `NEW` or `OLD`), and whether an update shows it: a row's own time of change (`updatedAt`) is
    /// the audit row's time, so an update leaves it out (an insert and a delete show it).
    struct Column {
        let name: String
        let column: String
        let shown: String
        let isUpdateTime: Bool

        init(_ name: String, _ shown: (String) -> String, of column: String? = nil, isUpdateTime: Bool = false) {
            self.name = name
            self.column = column ?? name
            self.shown = shown(column ?? name)
            self.isUpdateTime = isUpdateTime
        }
    }

    static func uuid(_ column: String) -> String { "lower(hex(P.\(column)))" }
    static func text(_ column: String) -> String { "CAST(P.\(column) AS TEXT)" }
    static func digest(_ column: String) -> String { "studykit_sha256(P.\(column))" }
    /// What a participant gave, as its keyed digest.
    static func keyed(_ column: String) -> String { "studykit_audit_digest(P.\(column))" }
    static func plain(_ column: String) -> String { "P.\(column)" }

    /// How SQLite shows a column of ``AuditedColumns`` (a time is stored as the JSON shows it).
    static func shown(_ column: AuditedColumns.Column) -> String {
        switch column.shown {
        case .asStored, .time: plain(column.column)
        case .uuid: uuid(column.column)
        case .text: text(column.column)
        case .sha256: digest(column.column)
        case .keyedDigest: keyed(column.column)
        }
    }

    /// The columns of the audited table `table` (``AuditedColumns``), as SQLite shows them.
    static func columns(_ table: String) -> [Column] {
        AuditedColumns.columns(of: table).map { audited in
            Column(audited.name, { _ in shown(audited) }, of: audited.column, isUpdateTime: audited.isUpdateTime)
        }
    }

    static let tables: [Table] = [
        Table(name: "participant", key: "P.id", participant: "P.id", columns: columns("participant")),
        Table(name: "invitation", key: uuid("id"), participant: "P.usedBy", columns: columns("invitation")),
        Table(name: "taskRun", key: uuid("id"), participant: "P.participantID", columns: columns("taskRun")),
        Table(name: "consentRecord", key: uuid("id"), participant: "P.participantID", columns: columns("consentRecord")),
        Table(name: "consentPDF", key: uuid("recordID"), participant: "(SELECT participantID FROM consentRecord WHERE id = P.recordID)",
              columns: columns("consentPDF")),
        Table(name: "researcher", key: uuid("id"), participant: "NULL", columns: columns("researcher")),
        Table(name: "version", key: uuid("uuid"), participant: "studykit_participant_of(P.id)", columns: columns("version")),
        Table(name: "outcome", key: uuid("uuid"), participant: "studykit_participant_of((SELECT id FROM version WHERE uuid = P.taskUUID))",
              columns: columns("outcome")),
        Table(name: "runFile", key: "\(uuid("runID")) || '/' || P.name", participant: "P.participantID", columns: columns("runFile")),
        Table(name: "reminderChannel", key: uuid("id"), participant: "P.participantID", columns: columns("reminderChannel")),
        Table(name: "reminderPreference", key: "P.participantID", participant: "P.participantID", columns: columns("reminderPreference")),
        Table(name: "reminderDelivery", key: "P.key", participant: "P.participantID", columns: columns("reminderDelivery")),
        // SQLite keeps an outcome's values in rows of their own.
        Table(name: "outcomeValue", key: "(SELECT lower(hex(uuid)) FROM outcome WHERE id = P.outcomeID) || '#' || P.position",
              participant: "studykit_participant_of((SELECT v.id FROM outcome o JOIN version v ON v.uuid = o.taskUUID WHERE o.id = P.outcomeID))", columns: [
            Column("outcome", { _ in "(SELECT lower(hex(uuid)) FROM outcome WHERE id = P.outcomeID)" }, of: "outcomeID"), Column("position", plain),
            Column("type", plain), Column("valueHMAC", keyed, of: "value"), Column("kind", plain), Column("units", plain),
            Column("createdDate", plain),
        ]),
    ]

    /// The SQL that appends a row whose values are `entityID`, `participantID`, `before` and `after` (SQL expressions);
    /// who, when and why come from the functions, and the hash of the row before from the log.
    static func append(action: String, entity: String, entityID: String, participantID: String, before: String, after: String) -> String {
        let action = literal(action), entity = literal(entity)
        return """
            INSERT INTO auditLog (atMilliseconds, actor, action, entity, entityID, participantID, before, after, reason, previousHash, hash)
            SELECT t.at, t.actor, \(action), \(entity), t.entityID, t.participantID, t.before, t.after, t.reason, t.previousHash,
                   studykit_audit_hash(t.previousHash, t.at, t.actor, \(action), \(entity), t.entityID, t.participantID, t.before, t.after, t.reason)
            FROM (SELECT studykit_audit_now() AS at, studykit_audit_actor() AS actor, \(entityID) AS entityID, \(participantID) AS participantID,
                         \(before) AS before, \(after) AS after, studykit_audit_reason() AS reason,
                         coalesce((SELECT hash FROM auditLog ORDER BY sequence DESC LIMIT 1), '') AS previousHash) AS t
            """
    }

    /// `text` as an SQL string literal.
    private static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// The triggers that audit `table`, by name. An insert shows the row after, a delete the row before, and an update
    /// only the columns it changed, before and after; an update that changes no column appends nothing.
    static func triggers(of table: Table) -> [String: String] {
        func json(_ row: String) -> String {
            "json_object(" + table.columns.map { "'\($0.name)', " + $0.shown.replacingOccurrences(of: "P.", with: "\(row).") }.joined(separator: ", ") + ")"
        }
        func changed(_ column: Column) -> String { "OLD.\(column.column) IS NOT NEW.\(column.column)" }
        let updated = table.columns.filter { !$0.isUpdateTime }
        func changedJSON(_ row: String) -> String {
            "(SELECT json_group_object(k, v) FROM (" + updated.map { column in
                "SELECT '\(column.name)' AS k, " + column.shown.replacingOccurrences(of: "P.", with: "\(row).") + " AS v WHERE " + changed(column)
            }.joined(separator: " UNION ALL ") + "))"
        }
        func body(_ action: String, row: String, before: String, after: String) -> String {
            append(action: action, entity: table.name, entityID: table.key.replacingOccurrences(of: "P.", with: "\(row)."),
                   participantID: table.participant.replacingOccurrences(of: "P.", with: "\(row)."), before: before, after: after)
        }
        let anyChange = updated.map(changed).joined(separator: " OR ")
        return [
            "audit_\(table.name)_insert": "CREATE TRIGGER audit_\(table.name)_insert AFTER INSERT ON \(table.name) BEGIN "
                + body("insert", row: "NEW", before: "NULL", after: json("NEW")) + "; END",
            "audit_\(table.name)_update": "CREATE TRIGGER audit_\(table.name)_update AFTER UPDATE ON \(table.name) WHEN \(anyChange) BEGIN "
                + body("update", row: "NEW", before: changedJSON("OLD"), after: changedJSON("NEW")) + "; END",
            "audit_\(table.name)_delete": "CREATE TRIGGER audit_\(table.name)_delete AFTER DELETE ON \(table.name) BEGIN "
                + body("delete", row: "OLD", before: json("OLD"), after: "NULL") + "; END",
        ]
    }

    /// Every trigger of the trail, by name: the audited tables' and the log's own append-only guards. The database
    /// checks at every writable open that each is there, unchanged.
    static var allTriggers: [String: String] {
        var all = [
            "auditLog_no_update": "CREATE TRIGGER auditLog_no_update BEFORE UPDATE ON auditLog BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END",
            "auditLog_no_delete": "CREATE TRIGGER auditLog_no_delete BEFORE DELETE ON auditLog BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END",
        ]
        for table in tables { all.merge(triggers(of: table)) { first, _ in first } }
        return all
    }

    /// Creates the log and its triggers (a migration of the joint file).
    static func create(in db: Database) throws {
        try db.create(table: "auditLog") { t in
            t.primaryKey("sequence", .integer)
            t.column("atMilliseconds", .integer).notNull()
            t.column("actor", .text).notNull()
            t.column("action", .text).notNull()
            t.column("entity", .text).notNull()
            t.column("entityID", .text)
            t.column("participantID", .text)
            t.column("before", .text)
            t.column("after", .text)
            t.column("reason", .text)
            t.column("previousHash", .text).notNull()
            t.column("hash", .text).notNull()
        }
        try db.create(index: "auditLog_on_participantID", on: "auditLog", columns: ["participantID", "sequence"])
        for sql in allTriggers.sorted(by: { $0.key < $1.key }).map(\.value) { try db.execute(sql: sql) }
    }

    /// Replaces the audited tables' triggers with the current ones (a migration: an update shows only what it changed,
    /// participants' answers appear as keyed digests).
    static func recreateTableTriggers(in db: Database) throws {
        for table in tables {
            for (name, sql) in triggers(of: table).sorted(by: { $0.key < $1.key }) {
                try db.execute(sql: "DROP TRIGGER IF EXISTS \(name)")
                try db.execute(sql: sql)
            }
        }
    }

    /// The last row of the trail, read in `db`: its sequence and hash; (0, "") for an empty trail.
    static func head(_ db: Database) throws -> (sequence: Int64, hash: String) {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT sequence, hash FROM auditLog ORDER BY sequence DESC LIMIT 1")) else {
            return (0, "")
        }
        return (row["sequence"], row["hash"])
    }

    /// What is wrong with the trail's triggers: each missing or not as created. Empty when all are in place.
    static func triggerProblems(in db: Database) throws -> [String] {
        let rows = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'audit%'")
        let existing = Dictionary(rows.map { (row: Row) -> (String, String) in (row["name"], row["sql"] ?? "") }, uniquingKeysWith: { first, _ in first })
        func squeezed(_ sql: String) -> String { sql.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        return allTriggers.keys.sorted().compactMap { name in
            guard let sql = existing[name] else { return "the trigger \(name) is missing" }
            return squeezed(sql) == squeezed(allTriggers[name]!) ? nil : "the trigger \(name) was changed"
        }
    }

    static func entry(_ row: Row) -> AuditEntry {
        AuditEntry(sequence: row["sequence"], atMilliseconds: row["atMilliseconds"], actor: row["actor"], action: row["action"], entity: row["entity"],
                   entityID: row["entityID"], participantID: row["participantID"], before: row["before"], after: row["after"], reason: row["reason"],
                   previousHash: row["previousHash"], hash: row["hash"])
    }
}


/// Why the audit trail could not be written.
enum SQLiteAuditTrailError: Error, CustomStringConvertible {
    /// A write reached the triggers before the database installed the trail's key.
    case keyNotLoaded

    var description: String {
        switch self {
        case .keyNotLoaded: "the audit trail's key is not loaded: nothing is written without it"
        }
    }
}
