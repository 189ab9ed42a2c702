import CareStore
import CareStorePostgres
import Consent
import Foundation
import PostgresNIO
import Research
import Study
import StudyFHIR
import StudyKitEnvironment
import StudyPostgres
import PostgresTestSupport
import Synchronization
import Testing

/// The audit trail, the keys, the change feed across processes and the availability check of a study on PostgreSQL.
@Suite("PostgresAuditTrail", .enabled(if: PostgresTestDatabase.isConfigured, Comment(rawValue: PostgresTestDatabase.notConfigured)))
final class PostgresAuditTrailTests {
    /// The keys folders and anchors the test made, removed when it ends: they hold keys.
    private var folders: [URL] = []

    deinit {
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
    }

    static let zone = TimeZone(identifier: "Pacific/Auckland")!
    private let logger = PostgresStudyStorage.silentLogger

    /// A fresh keys folder and anchor path.
    private func keysAndAnchor() throws -> (keys: URL, anchor: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        folders.append(folder)
        return (folder.appendingPathComponent("keys"), folder.appendingPathComponent("study.audit-anchor.json"))
    }

    /// A database over a fresh schema with a keys folder and anchor of its own.
    private func freshDatabase(schema: PostgresCareSchema? = nil, client: PostgresClient? = nil, files: (keys: URL, anchor: URL)? = nil,
                               listening: PostgresChangeListening? = nil) async throws -> PostgresStudyDatabase {
        let files = try files ?? keysAndAnchor()
        return try await PostgresStudyDatabase.open(client: client ?? PostgresTestDatabase.client.get(), schema: schema ?? PostgresTestDatabase.freshSchema(),
                                                    keysFolder: files.keys, auditAnchor: files.anchor, listening: listening)
    }

    private static func enrolled(in data: PostgresStudyDatabase) async throws -> StudyParticipant {
        let definition = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let enrolment = StudyEnrolment(study: definition, environment: .live)
        return try await data.enrol(invitationCode: nil, timeZone: Self.zone, language: "en") { participant in
            try enrolment.plan(participantID: participant.id, enrolledAt: participant.enrolledAt, timeZone: participant.timeZone)
        }
    }

    private func execute(_ sql: String, in data: PostgresStudyDatabase) async throws {
        _ = try await data.client.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
    }

    /// The message of PostgreSQL's refusal of `sql`; nil when it was not refused.
    private func refusal(of sql: String, in data: PostgresStudyDatabase) async throws -> String? {
        do {
            try await execute(sql, in: data)
            return nil
        } catch let error as PSQLError {
            return error.serverInfo?[.message]
        }
    }

    private func entries(_ data: PostgresStudyDatabase) async throws -> [AuditEntry] {
        var all: [AuditEntry] = []
        try await data.forEachAuditEntry { all.append($0); return true }
        return all
    }

    private func object(_ json: String?) throws -> [String: Any] {
        guard let json else { return [:] }
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func everyAuditedTableIsTrailedInTheSameTransactionWithOnlyChangedColumnsAndDigests() async throws {
        let data = try await freshDatabase()
        defer { data.close() }
        let issued = try await AuditTrail.$source.withValue(AuditSource(actor: "researcher a@example.org (1)", reason: "clinic A")) {
            try await data.studyStore.createInvitation(label: "clinic A", expiresAt: nil)
        }
        let definition = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let enrolment = StudyEnrolment(study: definition, environment: .live)
        let participant = try await AuditTrail.$source.withValue(AuditSource(actor: "participant")) {
            try await data.enrol(invitationCode: issued.code, timeZone: Self.zone, language: "en") { participant in
                try enrolment.plan(participantID: participant.id, enrolledAt: participant.enrolledAt, timeZone: participant.timeZone)
            }
        }
        let (restoration, result) = try pausedRun()
        var run = try await data.studyStore.saveRun(TaskRun(id: restoration.taskRunUUID, participantID: participant.id, taskID: StudyTaskDefinition.onboardingID,
                                                            occurrence: nil, state: .inProgress, restorationData: restoration))
        run.state = .completed
        run.restorationData = nil
        run.result = result
        let consent = try sealedConsent(participant: participant.id)
        var change = ParticipantChange(participantID: participant.id)
        change.runs = [run]
        change.consentRecords = [consent]
        change.outcomes = [try await OnboardingGate(careStore: data.careStore, environment: .live).completionOutcome(participantID: participant.id, timeZone: Self.zone)]
        _ = try await data.commit(change)
        let record = try #require(try await data.studyStore.consentRecords(participantID: participant.id).first)
        try await data.studyStore.setConsentPDF(.stored(Data("%PDF-1.7".utf8)), recordID: record.id, participantID: participant.id)
        let researcher = try await data.researchers.addResearcher(email: "b@example.org", role: .investigator)
        _ = try await data.researchers.setRole(.admin, researcherID: researcher.id)
        var leaving = ParticipantChange(participantID: participant.id)
        leaving.consentRecords = [try ConsentRecorder(signingKey: .generate()).sealWithdrawal(of: consent, reason: nil)]
        leaving.withdrawal = ParticipantChange.Withdrawal(
            deletesData: true, keptRunTaskIDs: [],
            deletedOutcomeTaskIDs: [StudyCareIdentifiers.taskID(participant: participant.id, task: StudyTaskDefinition.onboardingID)])
        _ = try await data.commit(leaving)

        let trail = try await entries(data)
        let kinds = Set(trail.map { "\($0.entity) \($0.action)" })
        for expected in ["invitation insert", "invitation update", "participant insert", "version insert", "taskRun insert", "taskRun update",
                         "taskRun delete", "consentRecord insert", "consentPDF insert", "consentPDF update", "outcome insert", "outcome delete",
                         "researcher insert", "researcher update"] {
            #expect(kinds.contains(expected), "\(expected) in \(kinds.sorted())")
        }
        #expect(trail.first?.actor == "researcher a@example.org (1)" && trail.first?.reason == "clinic A")
        let enrolRows = trail.filter { $0.entity == "participant" || ($0.entity == "invitation" && $0.action == "update") }
        #expect(enrolRows.allSatisfy { $0.actor == "participant" })
        // An update shows only what it changed; a run's result and restoration data appear as keyed digests.
        let update = try #require(trail.first { $0.entity == "taskRun" && $0.action == "update" })
        let before = try object(update.before), after = try object(update.after)
        #expect(Set(after.keys) == ["state", "restorationDataHMAC", "resultHMAC"], "\(after.keys)")
        #expect(before["state"] as? String == "inProgress" && after["state"] as? String == "completed")
        let digest = try #require(after["resultHMAC"] as? String)
        #expect(digest.count == 32 && digest.allSatisfy(\.isHexDigit))
        #expect(update.participantID == participant.id)
        let role = try #require(trail.first { $0.entity == "researcher" && $0.action == "update" })
        #expect(role.after == #"{"role":"admin"}"#)
        let insert = try #require(trail.first { $0.entity == "participant" })
        #expect(insert.after?.hasPrefix(#"{"id":"\#(participant.id)","patientID":"#) == true)
        let pdf = try #require(trail.first { $0.entity == "consentPDF" && $0.action == "update" })
        #expect(try object(pdf.after)["pdfSHA256"] as? String == ConsentRecord.sha256Hex(of: Data("%PDF-1.7".utf8)))
        // Gapless, and the chain verifies with the key and reaches the anchor.
        #expect(trail.map(\.sequence) == Array(1...Int64(trail.count)))
        #expect(try await data.verifyAuditTrail() == nil)
        #expect(try await data.auditEntries(participantID: participant.id, limit: 3).count == 3)
        #expect(try await count("auditStage", in: data) == 0)
    }

    @Test func appendAuditAddsAnActionRowAsTheCurrentSource() async throws {
        let data = try await freshDatabase()
        defer { data.close() }
        try await AuditTrail.$source.withValue(AuditSource(actor: "command line: export")) {
            try await data.appendAudit(action: "export", entity: "study", entityID: nil, participantID: nil, after: #"{"format":"csv"}"#)
        }
        let trail = try await entries(data)
        #expect(trail.count == 1 && trail[0].action == "export" && trail[0].actor == "command line: export" && trail[0].after == #"{"format":"csv"}"#)
        #expect(try await data.verifyAuditTrail() == nil)
    }

    @Test func aRowChangedByPlainSQLIsFoundByVerify() async throws {
        let data = try await freshDatabase()
        defer { data.close() }
        _ = try await Self.enrolled(in: data)
        let log = data.schema.name + ".auditLog"
        #expect(try await refusal(of: "UPDATE \(log) SET actor = 'someone else' WHERE sequence = 2", in: data) == "the audit trail is append-only")
        #expect(try await refusal(of: "DELETE FROM \(log) WHERE sequence = 2", in: data) == "the audit trail is append-only")
        #expect(try await refusal(of: "TRUNCATE \(log)", in: data) == "the audit trail is append-only")
        // The table's owner (or a superuser) can turn the guard off: the chain then shows the edit.
        try await execute("ALTER TABLE \(log) DISABLE TRIGGER auditLog_refuseChange", in: data)
        try await execute("UPDATE \(log) SET actor = 'someone else' WHERE sequence = 2", in: data)
        let problem = try #require(try await data.verifyAuditTrail())
        #expect(problem.sequence == 2, "\(problem)")
        // A forged row whose hash is recomputed without the key does not verify either.
        try await execute("ALTER TABLE \(log) ENABLE TRIGGER auditLog_refuseChange", in: data)
    }

    @Test func aCutTailIsFoundThroughTheAnchor() async throws {
        let files = try keysAndAnchor()
        let data = try await freshDatabase(files: files)
        _ = try await Self.enrolled(in: data)
        data.close()
        let log = data.schema.name + ".auditLog"
        let total = try await count("auditLog", in: data)
        try await execute("ALTER TABLE \(log) DISABLE TRIGGER auditLog_refuseChange", in: data)
        try await execute("DELETE FROM \(log) WHERE sequence > \(total - 3)", in: data)
        let check = try PostgresStudyDatabase.auditChainCheck(keysFolder: files.keys, auditAnchor: files.anchor)
        let problem = try #require(try await data.verifyAuditTrail(check))
        #expect(problem.problem.contains("were removed"), "\(problem)")
        // Opening it for a server again is refused, naming the anchor.
        await #expect(throws: PostgresStudyDatabaseError.self) {
            _ = try await freshDatabase(schema: data.schema, files: files)
        }
    }

    @Test func aWriteThatBypassesTheFlushCannotCommit() async throws {
        let data = try await freshDatabase()
        defer { data.close() }
        let participant = try await Self.enrolled(in: data)
        let table = data.schema.name + ".participant"
        // As psql runs it: BEGIN, the UPDATE, COMMIT; the COMMIT is refused.
        var refused: String?
        do {
            try await data.client.withConnection { connection in
                for sql in ["BEGIN", "UPDATE \(table) SET language = 'de' WHERE id = '\(participant.id)'", "COMMIT"] {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
                }
            }
        } catch let error as PSQLError {
            refused = error.serverInfo?[.message]
        }
        #expect(refused == "studykit: changes to study data must be written to the audit trail by StudyKit before they commit")
        #expect(try await data.studyStore.participant(id: participant.id)?.language == "en")
        #expect(try await count("auditStage", in: data) == 0)
        // Through the store, it is written and audited.
        _ = try await data.studyStore.setLanguage("de", participantID: participant.id)
        #expect(try await entries(data).last?.after == #"{"language":"de"}"#)
        #expect(try await data.verifyAuditTrail() == nil)
    }

    @Test func concurrentWritersKeepAGaplessChain() async throws {
        let data = try await freshDatabase()
        defer { data.close() }
        let participants = try await withThrowingTaskGroup(of: StudyParticipant.self) { group in
            for _ in 0..<16 { group.addTask { try await Self.enrolled(in: data) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for participant in participants {
                group.addTask { _ = try await data.studyStore.setLanguage("fr", participantID: participant.id) }
            }
            try await group.waitForAll()
        }
        let trail = try await entries(data)
        #expect(trail.map(\.sequence) == Array(1...Int64(trail.count)))
        #expect(trail.filter { $0.entity == "participant" && $0.action == "update" }.count == 16)
        #expect(try await data.verifyAuditTrail() == nil)
    }

    @Test func aCommitOnOneProcessReachesTheOthersObserversAndRevision() async throws {
        let schema = try PostgresTestDatabase.freshSchema()
        let files = try keysAndAnchor()
        // Two pools: two processes.
        let (first, firstRun) = try PostgresTestDatabase.runningClient()
        let (second, secondRun) = try PostgresTestDatabase.runningClient()
        defer { firstRun.cancel(); secondRun.cancel() }
        let a = try await freshDatabase(schema: schema, client: first, files: files, listening: .standard)
        let b = try await freshDatabase(schema: schema, client: second, files: files, listening: .standard)
        defer { a.close(); b.close() }
        await a.waitUntilListening()
        await b.waitUntilListening()
        let seen = Mutex<[CareChange]>([])
        let arrived = AsyncStream<Void>.makeStream()
        b.observeCareCommits { change in
            seen.withLock { $0.append(change) }
            arrived.continuation.yield()
        }
        let participant = try await Self.enrolled(in: a)
        var iterator = arrived.stream.makeAsyncIterator()
        _ = await iterator.next()
        let changed = seen.withLock { $0 }.flatMap { $0.entities.values.joined() }.compactMap(StudyCareIdentifiers.participantID(ofCareID:))
        #expect(changed.contains(participant.id))
        #expect(b.studyStore.revision(of: participant.id) == 1)
        // A study store write alone moves the other's revision too; its own notifications are not counted twice.
        _ = try await a.studyStore.setLanguage("de", participantID: participant.id)
        await b.waitUntilHeard(count: 2)
        #expect(b.studyStore.revision(of: participant.id) == 2)
        #expect(a.studyStore.revision(of: participant.id) == 2)
    }

    @Test func theListenerReconnectsAfterItsConnectionIsLost() async throws {
        let schema = try PostgresTestDatabase.freshSchema()
        let files = try keysAndAnchor()
        let (second, secondRun) = try PostgresTestDatabase.runningClient()
        defer { secondRun.cancel() }
        let a = try await freshDatabase(schema: schema, files: files)
        let b = try await freshDatabase(schema: schema, client: second, files: files,
                                        listening: PostgresChangeListening(initialBackoff: .milliseconds(10), maximumBackoff: .milliseconds(50)))
        defer { a.close(); b.close() }
        await b.waitUntilListening()
        let participant = try await Self.enrolled(in: a)
        await b.waitUntilHeard(count: 1)
        #expect(b.studyStore.revision(of: participant.id) == 1)
        // PostgreSQL ends the listening connection (as a restart would).
        try await execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%\(schema.name)%'", in: a)
        await b.waitUntilListening(count: 2)
        // What the others committed while it did not listen was never heard: every participant's revision moved on.
        #expect(b.studyStore.revision(of: participant.id) == 2)
        let other = try await Self.enrolled(in: a)
        await b.waitUntilHeard(count: 2)
        #expect(b.studyStore.revision(of: other.id) == 2, "one for the reconnection, one for the enrolment heard after it")
    }

    @Test func keysAreMadeOwnerOnlyAndAMissingKeyOfAWrittenTrailIsRefused() async throws {
        let files = try keysAndAnchor()
        let data = try await freshDatabase(files: files)
        _ = try await Self.enrolled(in: data)
        data.close()
        let key = files.keys.appendingPathComponent(AuditKey.fileName)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? Int)
        #expect(mode & 0o077 == 0)
        try FileManager.default.removeItem(at: key)
        await #expect(throws: PostgresStudyDatabaseError.keyMissing(path: key.path)) {
            _ = try await freshDatabase(schema: data.schema, files: files)
        }
    }

    @Test func connectAnswersAndAnUnreachableDatabaseIsAClearError() async throws {
        let files = try keysAndAnchor()
        let url = try #require(PostgresTestDatabase.url)
        // A generous wait for the database that answers: the whole suite at once on two cores has kept a first
        // connection waiting past the server's 10 s.
        let data = try await PostgresStudyDatabase.connect(url: url, keysFolder: files.keys, auditAnchor: files.anchor,
                                                           schema: PostgresTestDatabase.freshSchema(), timeout: .seconds(60))
        try await data.checkAvailability()
        data.close()
        // Nothing listens on port 1: refused, naming the database (this test ending shows it does not hang).
        await #expect {
            _ = try await PostgresStudyDatabase.connect(url: "postgres://studykit@127.0.0.1:1/nothing", keysFolder: files.keys, auditAnchor: files.anchor,
                                                        timeout: .seconds(2))
        } throws: { error in
            guard case .unreachable(let database, _) = error as? PostgresStudyDatabaseError else { return false }
            return database.contains("127.0.0.1:1")
        }
    }

    private func count(_ table: String, in data: PostgresStudyDatabase) async throws -> Int64 {
        var count: Int64 = -1
        for try await value in try await data.client.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(data.schema.name).\(table)"),
                                                          logger: logger).decode(Int64.self) {
            count = value
        }
        return count
    }
}
