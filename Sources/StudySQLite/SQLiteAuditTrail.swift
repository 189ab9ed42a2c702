import Consent
import Foundation
import GRDB
import Study
import Synchronization

/// The audit trail of the study server's one file: every insert, update and delete of study data (participants,
/// invitations, runs, consent records and their PDFs, researchers, the care store's tasks, outcomes and their values)
/// appends a row to `auditLog`, by a trigger, in the same transaction as the change, whoever writes it. Each row holds
/// who (``AuditTrail/source``, installed by the store as each write begins), when (the store's clock), what (the
/// table and the row's key), the row before and after as JSON, why, and the hash chain (``AuditTrail/hash(previousHash:of:)``).
///
/// The triggers call functions this type registers on every connection of the store: a program without them (`sqlite3`)
/// cannot change an audited table at all, and `auditLog` itself refuses UPDATE and DELETE. Large or secret columns
/// appear as their SHA-256 (a run's restoration data, a PDF's bytes, a password's hash).
enum SQLiteAuditTrail {
    /// Who is writing now on the writer connection: installed at the start of each write transaction by the store
    /// method that runs it, and cleared at its end, so that a write by other code is never put on someone else.
    final class WriteContext: Sendable {
        private let current = Mutex<AuditSource?>(nil)
        let now: @Sendable () -> Date

        init(now: @escaping @Sendable () -> Date) { self.now = now }

        /// Runs `body` (a write's work, on the writer) with `source` as who is writing.
        func run<T>(as source: AuditSource, _ body: () throws -> T) rethrows -> T {
            current.withLock { $0 = source }
            defer { current.withLock { $0 = nil } }
            return try body()
        }

        /// The calling task's source (read here), as a wrapper of a write's work, for storage that runs its own
        /// transactions (the care store's).
        func aroundWrites() -> @Sendable (Database, () throws -> Void) throws -> Void {
            let source = AuditTrail.source
            return { _, body in try self.run(as: source, body) }
        }

        var source: AuditSource {
            current.withLock { $0 } ?? AuditSource(actor: "unattributed write (not through StudyKit's stores)")
        }
    }

    /// Runs `body` with `source` as who is writing, when the file keeps an audit trail (`context`).
    static func run<T>(_ context: WriteContext?, as source: AuditSource, _ body: () throws -> T) rethrows -> T {
        guard let context else { return try body() }
        return try context.run(as: source, body)
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
            return AuditTrail.hash(previousHash: texts[0] ?? "", of: Array(texts[1...]))
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

    /// A table whose changes are audited: its key, whose data a row is, and each column as the JSON shows it (`P` stands
    /// for `NEW` or `OLD`).
    struct Table {
        let name: String
        let key: String
        let participant: String
        let columns: [(String, String)]
    }

    static func uuid(_ column: String) -> String { "lower(hex(P.\(column)))" }
    static func text(_ column: String) -> String { "CAST(P.\(column) AS TEXT)" }
    static func digest(_ column: String) -> String { "studykit_sha256(P.\(column))" }
    static func plain(_ column: String) -> String { "P.\(column)" }

    static let tables: [Table] = [
        Table(name: "participant", key: "P.id", participant: "P.id", columns: [
            ("id", plain("id")), ("patientID", plain("patientID")), ("timeZone", plain("timeZone")), ("language", plain("language")),
            ("enrolledAt", plain("enrolledAt")), ("invitationID", uuid("invitationID")),
        ]),
        Table(name: "invitation", key: uuid("id"), participant: "P.usedBy", columns: [
            ("id", uuid("id")), ("label", plain("label")), ("createdAt", plain("createdAt")), ("expiresAt", plain("expiresAt")),
            ("usedAt", plain("usedAt")), ("usedBy", plain("usedBy")), ("revokedAt", plain("revokedAt")),
        ]),
        Table(name: "taskRun", key: uuid("id"), participant: "P.participantID", columns: [
            ("id", uuid("id")), ("participantID", plain("participantID")), ("taskID", plain("taskID")), ("occurrence", plain("occurrence")),
            ("state", plain("state")), ("restorationDataSHA256", digest("restorationData")), ("result", text("result")),
            ("createdAt", plain("createdAt")), ("updatedAt", plain("updatedAt")),
        ]),
        Table(name: "consentRecord", key: uuid("id"), participant: "P.participantID", columns: [
            ("id", uuid("id")), ("participantID", plain("participantID")), ("kind", plain("kind")), ("sealedJSON", text("sealedJSON")),
            ("storedAt", plain("storedAt")),
        ]),
        Table(name: "consentPDF", key: uuid("recordID"), participant: "(SELECT participantID FROM consentRecord WHERE id = P.recordID)", columns: [
            ("recordID", uuid("recordID")), ("state", plain("state")), ("pdfSHA256", digest("pdf")), ("path", plain("path")),
            ("failure", plain("failure")), ("updatedAt", plain("updatedAt")),
        ]),
        Table(name: "researcher", key: uuid("id"), participant: "NULL", columns: [
            ("id", uuid("id")), ("email", plain("email")), ("role", plain("role")), ("createdAt", plain("createdAt")),
            ("passwordHashSHA256", digest("passwordHash")), ("failedSignIns", plain("failedSignIns")), ("lockedUntil", plain("lockedUntil")),
            ("removedAt", plain("removedAt")),
        ]),
        Table(name: "version", key: uuid("uuid"), participant: "studykit_participant_of(P.id)", columns: [
            ("uuid", uuid("uuid")), ("kind", plain("kind")), ("id", plain("id")), ("effectiveDate", plain("effectiveDate")),
            ("deletedDate", plain("deletedDate")), ("previousVersionUUID", uuid("previousVersionUUID")), ("nextVersionUUID", uuid("nextVersionUUID")),
            ("payload", text("payload")),
        ]),
        Table(name: "outcome", key: uuid("uuid"), participant: "studykit_participant_of((SELECT id FROM version WHERE uuid = P.taskUUID))", columns: [
            ("uuid", uuid("uuid")), ("taskUUID", uuid("taskUUID")), ("occurrenceIndex", plain("occurrenceIndex")), ("createdDate", plain("createdDate")),
            ("deletedDate", plain("deletedDate")), ("timeZone", plain("timeZone")), ("source", plain("source")), ("details", plain("details")),
        ]),
        Table(name: "outcomeValue", key: "(SELECT lower(hex(uuid)) FROM outcome WHERE id = P.outcomeID) || '#' || P.position",
              participant: "studykit_participant_of((SELECT v.id FROM outcome o JOIN version v ON v.uuid = o.taskUUID WHERE o.id = P.outcomeID))", columns: [
            ("outcome", "(SELECT lower(hex(uuid)) FROM outcome WHERE id = P.outcomeID)"), ("position", plain("position")), ("type", plain("type")),
            ("value", "CASE WHEN typeof(P.value) = 'blob' THEN studykit_sha256(P.value) ELSE P.value END"), ("kind", plain("kind")),
            ("units", plain("units")), ("createdDate", plain("createdDate")),
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

    /// The triggers that audit `table`, by name.
    static func triggers(of table: Table) -> [String: String] {
        func json(_ row: String) -> String {
            "json_object(" + table.columns.map { "'\($0.0)', " + $0.1.replacingOccurrences(of: "P.", with: "\(row).") }.joined(separator: ", ") + ")"
        }
        func body(_ action: String, row: String, before: String, after: String) -> String {
            append(action: action, entity: table.name, entityID: table.key.replacingOccurrences(of: "P.", with: "\(row)."),
                   participantID: table.participant.replacingOccurrences(of: "P.", with: "\(row)."), before: before, after: after)
        }
        return [
            "audit_\(table.name)_insert": "CREATE TRIGGER audit_\(table.name)_insert AFTER INSERT ON \(table.name) BEGIN "
                + body("insert", row: "NEW", before: "NULL", after: json("NEW")) + "; END",
            "audit_\(table.name)_update": "CREATE TRIGGER audit_\(table.name)_update AFTER UPDATE ON \(table.name) BEGIN "
                + body("update", row: "NEW", before: json("OLD"), after: json("NEW")) + "; END",
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

