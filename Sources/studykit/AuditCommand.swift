import ArgumentParser
import Consent
import Foundation
import Research
import Study
import StudySQLite

/// `studykit audit`: the audit trail of a study's database (the data folder's SQLite file, or `--database`).
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Check or list the audit trail of a study's database.",
        discussion: """
            Every change of study data (participants, invitations, runs, consent records and PDFs, researchers, care tasks, \
            outcomes) is a row of the trail, written in the same transaction as the change, with who, when, what changed \
            (participants' answers as keyed digests), why, and a hash of the row before keyed with the study's audit-trail-key \
            (DATA/keys/, or the --keys folder with --database). After every commit the end of the trail is anchored outside the \
            database, signed with the server's key: DATA/study.audit-anchor.json, or with --database DATA/postgres.audit-anchor.json.
            """,
        subcommands: [Verify.self, List.self, Reanchor.self]
    )

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the audit trail's keyed hash chain and its anchor; name the first row that does not hold.",
            discussion: """
                Every row must hash, with the study's audit key, to what it stores and follow the row before, and the trail \
                must reach the row its latest anchor (DATA/study.audit-anchor.json, or DATA/postgres.audit-anchor.json) names, with the hash the anchor names; the anchor \
                must be signed by the server's key. Exits 0 when all of this holds, 1 when it does not (naming the first row or \
                the anchor at fault), 2 when the database cannot be read.
                """)

        @OptionGroup var place: StudyDataLocation

        @Option(name: .customLong("public-key"), help: "The server's public key (base64, as studykit consent key prints it) the anchor must be signed with; by default the study's own signing key.")
        var publicKey: String?

        func validate() throws {
            if let publicKey { _ = try ConsentPublicKey(base64: publicKey) }
        }

        func run() async throws {
            let check: AuditChainCheck
            do {
                check = try place.auditChainCheck(publicKey: try publicKey.map(ConsentPublicKey.init(base64:)))
            } catch {
                FileHandle.standardError.write(Data("studykit audit verify: \(error)\n".utf8))
                throw ExitCode(1)
            }
            let opened = try await AuditCommand.open(place)
            defer { opened.close() }
            let database = opened.database
            let triggers = try await (database as? SQLiteStudyDatabase)?.auditTriggerProblems() ?? []
            if !triggers.isEmpty {
                FileHandle.standardError.write(Data(("studykit audit verify: the database was edited outside StudyKit: " + triggers.joined(separator: "; ")
                    + "; changes since may be missing from the audit trail\n").utf8))
            }
            var chain = check
            var broken: AuditBreak?
            try await database.forEachAuditEntry { entry in
                broken = chain.next(entry)
                return broken == nil
            }
            broken = broken ?? chain.finish()
            let count = chain.rowsChecked
            if let broken {
                FileHandle.standardError.write(Data("studykit audit verify: the audit trail is broken at \(broken)\n".utf8))
                throw ExitCode(1)
            }
            if !triggers.isEmpty { throw ExitCode(1) }
            print("the audit trail holds: \(count) row\(count == 1 ? "" : "s"), each following the one before with the trail's key, "
                + "up to and past its anchor")
        }
    }

    struct Reanchor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Anchor the audit trail afresh where it ends now, after restoring the database from a backup or losing the anchor.",
            discussion: """
                Every row is checked with the data folder's key first: a trail that does not hold row by row is refused. The new \
                anchor is written, and a row of the trail records the re-anchoring with the reason given and the anchor it \
                replaced. Rows cut off by the restore are not brought back: say in the reason why they are gone. Stop the server first.
                """)

        @Option(help: "Why the trail is anchored again (for example: restored from the backup of 2026-11-27).")
        var reason: String

        @OptionGroup var place: StudyDataLocation

        func validate() throws {
            let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !reason.isEmpty, reason.count <= 1000, FreeTextRules.forbiddenScalar(in: reason, allowingLineBreaks: false) == nil else {
                throw ValidationError("--reason must be 1 to 1000 characters of text, without control or bidirectional characters")
            }
        }

        func run() async throws {
            do {
                let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
                let replaced = try await AuditTrail.$source.withValue(StudyPaths.auditSource("audit reanchor")) {
                    try await place.reanchorAuditTrail(reason: reason)
                }
                print("the audit trail is anchored again" + (replaced.map { " (the anchor it replaced named row \($0.sequence), written at \($0.writtenAt))" } ?? ""))
            } catch {
                FileHandle.standardError.write(Data("studykit audit reanchor: \(error)\n".utf8))
                throw ExitCode(1)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a participant's rows of the audit trail, newest first, as JSON lines.")

        @Option(help: "The participant's id.")
        var participant: String

        @Option(help: "At most this many rows.")
        var limit: Int = 100

        @OptionGroup var place: StudyDataLocation

        func validate() throws {
            guard (1...100_000).contains(limit) else { throw ValidationError("--limit must be between 1 and 100000") }
        }

        func run() async throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let opened = try await AuditCommand.open(place)
            defer { opened.close() }
            for entry in try await opened.database.auditEntries(participantID: participant, limit: limit) {
                print(String(decoding: try encoder.encode(entry), as: UTF8.self))
            }
        }
    }

    /// The study's database, opened for reading (SQLite: read-only; PostgreSQL: migrated first, as any command does).
    static func open(_ place: StudyDataLocation) async throws -> OpenedStudyDatabase {
        do {
            if place.database != nil { return try await place.openForWriting() }
            let folder = try StudyDataFolder(url: place.dataFolder)
            return OpenedStudyDatabase(database: try SQLiteStudyDatabase.readOnly(path: folder.database.path), close: {})
        } catch {
            FileHandle.standardError.write(Data("studykit audit: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
