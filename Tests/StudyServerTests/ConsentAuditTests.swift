import Consent
import Foundation
import GRDB
import Study
@testable import StudyServer
import Testing

/// The database edited under the server, each way someone with `sqlite3` could: the server notices a changed or
/// removed consent record at start, does not serve or print one that fails its seal, and will not start on a file
/// whose append-only triggers were dropped.
@Suite("Consent records under the server")
struct ConsentAuditTests {
    typealias Fixture = ServerFixture
    static let start = Fixture.date("2026-03-04T01:00:00Z")

    /// An onboarded participant with a consent record sealed by the server's key.
    private func consented(_ service: StudyService) async throws -> (StudyService.SignedIn, SealedConsentRecord) {
        let signedIn = try await Fixture.participant(of: service, zone: TimeZone(identifier: "Asia/Tokyo")!)
        let sealed = try await Fixture.consent(of: service, for: signedIn, at: Self.start)
        return (signedIn, sealed)
    }

    private func editStudyDatabase(of service: StudyService, _ sql: String...) throws {
        let outsider = try DatabaseQueue(path: service.configuration.dataFolder.appendingPathComponent("study.sqlite").path)
        try outsider.write { db in for statement in sql { try db.execute(sql: statement) } }
        try outsider.close()
    }

    @Test func aRecordEditedUnderTheServerIsReportedAndNotServed() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Self.start))
        let (signedIn, sealed) = try await consented(service)
        #expect(try await service.auditConsentRecords() == [])
        // An editor without StudyKit's functions must drop the audit trail's trigger too, or the update fails.
        try editStudyDatabase(of: service, "DROP TRIGGER consentRecord_no_update", "DROP TRIGGER audit_consentRecord_update",
                              "UPDATE consentRecord SET sealedJSON = CAST(replace(CAST(sealedJSON AS TEXT), 'shareWidely', 'investigatorsOnly') AS BLOB)")
        let lines = try await service.auditConsentRecords()
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix("participant \(signedIn.participant.id): consent record \(sealed.record.id.uuidString.lowercased()) does not verify") == true,
                "\(lines)")
        #expect(lines.last?.contains("completed the onboarding (2026-03-04T10:") == true && lines.last?.contains("but has no valid consent record") == true, "\(lines)")
        await #expect(throws: StudyServerError.self) { _ = try await service.consentPDF(signedIn: signedIn) }
    }

    @Test func aRecordDeletedUnderTheServerIsReportedAsMissing() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Self.start))
        let (signedIn, _) = try await consented(service)
        try editStudyDatabase(of: service, "DROP TRIGGER consentRecord_no_delete", "DROP TRIGGER audit_consentPDF_delete",
                              "DROP TRIGGER audit_consentRecord_delete", "DELETE FROM consentPDF", "DELETE FROM consentRecord")
        let lines = try await service.auditConsentRecords()
        #expect(lines.count == 1 && lines[0].hasPrefix("participant \(signedIn.participant.id): completed the onboarding (2026-03-04T10:")
                && lines[0].hasSuffix("+09:00) but has no valid consent record: one was removed from the database, failed verification, or was never stored"),
                "\(lines)")
        // One definition (OnboardedWithoutConsent): the export names the same problem of the same participant.
        let reader = StudyExportReader(study: service.study, store: service.store, careStore: service.careStore,
                                       dataFolder: service.configuration.dataFolder, consentPublicKey: service.consentKey.publicKey)
        #expect(try await reader.data(of: signedIn.participant).problems.map { "participant \(signedIn.participant.id): \($0)" } == lines)
    }

    @Test func theServerRefusesToStartOnADatabaseWhoseTriggersWereDropped() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Self.start))
        _ = try await consented(service)
        try editStudyDatabase(of: service, "DROP TRIGGER consentRecord_no_replace")
        #expect {
            _ = try Fixture.service(clock: Fixture.Clock(Self.start), dataFolder: service.configuration.dataFolder)
        } throws: { error in
            "\(error)".contains("the trigger consentRecord_no_replace is missing") && "\(error)".contains("study.sqlite")
        }
    }

    @Test func aReplacedRecordIsRefusedByTheDatabaseItself() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Self.start))
        let (_, sealed) = try await consented(service)
        let id = sealed.record.id.uuidString.replacingOccurrences(of: "-", with: "")
        #expect(throws: DatabaseError.self) {
            try editStudyDatabase(of: service, "INSERT OR REPLACE INTO consentRecord (id, participantID, kind, sealedJSON, storedAt) "
                + "SELECT id, participantID, kind, x'7b7d', storedAt FROM consentRecord WHERE hex(id) = '\(id)'")
        }
        #expect(try await service.auditConsentRecords() == [])
    }
}
