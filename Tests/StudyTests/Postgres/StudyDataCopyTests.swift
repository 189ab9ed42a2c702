import CareStore
import CareStorePostgres
import Consent
import Foundation
import PostgresNIO
import PostgresTestSupport
import Research
import Study
import StudyFHIR
import StudyKitEnvironment
import StudyPostgres
import StudySQLite
import Testing

/// `studykit migrate`'s parts: an embedded study (SQLite, keyed and anchored as a server leaves it) copied through the
/// row primitives (``StudyDataCopy``) into an empty PostgreSQL schema with its audit trail (``PostgresStudyDatabase/importStudy(_:auditTrail:recording:)``).
@Suite("StudyDataCopy", .enabled(if: PostgresTestDatabase.isConfigured, Comment(rawValue: PostgresTestDatabase.notConfigured)))
struct StudyDataCopyTests {
    let zone = TimeZone(identifier: "Europe/Berlin")!

    /// The live clock at whole milliseconds.
    static let environment = StudyKitEnvironment(now: { Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded() / 1000) },
                                                 makeUUID: { UUID() })

    /// A data folder of Recover with an enrolled, onboarded participant (completed onboarding run with restoration data
    /// and result, sealed consent record with its PDF), a signed-in session and a revoked one, a survey run completed
    /// and one discarded, outcomes (one deleted), a researcher, and an unused invitation.
    private func filledStudy(in folder: URL) async throws -> (SQLiteStudyDatabase, ConsentSigningKey, StudyParticipant) {
        let environment = Self.environment
        let sqlite = try SQLiteStudyDatabase.openForServer(dataFolder: folder, environment: environment, durability: .processCrash,
                                                           auditAnchorInterval: .zero)
        let signing = try ConsentKeyStore(keysDirectory: folder.appendingPathComponent("keys")).loadOrCreate()
        let study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let workflow = ParticipantWorkflow(study: study, data: sqlite, environment: environment, consentKey: signing)
        let invitation = try await sqlite.studyStore.createInvitation(label: "clinic A", expiresAt: nil)
        _ = try await sqlite.studyStore.createInvitation(label: "unused", expiresAt: environment.now().addingTimeInterval(86_400))
        let participant = try await workflow.enrol(invitationCode: invitation.code, timeZone: zone, language: "en")
        _ = try await sqlite.studyStore.createSession(participantID: participant.id, lifetime: 3600)
        let revoked = try await sqlite.studyStore.createSession(participantID: participant.id, lifetime: 3600)
        _ = try await sqlite.studyStore.revokeSession(id: revoked.session.id, participantID: participant.id)

        let onboardingID = try await workflow.startRun(taskID: StudyTaskDefinition.onboardingID, occurrence: nil, for: participant)
        var onboarding = try #require(try await sqlite.studyStore.run(id: onboardingID, participantID: participant.id))
        #expect(onboarding.restorationData != nil)
        onboarding.state = .completed
        onboarding.result = TaskResult(identifier: StudyTaskDefinition.onboardingID, taskRunUUID: onboardingID, startDate: environment.now(),
                                       endDate: environment.now(), stepResults: [])
        _ = try await sqlite.studyStore.saveRun(onboarding)
        let signature = ConsentRecordSignature(identifier: "participant", meaning: "consent to participate", givenName: "Alex", familyName: "Morgan",
                                               drawing: nil, signedAt: environment.now(), timeZone: zone)
        let sealed = try ConsentRecorder(signingKey: signing)
            .sealConsent(participantIdentifier: participant.id, studyIdentifier: "recover", studyName: "Recover", documentIdentifier: "recover-consent",
                         documentVersion: "1.0", language: "en", html: "<!DOCTYPE html><p>I agree.</p>", signatures: [signature],
                         answers: ["sharing": "investigatorsOnly"])
        _ = try await sqlite.studyStore.appendConsentRecord(sealed)
        try await sqlite.studyStore.setConsentPDF(.stored(Data("%PDF-1.4 Alex Morgan".utf8)), recordID: sealed.record.id, participantID: participant.id)
        _ = try await OnboardingGate(careStore: sqlite.careStore, environment: environment).recordCompletion(participantID: participant.id, timeZone: zone)

        for state in [TaskRunState.completed, .discarded] {
            let id = UUID()
            _ = try await sqlite.studyStore.saveRun(TaskRun(id: id, participantID: participant.id, taskID: "pain", occurrence: 0, state: state,
                                                            result: TaskResult(identifier: "pain", taskRunUUID: id, startDate: environment.now(),
                                                                               endDate: environment.now(), stepResults: [])))
            // The completed run has a photo attached, kept beside it in the database.
            if state == .completed {
                try await sqlite.sqliteStudyStore.storage.write { writer in
                    try await writer.putRunFile(StoredRunFile(runID: id, participantID: participant.id, name: "photo-0-0a1b2c3d.jpg",
                                                              data: Data((0..<70_000).map { UInt8($0 % 251) })))
                }
            }
        }
        var query = CareQuery()
        query.ids = ["\(participant.id)/pain"]
        let pain = try #require(try await sqlite.careStore.fetch(CareTask.self, query: query).first)
        let added = try await sqlite.careStore.addOutcomes([
            Outcome(taskUUID: pain.version.uuid, occurrenceIndex: 0, values: [OutcomeValue(.integer(6), kind: "pain", units: "NRS")], timeZone: zone),
            Outcome(taskUUID: pain.version.uuid, occurrenceIndex: 1, values: [OutcomeValue(.integer(3), kind: "pain", units: "NRS")], timeZone: zone),
        ])
        _ = try await sqlite.careStore.deleteOutcomes([added[1]])
        _ = try await sqlite.researchers.addResearcher(email: "pi@example.org", role: .investigator)
        sqlite.anchorAuditTrailNow()
        return (sqlite, signing, participant)
    }

    private func entries(_ each: ((AuditEntry) throws -> Bool) async throws -> Void) async throws -> [AuditEntry] {
        var all: [AuditEntry] = []
        try await each { all.append($0); return true }
        return all
    }

    private func copy(of sqlite: SQLiteStudyDatabase) async throws -> StudyDataCopy {
        let storage = sqlite.sqliteStudyStore.storage
        return try await StudyDataCopy.read(study: storage, researchers: storage.researcherAccounts.storage, care: sqlite.sqliteCareStore.storage)
    }

    private func copy(of postgres: PostgresStudyDatabase) async throws -> StudyDataCopy {
        let storage = postgres.postgresStudyStore.storage
        return try await StudyDataCopy.read(study: storage, researchers: storage.researcherAccounts.storage, care: postgres.postgresCareStore.storage)
    }

    /// `date` to the microsecond.
    static func µs(_ date: Date) -> Date { Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1_000_000).rounded() / 1_000_000) }
    static func µs(_ date: Date?) -> Date? { date.map { µs($0) } }

    /// `row` with the dates at `dates` and `optional` to the microsecond, as PostgreSQL stores them.
    static func rounded<Row>(_ row: Row, _ dates: [WritableKeyPath<Row, Date>], optional: [WritableKeyPath<Row, Date?>] = []) -> Row {
        var row = row
        for path in dates { row[keyPath: path] = µs(row[keyPath: path]) }
        for path in optional { row[keyPath: path] = µs(row[keyPath: path]) }
        return row
    }

    static func rounded(_ row: Invitation) -> Invitation { rounded(row, [\.createdAt], optional: [\.expiresAt, \.usedAt, \.revokedAt]) }
    static func rounded(_ row: StudyParticipant) -> StudyParticipant { rounded(row, [\.enrolledAt]) }
    static func rounded(_ row: ParticipantSession) -> ParticipantSession { rounded(row, [\.createdAt, \.lastSeenAt, \.expiresAt], optional: [\.revokedAt]) }
    static func rounded(_ row: TaskRun) -> TaskRun { rounded(row, [], optional: [\.createdAt, \.updatedAt]) }
    static func rounded(_ row: StoredConsentRecord) -> StoredConsentRecord { rounded(row, [\.storedAt]) }
    static func rounded(_ row: Researcher) -> Researcher { rounded(row, [\.createdAt], optional: [\.lockedUntil, \.removedAt]) }
    static func rounded(_ row: StoredVersion) -> StoredVersion { rounded(row, [\.effectiveDate], optional: [\.deletedDate]) }

    static func rounded(_ row: Outcome) -> Outcome {
        var row = rounded(row, [], optional: [\.createdDate, \.deletedDate])
        row.values = row.values.map { rounded($0, [], optional: [\.createdDate]) }
        return row
    }

    @Test func anEmbeddedStudyMovesIntoPostgreSQLRowForRowWithItsAuditChainAndASecondCopyIsRefused() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let (sqlite, signing, participant) = try await filledStudy(in: root.appendingPathComponent("data"))
        let check = try SQLiteStudyDatabase.auditChainCheck(database: root.appendingPathComponent("data/study.sqlite"))
        #expect(try await sqlite.verifyAuditTrail(check) == nil)
        let source = try await copy(of: sqlite)
        let sourceTrail = try await entries(sqlite.forEachAuditEntry)
        #expect(source.consentProblems(key: signing.publicKey).isEmpty)

        // The keys are the source's; the anchor is new.
        let keys = root.appendingPathComponent("keys", isDirectory: true)
        try FileManager.default.copyItem(at: root.appendingPathComponent("data/keys"), to: keys)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("target"), withIntermediateDirectories: true)
        let target = try await PostgresStudyDatabase.open(client: PostgresTestDatabase.client.get(), schema: PostgresTestDatabase.freshSchema(),
                                                          keysFolder: keys, auditAnchor: root.appendingPathComponent("target/postgres.audit-anchor.json"),
                                                          environment: Self.environment, listening: nil)
        defer { target.close() }
        let started = ContinuousClock.now
        let imported = try await AuditTrail.$source.withValue(AuditSource(actor: "command line: studykit migrate (test)")) {
            try await target.importStudy(source, auditTrail: sourceTrail, recording: #"{"from":"test"}"#)
        }
        let took = ContinuousClock.now - started

        // Every row, through the stores, its dates to the microsecond (SQLite keeps a Double, PostgreSQL whole
        // microseconds: the same instant reads back with other low bits).
        #expect(try await target.studyStore.invitations().map(Self.rounded) == sqlite.studyStore.invitations().map(Self.rounded))
        #expect(try await target.studyStore.participants().map(Self.rounded) == sqlite.studyStore.participants().map(Self.rounded))
        #expect(try await target.studyStore.sessions(participantID: participant.id).map(Self.rounded)
                == sqlite.studyStore.sessions(participantID: participant.id).map(Self.rounded))
        // Runs saved in the same millisecond are listed in the order of their ids, which SQLite and PostgreSQL sort alike
        // only as text: compared by id.
        let targetRuns = try await target.studyStore.runs(participantID: participant.id, taskID: nil).map(Self.rounded)
        let sourceRuns = try await sqlite.studyStore.runs(participantID: participant.id, taskID: nil).map(Self.rounded)
        // Compared as stored: the source's SQLite store hands back the runs it saved from its restoration cache, with
        // their dates to the nanosecond, where what is stored (and copied) is JSON to the millisecond.
        func stored(_ runs: [TaskRun]) throws -> [String] {
            try runs.sorted { $0.id.uuidString < $1.id.uuidString }.map { run in
                let encoded = try EncodedTaskRun(run)
                return "\(run.id) \(run.participantID) \(run.taskID) \(String(describing: run.occurrence)) \(run.state) \(String(describing: run.createdAt)) \(String(describing: run.updatedAt)) "
                    + String(decoding: encoded.restorationJSON ?? Data(), as: UTF8.self) + String(decoding: encoded.resultJSON ?? Data(), as: UTF8.self)
            }
        }
        #expect(try stored(targetRuns) == stored(sourceRuns))
        #expect(targetRuns.count == 3 && targetRuns.contains { $0.restorationData != nil } && targetRuns.allSatisfy { $0.result != nil })
        #expect(try await target.studyStore.consentRecords(participantID: participant.id).map(Self.rounded)
                == sqlite.studyStore.consentRecords(participantID: participant.id).map(Self.rounded))
        #expect(try await target.researchers.researchers().map(Self.rounded) == sqlite.researchers.researchers().map(Self.rounded))
        let written = try await copy(of: target)
        #expect(Set(written.versions.map(Self.rounded)) == Set(source.versions.map(Self.rounded)))
        #expect(written.outcomes.map(Self.rounded) == source.outcomes.map(Self.rounded))
        #expect(written.outcomes.contains { $0.deletedDate != nil })
        #expect(written.counts == source.counts)
        #expect(written.runFiles == source.runFiles && source.runFiles.count == 1 && source.runFiles[0].data.count == 70_000)
        #expect(written.consentProblems(key: signing.publicKey).isEmpty)
        // The participant's session still signs them in, by its token's hash.
        #expect(written.sessions.map(\.tokenSHA256) == source.sessions.map(\.tokenSHA256))

        // The trail: the source's rows verbatim, then the migration's, and it verifies with the same key and the new anchor.
        let targetTrail = try await entries(target.forEachAuditEntry)
        #expect(targetTrail.count == sourceTrail.count + 1)
        #expect(Array(targetTrail.prefix(sourceTrail.count)) == sourceTrail)
        #expect(targetTrail.last?.action == "migrate" && targetTrail.last?.previousHash == sourceTrail.last?.hash)
        #expect(imported.sequence == Int64(sourceTrail.count + 1))
        #expect(try await target.verifyAuditTrail() == nil)
        let anchored = try #require(try AuditAnchorFile.read(at: root.appendingPathComponent("target/postgres.audit-anchor.json")))
        #expect(anchored.sequence == imported.sequence && anchored.hash == imported.hash)

        // A second copy into the same schema is refused, and nothing changes.
        await #expect(throws: StudyDataCopyError.self) {
            try await target.importStudy(source, auditTrail: sourceTrail, recording: "{}")
        }
        #expect(try await entries(target.forEachAuditEntry) == targetTrail)
        #expect(try await copy(of: target).counts == source.counts)
        print("StudyDataCopy: \(source.counts.tables.map { "\($0.name) \($0.count)" }.joined(separator: ", ")), auditLog \(sourceTrail.count) + 1, in \(took)")
    }

    @Test func aCopyThatFailsHalfWayLeavesTheTargetEmpty() async throws {
        let target = try await PostgresStudyDatabase.open(client: PostgresTestDatabase.client.get(), schema: PostgresTestDatabase.freshSchema())
        defer { target.close() }
        var copy = StudyDataCopy()
        copy.invitations = [Invitation(id: UUID(), codeSHA256: String(repeating: "a", count: 64), label: nil, createdAt: Date(), expiresAt: nil)]
        // A run of no participant: refused by the database after the invitation was written.
        copy.runs = [TaskRun(id: UUID(), participantID: "nobody", taskID: "pain", state: .completed)]
        await #expect(throws: (any Error).self) {
            try await target.importStudy(copy, auditTrail: [], recording: "{}")
        }
        #expect(try await target.occupiedTables().isEmpty)
        #expect(try await target.auditRowCount() == 0)

        let gap = AuditEntry(sequence: 2, atMilliseconds: 0, actor: "x", action: "insert", entity: "invitation", entityID: nil, participantID: nil,
                             before: nil, after: nil, reason: nil, previousHash: "", hash: "h")
        await #expect(throws: PostgresStudyImportError.self) {
            try await target.importStudy(StudyDataCopy(), auditTrail: [gap], recording: "{}")
        }
        #expect(try await target.occupiedTables().isEmpty)
    }
}
