import CareStore
import CareStorePostgres
import Foundation
import Logging
import PostgresNIO
import Study

/// The audit trail of a study's PostgreSQL schema, with SQLite's semantics (`SQLiteAuditTrail`): every insert, update
/// and delete of study data (participants, invitations, runs, consent records and their PDFs, researchers, the care
/// store's versions and outcomes) appends a row to `auditLog` in the same transaction as the change, chained with
/// ``AuditTrail/hash(previousHash:of:key:)`` keyed with the ``AuditKey``, which never goes into the database.
///
/// It is written in two steps, since the key stays in Swift:
/// 1. A PL/pgSQL row trigger on each audited table stages the change in `auditStage`, tagged with the transaction
///    (`pg_current_xact_id()`): the table, the row's key, whose data it is, and the row before and after (an update:
///    only the columns it changed, none of them a row's own time of change; an update that changes nothing stages
///    nothing) as JSON arrays of `[column, value]` pairs in SQLite's column order. What a participant gave (a run's
///    restoration data and result, an outcome's values and details) is staged as its raw bytes, to be digested with
///    the key; a PDF's bytes and a password's hash as their SHA-256, computed by the database.
/// 2. As the last step of every write transaction StudyKit runs (``PostgresWriteTransactions``), ``flush(on:schema:key:source:at:appending:logger:)``
///    takes the staged rows of the transaction (and deletes them), locks the trail's head (`auditHead`, `FOR UPDATE`:
///    a transaction whose snapshot does not see the latest head is refused with a serialization failure and run
///    again), and appends them with gapless sequence numbers, digests and the keyed chain; who and why come from
///    ``AuditTrail/source`` as the write began, when from the store's clock.
///
/// A DEFERRABLE INITIALLY DEFERRED constraint trigger on `auditStage` refuses a COMMIT that leaves staged rows: a write
/// from `psql` that bypasses StudyKit cannot commit unaudited. `auditLog` refuses UPDATE, DELETE and TRUNCATE. A
/// superuser can still change anything (disable the triggers), and a row so changed or forged does not verify without
/// the key; a cut tail is caught by the anchor outside the database (``PostgresStudyDatabase/auditChainCheck(keysFolder:auditAnchor:publicKey:)``).
///
/// Differences from SQLite's JSON: PostgreSQL keeps an outcome's values in the outcome's row (`outcomeValues`, jsonb),
/// so there are no `outcomeValue` rows: the outcome's row shows `valuesHMAC`, the keyed digest of the values' JSON
/// text as PostgreSQL writes it (and `detailsHMAC` of the details' jsonb text). Timestamps are shown as SQLite stores
/// them, seconds since 1970 (whole microseconds here).
enum PostgresAuditTrail {
    /// A table whose changes are staged: its key, whose data a row is, each column as the JSON shows it, and, for the
    /// care store's tables, what the change feed names (`kind`, `id` expressions).
    struct Table {
        let name: String
        let key: String
        let participant: String
        let columns: [Column]
        var care: (kind: String, id: String)? = nil
    }

    /// A column: its name in the JSON, the stored column whose change it shows, how it is shown (`P` stands for `NEW`
    /// or `OLD`), and whether it is the row's own time of change (left out of an update's JSON).
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

    static func plain(_ column: String) -> String { "P.\(column)" }
    static func uuid(_ column: String) -> String { "replace(P.\(column)::text, '-', '')" }
    /// A timestamp, tagged so that the flush writes it as SQLite stores it (seconds since 1970, a REAL).
    static func time(_ column: String) -> String { "jsonb_build_object('t', extract(epoch FROM P.\(column)))" }
    static func text(_ column: String) -> String { "convert_from(P.\(column), 'UTF8')" }
    static func sha256(_ column: String) -> String { "encode(sha256(P.\(column)), 'hex')" }
    static func sha256OfText(_ column: String) -> String { "encode(sha256(convert_to(P.\(column), 'UTF8')), 'hex')" }
    /// What a participant gave, staged as its bytes (hex) for the flush to digest with the key.
    static func keyed(_ column: String) -> String { "jsonb_build_object('k', encode(P.\(column), 'hex'))" }
    static func keyedJSON(_ column: String) -> String { "jsonb_build_object('k', encode(convert_to(P.\(column)::text, 'UTF8'), 'hex'))" }

    /// The participant of a care id (`PARTICIPANT/…`), or the id itself (a patient's id is the participant's).
    static func participantOf(_ id: String) -> String {
        "(CASE WHEN strpos(\(id), '/') > 1 THEN split_part(\(id), '/', 1) ELSE \(id) END)"
    }

    /// How PostgreSQL shows a column of ``AuditedColumns``.
    static func shown(_ column: AuditedColumns.Column) -> String {
        switch column.shown {
        case .asStored: plain(column.column)
        case .uuid: uuid(column.column)
        case .time: time(column.column)
        case .text: text(column.column)
        case .sha256(let ofText): ofText ? sha256OfText(column.column) : sha256(column.column)
        case .keyedDigest(let ofJSON): ofJSON ? keyedJSON(column.column) : keyed(column.column)
        }
    }

    /// The columns of the audited table `table` (``AuditedColumns``), as PostgreSQL shows them.
    static func columns(_ table: String) -> [Column] {
        AuditedColumns.columns(of: table).map { audited in
            Column(audited.name, { _ in shown(audited) }, of: audited.column, isUpdateTime: audited.isUpdateTime)
        }
    }

    static func tables(_ schema: PostgresCareSchema) -> [Table] {
        let s = schema.name
        return [
            Table(name: "participant", key: "P.id", participant: "P.id", columns: columns("participant")),
            Table(name: "invitation", key: uuid("id"), participant: "P.usedBy", columns: columns("invitation")),
            Table(name: "taskRun", key: uuid("id"), participant: "P.participantID", columns: columns("taskRun")),
            Table(name: "consentRecord", key: uuid("id"), participant: "P.participantID", columns: columns("consentRecord")),
            Table(name: "consentPDF", key: uuid("recordID"), participant: "(SELECT participantID FROM \(s).consentRecord WHERE id = P.recordID)",
                  columns: columns("consentPDF")),
            Table(name: "researcher", key: uuid("id"), participant: "NULL", columns: columns("researcher")),
            Table(name: "version", key: uuid("uuid"), participant: participantOf("P.id"), columns: columns("version"), care: ("P.kind", "P.id")),
            Table(name: "runFile", key: "\(uuid("runID")) || '/' || P.name", participant: "P.participantID", columns: columns("runFile")),
            Table(name: "reminderChannel", key: uuid("id"), participant: "P.participantID", columns: columns("reminderChannel")),
            Table(name: "reminderPreference", key: "P.participantID", participant: "P.participantID", columns: columns("reminderPreference")),
            Table(name: "reminderDelivery", key: "P.key", participant: "P.participantID", columns: columns("reminderDelivery")),
            // PostgreSQL keeps an outcome's values in its row.
            Table(name: "outcome", key: uuid("uuid"), participant: participantOf("(SELECT id FROM \(s).version WHERE uuid = P.taskUUID)"),
                  columns: columns("outcome") + [Column("valuesHMAC", keyedJSON, of: "outcomeValues")],
                  care: ("'outcome'", "(SELECT id FROM \(s).version WHERE uuid = P.taskUUID)")),
        ]
    }

    /// The message of the refusal of a COMMIT that leaves changes unaudited.
    static let unauditedMessage = "studykit: changes to study data must be written to the audit trail by StudyKit before they commit"
    /// The message of `auditLog`'s refusal of UPDATE, DELETE and TRUNCATE.
    static let appendOnlyMessage = "the audit trail is append-only"

    /// The trail's migration: the log, its head, the staging table and its guard, and the audited tables' triggers.
    static func migration(_ schema: PostgresCareSchema) -> [String] {
        let s = schema.name
        var statements = [
            """
            CREATE TABLE \(s).auditLog (
                sequence bigint PRIMARY KEY,
                atMilliseconds bigint NOT NULL,
                actor text NOT NULL,
                action text NOT NULL,
                entity text NOT NULL,
                entityID text,
                participantID text,
                before text,
                after text,
                reason text,
                previousHash text NOT NULL,
                hash text NOT NULL
            )
            """,
            "CREATE INDEX auditLog_on_participantID ON \(s).auditLog (participantID, sequence)",
            """
            CREATE FUNCTION \(s).auditLog_refuseChange() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION '\(appendOnlyMessage)' USING ERRCODE = 'integrity_constraint_violation';
            END
            $$
            """,
            "CREATE TRIGGER auditLog_refuseChange BEFORE UPDATE OR DELETE ON \(s).auditLog FOR EACH ROW EXECUTE FUNCTION \(s).auditLog_refuseChange()",
            "CREATE TRIGGER auditLog_refuseTruncate BEFORE TRUNCATE ON \(s).auditLog FOR EACH STATEMENT EXECUTE FUNCTION \(s).auditLog_refuseChange()",
            // The end of the chain, one row, locked by each flush: the point where concurrent writers are put in order.
            "CREATE TABLE \(s).auditHead (id integer PRIMARY KEY CHECK (id = 1), sequence bigint NOT NULL, hash text NOT NULL)",
            "INSERT INTO \(s).auditHead (id, sequence, hash) VALUES (1, 0, '')",
            """
            CREATE TABLE \(s).auditStage (
                ordinal bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                xact xid8 NOT NULL DEFAULT pg_current_xact_id(),
                action text NOT NULL,
                entity text NOT NULL,
                entityID text,
                participantID text,
                before jsonb,
                after jsonb,
                careKind text,
                careID text
            )
            """,
            "CREATE INDEX auditStage_on_transaction ON \(s).auditStage (xact, ordinal)",
            """
            CREATE FUNCTION \(s).auditStage_refuseUnaudited() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF EXISTS (SELECT 1 FROM \(s).auditStage WHERE xact = pg_current_xact_id()) THEN
                    RAISE EXCEPTION '\(unauditedMessage)' USING ERRCODE = 'integrity_constraint_violation';
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE CONSTRAINT TRIGGER auditStage_refuseUnaudited AFTER INSERT ON \(s).auditStage
                DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION \(s).auditStage_refuseUnaudited()
            """,
        ]
        // The tables audited when this migration was released; a table audited since has a migration of its own.
        for table in tables(schema) where table.name != "runFile" && !reminderTables.contains(table.name) {
            statements += triggers(of: table, in: schema)
        }
        return statements
    }

    /// The migration that puts the files attached in runs (`runFile`, study migration v5) in the trail.
    static func runFileMigration(_ schema: PostgresCareSchema) -> [String] {
        tables(schema).filter { $0.name == "runFile" }.flatMap { triggers(of: $0, in: schema) }
    }

    /// The reminders' tables, audited since joint migration v4.
    static let reminderTables: Set<String> = ["reminderChannel", "reminderPreference", "reminderDelivery"]

    /// The migration that puts the reminders' tables (study migration v6) in the trail.
    static func reminderMigration(_ schema: PostgresCareSchema) -> [String] {
        tables(schema).filter { reminderTables.contains($0.name) }.flatMap { triggers(of: $0, in: schema) }
    }

    /// The staging function of `table` and its trigger.
    static func triggers(of table: Table, in schema: PostgresCareSchema) -> [String] {
        let s = schema.name
        func on(_ row: String, _ expression: String) -> String { expression.replacingOccurrences(of: "P.", with: "\(row).") }
        func json(_ row: String) -> String {
            "jsonb_build_array(" + table.columns.map { "jsonb_build_array('\($0.name)', \(on(row, $0.shown)))" }.joined(separator: ", ") + ")"
        }
        func stage(_ action: String, row: String, before: String, after: String) -> String {
            """
            INSERT INTO \(s).auditStage (action, entity, entityID, participantID, before, after, careKind, careID)
                    VALUES ('\(action)', '\(table.name)', \(on(row, table.key)), \(on(row, table.participant)), \(before), \(after),
                            \(table.care.map { on(row, $0.kind) } ?? "NULL"), \(table.care.map { on(row, $0.id) } ?? "NULL"));
            """
        }
        let updated = table.columns.filter { !$0.isUpdateTime }
        let changes = updated.map { column in
            """
                    IF OLD.\(column.column) IS DISTINCT FROM NEW.\(column.column) THEN
                        b := b || jsonb_build_array(jsonb_build_array('\(column.name)', \(on("OLD", column.shown))));
                        a := a || jsonb_build_array(jsonb_build_array('\(column.name)', \(on("NEW", column.shown))));
                    END IF;
            """
        }.joined(separator: "\n")
        let function = "\(s).audit_\(table.name)"
        return [
            """
            CREATE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                b jsonb := '[]';
                a jsonb := '[]';
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    \(stage("insert", row: "NEW", before: "NULL", after: json("NEW")))
                ELSIF TG_OP = 'DELETE' THEN
                    \(stage("delete", row: "OLD", before: json("OLD"), after: "NULL"))
                ELSE
            \(changes)
                    IF jsonb_array_length(b) > 0 THEN
                        \(stage("update", row: "NEW", before: "b", after: "a"))
                    END IF;
                END IF;
                RETURN NULL;
            END
            $$
            """,
            "CREATE TRIGGER audit_\(table.name) AFTER INSERT OR UPDATE OR DELETE ON \(s).\(table.name) FOR EACH ROW EXECUTE FUNCTION \(function)()",
        ]
    }

    /// A row for the trail that no table's change staged (an export, a re-anchoring): appended by the flush of its transaction.
    struct Action: Sendable {
        var action: String
        var entity: String
        var entityID: String?
        var participantID: String?
        var after: String?
    }

    /// What one flush appended: the new end of the chain (nil when nothing was appended), and per participant what
    /// changed of theirs (for the change feed).
    struct Flushed: Sendable {
        var head: (sequence: Int64, hash: String)?
        var changes: [String: CareChange] = [:]
    }

    /// Appends the transaction's staged rows (and `actions`) to the trail on `connection`, inside its transaction, as
    /// `source` at `date`, chained with `key`; deletes the staged rows. Returns what it appended.
    static func flush(on connection: PostgresConnection, schema: PostgresCareSchema, key: AuditKey, source: AuditSource, at date: Date,
                      appending actions: [Action] = [], logger: Logger) async throws -> Flushed {
        let s = schema.name
        typealias Staged = (Int64, String, String, String?, String?, String?, String?, String?, String?)
        var staged: [Staged] = []
        let rows = try await connection.query(PostgresQuery(unsafeSQL: """
            DELETE FROM \(s).auditStage WHERE xact = pg_current_xact_id()
            RETURNING ordinal, action, entity, entityID, participantID, before::text, after::text, careKind, careID
            """), logger: logger)
        for try await row in rows.decode(Staged.self) { staged.append(row) }
        guard !staged.isEmpty || !actions.isEmpty else { return Flushed() }
        staged.sort { $0.0 < $1.0 }

        var head: (sequence: Int64, hash: String) = (0, "")
        for try await row in (try await connection.query(PostgresQuery(unsafeSQL: "SELECT sequence, hash FROM \(s).auditHead WHERE id = 1 FOR UPDATE"),
                                                         logger: logger)).decode((Int64, String).self) {
            head = row
        }
        let at = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var flushed = Flushed()
        var records: [[String: Any]] = []
        func append(action: String, entity: String, entityID: String?, participantID: String?, before: String?, after: String?) {
            let sequence = head.sequence + 1
            let entry = AuditEntry(sequence: sequence, atMilliseconds: at, actor: source.actor, action: action, entity: entity, entityID: entityID,
                                   participantID: participantID, before: before, after: after, reason: source.reason, previousHash: head.hash, hash: "")
            let hash = AuditTrail.hash(previousHash: head.hash, of: entry.hashedFields, key: key)
            // jsonb_to_recordset matches keys to the (lower-case) column names exactly.
            records.append(["sequence": sequence, "atmilliseconds": at, "actor": source.actor, "action": action, "entity": entity,
                            "entityid": entityID ?? NSNull(), "participantid": participantID ?? NSNull(), "before": before ?? NSNull(),
                            "after": after ?? NSNull(), "reason": source.reason ?? NSNull(), "previoushash": head.hash, "hash": hash])
            head = (sequence, hash)
        }
        for (_, action, entity, entityID, participantID, before, after, careKind, careID) in staged {
            append(action: action, entity: entity, entityID: entityID, participantID: participantID,
                   before: try before.map { try shown($0, key: key) }, after: try after.map { try shown($0, key: key) })
            if let participantID {
                var change = flushed.changes[participantID] ?? CareChange()
                switch (careKind, careID) {
                case ("outcome", let task?): change.outcomeTaskIDs.insert(task)
                case (let kind?, let id?): if let kind = EntityKind(rawValue: kind) { change.entities[kind, default: []].insert(id) }
                default: break
                }
                flushed.changes[participantID] = change
            }
        }
        for action in actions {
            append(action: action.action, entity: action.entity, entityID: action.entityID, participantID: action.participantID, before: nil, after: action.after)
        }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: records), as: UTF8.self)
        var binds = PostgresBindings()
        binds.append(json)
        binds.append(head.sequence)
        binds.append(head.hash)
        try await PostgresTransactionRunner.execute(PostgresQuery(unsafeSQL: """
            WITH appended AS (
                INSERT INTO \(s).auditLog (sequence, atMilliseconds, actor, action, entity, entityID, participantID, before, after, reason, previousHash, hash)
                SELECT sequence, atMilliseconds, actor, action, entity, entityID, participantID, before, after, reason, previousHash, hash
                FROM jsonb_to_recordset($1::jsonb) AS r(sequence bigint, atMilliseconds bigint, actor text, action text, entity text, entityID text,
                     participantID text, before text, after text, reason text, previousHash text, hash text)
            )
            UPDATE \(s).auditHead SET sequence = $2, hash = $3 WHERE id = 1
            """, binds: binds), on: connection, logger: logger)
        flushed.head = head
        return flushed
    }

    /// The JSON object a staged row shows (`[[column, value], …]`), written as SQLite's `json_object` writes it: in
    /// column order, without spaces; a timestamp (`{"t": seconds}`) as a REAL; a participant's value (`{"k": hex}`) as
    /// its keyed digest.
    static func shown(_ staged: String, key: AuditKey) throws -> String {
        guard let pairs = try JSONSerialization.jsonObject(with: Data(staged.utf8), options: [.fragmentsAllowed]) as? [[Any]] else {
            throw PostgresAuditTrailError.unreadableStagedRow(staged)
        }
        var text = "{"
        for (index, pair) in pairs.enumerated() {
            guard pair.count == 2, let name = pair[0] as? String else { throw PostgresAuditTrailError.unreadableStagedRow(staged) }
            if index > 0 { text += "," }
            text += quoted(name) + ":" + (try value(pair[1], key: key, in: staged))
        }
        return text + "}"
    }

    private static func value(_ value: Any, key: AuditKey, in staged: String) throws -> String {
        switch value {
        case is NSNull: return "null"
        case let text as String: return quoted(text)
        case let object as [String: Any]:
            if let seconds = object["t"] {
                guard let number = seconds as? NSNumber else { return "null" }
                return real(number.doubleValue)
            }
            if let hex = object["k"] {
                guard let hex = hex as? String else { return "null" }
                guard let bytes = Data(hex: hex) else { throw PostgresAuditTrailError.unreadableStagedRow(staged) }
                return quoted(AuditTrail.digest(of: bytes, key: key))
            }
            throw PostgresAuditTrailError.unreadableStagedRow(staged)
        case let number as NSNumber:
            // Bare numbers are integer columns (timestamps are tagged).
            return String(number.int64Value)
        default:
            throw PostgresAuditTrailError.unreadableStagedRow(staged)
        }
    }

    /// A REAL as SQLite's JSON writes it: 15 significant digits, with a decimal point.
    static func real(_ value: Double) -> String {
        var text = String(format: "%.15g", value)
        if !text.contains(".") && !text.contains("e") && !text.contains("n") && !text.contains("i") { text += ".0" }
        return text
    }

    /// `text` as a JSON string, escaped as SQLite's JSON functions escape it.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// The columns of `auditLog` in ``entry(_:)``'s order.
    static let columns = "sequence, atMilliseconds, actor, action, entity, entityID, participantID, before, after, reason, previousHash, hash"

    typealias Row = (Int64, Int64, String, String, String, String?, String?, String?, String?, String?, String, String)

    static func entry(_ row: Row) -> AuditEntry {
        AuditEntry(sequence: row.0, atMilliseconds: row.1, actor: row.2, action: row.3, entity: row.4, entityID: row.5, participantID: row.6,
                   before: row.7, after: row.8, reason: row.9, previousHash: row.10, hash: row.11)
    }
}

/// Why the audit trail could not be written.
enum PostgresAuditTrailError: Error, CustomStringConvertible {
    /// A staged row is not what the triggers write.
    case unreadableStagedRow(String)

    var description: String {
        switch self {
        case .unreadableStagedRow(let text): "a change staged for the audit trail is not what StudyKit's triggers write: \(text.prefix(200))"
        }
    }
}

extension Data {
    /// The bytes of lowercase or uppercase hex digits; nil for anything else.
    init?(hex: String) {
        var bytes = [UInt8]()
        bytes.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for byte in hex.utf8 {
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard high == nil else { return nil }
        self.init(bytes)
    }
}
