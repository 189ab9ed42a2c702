import Consent
import Foundation
import StudyKitEnvironment
import GRDB
import Research
import Study
import StudySQLite
import Synchronization
import Testing

/// A clock tests move by hand.
final class StoreClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_772_700_000)) // 2026-03-05T08:40:00Z
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// A restoration data and a result of a one-question run with id `run`.
func pausedRun(_ run: UUID? = nil) throws -> (restoration: TaskRestorationData, result: TaskResult) {
    let task = try TaskValidator.load(Data(#"{"identifier": "pain", "steps": [{"type": "question", "identifier": "level", "answerFormat": {"type": "boolean"}}]}"#.utf8))
    let id = run ?? UUID()
    let environment = StudyKitEnvironment(now: { Date(timeIntervalSince1970: 1_772_700_000) }, makeUUID: { id }, locale: Locale(identifier: "en_US"))
    var session = try TaskSession(task: task, environment: environment)
    try session.setAnswer(.boolean(true))
    let restoration = session.restorationData
    try session.goForward()
    return (restoration, session.result)
}

/// A consent record of `participant`, sealed with a fresh key.
func sealedConsent(participant: String, recorder: ConsentRecorder = ConsentRecorder(signingKey: .generate())) throws -> SealedConsentRecord {
    try recorder.sealConsent(participantIdentifier: participant, studyIdentifier: "recover", studyName: "Recover", documentIdentifier: "recover-consent",
                             documentVersion: "1.0", language: "en", html: "<p>Consent</p>", signatures: [], answers: ["sharing": "shareWidely"])
}

@Suite("SQLite study store")
struct SQLiteStudyStoreTests {
    let clock = StoreClock()

    @Test func theFileHoldsNoSecretInTheClear() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("study-secrets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("study.sqlite").path
        let store = try SQLiteStudyStore(path: path, environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { UUID() }))
        let invitation = try await store.createInvitation(label: nil, expiresAt: nil)
        let participant = try await store.enrol(invitationCode: invitation.code, timeZone: .gmt, language: "en")
        let session = try await store.createSession(participantID: participant.id, lifetime: 3600)
        let code = try await store.createSignInCode(participantID: participant.id, lifetime: 600)
        let dump = try await store.database.read { db in
            try ["invitation", "session", "signInCode"].flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map { $0.description }
            }.joined(separator: "\n")
        }
        #expect(!dump.contains(invitation.code) && !dump.contains(session.token) && !dump.contains(StudySecrets.normalizeCode(code.code)))
        #expect(dump.contains(StudySecrets.tokenHash(session.token)))
        let (mode, synchronous) = try await store.database.write { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        #expect(mode == "wal" && synchronous == 2)
        #expect(StudyStoreMigrations.migrationNames.count == 10)
    }

    /// Migration v7 moves v6's claims on printing consent PDFs into the table of leases, keyed by the record: a claim
    /// made before the upgrade still holds after it.
    @Test func consentPDFClaimsOfV6AreLeasesAfterV7() throws {
        let queue = try DatabaseQueue()
        let migrator = StudyStoreMigrations.migrator
        try migrator.migrate(queue, upTo: StudyStoreMigrations.migrationNames[5])
        let record = UUID()
        try queue.write { db in
            try db.execute(sql: "INSERT INTO participant (id, patientID, timeZone, language, enrolledAt) VALUES ('p', 'p', 'UTC', 'en', 0)")
            try db.execute(sql: "INSERT INTO consentRecord (id, participantID, kind, sealedJSON, storedAt) VALUES (?, 'p', 'consent', x'7b7d', 0)",
                           arguments: [record])
            try db.execute(sql: "INSERT INTO consentPDFClaim (recordID, claimedUntil) VALUES (?, 1234.5)", arguments: [record])
        }
        try migrator.migrate(queue)
        try queue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT key, claimedUntil FROM lease"))
            #expect(row["key"] as String == StudyLease.consentPDFKey(record) && row["claimedUntil"] as Double == 1234.5)
            #expect(try db.tableExists("consentPDFClaim") == false)
        }
    }

    @Test func aRunIsReadAsStoredEvenWhenChangedBehindTheStoresBack() async throws {
        // The store keeps each run's decoded restoration data with its JSON: a row changed by other means (another
        // process, a repair by hand) must be read as it now is, and a run saved must be read back as saved.
        let store = try SQLiteStudyStore.inMemory(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { UUID() }))
        let participant = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let (restoration, _) = try pausedRun()
        let id = restoration.taskRunUUID
        try await store.saveRun(TaskRun(id: id, participantID: participant.id, taskID: "pain", state: .inProgress, restorationData: restoration))
        #expect(try await store.run(id: id, participantID: participant.id)?.restorationData == restoration)

        var changed = restoration
        changed.device = "repaired by hand"
        let json = try ResearchJSON.encoder(pretty: false).encode(changed)
        try await store.database.write { db in
            try db.execute(sql: "UPDATE taskRun SET restorationData = ? WHERE id = ?", arguments: [json, id])
        }
        #expect(try await store.run(id: id, participantID: participant.id)?.restorationData == changed)

        let updated = { var run = changed; run.device = "web"; return run }()
        let result = try await store.updateRun(id: id, participantID: participant.id) { stored in
            var run = stored
            run.restorationData = updated
            return (run, stored.restorationData)
        }
        #expect(result?.value == changed)
        #expect(try await store.run(id: id, participantID: participant.id)?.restorationData == updated)
        #expect(try await store.openRuns(participantID: participant.id).map(\.restorationData) == [updated])
    }

    @Test func aRunWhoseJSONWasDamagedInTheFileNamesItselfAndThePlace() async throws {
        let store = try SQLiteStudyStore.inMemory(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { UUID() }))
        let participant = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let (restoration, result) = try pausedRun()
        let id = restoration.taskRunUUID
        try await store.saveRun(TaskRun(id: id, participantID: participant.id, taskID: "pain", state: .completed, result: result))
        let cases: [(json: String, reason: String)] = [
            ("{\"identifier\": \"pain\", \"trunc", "malformed JSON: Unexpected end of file"),
            ("{\"identifier\": \"pain\",\n \"taskRunUUID\": nope}", "malformed JSON: line 2, column"),
            (#"{"identifier": "pain"}"#, "taskRunUUID: is required but missing"),
        ]
        for (json, reason) in cases {
            try await store.database.write { db in
                try db.execute(sql: "UPDATE taskRun SET result = ? WHERE id = ?", arguments: [Data(json.utf8), id])
            }
            do {
                _ = try await store.runs(participantID: participant.id, taskID: nil)
                Issue.record("a damaged result was read: \(json)")
            } catch let error as SQLiteStudyStoreError {
                #expect(error.description.hasPrefix("the taskRun.result of run \(id.uuidString.lowercased()) cannot be read: "), "\(error)")
                #expect(error.description.contains(reason), "\(error)")
            }
        }
    }

    @Test func consentRecordsCannotBeChangedEvenWithSQL() async throws {
        let store = try SQLiteStudyStore.inMemory(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { UUID() }))
        let participant = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let record = try await store.appendConsentRecord(try sealedConsent(participant: participant.id))
        await #expect(throws: DatabaseError.self) {
            try await store.database.write { db in try db.execute(sql: "UPDATE consentRecord SET kind = 'withdrawal'") }
        }
        await #expect(throws: DatabaseError.self) {
            try await store.database.write { db in try db.execute(sql: "DELETE FROM consentRecord") }
        }
        #expect(try await store.consentRecords(participantID: participant.id) == [record])
    }

    /// REPLACE deletes the row it replaces without firing the delete trigger (SQLite fires none for it unless recursive
    /// triggers are on, and sqlite3 does not turn them on): a REPLACE of a sealed row from another connection, as a
    /// person with `sqlite3` would issue it, must be refused like UPDATE and DELETE.
    @Test func aConsentRecordCannotBeReplacedFromAnotherConnection() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("replace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("study.sqlite").path
        let environment = StudyKitEnvironment(now: { clock.now }, makeUUID: { UUID() })
        let store = try SQLiteStudyStore(path: path, environment: environment)
        let participant = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let record = try await store.appendConsentRecord(try sealedConsent(participant: participant.id))
        let forged = try sealedConsent(participant: participant.id, recorder: ConsentRecorder(signingKey: .generate()))
        let outsider = try DatabaseQueue(path: path)  // no recursive triggers, as with sqlite3
        for statement in ["INSERT OR REPLACE INTO consentRecord (id, participantID, kind, sealedJSON, storedAt) VALUES (?, ?, 'consent', ?, 0)",
                          "REPLACE INTO consentRecord (id, participantID, kind, sealedJSON, storedAt) VALUES (?, ?, 'consent', ?, 0)"] {
            #expect(throws: DatabaseError.self, "\(statement)") {
                try outsider.write { db in try db.execute(sql: statement, arguments: [record.id, participant.id, try forged.jsonData()]) }
            }
        }
        #expect(throws: DatabaseError.self) { try outsider.write { db in try db.execute(sql: "UPDATE consentRecord SET sealedJSON = x'00'") } }
        #expect(throws: DatabaseError.self) { try outsider.write { db in try db.execute(sql: "DELETE FROM consentRecord") } }
        #expect(try await store.consentRecords(participantID: participant.id) == [record])
        #expect(try store.appendOnlyProblems() == [])
    }

    /// Dropping a trigger is noticed at the next start: the store refuses to open the file for writing, naming it.
    @Test func aDroppedOrChangedTriggerIsRefusedAtTheNextOpen() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("triggers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("study.sqlite").path
        let environment = StudyKitEnvironment(now: { clock.now }, makeUUID: { UUID() })
        _ = try SQLiteStudyStore(path: path, environment: environment)
        let outsider = try DatabaseQueue(path: path)
        try await outsider.write { db in
            try db.execute(sql: "DROP TRIGGER consentRecord_no_delete")
            try db.execute(sql: "DROP TRIGGER consentRecord_no_replace")
            try db.execute(sql: "CREATE TRIGGER consentRecord_no_replace BEFORE INSERT ON consentRecord WHEN 0 BEGIN SELECT 1; END")
        }
        try outsider.close()
        #expect {
            _ = try SQLiteStudyStore(path: path, environment: environment)
        } throws: { error in
            guard case SQLiteStudyStoreOpenError.appendOnlyTriggers(let file, let problems) = error else { return false }
            return file == path && problems == ["the trigger consentRecord_no_delete is missing", "the trigger consentRecord_no_replace was changed"]
                && "\(error)".contains("was edited outside StudyKit")
        }
    }
}
