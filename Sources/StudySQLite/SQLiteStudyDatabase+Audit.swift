import Consent
import Foundation
import GRDB
import Study
import StudyKitEnvironment

extension SQLiteStudyDatabase {
    /// The participant's rows, newest first.
    public func auditEntries(participantID: String, limit: Int) async throws -> [AuditEntry] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM auditLog WHERE participantID = ? ORDER BY sequence DESC LIMIT ?",
                             arguments: [participantID, limit]).map(SQLiteAuditTrail.entry)
        }
    }

    /// Every row in order, read a page at a time.
    public func forEachAuditEntry(_ body: (AuditEntry) throws -> Bool) async throws {
        var last: Int64 = 0
        while true {
            let after = last
            let page = try await database.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM auditLog WHERE sequence > ? ORDER BY sequence LIMIT 1000", arguments: [after])
                    .map(SQLiteAuditTrail.entry)
            }
            for entry in page {
                guard try body(entry) else { return }
            }
            guard let final = page.last else { return }
            last = final.sequence
        }
    }

    /// What is wrong with the triggers that write the audit trail or keep it append-only: each one missing or changed.
    /// Empty when all are in place; a writable open refuses a file with problems, and `studykit audit verify` reports them.
    public func auditTriggerProblems() async throws -> [String] {
        try await database.read { db in try SQLiteAuditTrail.triggerProblems(in: db) }
    }

    /// Appends a row for an action that changes no stored row, as the current ``AuditTrail/source``.
    public func appendAudit(action: String, entity: String, entityID: String?, participantID: String?, after: String?) async throws {
        let audit = audit, source = AuditTrail.source
        try await connections.write { db in
            try SQLiteAuditTrail.run(audit, as: source, in: db) {
                try db.execute(sql: SQLiteAuditTrail.append(action: action, entity: entity, entityID: "?", participantID: "?", before: "NULL", after: "?"),
                               arguments: [entityID, participantID, after])
            }
        }
    }
}

extension SQLiteStudyDatabase {
    /// The check of the audit trail of the database file `database`: every row keyed with its data folder's key
    /// (`DATA/keys/audit-trail-key`) from where the trail was keyed, and the trail reaching its latest anchor
    /// (`DATA/study.audit-anchor.json` beside `DATA/study.sqlite`), signed by `publicKey` (by default the folder's own signing key; give the server's
    /// public key, as `studykit consent key` prints it, to check a copy of a data folder with no keys of its own).
    ///
    /// ```swift
    /// let check = try SQLiteStudyDatabase.auditChainCheck(database: data.appendingPathComponent("study.sqlite"))
    /// if let problem = try await database.verifyAuditTrail(check) { print(problem) }
    /// ```
    ///
    /// Throws ``SQLiteAuditAnchorError`` when the anchor or the key is missing, or the anchor is not signed by that key.
    public static func auditChainCheck(database: URL, publicKey: ConsentPublicKey? = nil) throws -> AuditChainCheck {
        try SQLiteAuditKeying.verification(database: database, publicKey: publicKey)
    }

    /// Anchors now what the last commits appended, when their anchor is still waiting for the end of a burst
    /// (``SQLiteStudyDatabase/init(path:environment:durability:auditAnchorInterval:)``).
    public func anchorAuditTrailNow() {
        audit?.flushAnchor()
    }

    /// Checks this database's trail as ``auditChainCheck(database:publicKey:)`` does for its file (in memory:
    /// every row keyed with its own key, nothing anchored): nil when it holds, else where it first breaks.
    public func verifyAuditTrail() async throws -> AuditBreak? {
        guard let audit else { throw SQLiteAuditAnchorError.anchorMissing(path: "(a database opened for reading: use auditChainCheck(database:))") }
        if let file = audit.databaseURL {
            return try await verifyAuditTrail(try Self.auditChainCheck(database: file))
        }
        return try await verifyAuditTrail(AuditChainCheck(key: try audit.key, anchor: nil))
    }
}

extension SQLiteStudyDatabase {
    /// Anchors the trail of the file at `path` afresh where it ends now, for a study team that restored the database from
    /// a backup older than its anchor, or lost the anchor, and knows why: every row is checked with the data folder's key
    /// first (a trail that does not hold row by row is refused), the new anchor written, and then a row of the trail
    /// records it, as the current ``AuditTrail/source``, with `reason` and the anchor it replaced.
    ///
    /// ```swift
    /// let replaced = try await SQLiteStudyDatabase.reanchorAuditTrail(path: "data/study.sqlite", reason: "restored from the backup of 2026-11-27")
    /// ```
    @discardableResult
    public static func reanchorAuditTrail(path: String, reason: String, environment: StudyKitEnvironment = .live) async throws -> AuditAnchor? {
        let (previous, anchor) = try SQLiteAuditKeying.reanchor(database: URL(fileURLWithPath: path), now: environment.now())
        try await SQLiteStudyDatabase(path: path, environment: environment).appendReanchoring(reason: reason, anchoredAt: anchor.sequence, replaced: previous)
        return previous
    }
}
