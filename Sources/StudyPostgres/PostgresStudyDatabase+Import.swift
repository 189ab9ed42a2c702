import CareStore
import CareStorePostgres
import Foundation
import Logging
import PostgresNIO
import Study

extension PostgresStudyDatabase {
    /// What ``importStudy(_:auditTrail:recording:)`` left in the database: the trail's new end, the row that records
    /// the import.
    public struct ImportedStudy: Sendable {
        /// The sequence of the row recording the import, the last of the trail.
        public let sequence: Int64
        /// That row's hash.
        public let hash: String
    }

    /// Copies a whole study into this schema, which must hold no study data, in ONE transaction: either all of it
    /// commits, or nothing does (a failure, a crash or a closed connection rolls it all back, leaving the schema empty).
    ///
    /// In that transaction it checks that the schema is empty (no participant, invitation, researcher, care version or
    /// outcome, and an empty audit trail; else ``StudyDataCopyError/targetNotEmpty(_:)``), writes `copy` through the
    /// study store's, the study team's and the care store's writers (``StudyDataCopy/write(study:researchers:care:)``),
    /// then discards what the audited tables' triggers staged for the trail (those inserts are the copied trail's rows
    /// already, and would be doubled), appends the source's trail `auditTrail` verbatim (sequences, times, hashes: it
    /// must start at row 1 and chain, as the source's verified trail does) with the trail's head set to its end, and
    /// last appends one row, `action` `migrate` on the entity `study` with `recording` as its `after`, chained after the
    /// copied ones with this database's ``AuditKey`` (which must be the source's for the chain to verify) as the
    /// current ``AuditTrail/source``. Once committed, the anchor file (when this database has one) names that row.
    ///
    /// Unlike the stores' own writes, the transaction has no time limit and is not run again on a serialization
    /// failure (nothing else should write to a schema being filled). The copy needs the privileges the server's role
    /// has (INSERT and UPDATE on the study tables, INSERT on `auditLog`, DELETE on `auditStage`, UPDATE on `auditHead`);
    /// no trigger is disabled.
    public func importStudy(_ copy: StudyDataCopy, auditTrail entries: [AuditEntry], recording: String) async throws -> ImportedStudy {
        if let problem = Self.chainProblem(entries) { throw PostgresStudyImportError.trailNotChained(problem) }
        let schema = schema, logger = PostgresStudyStorage.silentLogger, audit = audit, source = AuditTrail.source
        let studyStorage = postgresStudyStore.storage, careStorage = postgresCareStore.storage.storage
        try audit.anchor?.writePending()
        let head = try await client.withConnection { connection in
                try await PostgresTransactionRunner.run(on: connection, begin: "BEGIN ISOLATION LEVEL SERIALIZABLE", logger: logger) { connection in
                    let occupied = try await Self.occupiedTables(on: connection, schema: schema, logger: logger)
                    guard occupied.isEmpty else { throw StudyDataCopyError.targetNotEmpty(occupied) }
                    try await copy.write(study: studyStorage.writer(in: connection),
                                         researchers: PostgresResearcherRows(connection: connection, schema: schema, logger: logger),
                                         care: careStorage.writer(in: connection))
                    try await PostgresTransactionRunner.execute(PostgresQuery(unsafeSQL: """
                        DELETE FROM \(schema.name).auditStage WHERE xact = pg_current_xact_id()
                        """), on: connection, logger: logger)
                    try await Self.appendVerbatim(entries, on: connection, schema: schema, logger: logger)
                    let row = PostgresAuditTrail.Action(action: "migrate", entity: "study", entityID: nil, participantID: nil, after: recording)
                    let flushed = try await PostgresAuditTrail.flush(on: connection, schema: schema, key: audit.key, source: source, at: audit.now(),
                                                                     appending: [row], logger: logger)
                    guard let head = flushed.head else { throw PostgresStudyImportError.trailNotChained("the import's own row was not appended") }
                    return head
                }
        }
        try audit.anchor?.record(sequence: head.sequence, hash: head.hash)
        return ImportedStudy(sequence: head.sequence, hash: head.hash)
    }

    /// The tables of this schema that hold study data (``StudyDataCopyError/targetNotEmpty(_:)``'s list), as `name (count)`.
    public func occupiedTables() async throws -> [String] {
        let schema = schema, logger = PostgresStudyStorage.silentLogger
        return try await PostgresTransactionRunner.readOnly(client, logger: logger) { connection in
            try await Self.occupiedTables(on: connection, schema: schema, logger: logger)
        }
    }

    /// How many rows the audit trail holds.
    public func auditRowCount() async throws -> Int {
        let schema = schema, logger = PostgresStudyStorage.silentLogger
        return try await PostgresTransactionRunner.readOnly(client, logger: logger) { connection in
            try await Self.count("auditLog", on: connection, schema: schema, logger: logger)
        }
    }

    private static func occupiedTables(on connection: PostgresConnection, schema: PostgresCareSchema, logger: Logger) async throws -> [String] {
        var occupied: [String] = []
        for table in ["participant", "invitation", "session", "taskRun", "runFile", "consentRecord", "researcher", "version", "outcome", "auditLog"] {
            let count = try await count(table, on: connection, schema: schema, logger: logger)
            if count > 0 { occupied.append("\(table) (\(count))") }
        }
        return occupied
    }

    private static func count(_ table: String, on connection: PostgresConnection, schema: PostgresCareSchema, logger: Logger) async throws -> Int {
        let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(schema.name).\(table)"), logger: logger)
        return Int(try await rows.decode(Int64.self).collected().first ?? 0)
    }

    /// Where `entries` do not form a trail from row 1 whose rows each name the previous one's hash; nil when they do.
    static func chainProblem(_ entries: [AuditEntry]) -> String? {
        var previous: (sequence: Int64, hash: String) = (0, "")
        for entry in entries {
            guard entry.sequence == previous.sequence + 1 else { return "row \(entry.sequence) follows row \(previous.sequence)" }
            guard entry.previousHash == previous.hash else { return "row \(entry.sequence) does not name the hash of row \(previous.sequence)" }
            previous = (entry.sequence, entry.hash)
        }
        return nil
    }

    /// Appends `entries` to the (empty) trail as they are, 500 rows a statement, and sets its head to the last.
    private static func appendVerbatim(_ entries: [AuditEntry], on connection: PostgresConnection, schema: PostgresCareSchema,
                                       logger: Logger) async throws {
        let s = schema.name
        var start = 0
        while start < entries.count {
            let page = entries[start..<min(start + 500, entries.count)]
            start += page.count
            let records: [[String: Any]] = page.map { entry in
                ["sequence": entry.sequence, "atmilliseconds": entry.atMilliseconds, "actor": entry.actor, "action": entry.action, "entity": entry.entity,
                 "entityid": entry.entityID ?? NSNull(), "participantid": entry.participantID ?? NSNull(), "before": entry.before ?? NSNull(),
                 "after": entry.after ?? NSNull(), "reason": entry.reason ?? NSNull(), "previoushash": entry.previousHash, "hash": entry.hash]
            }
            var binds = PostgresBindings()
            binds.append(String(decoding: try JSONSerialization.data(withJSONObject: records), as: UTF8.self))
            try await PostgresTransactionRunner.execute(PostgresQuery(unsafeSQL: """
                INSERT INTO \(s).auditLog (sequence, atMilliseconds, actor, action, entity, entityID, participantID, before, after, reason, previousHash, hash)
                SELECT sequence, atMilliseconds, actor, action, entity, entityID, participantID, before, after, reason, previousHash, hash
                FROM jsonb_to_recordset($1::jsonb) AS r(sequence bigint, atMilliseconds bigint, actor text, action text, entity text, entityID text,
                     participantID text, before text, after text, reason text, previousHash text, hash text)
                """, binds: binds), on: connection, logger: logger)
        }
        guard let last = entries.last else { return }
        var binds = PostgresBindings()
        binds.append(last.sequence)
        binds.append(last.hash)
        try await PostgresTransactionRunner.execute(PostgresQuery(unsafeSQL: "UPDATE \(s).auditHead SET sequence = $1, hash = $2 WHERE id = 1", binds: binds),
                                                    on: connection, logger: logger)
    }
}

/// Why a study could not be imported into PostgreSQL.
public enum PostgresStudyImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The trail to copy is not one chain from row 1.
    case trailNotChained(String)

    public var description: String {
        switch self {
        case .trailNotChained(let problem): "the audit trail to copy is not one chain from its first row: \(problem)"
        }
    }
}
