import CareStoreSQLite
import Consent
import Foundation
import GRDB
import Study

/// The study storage's rows in SQL with bound arguments, each primitive run at once on the connection lent to its
/// transaction: what ``SQLiteStudyStorage`` gives a transaction's body. Statements a page runs on every request are
/// GRDB's cached statements.
struct SQLiteStudyRows: StudyStorageWriter {
    let connection: SQLiteLentConnection
    let restorations: RestorationDataCache

    init(_ connection: SQLiteLentConnection, restorations: RestorationDataCache) {
        self.connection = connection
        self.restorations = restorations
    }

    private func run<T>(_ body: (Database) throws -> T) throws -> T { try connection.run(body) }

    // MARK: - Invitations

    func invitation(codeSHA256: String) throws -> Invitation? {
        try run { db in try Row.fetchOne(db, sql: "SELECT * FROM invitation WHERE codeSHA256 = ?", arguments: [codeSHA256]).map(Rows.invitation) }
    }

    func invitation(id: UUID) throws -> Invitation? {
        try run { db in try Row.fetchOne(db, sql: "SELECT * FROM invitation WHERE id = ?", arguments: [id]).map(Rows.invitation) }
    }

    func invitations() throws -> [Invitation] {
        try run { db in try Row.fetchAll(db, sql: "SELECT * FROM invitation ORDER BY createdAt, id").map(Rows.invitation) }
    }

    func insert(_ invitation: Invitation) throws {
        try run { db in
            try db.execute(sql: "INSERT INTO invitation (id, codeSHA256, label, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?)",
                           arguments: [invitation.id, invitation.codeSHA256, invitation.label, seconds(invitation.createdAt),
                                       invitation.expiresAt.map(seconds)])
        }
    }

    func claimInvitation(id: UUID, by participantID: String, at date: Date) throws -> Bool {
        try run { db in
            try db.execute(sql: "UPDATE invitation SET usedAt = ?, usedBy = ? WHERE id = ? AND usedAt IS NULL",
                           arguments: [seconds(date), participantID, id])
            return db.changesCount == 1
        }
    }

    func revokeInvitation(id: UUID, at date: Date) throws {
        try run { db in
            try db.execute(sql: "UPDATE invitation SET revokedAt = ? WHERE id = ? AND revokedAt IS NULL", arguments: [seconds(date), id])
        }
    }

    // MARK: - Participants

    func participant(id: String) throws -> StudyParticipant? {
        try run { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM participant WHERE id = ?"), arguments: [id]).map(Rows.participant)
        }
    }

    func participants() throws -> [StudyParticipant] {
        try run { db in try Row.fetchAll(db, sql: "SELECT * FROM participant ORDER BY enrolledAt, id").map(Rows.participant) }
    }

    func insert(_ participant: StudyParticipant) throws {
        try run { db in
            try db.execute(sql: """
                INSERT INTO participant (id, patientID, timeZone, language, enrolledAt, invitationID) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [participant.id, participant.patientID, participant.timeZone.identifier, participant.language,
                                 seconds(participant.enrolledAt), participant.invitationID])
        }
    }

    func setLanguage(_ language: String, participantID: String) throws -> Bool {
        try run { db in
            try db.execute(sql: "UPDATE participant SET language = ? WHERE id = ?", arguments: [language, participantID])
            return db.changesCount == 1
        }
    }

    // MARK: - Sessions and sign-in codes

    func session(tokenSHA256: String) throws -> ParticipantSession? {
        try run { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM session WHERE tokenSHA256 = ?"), arguments: [tokenSHA256]).map(Rows.session)
        }
    }

    func sessions(participantID: String) throws -> [ParticipantSession] {
        try run { db in
            try Row.fetchAll(db, sql: "SELECT * FROM session WHERE participantID = ? ORDER BY createdAt DESC, id DESC",
                             arguments: [participantID]).map(Rows.session)
        }
    }

    func sessionsWithTokenHashes(participantID: String) throws -> [(session: ParticipantSession, tokenSHA256: String)] {
        try run { db in
            try Row.fetchAll(db, sql: "SELECT * FROM session WHERE participantID = ? ORDER BY createdAt DESC, id DESC",
                             arguments: [participantID]).map { row in (session: try Rows.session(row), tokenSHA256: row["tokenSHA256"] as String) }
        }
    }

    func insert(_ session: ParticipantSession, tokenSHA256: String) throws {
        try run { db in
            try db.execute(sql: """
                INSERT INTO session (id, tokenSHA256, participantID, createdAt, lastSeenAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [session.id, tokenSHA256, session.participantID, seconds(session.createdAt), seconds(session.lastSeenAt),
                                 seconds(session.expiresAt)])
        }
    }

    func touchSession(id: UUID, at date: Date) throws -> Bool {
        try run { db in
            try db.execute(sql: "UPDATE session SET lastSeenAt = ? WHERE id = ? AND revokedAt IS NULL AND expiresAt > ?",
                           arguments: [seconds(date), id, seconds(date)])
            return db.changesCount == 1
        }
    }

    func revokeSession(id: UUID, participantID: String, at date: Date) throws -> Bool {
        try run { db in
            try db.execute(sql: "UPDATE session SET revokedAt = coalesce(revokedAt, ?) WHERE id = ? AND participantID = ?",
                           arguments: [seconds(date), id, participantID])
            return db.changesCount == 1
        }
    }

    /// The live code's participant: the statement a redeemed code runs twice (read, then in the write).
    private static let liveCode = "SELECT participantID FROM signInCode WHERE codeSHA256 = ? AND usedAt IS NULL AND expiresAt > ?"

    func participantOfLiveSignInCode(codeSHA256: String, at now: Date) throws -> String? {
        try run { db in try String.fetchOne(db.cachedStatement(sql: Self.liveCode), arguments: [codeSHA256, seconds(now)]) }
    }

    func signInCodeExists(codeSHA256: String) throws -> Bool {
        try run { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM signInCode WHERE codeSHA256 = ?", arguments: [codeSHA256]) == true }
    }

    func deleteSignInCodes(spentAt now: Date, orOf participantID: String) throws {
        try run { db in
            try db.execute(sql: "DELETE FROM signInCode WHERE usedAt IS NOT NULL OR expiresAt <= ? OR participantID = ?",
                           arguments: [seconds(now), participantID])
        }
    }

    func insertSignInCode(codeSHA256: String, participantID: String, createdAt: Date, expiresAt: Date) throws {
        try run { db in
            try db.execute(sql: "INSERT INTO signInCode (codeSHA256, participantID, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
                           arguments: [codeSHA256, participantID, seconds(createdAt), seconds(expiresAt)])
        }
    }

    func useSignInCode(codeSHA256: String, at now: Date) throws -> String? {
        try run { db in
            guard let participantID = try String.fetchOne(db, sql: Self.liveCode, arguments: [codeSHA256, seconds(now)]) else { return nil }
            try db.execute(sql: "UPDATE signInCode SET usedAt = ? WHERE codeSHA256 = ?", arguments: [seconds(now), codeSHA256])
            return participantID
        }
    }

    // MARK: - Task runs

    func run(id: UUID) throws -> TaskRun? {
        try run { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM taskRun WHERE id = ?"), arguments: [id])
                .map { try Rows.taskRun($0, restorations: restorations) }
        }
    }

    func runSummary(id: UUID) throws -> TaskRunSummary? {
        try run { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Rows.summaryColumns) FROM taskRun WHERE id = ?"), arguments: [id])
                .map(Rows.taskRunSummary)
        }
    }

    func runs(participantID: String, taskID: String?, state: TaskRunState?) throws -> [TaskRun] {
        try run { db in
            var sql = "SELECT * FROM taskRun WHERE participantID = ?"
            var arguments: StatementArguments = [participantID]
            if let taskID { sql += " AND taskID = ?"; arguments += [taskID] }
            if let state { sql += " AND state = ?"; arguments += [state.rawValue] }
            return try Row.fetchAll(db.cachedStatement(sql: sql + " ORDER BY updatedAt DESC, id DESC"), arguments: arguments)
                .map { try Rows.taskRun($0, restorations: restorations) }
        }
    }

    func runSummaries(participantID: String, state: TaskRunState?) throws -> [TaskRunSummary] {
        try run { db in
            var sql = "SELECT \(Rows.summaryColumns) FROM taskRun WHERE participantID = ?"
            var arguments: StatementArguments = [participantID]
            if let state { sql += " AND state = ?"; arguments += [state.rawValue] }
            return try Row.fetchAll(db.cachedStatement(sql: sql + " ORDER BY updatedAt DESC, id DESC"), arguments: arguments).map(Rows.taskRunSummary)
        }
    }

    func save(_ encoded: EncodedTaskRun, createdAt: Date, updatedAt: Date) throws {
        let run = encoded.run
        try self.run { db in
            // An upsert, not INSERT OR REPLACE (a delete and an insert): the audit trail shows an update.
            try db.cachedStatement(sql: """
                INSERT INTO taskRun (id, participantID, taskID, occurrence, state, restorationData, result, createdAt, updatedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET participantID = excluded.participantID, taskID = excluded.taskID, occurrence = excluded.occurrence,
                    state = excluded.state, restorationData = excluded.restorationData, result = excluded.result, createdAt = excluded.createdAt,
                    updatedAt = excluded.updatedAt
                """).execute(arguments: [run.id, run.participantID, run.taskID, run.occurrence, run.state.rawValue, encoded.restorationJSON,
                                         encoded.resultJSON, seconds(createdAt), seconds(updatedAt)])
        }
        restorations.remember(encoded)
    }

    func deleteRun(id: UUID, participantID: String) throws -> Bool {
        try run { db in
            // Its files first, each deletion in the audit trail (the foreign key's cascade would take them too).
            try db.execute(sql: "DELETE FROM runFile WHERE runID = ? AND participantID = ?", arguments: [id, participantID])
            try db.execute(sql: "DELETE FROM taskRun WHERE id = ? AND participantID = ?", arguments: [id, participantID])
            return db.changesCount == 1
        }
    }

    // MARK: - Run files

    func runFileNames(runID: UUID) throws -> [String] {
        try run { db in try String.fetchAll(db.cachedStatement(sql: "SELECT name FROM runFile WHERE runID = ? ORDER BY name"), arguments: [runID]) }
    }

    func runFiles(participantID: String) throws -> [StoredRunFile] {
        try run { db in
            try Row.fetchAll(db, sql: "SELECT runID, participantID, name, data FROM runFile WHERE participantID = ? ORDER BY runID, name",
                             arguments: [participantID]).map { row in
                StoredRunFile(runID: row["runID"], participantID: row["participantID"], name: row["name"], data: row["data"])
            }
        }
    }

    func putRunFile(_ file: StoredRunFile) throws {
        try run { db in
            guard try String.fetchOne(db.cachedStatement(sql: "SELECT participantID FROM taskRun WHERE id = ?"), arguments: [file.runID])
                    == file.participantID else {
                throw StudyStorageRowError.missingParent(table: "runFile", key: "\(file.runID.uuidString)/\(file.name)")
            }
            // An upsert, not INSERT OR REPLACE (a delete and an insert): the audit trail shows an update.
            try db.cachedStatement(sql: """
                INSERT INTO runFile (runID, participantID, name, data) VALUES (?, ?, ?, ?)
                ON CONFLICT (runID, name) DO UPDATE SET data = excluded.data
                """).execute(arguments: [file.runID, file.participantID, file.name, file.data])
        }
    }

    func deleteRunFile(runID: UUID, name: String) throws {
        try run { db in try db.execute(sql: "DELETE FROM runFile WHERE runID = ? AND name = ?", arguments: [runID, name]) }
    }

    // MARK: - Consent records

    private static let recordSelect = """
        SELECT r.sealedJSON, r.storedAt, p.state, p.pdf, p.path, p.failure
        FROM consentRecord r LEFT JOIN consentPDF p ON p.recordID = r.id
        """

    func consentRecords(participantID: String) throws -> [StoredConsentRecord] {
        try run { db in
            try Row.fetchAll(db, sql: "\(Self.recordSelect) WHERE r.participantID = ? ORDER BY r.storedAt, r.rowid",
                             arguments: [participantID]).map(Rows.consentRecord)
        }
    }

    func consentRecordCount(participantID: String) throws -> Int {
        try run { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM consentRecord WHERE participantID = ?"), arguments: [participantID]) ?? 0
        }
    }

    func consentRecord(id: UUID) throws -> StoredConsentRecord? {
        try run { db in try Row.fetchOne(db, sql: "\(Self.recordSelect) WHERE r.id = ?", arguments: [id]).map(Rows.consentRecord) }
    }

    func consentRecordsAwaitingPDF() throws -> [StoredConsentRecord] {
        try run { db in
            try Row.fetchAll(db, sql: "\(Self.recordSelect) WHERE p.state IS NULL OR p.state <> 'ready' ORDER BY r.storedAt, r.rowid")
                .map(Rows.consentRecord)
        }
    }

    func hasWithdrawalRecord(participantID: String) throws -> Bool {
        try run { db in try SQLiteWithdrawalGuard.isWithdrawn(participantID, db) }
    }

    func append(_ record: StoredConsentRecord) throws {
        try run { db in
            try db.execute(sql: "INSERT INTO consentRecord (id, participantID, kind, sealedJSON, storedAt) VALUES (?, ?, ?, ?, ?)",
                           arguments: [record.id, record.participantID, record.sealed.record.kind.rawValue, record.sealedJSON, seconds(record.storedAt)])
            try db.execute(sql: "INSERT INTO consentPDF (recordID, state, updatedAt) VALUES (?, 'pending', ?)",
                           arguments: [record.id, seconds(record.storedAt)])
        }
    }

    func setConsentPDF(_ state: ConsentPDFState, recordID: UUID, at date: Date) throws {
        var pdf: Data?, path: String?, failure: String?
        switch state {
        case .pending: break
        case .stored(let bytes): pdf = bytes
        case .file(let relativePath): path = relativePath
        case .failed(let reason): failure = reason
        }
        try run { db in
            // An upsert, not INSERT OR REPLACE (a delete without delete triggers and an insert): the audit trail shows an update.
            try db.execute(sql: """
                INSERT INTO consentPDF (recordID, state, pdf, path, failure, updatedAt) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (recordID) DO UPDATE SET state = excluded.state, pdf = excluded.pdf, path = excluded.path, failure = excluded.failure,
                    updatedAt = excluded.updatedAt
                """, arguments: [recordID, state.name, pdf, path, failure, seconds(date)])
        }
    }

    // MARK: - Leases

    func lease(key: String) throws -> StudyLease? {
        try run { db in
            try Row.fetchOne(db, sql: "SELECT holder, claimedUntil FROM lease WHERE key = ?", arguments: [key]).map { row in
                StudyLease(key: key, holder: row["holder"], until: Date(timeIntervalSinceReferenceDate: row["claimedUntil"]))
            }
        }
    }

    func claimLease(key: String, holder: UUID, until: Date, at now: Date) throws -> Bool {
        try run { db in
            // A lease is an operational claim, not study data: its table has no audit trigger. A new claim, or one that
            // takes over a lapsed claim; a live claim is left as it is.
            try db.execute(sql: """
                INSERT INTO lease (key, holder, claimedUntil) VALUES (?, ?, ?)
                ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, claimedUntil = excluded.claimedUntil WHERE lease.claimedUntil <= ?
                """, arguments: [key, holder, seconds(until), seconds(now)])
            return db.changesCount == 1
        }
    }

    func releaseLease(key: String, holder: UUID) throws {
        try run { db in try db.execute(sql: "DELETE FROM lease WHERE key = ? AND holder = ?", arguments: [key, holder]) }
    }

    // MARK: - Sign-in attempt buckets

    func signInBucket(scope: String, client: String) throws -> SignInBucket? {
        try run { db in
            try Row.fetchOne(db, sql: "SELECT tokens, refilledAt FROM signInBucket WHERE scope = ? AND client = ?", arguments: [scope, client])
                .map { row in SignInBucket(tokens: row["tokens"], refilledAt: Date(timeIntervalSinceReferenceDate: row["refilledAt"])) }
        }
    }

    func signInClientBucketCount(scope: String) throws -> Int {
        try run { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM signInBucket WHERE scope = ? AND client <> ?",
                             arguments: [scope, SignInAttemptLimit.serverWide]) ?? 0
        }
    }

    func replaceSignInBucket(scope: String, client: String, with bucket: SignInBucket, fullAt: Date, replacing previous: SignInBucket?) throws -> Bool {
        try run { db in
            if let previous {
                try db.execute(sql: """
                    UPDATE signInBucket SET tokens = ?, refilledAt = ?, fullAt = ?
                    WHERE scope = ? AND client = ? AND tokens = ? AND refilledAt = ?
                    """, arguments: [bucket.tokens, seconds(bucket.refilledAt), seconds(fullAt), scope, client, previous.tokens,
                                     seconds(previous.refilledAt)])
            } else {
                try db.execute(sql: """
                    INSERT INTO signInBucket (scope, client, tokens, refilledAt, fullAt) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """, arguments: [scope, client, bucket.tokens, seconds(bucket.refilledAt), seconds(fullAt)])
            }
            return db.changesCount == 1
        }
    }

    func deleteSignInClientBuckets(scope: String, fullBy date: Date?) throws {
        try run { db in
            if let date {
                try db.execute(sql: "DELETE FROM signInBucket WHERE scope = ? AND client <> ? AND fullAt <= ?",
                               arguments: [scope, SignInAttemptLimit.serverWide, seconds(date)])
            } else {
                try db.execute(sql: "DELETE FROM signInBucket WHERE scope = ? AND client <> ?", arguments: [scope, SignInAttemptLimit.serverWide])
            }
        }
    }
}
