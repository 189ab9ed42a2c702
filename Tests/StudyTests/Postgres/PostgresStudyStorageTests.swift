import CareStorePostgres
import Foundation
import PostgresNIO
import Study
import PostgresTestSupport
import Testing
@testable import StudyPostgres

/// What the PostgreSQL study storage promises beyond the conformance suite: its lookups use their indexes.
@Suite("PostgresStudyStorage", .enabled(if: PostgresTestDatabase.isConfigured, Comment(rawValue: PostgresTestDatabase.notConfigured)))
struct PostgresStudyStorageTests {
    private let logger = PostgresStudyStorage.silentLogger

    /// The rows of `query`'s first column as text.
    private func texts(_ query: PostgresQuery, _ client: PostgresClient) async throws -> [String] {
        var texts: [String] = []
        for try await text in try await client.query(query, logger: logger).decode(String.self) { texts.append(text) }
        return texts
    }

    /// Every lookup the storage runs by participant, token, code or id finds its rows through the index meant for it:
    /// the schema is filled with 2,000 participants, 10,000 sessions, 20,000 runs and 2,100 consent records (five of
    /// their PDFs not printed yet, as a printer that keeps up leaves a few; a twentieth of the participants withdrawn),
    /// analysed, and PostgreSQL's plan of each statement, with its parameters bound, is checked to scan no table and to
    /// use the expected index. The withdrawal lookup is the one each of ``PostgresWithdrawalGuard``'s triggers runs on
    /// every write of a run.
    @Test func everyLookupUsesItsIndex() async throws {
        let client = try PostgresTestDatabase.client.get(), schema = try PostgresTestDatabase.freshSchema()
        _ = try await PostgresStudyStore.open(client: client, schema: schema)
        let s = schema.name
        let tables = ["invitation", "participant", "session", "signInCode", "taskRun", "runFile", "consentRecord", "consentPDF"]
        let fill = [
            """
            INSERT INTO \(s).participant (id, patientID, timeZone, language, enrolledAt)
            SELECT 'p' || i, 'p' || i, 'UTC', 'en', timestamptz '2026-01-01Z' + i * interval '1 minute' FROM generate_series(0, 1999) AS i
            """,
            "INSERT INTO \(s).invitation (id, codeSHA256, createdAt) SELECT gen_random_uuid(), md5('code-' || i), now() FROM generate_series(0, 1999) AS i",
            """
            INSERT INTO \(s).session (id, tokenSHA256, participantID, createdAt, lastSeenAt, expiresAt)
            SELECT gen_random_uuid(), md5('token-' || i), 'p' || (i % 2000), now(), now(), now() + interval '30 days' FROM generate_series(0, 9999) AS i
            """,
            """
            INSERT INTO \(s).signInCode (codeSHA256, participantID, createdAt, expiresAt, usedAt)
            SELECT md5('sign-in-' || i), 'p' || i, now(), now() + CASE WHEN i % 40 = 0 THEN interval '-1 hour' ELSE interval '1 hour' END,
                   CASE WHEN i % 50 = 0 THEN now() END
            FROM generate_series(0, 1999) AS i
            """,
            """
            INSERT INTO \(s).taskRun (id, participantID, taskID, occurrence, state, createdAt, updatedAt)
            SELECT gen_random_uuid(), 'p' || (i % 2000), 'task-' || (i % 10), i / 2000, CASE WHEN i % 10 = 0 THEN 'inProgress' ELSE 'completed' END,
                   now(), now() - i * interval '1 second'
            FROM generate_series(0, 19999) AS i
            """,
            """
            INSERT INTO \(s).runFile (runID, participantID, name, data)
            SELECT id, participantID, 'photo-' || n || '.jpg', '\\xffd8'::bytea FROM \(s).taskRun, generate_series(1, 2) AS n
            """,
            """
            INSERT INTO \(s).consentRecord (id, participantID, kind, sealedJSON, storedAt)
            SELECT gen_random_uuid(), 'p' || i, 'consent', '\\x7b7d'::bytea, now() FROM generate_series(0, 1999) AS i
            """,
            """
            INSERT INTO \(s).consentRecord (id, participantID, kind, sealedJSON, storedAt)
            SELECT gen_random_uuid(), 'p' || i, 'withdrawal', '\\x7b7d'::bytea, now() FROM generate_series(0, 1999, 20) AS i
            """,
            """
            INSERT INTO \(s).consentPDF (recordID, state, updatedAt)
            SELECT id, CASE WHEN sequence % 400 = 0 THEN 'pending' ELSE 'ready' END, now() FROM \(s).consentRecord
            """,
        ]
        for statement in fill + tables.map({ "ANALYZE \(s).\($0)" }) {
            _ = try await client.query(PostgresQuery(unsafeSQL: statement), logger: logger).collect()
        }

        var failures: [String] = []
        /// Notes a failure unless the plan of `query` uses an index whose name starts with `index` and scans no table.
        func expect(_ index: String, _ query: PostgresQuery) async throws {
            let plan = try await texts(PostgresQuery(unsafeSQL: "EXPLAIN " + query.sql, binds: query.binds), client)
            if plan.contains(where: { $0.contains("Seq Scan") }) || !plan.contains(where: { $0.contains(index.lowercased()) }) {
                failures.append("\(query.sql)\n  plan:\n    \(plan.joined(separator: "\n    "))\n  expected: \(index)")
            }
        }
        let now = Date()
        let code = try await texts("SELECT md5('code-7')", client)[0], token = try await texts("SELECT md5('token-7')", client)[0]
        let signIn = try await texts("SELECT md5('sign-in-7')", client)[0]
        let run = try #require(UUID(uuidString: try await texts(PostgresQuery(unsafeSQL: "SELECT id::text FROM \(s).taskRun LIMIT 1"), client)[0]))
        let columns = "id, participantID, taskID, occurrence, state, createdAt, updatedAt"
        try await expect("invitation_codesha256_key", PostgresStudyRows.invitationQuery(in: schema, codeSHA256: code))
        try await expect("session_tokensha256_key", PostgresStudyRows.sessionQuery(in: schema, tokenSHA256: token))
        try await expect("session_on_participantid_createdat", PostgresStudyRows.sessionsQuery(in: schema, participantID: "p7"))
        try await expect("signincode_pkey", PostgresStudyRows.liveSignInCodeQuery(in: schema, codeSHA256: signIn, at: now))
        try await expect("signincode_on_participantid", PostgresStudyRows.deleteSignInCodesQuery(in: schema, spentAt: now, orOf: "p7"))
        try await expect("taskrun_pkey", PostgresStudyRows.runQuery(in: schema, columns: columns, id: run))
        try await expect("taskrun_on_participantid", PostgresStudyRows.runsQuery(in: schema, columns: columns, participantID: "p7", taskID: nil, state: nil))
        try await expect("taskrun_on_participantid", PostgresStudyRows.runsQuery(in: schema, columns: columns, participantID: "p7", taskID: "task-7", state: nil))
        try await expect("taskrun_on_participantid",
                         PostgresStudyRows.runsQuery(in: schema, columns: columns, participantID: "p7", taskID: nil, state: .inProgress))
        try await expect("runfile_pkey", PostgresStudyRows.runFileNamesQuery(in: schema, runID: run))
        try await expect("taskrun_pkey", PostgresStudyRows.runWithFileNamesQuery(in: schema, id: run))
        try await expect("runfile_pkey", PostgresStudyRows.runWithFileNamesQuery(in: schema, id: run))
        try await expect("runfile_on_participantid", PostgresStudyRows.runFilesQuery(in: schema, participantID: "p7"))
        try await expect("consentrecord_on_participantid", PostgresStudyRows.consentRecordsQuery(in: schema, participantID: "p7"))
        try await expect("consentpdf_awaiting", PostgresStudyRows.consentRecordsAwaitingPDFQuery(in: schema))
        try await expect("consentrecord_one_withdrawal", PostgresStudyRows.withdrawalQuery(in: schema, participantID: "p7"))
        #expect(failures.isEmpty, Comment(rawValue: failures.joined(separator: "\n\n")))
    }
}
