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
}
