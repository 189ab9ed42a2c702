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
import Testing

/// `deploy/postgresql-roles.sql`: the owner migrates, the server role enrols, commits and withdraws with deletion, and
/// is refused UPDATE and DELETE on consent records and the audit trail by missing privileges.
@Suite("PostgresRoles", .enabled(if: PostgresTestDatabase.isConfigured, Comment(rawValue: PostgresTestDatabase.notConfigured)))
struct PostgresRolesTests {
    private let logger = PostgresStudyStorage.silentLogger
    let zone = TimeZone(identifier: "Europe/Zurich")!

    /// The deploy file's statements of the part before or after `-- after migrating`, for these roles, schema and database.
    private func statements(afterMigrating: Bool, owner: String, server: String, schema: String, database: String) throws -> [String] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("deploy/postgresql-roles.sql")
        let text = try String(contentsOf: file, encoding: .utf8)
        let parts = text.components(separatedBy: "-- after migrating")
        try #require(parts.count == 2)
        let code = parts[afterMigrating ? 1 : 0].split(separator: "\n").filter { !$0.hasPrefix("--") }.joined(separator: "\n")
            .replacingOccurrences(of: "studykit_owner", with: owner).replacingOccurrences(of: "studykit_server", with: server)
            .replacingOccurrences(of: "ON DATABASE studykit ", with: "ON DATABASE \(database) ")
            .replacingOccurrences(of: "SCHEMA study ", with: "SCHEMA \(schema) ").replacingOccurrences(of: " study.", with: " \(schema).")
        return code.components(separatedBy: ";").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    @Test func theServerRoleWritesStudyDataButCannotChangeConsentRecordsOrTheTrail() async throws {
        let admin = try PostgresTestDatabase.client.get()
        let suffix = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        let owner = "o_\(suffix)", server = "s_\(suffix)", schema = try PostgresTestDatabase.freshSchema()
        let database = try PostgresDatabaseURL(try #require(PostgresTestDatabase.url)).database
        for sql in try statements(afterMigrating: false, owner: owner, server: server, schema: schema.name, database: database) {
            _ = try await admin.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
        }
        let (ownerClient, ownerRun) = try PostgresTestDatabase.runningClient(user: owner)
        let (serverClient, serverRun) = try PostgresTestDatabase.runningClient(user: server)
        defer { ownerRun.cancel(); serverRun.cancel() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-roles-\(suffix)")
        let keys = folder.appendingPathComponent("keys"), anchor = folder.appendingPathComponent("anchor.json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let migrated = try await PostgresStudyDatabase.open(client: ownerClient, schema: schema, keysFolder: keys, auditAnchor: anchor, listening: nil)
        migrated.close()
        for sql in try statements(afterMigrating: true, owner: owner, server: server, schema: schema.name, database: database) {
            _ = try await ownerClient.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
        }

        let data = try await PostgresStudyDatabase.open(client: serverClient, schema: schema, keysFolder: keys, auditAnchor: anchor,
                                                        listening: nil, migrating: false)
        defer { data.close() }
        let definition = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let enrolment = StudyEnrolment(study: definition, environment: .live)
        let participant = try await data.enrol(invitationCode: nil, timeZone: zone, language: "en") { participant in
            try enrolment.plan(participantID: participant.id, enrolledAt: participant.enrolledAt, timeZone: participant.timeZone)
        }
        let (restoration, result) = try pausedRun()
        var run = try await data.studyStore.saveRun(TaskRun(id: restoration.taskRunUUID, participantID: participant.id,
                                                            taskID: StudyTaskDefinition.onboardingID, occurrence: nil, state: .inProgress,
                                                            restorationData: restoration))
        run.state = .completed
        run.restorationData = nil
        run.result = result
        let consent = try sealedConsent(participant: participant.id)
        var change = ParticipantChange(participantID: participant.id)
        change.runs = [run]
        change.consentRecords = [consent]
        change.outcomes = [try await OnboardingGate(careStore: data.careStore, environment: .live).completionOutcome(participantID: participant.id, timeZone: zone)]
        _ = try await data.commit(change)
        var leaving = ParticipantChange(participantID: participant.id)
        leaving.consentRecords = [try ConsentRecorder(signingKey: .generate()).sealWithdrawal(of: consent, reason: nil)]
        leaving.withdrawal = ParticipantChange.Withdrawal(
            deletesData: true, keptRunTaskIDs: [],
            deletedOutcomeTaskIDs: [StudyCareIdentifiers.taskID(participant: participant.id, task: StudyTaskDefinition.onboardingID)])
        _ = try await data.commit(leaving)
        #expect(try await data.studyStore.runSummaries(participantID: participant.id).isEmpty)
        #expect(try await data.verifyAuditTrail() == nil)

        for table in ["consentRecord", "auditLog"] {
            for sql in ["UPDATE \(schema.name).\(table) SET participantID = 'x'", "DELETE FROM \(schema.name).\(table)", "TRUNCATE \(schema.name).\(table)"] {
                do {
                    _ = try await serverClient.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
                    Issue.record("\(sql) was allowed")
                } catch let error as PSQLError {
                    #expect(error.serverInfo?[.sqlState] == "42501", "\(sql): \(error.serverInfo?[.message] ?? "")")
                }
            }
        }
    }
}
