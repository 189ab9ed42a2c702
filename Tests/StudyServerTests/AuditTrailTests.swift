import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import StudySQLite
import Testing

/// The audit trail of the server's data folder: each change is a row, in the same transaction, with who, when, what,
/// before, after and why; the chain names the first row edited, removed or inserted by hand; and an editor without
/// StudyKit cannot change audited data unseen.
@Suite("Audit trail")
struct AuditTrailTests {
    typealias Fixture = ServerFixture
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    private func every(_ service: StudyService) async throws -> [AuditEntry] {
        var entries: [AuditEntry] = []
        try await service.data.forEachAuditEntry { entries.append($0); return true }
        return entries
    }

    private func edit(_ service: StudyService, _ sql: String...) throws {
        let outsider = try DatabaseQueue(path: service.configuration.dataFolder.appendingPathComponent("study.sqlite").path)
        try outsider.write { db in for statement in sql { try db.execute(sql: statement) } }
        try outsider.close()
    }

    @Test func aParticipantsCardActionIsRecordedWithWhoWhenBeforeAfterAndWhy() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        let enrolled = try await every(service)
        #expect(enrolled.contains { $0.entity == "participant" && $0.action == "insert" && $0.entityID == signedIn.participant.id })
        #expect(enrolled.allSatisfy { $0.atMilliseconds == 1_772_586_000_000 })
        #expect(enrolled.filter { $0.entity == "version" }.allSatisfy { $0.participantID == signedIn.participant.id },
                "the care plan and tasks are the participant's data")

        clock.set(Fixture.date("2026-03-05T01:00:00Z"))
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let page = String(buffer: try await client.execute(uri: "/", method: .get, headers: Fixture.headers(signedIn)).body)
            let action = try #require(page.firstMatch(of: #/action="(/tasks/exercises/\d+/done)"/#)?.output.1)
            let done = try await client.execute(uri: String(action), method: .post, headers: Fixture.headers(signedIn, form: true),
                                                body: ByteBuffer(string: Fixture.token(signedIn) + "&day=2026-03-05"))
            #expect(done.status == .seeOther)
        }
        let rows = try await every(service).filter { $0.atMilliseconds == 1_772_672_400_000 }
        let outcome = try #require(rows.first { $0.entity == "outcome" && $0.action == "insert" })
        #expect(outcome.actor == "participant \(signedIn.participant.id)")
        #expect(outcome.reason?.hasPrefix("POST /tasks/exercises/") == true)
        #expect(outcome.participantID == signedIn.participant.id && outcome.before == nil && outcome.after?.contains("\"occurrenceIndex\"") == true)
        #expect(rows.contains { $0.entity == "outcomeValue" && $0.participantID == signedIn.participant.id })
        #expect(try await service.data.verifyAuditTrail() == nil)
        let mine = try await service.data.auditEntries(participantID: signedIn.participant.id, limit: 1000)
        let newest = try await every(service).last?.sequence
        #expect(mine.first?.sequence == newest, "newest first")
    }

    @Test func verifyNamesTheFirstEditedRemovedOrInsertedRow() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        _ = try await Fixture.participant(of: service, zone: tokyo)
        let rows = try await every(service)
        let holds = try await service.data.verifyAuditTrail()
        #expect(rows.count > 10 && holds == nil)
        // Each kind of tampering in a copy of the file, checked by the CLI's reader.
        let original = service.configuration.dataFolder.appendingPathComponent("study.sqlite")
        func tampered(_ sql: String...) throws -> AuditBreak? {
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).sqlite")
            let source = try DatabaseQueue(path: original.path)
            try source.backup(to: try DatabaseQueue(path: copy.path))
            let outsider = try DatabaseQueue(path: copy.path)
            try outsider.write { db in
                try db.execute(sql: "DROP TRIGGER auditLog_no_update; DROP TRIGGER auditLog_no_delete")
                for statement in sql { try db.execute(sql: statement) }
            }
            try outsider.close()
            let entries = try DatabaseQueue(path: copy.path).read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM auditLog ORDER BY sequence").map {
                    AuditEntry(sequence: $0["sequence"], atMilliseconds: $0["atMilliseconds"], actor: $0["actor"], action: $0["action"],
                               entity: $0["entity"], entityID: $0["entityID"], participantID: $0["participantID"], before: $0["before"],
                               after: $0["after"], reason: $0["reason"], previousHash: $0["previousHash"], hash: $0["hash"])
                }
            }
            return AuditTrail.verify(entries)
        }
        #expect(try tampered("UPDATE auditLog SET actor = 'someone else' WHERE sequence = 5")?.sequence == 5)
        #expect(try tampered("UPDATE auditLog SET after = replace(after, 'Asia/Tokyo', 'UTC') WHERE sequence = 3")?.sequence == 3)
        // An edited row whose own hash was recomputed still breaks the chain at the row after it.
        let fifth = rows[4]
        var edited = fifth
        edited.actor = "someone else"
        let rehashed = AuditTrail.hash(previousHash: edited.previousHash, of: edited.hashedFields)
        #expect(try tampered("UPDATE auditLog SET actor = 'someone else', hash = '\(rehashed)' WHERE sequence = 5")?.sequence == 6)
        #expect(try tampered("DELETE FROM auditLog WHERE sequence = 7")?.sequence == 7)
        #expect(try tampered("DELETE FROM auditLog WHERE sequence = \(rows.count)") == nil, "the last row removed leaves a chain that holds")
    }

    @Test func theLogIsAppendOnlyAndAnEditorWithoutStudyKitCannotChangeAuditedData() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        #expect(throws: DatabaseError.self) { try edit(service, "UPDATE auditLog SET actor = 'x'") }
        #expect(throws: DatabaseError.self) { try edit(service, "DELETE FROM auditLog") }
        #expect {
            try edit(service, "UPDATE participant SET language = 'ja'")
        } throws: { error in "\(error)".contains("no such function: studykit_audit_now") }
        #expect(try await service.store.participant(id: signedIn.participant.id)?.language == "en")
        // Dropping the trigger lets the edit through: the server then refuses to start on the file.
        try edit(service, "DROP TRIGGER audit_participant_update", "UPDATE participant SET language = 'ja'")
        #expect {
            _ = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")), dataFolder: service.configuration.dataFolder)
        } throws: { error in
            "\(error)".contains("the trigger audit_participant_update is missing") && "\(error)".contains("audit")
        }
    }

    @Test func researchersActionsAndExportsAreTheirsAndTheConsoleShowsAParticipantsTrail() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        let investigator = try await Fixture.researcher(of: service, role: .investigator, email: "ines@example.org")
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            var headers = HTTPFields()
            headers[.cookie] = investigator.cookie
            headers[.contentType] = "application/x-www-form-urlencoded"
            _ = try await client.execute(uri: "/console/invitations", method: .post, headers: headers,
                                         body: ByteBuffer(string: investigator.csrf + "&count=1&label=Ward+3"))
            _ = try await client.execute(uri: "/console/exports/outcomes", method: .get, headers: headers)
            let page = String(buffer: try await client.execute(uri: "/console/participants/\(signedIn.participant.id)", method: .get, headers: headers).body)
            #expect(page.contains("Audit trail") && page.contains("<td>insert participant</td><td>\(signedIn.participant.id)</td>"))
        }
        let rows = try await every(service)
        let actor = "researcher ines@example.org (\(investigator.researcher.id.uuidString.lowercased()))"
        let invitation = try #require(rows.last { $0.entity == "invitation" })
        #expect(invitation.actor == actor && invitation.reason == "POST /console/invitations" && invitation.after?.contains("Ward 3") == true)
        let export = try #require(rows.last { $0.action == "export" })
        #expect(export.actor == actor && export.entityID == "outcomes" && export.entity == "study")
        #expect(try await service.data.verifyAuditTrail() == nil)
    }
}
