import CareStorePostgres
import Consent
import Foundation
import Logging
import PostgresNIO
import Research
import Study

/// The study storage's rows in SQL with bound parameters, inside one transaction on one leased connection: what
/// ``PostgresStudyStorage`` gives a transaction's body, and what ``PostgresStudyDatabase`` gives the study side of a
/// joint one. Each statement is made by a static function named after its method (`runsQuery`, …), so that a test can
/// ask PostgreSQL for its plan.
struct PostgresStudyRows: StudyStorageWriter, Sendable {
    let connection: PostgresConnection
    let schema: PostgresCareSchema
    let logger: Logger

    // MARK: - Invitations

    private static let invitationColumns = "id, codeSHA256, label, createdAt, expiresAt, usedAt, usedBy, revokedAt"

    static func invitationQuery(in schema: PostgresCareSchema, codeSHA256: String) -> PostgresQuery {
        "SELECT \(unescaped: invitationColumns) FROM \(unescaped: schema.name).invitation WHERE codeSHA256 = \(codeSHA256)"
    }

    func invitation(codeSHA256: String) async throws -> Invitation? {
        try await invitations(Self.invitationQuery(in: schema, codeSHA256: codeSHA256)).first
    }

    func invitation(id: UUID) async throws -> Invitation? {
        try await invitations("SELECT \(unescaped: Self.invitationColumns) FROM \(unescaped: schema.name).invitation WHERE id = \(id)").first
    }

    func invitations() async throws -> [Invitation] {
        try await invitations("SELECT \(unescaped: Self.invitationColumns) FROM \(unescaped: schema.name).invitation ORDER BY createdAt, id")
    }

    func insert(_ invitation: Invitation) async throws {
        try await execute("""
            INSERT INTO \(unescaped: schema.name).invitation (id, codeSHA256, label, createdAt, expiresAt)
            VALUES (\(invitation.id), \(invitation.codeSHA256), \(invitation.label), \(PostgresTimestamp(invitation.createdAt)),
                    \(invitation.expiresAt.map(PostgresTimestamp.init)))
            """)
    }

    func claimInvitation(id: UUID, by participantID: String, at date: Date) async throws -> Bool {
        try await rowCount("""
            UPDATE \(unescaped: schema.name).invitation SET usedAt = \(PostgresTimestamp(date)), usedBy = \(participantID)
            WHERE id = \(id) AND usedAt IS NULL RETURNING 1
            """) == 1
    }

    func revokeInvitation(id: UUID, at date: Date) async throws {
        try await execute("""
            UPDATE \(unescaped: schema.name).invitation SET revokedAt = \(PostgresTimestamp(date)) WHERE id = \(id) AND revokedAt IS NULL
            """)
    }

    // MARK: - Participants

    private static let participantColumns = "id, patientID, timeZone, language, enrolledAt, invitationID"

    func participant(id: String) async throws -> StudyParticipant? {
        try await participants("SELECT \(unescaped: Self.participantColumns) FROM \(unescaped: schema.name).participant WHERE id = \(id)").first
    }

    func participants() async throws -> [StudyParticipant] {
        try await participants("SELECT \(unescaped: Self.participantColumns) FROM \(unescaped: schema.name).participant ORDER BY enrolledAt, id")
    }

    func insert(_ participant: StudyParticipant) async throws {
        try await execute("""
            INSERT INTO \(unescaped: schema.name).participant (id, patientID, timeZone, language, enrolledAt, invitationID)
            VALUES (\(participant.id), \(participant.patientID), \(participant.timeZone.identifier), \(participant.language),
                    \(PostgresTimestamp(participant.enrolledAt)), \(participant.invitationID))
            """)
    }

    func setLanguage(_ language: String, participantID: String) async throws -> Bool {
        try await rowCount("UPDATE \(unescaped: schema.name).participant SET language = \(language) WHERE id = \(participantID) RETURNING 1") == 1
    }

    // MARK: - Sessions and sign-in codes

    private static let sessionColumns = "id, participantID, createdAt, lastSeenAt, expiresAt, revokedAt"

    static func sessionQuery(in schema: PostgresCareSchema, tokenSHA256: String) -> PostgresQuery {
        "SELECT \(unescaped: sessionColumns) FROM \(unescaped: schema.name).session WHERE tokenSHA256 = \(tokenSHA256)"
    }

    static func sessionsQuery(in schema: PostgresCareSchema, participantID: String) -> PostgresQuery {
        """
        SELECT \(unescaped: sessionColumns) FROM \(unescaped: schema.name).session WHERE participantID = \(participantID)
        ORDER BY createdAt DESC, id DESC
        """
    }

    func session(tokenSHA256: String) async throws -> ParticipantSession? {
        try await sessions(Self.sessionQuery(in: schema, tokenSHA256: tokenSHA256)).first
    }

    func sessions(participantID: String) async throws -> [ParticipantSession] {
        try await sessions(Self.sessionsQuery(in: schema, participantID: participantID))
    }

    func sessionsWithTokenHashes(participantID: String) async throws -> [(session: ParticipantSession, tokenSHA256: String)] {
        var sessions: [(session: ParticipantSession, tokenSHA256: String)] = []
        let rows = try await connection.query("""
            SELECT \(unescaped: Self.sessionColumns), tokenSHA256 FROM \(unescaped: schema.name).session WHERE participantID = \(participantID)
            ORDER BY createdAt DESC, id DESC
            """, logger: logger)
        for try await (id, participantID, created, lastSeen, expires, revoked, hash)
                in rows.decode((UUID, String, PostgresTimestamp, PostgresTimestamp, PostgresTimestamp, PostgresTimestamp?, String).self) {
            sessions.append((session: ParticipantSession(id: id, participantID: participantID, createdAt: created.date, lastSeenAt: lastSeen.date,
                                                         expiresAt: expires.date, revokedAt: revoked?.date), tokenSHA256: hash))
        }
        return sessions
    }

    func insert(_ session: ParticipantSession, tokenSHA256: String) async throws {
        try await execute("""
            INSERT INTO \(unescaped: schema.name).session (id, tokenSHA256, participantID, createdAt, lastSeenAt, expiresAt)
            VALUES (\(session.id), \(tokenSHA256), \(session.participantID), \(PostgresTimestamp(session.createdAt)),
                    \(PostgresTimestamp(session.lastSeenAt)), \(PostgresTimestamp(session.expiresAt)))
            """)
    }

    func touchSession(id: UUID, at date: Date) async throws -> Bool {
        let now = PostgresTimestamp(date)
        return try await rowCount("""
            UPDATE \(unescaped: schema.name).session SET lastSeenAt = \(now)
            WHERE id = \(id) AND revokedAt IS NULL AND expiresAt > \(now) RETURNING 1
            """) == 1
    }

    func revokeSession(id: UUID, participantID: String, at date: Date) async throws -> Bool {
        try await rowCount("""
            UPDATE \(unescaped: schema.name).session SET revokedAt = coalesce(revokedAt, \(PostgresTimestamp(date)))
            WHERE id = \(id) AND participantID = \(participantID) RETURNING 1
            """) == 1
    }

    static func liveSignInCodeQuery(in schema: PostgresCareSchema, codeSHA256: String, at now: Date) -> PostgresQuery {
        """
        SELECT participantID FROM \(unescaped: schema.name).signInCode
        WHERE codeSHA256 = \(codeSHA256) AND usedAt IS NULL AND expiresAt > \(PostgresTimestamp(now))
        """
    }

    func participantOfLiveSignInCode(codeSHA256: String, at now: Date) async throws -> String? {
        try await strings(Self.liveSignInCodeQuery(in: schema, codeSHA256: codeSHA256, at: now)).first
    }

    func signInCodeExists(codeSHA256: String) async throws -> Bool {
        try await rowCount("SELECT 1 FROM \(unescaped: schema.name).signInCode WHERE codeSHA256 = \(codeSHA256)") > 0
    }

    static func deleteSignInCodesQuery(in schema: PostgresCareSchema, spentAt now: Date, orOf participantID: String) -> PostgresQuery {
        """
        DELETE FROM \(unescaped: schema.name).signInCode
        WHERE usedAt IS NOT NULL OR expiresAt <= \(PostgresTimestamp(now)) OR participantID = \(participantID)
        """
    }

    func deleteSignInCodes(spentAt now: Date, orOf participantID: String) async throws {
        try await execute(Self.deleteSignInCodesQuery(in: schema, spentAt: now, orOf: participantID))
    }

    func insertSignInCode(codeSHA256: String, participantID: String, createdAt: Date, expiresAt: Date) async throws {
        try await execute("""
            INSERT INTO \(unescaped: schema.name).signInCode (codeSHA256, participantID, createdAt, expiresAt)
            VALUES (\(codeSHA256), \(participantID), \(PostgresTimestamp(createdAt)), \(PostgresTimestamp(expiresAt)))
            """)
    }

    func useSignInCode(codeSHA256: String, at now: Date) async throws -> String? {
        // One statement: the code is marked used only while it is live, and its participant comes back when it was.
        try await strings("""
            UPDATE \(unescaped: schema.name).signInCode SET usedAt = \(PostgresTimestamp(now))
            WHERE codeSHA256 = \(codeSHA256) AND usedAt IS NULL AND expiresAt > \(PostgresTimestamp(now)) RETURNING participantID
            """).first
    }

    // MARK: - Task runs

    private static let runColumns = "id, participantID, taskID, occurrence, state, createdAt, updatedAt, restorationData, result"
    private static let summaryColumns = "id, participantID, taskID, occurrence, state, createdAt, updatedAt"

    /// The participant's runs (of one task, in one state, when given), most recently saved first, with `columns`.
    static func runsQuery(in schema: PostgresCareSchema, columns: String, participantID: String, taskID: String?, state: TaskRunState?) -> PostgresQuery {
        let base: PostgresQuery = "SELECT \(unescaped: columns) FROM \(unescaped: schema.name).taskRun WHERE participantID = \(participantID)"
        var sql = base.sql, binds = base.binds
        if let taskID {
            binds.append(taskID)
            sql += " AND taskID = $\(binds.count)"
        }
        if let state {
            binds.append(state.rawValue)
            sql += " AND state = $\(binds.count)"
        }
        return PostgresQuery(unsafeSQL: sql + " ORDER BY updatedAt DESC, id DESC", binds: binds)
    }

    static func runQuery(in schema: PostgresCareSchema, columns: String, id: UUID) -> PostgresQuery {
        "SELECT \(unescaped: columns) FROM \(unescaped: schema.name).taskRun WHERE id = \(id)"
    }

    func run(id: UUID) async throws -> TaskRun? {
        try await runs(Self.runQuery(in: schema, columns: Self.runColumns, id: id)).first
    }

    func runSummary(id: UUID) async throws -> TaskRunSummary? {
        try await summaries(Self.runQuery(in: schema, columns: Self.summaryColumns, id: id)).first
    }

    func runs(participantID: String, taskID: String?, state: TaskRunState?) async throws -> [TaskRun] {
        try await runs(Self.runsQuery(in: schema, columns: Self.runColumns, participantID: participantID, taskID: taskID, state: state))
    }

    func runSummaries(participantID: String, state: TaskRunState?) async throws -> [TaskRunSummary] {
        try await summaries(Self.runsQuery(in: schema, columns: Self.summaryColumns, participantID: participantID, taskID: nil, state: state))
    }

    func save(_ encoded: EncodedTaskRun, createdAt: Date, updatedAt: Date) async throws {
        let run = encoded.run
        try await execute("""
            INSERT INTO \(unescaped: schema.name).taskRun (id, participantID, taskID, occurrence, state, restorationData, result, createdAt, updatedAt)
            VALUES (\(run.id), \(run.participantID), \(run.taskID), \(run.occurrence.map(Int64.init)), \(run.state.rawValue),
                    \(encoded.restorationJSON), \(encoded.resultJSON), \(PostgresTimestamp(createdAt)), \(PostgresTimestamp(updatedAt)))
            ON CONFLICT (id) DO UPDATE SET participantID = excluded.participantID, taskID = excluded.taskID, occurrence = excluded.occurrence,
                state = excluded.state, restorationData = excluded.restorationData, result = excluded.result, createdAt = excluded.createdAt,
                updatedAt = excluded.updatedAt
            """)
    }

    func deleteRun(id: UUID, participantID: String) async throws -> Bool {
        // Its files first, each deletion in the audit trail (the foreign key's cascade would take them too).
        try await execute("DELETE FROM \(unescaped: schema.name).runFile WHERE runID = \(id) AND participantID = \(participantID)")
        return try await rowCount("DELETE FROM \(unescaped: schema.name).taskRun WHERE id = \(id) AND participantID = \(participantID) RETURNING 1") == 1
    }

    // MARK: - Run files

    static func runFileNamesQuery(in schema: PostgresCareSchema, runID: UUID) -> PostgresQuery {
        "SELECT name FROM \(unescaped: schema.name).runFile WHERE runID = \(runID) ORDER BY name"
    }

    func runFileNames(runID: UUID) async throws -> [String] {
        var names: [String] = []
        for try await name in try await connection.query(Self.runFileNamesQuery(in: schema, runID: runID), logger: logger).decode(String.self) {
            names.append(name)
        }
        return names
    }

    static func runFilesQuery(in schema: PostgresCareSchema, participantID: String) -> PostgresQuery {
        "SELECT runID, participantID, name, data FROM \(unescaped: schema.name).runFile WHERE participantID = \(participantID) ORDER BY runID, name"
    }

    func runFiles(participantID: String) async throws -> [StoredRunFile] {
        var files: [StoredRunFile] = []
        let rows = try await connection.query(Self.runFilesQuery(in: schema, participantID: participantID), logger: logger)
        for try await (runID, participant, name, data) in rows.decode((UUID, String, String, Data).self) {
            files.append(StoredRunFile(runID: runID, participantID: participant, name: name, data: data))
        }
        return files
    }

    func putRunFile(_ file: StoredRunFile) async throws {
        // Only beside the participant's own run: the insert selects nothing otherwise.
        let stored = try await rowCount("""
            INSERT INTO \(unescaped: schema.name).runFile (runID, participantID, name, data)
            SELECT id, participantID, \(file.name), \(file.data) FROM \(unescaped: schema.name).taskRun
            WHERE id = \(file.runID) AND participantID = \(file.participantID)
            ON CONFLICT (runID, name) DO UPDATE SET data = excluded.data
            RETURNING 1
            """)
        guard stored == 1 else { throw StudyStorageRowError.missingParent(table: "runFile", key: "\(file.runID.uuidString)/\(file.name)") }
    }

    func deleteRunFile(runID: UUID, name: String) async throws {
        try await execute("DELETE FROM \(unescaped: schema.name).runFile WHERE runID = \(runID) AND name = \(name)")
    }

    // MARK: - Consent records

    /// A record with its PDF, which ``append(_:)`` inserts with it.
    private static func recordSelect(_ schema: PostgresCareSchema) -> String {
        """
        SELECT r.sealedJSON, r.storedAt, p.state, p.pdf, p.path, p.failure
        FROM \(schema.name).consentRecord r JOIN \(schema.name).consentPDF p ON p.recordID = r.id
        """
    }

    static func consentRecordsQuery(in schema: PostgresCareSchema, participantID: String) -> PostgresQuery {
        "\(unescaped: recordSelect(schema)) WHERE r.participantID = \(participantID) ORDER BY r.storedAt, r.sequence"
    }

    static func consentRecordsAwaitingPDFQuery(in schema: PostgresCareSchema) -> PostgresQuery {
        "\(unescaped: recordSelect(schema)) WHERE p.state <> 'ready' ORDER BY r.storedAt, r.sequence"
    }

    static func withdrawalQuery(in schema: PostgresCareSchema, participantID: String) -> PostgresQuery {
        "SELECT 1 FROM \(unescaped: schema.name).consentRecord WHERE participantID = \(participantID) AND kind = 'withdrawal'"
    }

    func consentRecords(participantID: String) async throws -> [StoredConsentRecord] {
        try await records(Self.consentRecordsQuery(in: schema, participantID: participantID))
    }

    func consentRecordCount(participantID: String) async throws -> Int {
        let rows = try await connection.query("SELECT count(*) FROM \(unescaped: schema.name).consentRecord WHERE participantID = \(participantID)",
                                              logger: logger)
        var count = 0
        for try await value in rows.decode(Int64.self) { count = Int(value) }
        return count
    }

    func consentRecord(id: UUID) async throws -> StoredConsentRecord? {
        try await records("\(unescaped: Self.recordSelect(schema)) WHERE r.id = \(id)").first
    }

    func consentRecordsAwaitingPDF() async throws -> [StoredConsentRecord] {
        try await records(Self.consentRecordsAwaitingPDFQuery(in: schema))
    }

    func hasWithdrawalRecord(participantID: String) async throws -> Bool {
        try await rowCount(Self.withdrawalQuery(in: schema, participantID: participantID)) > 0
    }

    func append(_ record: StoredConsentRecord) async throws {
        let storedAt = PostgresTimestamp(record.storedAt)
        try await execute("""
            INSERT INTO \(unescaped: schema.name).consentRecord (id, participantID, kind, sealedJSON, storedAt)
            VALUES (\(record.id), \(record.participantID), \(record.sealed.record.kind.rawValue), \(record.sealedJSON), \(storedAt))
            """)
        try await execute("""
            INSERT INTO \(unescaped: schema.name).consentPDF (recordID, state, updatedAt) VALUES (\(record.id), 'pending', \(storedAt))
            """)
    }

    func setConsentPDF(_ state: ConsentPDFState, recordID: UUID, at date: Date) async throws {
        var pdf: Data?, path: String?, failure: String?
        switch state {
        case .pending: break
        case .stored(let bytes): pdf = bytes
        case .file(let relativePath): path = relativePath
        case .failed(let reason): failure = reason
        }
        try await execute("""
            INSERT INTO \(unescaped: schema.name).consentPDF (recordID, state, pdf, path, failure, updatedAt)
            VALUES (\(recordID), \(state.name), \(pdf), \(path), \(failure), \(PostgresTimestamp(date)))
            ON CONFLICT (recordID) DO UPDATE SET state = excluded.state, pdf = excluded.pdf, path = excluded.path, failure = excluded.failure,
                updatedAt = excluded.updatedAt
            """)
    }

    // MARK: - Leases

    static func leaseQuery(in schema: PostgresCareSchema, key: String) -> PostgresQuery {
        "SELECT holder, claimedUntil FROM \(unescaped: schema.name).lease WHERE key = \(key)"
    }

    func lease(key: String) async throws -> StudyLease? {
        var lease: StudyLease?
        for try await (holder, until) in try await connection.query(Self.leaseQuery(in: schema, key: key), logger: logger)
            .decode((UUID, PostgresTimestamp).self) {
            lease = StudyLease(key: key, holder: holder, until: until.date)
        }
        return lease
    }

    func claimLease(key: String, holder: UUID, until: Date, at now: Date) async throws -> Bool {
        // One statement: a new claim, or one that takes over a lapsed claim; a live claim is left as it is, and nothing
        // comes back. Two processes claiming at once meet on the primary key: one waits for the other's commit and then
        // sees its claim (or, in serializable transactions, is refused and run again).
        try await rowCount("""
            INSERT INTO \(unescaped: schema.name).lease AS l (key, holder, claimedUntil) VALUES (\(key), \(holder), \(PostgresTimestamp(until)))
            ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, claimedUntil = excluded.claimedUntil
            WHERE l.claimedUntil <= \(PostgresTimestamp(now))
            RETURNING 1
            """) == 1
    }

    func releaseLease(key: String, holder: UUID) async throws {
        try await execute("DELETE FROM \(unescaped: schema.name).lease WHERE key = \(key) AND holder = \(holder)")
    }

    // MARK: - Sign-in attempt buckets

    static func signInBucketQuery(in schema: PostgresCareSchema, scope: String, client: String) -> PostgresQuery {
        "SELECT tokens, refilledAt FROM \(unescaped: schema.name).signInBucket WHERE scope = \(scope) AND client = \(client)"
    }

    func signInBucket(scope: String, client: String) async throws -> SignInBucket? {
        var bucket: SignInBucket?
        for try await (tokens, refilledAt) in try await connection.query(Self.signInBucketQuery(in: schema, scope: scope, client: client), logger: logger)
            .decode((Double, PostgresTimestamp).self) {
            bucket = SignInBucket(tokens: tokens, refilledAt: refilledAt.date)
        }
        return bucket
    }

    func signInClientBucketCount(scope: String) async throws -> Int {
        let query: PostgresQuery = """
            SELECT count(*) FROM \(unescaped: schema.name).signInBucket WHERE scope = \(scope) AND client <> \(SignInAttemptLimit.serverWide)
            """
        var count = 0
        for try await value in try await connection.query(query, logger: logger).decode(Int64.self) { count = Int(value) }
        return count
    }

    func replaceSignInBucket(scope: String, client: String, with bucket: SignInBucket, fullAt: Date, replacing previous: SignInBucket?) async throws -> Bool {
        let table = schema.name + ".signInBucket"
        if let previous {
            return try await rowCount("""
                UPDATE \(unescaped: table) SET tokens = \(bucket.tokens), refilledAt = \(PostgresTimestamp(bucket.refilledAt)),
                    fullAt = \(PostgresTimestamp(fullAt))
                WHERE scope = \(scope) AND client = \(client) AND tokens = \(previous.tokens) AND refilledAt = \(PostgresTimestamp(previous.refilledAt))
                RETURNING 1
                """) == 1
        }
        return try await rowCount("""
            INSERT INTO \(unescaped: table) (scope, client, tokens, refilledAt, fullAt)
            VALUES (\(scope), \(client), \(bucket.tokens), \(PostgresTimestamp(bucket.refilledAt)), \(PostgresTimestamp(fullAt)))
            ON CONFLICT DO NOTHING RETURNING 1
            """) == 1
    }

    func deleteSignInClientBuckets(scope: String, fullBy date: Date?) async throws {
        let table = schema.name + ".signInBucket"
        if let date {
            try await execute("""
                DELETE FROM \(unescaped: table) WHERE scope = \(scope) AND client <> \(SignInAttemptLimit.serverWide) AND fullAt <= \(PostgresTimestamp(date))
                """)
        } else {
            try await execute("DELETE FROM \(unescaped: table) WHERE scope = \(scope) AND client <> \(SignInAttemptLimit.serverWide)")
        }
    }

    // MARK: - Statements

    func execute(_ query: PostgresQuery) async throws {
        try await PostgresTransactionRunner.execute(query, on: connection, logger: logger)
    }

    func rowCount(_ query: PostgresQuery) async throws -> Int {
        try await PostgresTransactionRunner.rowCount(query, on: connection, logger: logger)
    }

    private func strings(_ query: PostgresQuery) async throws -> [String] {
        var values: [String] = []
        for try await value in try await connection.query(query, logger: logger).decode(String.self) { values.append(value) }
        return values
    }

    // MARK: - Rows

    private func invitations(_ query: PostgresQuery) async throws -> [Invitation] {
        var invitations: [Invitation] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (id, code, label, created, expires, used, usedBy, revoked)
                in rows.decode((UUID, String, String?, PostgresTimestamp, PostgresTimestamp?, PostgresTimestamp?, String?, PostgresTimestamp?).self) {
            invitations.append(Invitation(id: id, codeSHA256: code, label: label, createdAt: created.date, expiresAt: expires?.date, usedAt: used?.date,
                                          usedBy: usedBy, revokedAt: revoked?.date))
        }
        return invitations
    }

    private func participants(_ query: PostgresQuery) async throws -> [StudyParticipant] {
        var participants: [StudyParticipant] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (id, patientID, zoneName, language, enrolled, invitationID)
                in rows.decode((String, String, String, String, PostgresTimestamp, UUID?).self) {
            guard let zone = TimeZone(identifier: zoneName) else {
                throw PostgresStudyStorageError(table: "participant", column: "timeZone", value: zoneName)
            }
            participants.append(StudyParticipant(id: id, patientID: patientID, timeZone: zone, language: language, enrolledAt: enrolled.date,
                                                 invitationID: invitationID))
        }
        return participants
    }

    private func sessions(_ query: PostgresQuery) async throws -> [ParticipantSession] {
        var sessions: [ParticipantSession] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (id, participantID, created, lastSeen, expires, revoked)
                in rows.decode((UUID, String, PostgresTimestamp, PostgresTimestamp, PostgresTimestamp, PostgresTimestamp?).self) {
            sessions.append(ParticipantSession(id: id, participantID: participantID, createdAt: created.date, lastSeenAt: lastSeen.date,
                                               expiresAt: expires.date, revokedAt: revoked?.date))
        }
        return sessions
    }

    private static func state(_ name: String) throws -> TaskRunState {
        guard let state = TaskRunState(rawValue: name) else { throw PostgresStudyStorageError(table: "taskRun", column: "state", value: name) }
        return state
    }

    private func summaries(_ query: PostgresQuery) async throws -> [TaskRunSummary] {
        var summaries: [TaskRunSummary] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (id, participantID, taskID, occurrence, stateName, created, updated)
                in rows.decode((UUID, String, String, Int64?, String, PostgresTimestamp, PostgresTimestamp).self) {
            summaries.append(TaskRunSummary(id: id, participantID: participantID, taskID: taskID, occurrence: occurrence.map(Int.init),
                                            state: try Self.state(stateName), createdAt: created.date, updatedAt: updated.date))
        }
        return summaries
    }

    private func runs(_ query: PostgresQuery) async throws -> [TaskRun] {
        var runs: [TaskRun] = []
        let decoder = ResearchJSON.decoder()
        let rows = try await connection.query(query, logger: logger)
        for try await (id, participantID, taskID, occurrence, stateName, created, updated, restorationJSON, resultJSON)
                in rows.decode((UUID, String, String, Int64?, String, PostgresTimestamp, PostgresTimestamp, Data?, Data?).self) {
            runs.append(try Self.run(id: id, participantID: participantID, taskID: taskID, occurrence: occurrence, stateName: stateName,
                                     created: created, updated: updated, restorationJSON: restorationJSON, resultJSON: resultJSON, decoder: decoder))
        }
        return runs
    }

    /// The run with this id and its files' names, in name order.
    static func runWithFileNamesQuery(in schema: PostgresCareSchema, id: UUID) -> PostgresQuery {
        """
        SELECT \(unescaped: runColumns), ARRAY(SELECT f.name FROM \(unescaped: schema.name).runFile f WHERE f.runID = r.id ORDER BY f.name)
        FROM \(unescaped: schema.name).taskRun r WHERE r.id = \(id)
        """
    }

    /// The run with this id and its files' names, in one statement (a post to a run reads both first).
    func runWithFileNames(id: UUID) async throws -> (run: TaskRun, fileNames: [String])? {
        let decoder = ResearchJSON.decoder()
        let rows = try await connection.query(Self.runWithFileNamesQuery(in: schema, id: id), logger: logger)
        var found: (run: TaskRun, fileNames: [String])?
        for try await (id, participantID, taskID, occurrence, stateName, created, updated, restorationJSON, resultJSON, names)
                in rows.decode((UUID, String, String, Int64?, String, PostgresTimestamp, PostgresTimestamp, Data?, Data?, [String]).self) {
            found = (try Self.run(id: id, participantID: participantID, taskID: taskID, occurrence: occurrence, stateName: stateName,
                                  created: created, updated: updated, restorationJSON: restorationJSON, resultJSON: resultJSON, decoder: decoder), names)
        }
        return found
    }

    /// A run from its row; a run whose JSON was damaged in the database names itself, the column and the place in the JSON.
    private static func run(id: UUID, participantID: String, taskID: String, occurrence: Int64?, stateName: String, created: PostgresTimestamp,
                            updated: PostgresTimestamp, restorationJSON: Data?, resultJSON: Data?, decoder: JSONDecoder) throws -> TaskRun {
        func readable<Value: Decodable>(_ column: String, _ json: Data?, as type: Value.Type) throws -> Value? {
            guard let json else { return nil }
            do {
                return try decoder.decode(type, from: json)
            } catch let error as DecodingError {
                throw PostgresStudyStorageError(table: "taskRun", column: column, value: "run \(id.uuidString.lowercased())",
                                                reason: TaskValidator.problem(from: error, in: json).description)
            }
        }
        var run = TaskRun(id: id, participantID: participantID, taskID: taskID, occurrence: occurrence.map(Int.init), state: try state(stateName),
                          restorationData: try readable("restorationData", restorationJSON, as: TaskRestorationData.self),
                          result: try readable("result", resultJSON, as: TaskResult.self))
        run.createdAt = created.date
        run.updatedAt = updated.date
        return run
    }

    private func records(_ query: PostgresQuery) async throws -> [StoredConsentRecord] {
        var records: [StoredConsentRecord] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (json, stored, stateName, pdfBytes, path, failure)
                in rows.decode((Data, PostgresTimestamp, String, Data?, String?, String?).self) {
            let pdf: ConsentPDFState
            switch stateName {
            case "pending": pdf = .pending
            case "failed": pdf = .failed(reason: failure ?? "")
            case "ready": pdf = path.map { .file(relativePath: $0) } ?? .stored(pdfBytes ?? Data())
            default: throw PostgresStudyStorageError(table: "consentPDF", column: "state", value: stateName)
            }
            records.append(StoredConsentRecord(sealed: try SealedConsentRecord(jsonData: json), sealedJSON: json, storedAt: stored.date, pdf: pdf))
        }
        return records
    }
}
