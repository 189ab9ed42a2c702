import Foundation
import GRDB
import Testing

/// `studykit researcher` and `studykit audit` on a data folder, as a study team runs them.
@Suite("researcher and audit commands")
struct ResearcherAndAuditCommandTests {
    @Test func aResearcherAddedFromTheCommandLineIsARowOfTheTrailWhichVerifiesUntilARowIsEdited() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let added = try StudykitProcess.run(["researcher", "add", "Ana@Example.org", "--role", "investigator", "--data", data,
                                             "--base-url", "https://study.example.org/"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("ana@example.org (investigator) sets a password within 7 days at:"))
        #expect(added.stdout.range(of: #"https://study\.example\.org/console/password/[A-Za-z0-9_-]{43}\n"#, options: .regularExpression) != nil)
        let twice = try StudykitProcess.run(["researcher", "add", "ana@example.org", "--role", "viewer", "--data", data])
        #expect(twice.status == 1 && twice.stderr.contains("a researcher with the address ana@example.org already exists"))
        let badRole = try StudykitProcess.run(["researcher", "add", "bo@example.org", "--role", "owner", "--data", data])
        #expect(badRole.status != 0 && badRole.stderr.contains("owner"))
        let list = try StudykitProcess.run(["researcher", "list", "--data", data])
        #expect(list.stdout == "ana@example.org\tinvestigator\tno password yet\n")
        #expect(try StudykitProcess.run(["invite", "--count", "2", "--data", data]).status == 0)

        let verified = try StudykitProcess.run(["audit", "verify", "--data", data])
        #expect(verified.status == 0 && verified.stdout == "the audit trail holds: 3 rows, each following the one before with the trail's key, "
                + "up to and past its anchor\n", "\(verified.stderr)")
        // A copy checked against the server's published public key: the right key passes, another key's is refused.
        let published = try StudykitProcess.run(["consent", "key", "--data", data]).stdout
        let publicKey = try #require(published.firstMatch(of: #/[A-Za-z0-9+\/]{43}=/#)).output
        #expect(try StudykitProcess.run(["audit", "verify", "--data", data, "--public-key", String(publicKey)]).status == 0)
        let other = try StudykitProcess.run(["audit", "verify", "--data", data, "--public-key", "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="])
        #expect(other.status == 1 && other.stderr.contains("it is signed by another key"), "\(other.stderr)")

        let file = folder.appendingPathComponent("data/study.sqlite").path
        let outsider = try DatabaseQueue(path: file)
        let actor = try outsider.read { db in try String.fetchOne(db, sql: "SELECT actor FROM auditLog WHERE sequence = 1") }
        #expect(actor?.hasPrefix("command line: studykit researcher add (user ") == true)
        try outsider.write { db in
            try db.execute(sql: "DROP TRIGGER auditLog_no_update")
            try db.execute(sql: "UPDATE auditLog SET actor = 'someone else' WHERE sequence = 2")
        }
        try outsider.close()
        let broken = try StudykitProcess.run(["audit", "verify", "--data", data])
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("the database was edited outside StudyKit: the trigger auditLog_no_update is missing"))
        #expect(broken.stderr.contains("the audit trail is broken at row 2: it was not written by StudyKit with this trail's key, or its content was changed since"),
                "\(broken.stderr)")
        // A writable open refuses the file.
        let refused = try StudykitProcess.run(["invite", "--data", data])
        #expect(refused.status == 1 && refused.stderr.contains("the trigger auditLog_no_update is missing"), "\(refused.stderr)")
    }

    /// A database restored from a backup older than its anchor: the server and the commands refuse it, naming the anchor;
    /// `audit reanchor` with a reason checks every row with the key, anchors it afresh and records why in the trail;
    /// a trail with an edited row is not anchored again.
    @Test func aDatabaseRestoredFromABackupIsRefusedUntilReanchoredWithAReason() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        #expect(try StudykitProcess.run(["researcher", "add", "ana@example.org", "--role", "admin", "--data", data]).status == 0)
        let file = folder.appendingPathComponent("data/study.sqlite").path
        let backup = folder.appendingPathComponent("backup.sqlite").path
        try DatabaseQueue(path: file).backup(to: try DatabaseQueue(path: backup))
        #expect(try StudykitProcess.run(["invite", "--count", "2", "--data", data]).status == 0)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
        try FileManager.default.copyItem(atPath: backup, toPath: file)

        let refused = try StudykitProcess.run(["invite", "--data", data])
        #expect(refused.status == 1 && refused.stderr.contains("rows were removed from its end"), "\(refused.stderr)")
        let unverified = try StudykitProcess.run(["audit", "verify", "--data", data])
        #expect(unverified.status == 1 && unverified.stderr.contains("were removed"), "\(unverified.stderr)")
        let noReason = try StudykitProcess.run(["audit", "reanchor", "--reason", " ", "--data", data])
        #expect(noReason.status != 0)
        let reanchored = try StudykitProcess.run(["audit", "reanchor", "--reason", "restored from the backup of 2026-11-27", "--data", data])
        #expect(reanchored.status == 0 && reanchored.stdout.contains("the anchor it replaced named row 3"), "\(reanchored.stdout) \(reanchored.stderr)")
        let verified = try StudykitProcess.run(["audit", "verify", "--data", data])
        #expect(verified.status == 0, "\(verified.stderr)")
        let row = try DatabaseQueue(path: file).read { db in
            try Row.fetchOne(db, sql: "SELECT action, entity, after, reason FROM auditLog ORDER BY sequence DESC LIMIT 1")
        }
        #expect(row?["action"] == "reanchor" && (row?["after"] as String?)?.contains(#""replaced":{"hash""#) == true)
        #expect((row?["reason"] as String?)?.contains("restored from the backup of 2026-11-27") == true)
        #expect(try StudykitProcess.run(["invite", "--data", data]).status == 0, "the folder is usable again")

        // An edited row is never blessed by a new anchor.
        try DatabaseQueue(path: file).write { db in
            try db.execute(sql: "DROP TRIGGER auditLog_no_update")
            try db.execute(sql: "UPDATE auditLog SET actor = 'someone else' WHERE sequence = 1")
        }
        let tampered = try StudykitProcess.run(["audit", "reanchor", "--reason", "hide it", "--data", data])
        #expect(tampered.status == 1 && tampered.stderr.contains("row 1 was not written by StudyKit with this trail's key"), "\(tampered.stderr)")
    }
}
