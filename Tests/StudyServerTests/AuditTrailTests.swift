import Consent
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
        #expect(try await service.sqliteData.verifyAuditTrail() == nil)
        #expect(try await verify(service.configuration.dataFolder) == nil, "the data folder's trail holds, keyed and anchored")
        let mine = try await service.data.auditEntries(participantID: signedIn.participant.id, limit: 1000)
        let newest = try await every(service).last?.sequence
        #expect(mine.first?.sequence == newest, "newest first")
    }

    /// A copy of the service's data folder (its database backed up whole, its keys and anchor), with `sql` run on the
    /// copy by an editor without StudyKit (the trail's append-only guards dropped first, and put back as they were
    /// after when `restoringTriggers`), whose connection has `functions` registered.
    private func tamperedCopy(of service: StudyService, restoringTriggers: Bool = false, functions: [DatabaseFunction] = [],
                              _ sql: [String]) throws -> URL {
        let original = service.configuration.dataFolder
        try service.sqliteData.anchorAuditTrailNow()
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: original.appendingPathComponent("keys"), to: copy.appendingPathComponent("keys"))
        try FileManager.default.copyItem(at: original.appendingPathComponent(AuditAnchor.fileName(forDatabase: "study.sqlite")), to: copy.appendingPathComponent(AuditAnchor.fileName(forDatabase: "study.sqlite")))
        try DatabaseQueue(path: original.appendingPathComponent("study.sqlite").path).backup(to: try DatabaseQueue(path: copy.appendingPathComponent("study.sqlite").path))
        var configuration = Configuration()
        configuration.prepareDatabase { db in for function in functions { db.add(function: function) } }
        let outsider = try DatabaseQueue(path: copy.appendingPathComponent("study.sqlite").path, configuration: configuration)
        try outsider.write { db in
            let guards = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'auditLog'")
            try db.execute(sql: "DROP TRIGGER auditLog_no_update; DROP TRIGGER auditLog_no_delete")
            for statement in sql { try db.execute(sql: statement) }
            if restoringTriggers { for row in guards { try db.execute(sql: row["sql"]) } }
        }
        try outsider.close()
        return copy
    }

    /// Where `studykit audit verify` finds the trail of the data folder `folder` broken; nil when it holds.
    private func verify(_ folder: URL) async throws -> AuditBreak? {
        let check = try SQLiteStudyDatabase.auditChainCheck(database: folder.appendingPathComponent("study.sqlite"))
        return try await SQLiteStudyDatabase.readOnly(path: folder.appendingPathComponent("study.sqlite").path).verifyAuditTrail(check)
    }

    @Test func verifyNamesTheFirstEditedRemovedOrInsertedRow() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        _ = try await Fixture.participant(of: service, zone: tokyo)
        let rows = try await every(service)
        #expect(rows.count > 10)
        #expect(try await verify(tamperedCopy(of: service, [])) == nil, "an untouched copy holds")
        #expect(try await verify(tamperedCopy(of: service, ["UPDATE auditLog SET actor = 'someone else' WHERE sequence = 5"]))?.sequence == 5)
        #expect(try await verify(tamperedCopy(of: service, ["UPDATE auditLog SET after = replace(after, 'Asia/Tokyo', 'UTC') WHERE sequence = 3"]))?.sequence == 3)
        // An edited row whose own hash was recomputed (without the trail's key) still breaks the chain at that row.
        var edited = rows[4]
        edited.actor = "someone else"
        let rehashed = AuditTrail.hash(previousHash: edited.previousHash, of: edited.hashedFields)
        #expect(try await verify(tamperedCopy(of: service, ["UPDATE auditLog SET actor = 'someone else', hash = '\(rehashed)' WHERE sequence = 5"]))?.sequence == 5)
        #expect(try await verify(tamperedCopy(of: service, ["DELETE FROM auditLog WHERE sequence = 7"]))?.sequence == 7)
    }

    /// The tail of the trail cut off: the chain that is left holds, and the anchor outside the database says where it
    /// ended, so verify fails and the server refuses to start on it.
    @Test func verifyFailsWhenTheTailIsCutOff() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        _ = try await Fixture.participant(of: service, zone: tokyo)
        let count = try await every(service).count
        let cut = try tamperedCopy(of: service, restoringTriggers: true, ["DELETE FROM auditLog WHERE sequence > \(count - 3)"])
        let broken = try #require(try await verify(cut))
        #expect(broken.sequence == Int64(count - 2) && broken.problem.contains("rows \(count - 2) to \(count) were removed"), "\(broken)")
        #expect(throws: SQLiteAuditAnchorError.self) { _ = try SQLiteStudyDatabase(path: cut.appendingPathComponent("study.sqlite").path) }
        // Removing the anchor too is no way out: the key says the trail was anchored.
        try FileManager.default.removeItem(at: cut.appendingPathComponent(AuditAnchor.fileName(forDatabase: "study.sqlite")))
        await #expect(throws: SQLiteAuditAnchorError.self) { _ = try await verify(cut) }
        #expect(throws: SQLiteAuditAnchorError.self) { _ = try SQLiteStudyDatabase(path: cut.appendingPathComponent("study.sqlite").path) }
    }

    /// An editor with the file drops the triggers, changes a participant's data and its audit row, recomputes every
    /// hash of the chain, and puts the triggers back exactly as they were: without the trail's key the rows do not
    /// verify, and the anchor's row no longer hashes as the anchor says.
    @Test func verifyFailsWhenARowIsEditedAndTheWholeChainRecomputedWithTheTriggersRestored() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        let rows = try await every(service)
        let target = try #require(rows.first { $0.entity == "participant" && $0.action == "insert" })
        var rewrite = ["UPDATE participant SET timeZone = 'UTC' WHERE id = '\(signedIn.participant.id)'",
                       "UPDATE auditLog SET after = replace(after, 'Asia/Tokyo', 'UTC') WHERE sequence = \(target.sequence)"]
        var previous = ""
        for row in rows {
            var entry = row
            if entry.sequence == target.sequence { entry.after = entry.after?.replacingOccurrences(of: "Asia/Tokyo", with: "UTC") }
            entry.previousHash = previous
            let hash = AuditTrail.hash(previousHash: previous, of: entry.hashedFields)
            rewrite.append("UPDATE auditLog SET previousHash = '\(previous)', hash = '\(hash)' WHERE sequence = \(entry.sequence)")
            previous = hash
        }
        let trigger = try await DatabaseQueue(path: service.configuration.dataFolder.appendingPathComponent("study.sqlite").path).read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'audit_participant_update'")
        }
        let copy = try tamperedCopy(of: service, restoringTriggers: true,
                                    ["DROP TRIGGER audit_participant_update"] + rewrite + [try #require(trigger)])
        let broken = try #require(try await verify(copy))
        #expect(broken.sequence == 1 && broken.problem.contains("not written by StudyKit with this trail's key"), "\(broken)")
        #expect {
            _ = try SQLiteStudyDatabase(path: copy.appendingPathComponent("study.sqlite").path)
        } throws: { error in "\(error)".contains("the trail was rewritten") }
    }

    /// An editor registers look-alike functions for the triggers in their own program and changes a participant's
    /// answer through them, with a forged actor: the rows they append are in the chain but not keyed with the trail's
    /// key, so verify names the first of them.
    @Test func verifyFailsForRowsWrittenThroughLookAlikeSQLFunctions() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        let count = Int64(try await every(service).count)
        let lookAlikes = [
            DatabaseFunction("studykit_audit_now", argumentCount: 0, pure: false) { _ in Int64(1_772_586_000_000) },
            DatabaseFunction("studykit_audit_actor", argumentCount: 0, pure: false) { _ in "participant \(signedIn.participant.id)" },
            DatabaseFunction("studykit_audit_reason", argumentCount: 0, pure: false) { _ in "POST /settings" },
            DatabaseFunction("studykit_audit_hash", argumentCount: 10, pure: true) { values in
                let texts = values.map { value -> String? in value.isNull ? nil : (Int64.fromDatabaseValue(value).map(String.init) ?? String.fromDatabaseValue(value)) }
                return AuditTrail.hash(previousHash: texts[0] ?? "", of: Array(texts[1...]))
            },
            DatabaseFunction("studykit_audit_digest", argumentCount: 1, pure: true) { _ in String(repeating: "0", count: 64) },
            DatabaseFunction("studykit_sha256", argumentCount: 1, pure: true) { _ in String(repeating: "0", count: 64) },
            DatabaseFunction("studykit_participant_of", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map { String($0.prefix { $0 != "/" }) }
            },
        ]
        let copy = try tamperedCopy(of: service, restoringTriggers: true, functions: lookAlikes,
                                    ["UPDATE participant SET language = 'ja' WHERE id = '\(signedIn.participant.id)'"])
        let written = try await DatabaseQueue(path: copy.appendingPathComponent("study.sqlite").path).read { db in
            try Int64.fetchOne(db, sql: "SELECT max(sequence) FROM auditLog")
        }
        #expect(written == count + 1, "the look-alikes wrote a row through the trigger")
        let broken = try #require(try await verify(copy))
        #expect(broken.sequence == count + 1 && broken.problem.contains("not written by StudyKit with this trail's key"), "\(broken)")
    }

    /// An answer changed (back, then another answer) and a completed survey taken back from its card: each is an
    /// update of the run's row in the trail, with only what changed before and after (the participant's answers as
    /// keyed digests, never in clear), not a new insert with the whole run.
    @Test func aChangedAnswerAndASurveyTakenBackAreUpdatesWithWhatChangedBeforeAndAfter() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        try await Fixture.consent(of: service, for: signedIn, at: clock.now)
        clock.set(Fixture.date("2026-03-05T03:00:00Z"))
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        let runID = try await app.test(.router) { client in
            func call(_ path: String, _ body: String) async throws -> [String: Any] {
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(signedIn.sessionToken)"
                headers[.contentType] = "application/json"
                let response = try await client.execute(uri: "/api/v1" + path, method: .post, headers: headers, body: ByteBuffer(string: body))
                #expect(response.status.code < 300, "\(path) \(body): \(String(buffer: response.body))")
                return (try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]) ?? [:]
            }
            let runID = try #require(try await call("/participant/runs", #"{"task":"pain","occurrence":1}"#)["id"] as? String)
            for body in [#"{"step":"painLevel","action":"next","fields":{"q0":["3"]}}"#, #"{"step":"painLocation","action":"back"}"#,
                         #"{"step":"painLevel","action":"next","fields":{"q0":["7"]}}"#, #"{"step":"painLocation","action":"next","fields":{"q0":["1"]}}"#,
                         #"{"step":"notes","action":"next","fields":{"q0":["sharp when climbing stairs"]}}"#, #"{"step":"done","action":"next"}"#] {
                _ = try await call("/participant/runs/\(runID)/steps", body)
            }
            let taken = try await client.execute(uri: "/tasks/pain/1/withdraw", method: .post, headers: Fixture.headers(signedIn, form: true),
                                                 body: ByteBuffer(string: Fixture.token(signedIn)))
            #expect(taken.status == .seeOther)
            return runID
        }
        let key = runID.replacingOccurrences(of: "-", with: "").lowercased()
        let run = try await every(service).filter { $0.entity == "taskRun" && $0.entityID == key }
        #expect(run.map(\.action) == ["insert"] + Array(repeating: "update", count: 7), "start, 5 steps saved, completed, taken back: \(run.map(\.action))")
        func fields(_ json: String?) throws -> [String: Any] {
            let text = try #require(json)
            return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }
        for update in run.dropFirst() {
            let before = try fields(update.before), after = try fields(update.after)
            #expect(Set(before.keys) == Set(after.keys) && before["participantID"] == nil && before["taskID"] == nil, "only what changed: \(before.keys)")
            #expect(!(update.after ?? "").contains("sharp when climbing stairs"), "answers only as digests")
        }
        // The answer changed from 3 to 7: the step's save after the change shows the restoration data before and after.
        let changed = run[3]
        #expect(try fields(changed.before)["restorationDataHMAC"] as? String != nil)
        #expect(try fields(changed.before)["restorationDataHMAC"] as? String != fields(changed.after)["restorationDataHMAC"] as? String)
        let completed = run[6], takenBack = run[7]
        #expect(try fields(completed.before)["state"] as? String == "inProgress" && fields(completed.after)["state"] as? String == "completed")
        #expect(try (fields(completed.after)["resultHMAC"] as? String)?.count == 32)
        #expect(try fields(takenBack.before)["state"] as? String == "completed" && fields(takenBack.after)["state"] as? String == "withdrawn")
        #expect(try fields(takenBack.before).keys.sorted() == ["state"], "the run's own time of change is the audit row's")
        let outcome = try #require(try await every(service).last { $0.entity == "outcome" && $0.action == "update" })
        #expect(try fields(outcome.before)["deletedDate"] is NSNull && fields(outcome.after)["deletedDate"] as? Double != nil)
        #expect(try await service.sqliteData.verifyAuditTrail() == nil)
    }

    /// A consent's PDF printed after its record is an update of the PDF's row (pending, then ready, with the PDF's
    /// digest after), not a second insert that leaves no "before".
    @Test func aConsentPDFPrintedAfterItsRecordIsAnUpdateOfItsRowWithTheStateBeforeAndAfter() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        let record = try await Fixture.consent(of: service, for: signedIn, at: clock.now).record.id
        let pdf = Data("%PDF-1.7 printed".utf8)
        try await service.store.setConsentPDF(.stored(pdf), recordID: record, participantID: signedIn.participant.id)
        let key = record.uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let rows = try await every(service).filter { $0.entity == "consentPDF" && $0.entityID == key }
        #expect(rows.map(\.action) == ["insert", "update"], "\(rows.map(\.action))")
        let update = try #require(rows.last)
        let before = try #require(try JSONSerialization.jsonObject(with: Data((update.before ?? "").utf8)) as? [String: Any])
        let after = try #require(try JSONSerialization.jsonObject(with: Data((update.after ?? "").utf8)) as? [String: Any])
        #expect(before["state"] as? String == "pending" && after["state"] as? String == "ready", "\(before) → \(after)")
        #expect(after["pdfSHA256"] as? String == ConsentRecord.sha256Hex(of: pdf))
        #expect(try await service.sqliteData.verifyAuditTrail() == nil)
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
        #expect(try await service.sqliteData.verifyAuditTrail() == nil)
    }
}
