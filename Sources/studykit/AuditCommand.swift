import ArgumentParser
import Foundation
import Study
import StudySQLite

/// `studykit audit`: the data folder's audit trail.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Check or list the audit trail of a data folder.",
        discussion: """
            Every change of study data (participants, invitations, runs, consent records and PDFs, researchers, care tasks, \
            outcomes) is a row of the trail, written in the same transaction as the change, with who, when, the row before \
            and after, why, and the hash of the row before.
            """,
        subcommands: [Verify.self, List.self]
    )

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the audit trail's hash chain; name the first row that does not hold.",
            discussion: "Exits 0 when every row holds, 1 when one does not (naming it), 2 when the data folder cannot be read.")

        @Option(help: "The data folder the server uses.", completion: .directory)
        var data: String = "data"

        func validate() throws { try StudyPaths.check(data: data) }

        func run() async throws {
            let database = try AuditCommand.open(data)
            let triggers = try await database.auditTriggerProblems()
            if !triggers.isEmpty {
                FileHandle.standardError.write(Data(("studykit audit verify: the database was edited outside StudyKit: " + triggers.joined(separator: "; ")
                    + "; changes since may be missing from the audit trail\n").utf8))
            }
            var count = 0
            var check = AuditChainCheck()
            var broken: AuditBreak?
            try await database.forEachAuditEntry { entry in
                broken = check.next(entry)
                if broken == nil { count += 1 }
                return broken == nil
            }
            if let broken {
                FileHandle.standardError.write(Data("studykit audit verify: the audit trail is broken at \(broken)\n".utf8))
                throw ExitCode(1)
            }
            if !triggers.isEmpty { throw ExitCode(1) }
            print("the audit trail holds: \(count) row\(count == 1 ? "" : "s"), each following the one before")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a participant's rows of the audit trail, newest first, as JSON lines.")

        @Option(help: "The participant's id.")
        var participant: String

        @Option(help: "At most this many rows.")
        var limit: Int = 100

        @Option(help: "The data folder the server uses.", completion: .directory)
        var data: String = "data"

        func validate() throws {
            try StudyPaths.check(data: data)
            guard (1...100_000).contains(limit) else { throw ValidationError("--limit must be between 1 and 100000") }
        }

        func run() async throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for entry in try await AuditCommand.open(data).auditEntries(participantID: participant, limit: limit) {
                print(String(decoding: try encoder.encode(entry), as: UTF8.self))
            }
        }
    }

    /// The data folder's database, opened for reading.
    static func open(_ data: String) throws -> SQLiteStudyDatabase {
        do {
            let folder = try StudyDataFolder(path: data)
            return try SQLiteStudyDatabase.readOnly(path: folder.database.path)
        } catch {
            FileHandle.standardError.write(Data("studykit audit: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
