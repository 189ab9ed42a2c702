import ArgumentParser
import CareStorePostgres
import Consent
import Foundation
import Study
import StudyKitEnvironment
import StudyPostgres
import StudySQLite

/// `studykit migrate`: copies an embedded study (the SQLite file of a data folder) into an empty PostgreSQL database,
/// with its keys and its audit trail, and checks the copy.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy an embedded study (DATA/study.sqlite) into an empty PostgreSQL database, with its keys and audit trail.",
        discussion: """
            Every row is copied as it is (ids, times, states, bytes): invitations, participants and their sessions, task runs \
            with their restoration data and results, consent records with their seals and PDFs, researchers with their password \
            hashes, the care store's versions and outcomes (deleted ones too). Left out, as transient: sign-in codes, leases, \
            the sign-in limits' buckets, researchers' password links, console sessions and tallies of wrong passwords. \
            The audit trail is copied row for row, its chain intact, and one more row records the migration.

            The study's keys (DATA/keys: audit-trail-key, consent-signing-key.ed25519, web-secret) are copied into --keys \
            (owner-only); a --keys folder that holds different keys is refused. Everything is written in one PostgreSQL \
            transaction, into a database that holds no study data (a non-empty one is refused, naming what it holds); a failure \
            leaves it empty. The trail's new anchor is written to TARGET-DATA/postgres.audit-anchor.json, where \
            studykit serve --database URL --keys KEYS --data TARGET-DATA looks for it.

            Then every consent record is verified with the signing key, the audit trail is verified, and the rows per table of \
            the source and the target are printed. Exits 0 when they match and everything verifies, 1 otherwise or when \
            refused. Stop the server of DATA first: a source that changes during the copy is reported (exit 1).
            """)

    @Option(help: ArgumentHelp("The data folder of the embedded study (its study.sqlite and keys/).", valueName: "folder"), completion: .directory)
    var data: String = "data"

    @Option(help: ArgumentHelp("The empty PostgreSQL database to copy into: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…].",
                               valueName: "url"))
    var to: String

    @Option(help: ArgumentHelp("The keys folder the PostgreSQL study will use (serve --keys): the data folder's keys are copied into it.",
                               valueName: "folder"), completion: .directory)
    var keys: String

    @Option(name: .customLong("target-data"),
            help: ArgumentHelp("The data folder the PostgreSQL study's server will use (serve --data), where the audit trail's new anchor is written (postgres.audit-anchor.json); by default --data itself.",
                               valueName: "folder"), completion: .directory)
    var targetData: String?

    /// The names of the key files a study keeps, copied as they are.
    static let keyFiles = [AuditKey.fileName, "consent-signing-key.ed25519", "web-secret"]

    func validate() throws {
        try StudyPaths.check(data: data)
        if let targetData { try StudyPaths.check(data: targetData) }
        do { _ = try PostgresDatabaseURL(to) } catch { throw ValidationError("--to: \(error)") }
        guard !keys.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--keys needs a folder") }
    }

    func run() async throws {
        do {
            try await AuditTrail.$source.withValue(StudyPaths.auditSource("migrate")) { try await migrate() }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            FileHandle.standardError.write(Data("studykit migrate: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    private func migrate() async throws {
        let source = try StudyDataFolder(url: URL(fileURLWithPath: data, isDirectory: true))
        let target = StudyDataLocation.postgres(url: to, keys: keys, data: targetData ?? data)
        guard FileManager.default.fileExists(atPath: source.database.path) else {
            throw MigrationRefusal("there is no embedded study at \(source.database.path)")
        }
        guard !FileManager.default.fileExists(atPath: source.legacyCareDatabase.path) else {
            throw MigrationRefusal("\(source.legacyCareDatabase.path) is still beside study.sqlite: start studykit serve --data \(data) once (it merges it), then migrate")
        }
        guard !FileManager.default.fileExists(atPath: source.legacyRunFiles.path) else {
            throw MigrationRefusal("\(source.legacyRunFiles.path) still holds run files: start studykit serve --data \(data) once (it moves them into the database), then migrate")
        }

        // 1. The source: its trail must verify before anything is copied.
        let check = try SQLiteStudyDatabase.auditChainCheck(database: source.database)
        let sqlite = try SQLiteStudyDatabase.readOnly(path: source.database.path)
        if let problem = try await sqlite.verifyAuditTrail(check) {
            throw MigrationRefusal("the source's audit trail does not verify (\(problem)); run studykit audit verify --data \(data)")
        }
        let started = Date()
        let sourceStorage = sqlite.sqliteStudyStore.storage
        let copy = try await StudyDataCopy.read(study: sourceStorage, researchers: sourceStorage.researcherAccounts.storage, care: sqlite.sqliteCareStore.storage)
        var entries: [AuditEntry] = []
        try await sqlite.forEachAuditEntry { entries.append($0); return true }

        // 2. The keys, the same as the source's, and the anchor's first state.
        // What this run made, removed again when it is refused before the copy begins (once it has begun, the keys stay:
        // a copy that committed, even when what follows fails, is keyed with them).
        var made = try copyKeys(from: source.url.appendingPathComponent("keys", isDirectory: true), to: target.keysFolder)
        var committed = false
        defer {
            if !committed { for file in made.reversed() { try? FileManager.default.removeItem(at: file) } }
        }
        try StudyDataFolder(url: target.dataFolder).prepare()
        let anchorURL = target.postgresAuditAnchor
        if !FileManager.default.fileExists(atPath: anchorURL.path) {
            guard let signingKey = try ConsentKeyStore(keysDirectory: target.keysFolder).load() else {
                throw MigrationRefusal("there is no consent signing key in \(target.keysFolder.path)")
            }
            let sourceAnchor = try AuditAnchorFile.read(at: source.url.appendingPathComponent("study.audit-anchor.json"))
            // Keyed from where the source's trail is, so that rows the source kept unkeyed verify as they do there.
            try AuditAnchorFile(url: anchorURL, signingKey: signingKey, keyedFromSequence: sourceAnchor?.keyedFromSequence ?? 1, written: -1,
                                now: { Date() }).record(sequence: 0, hash: "")
            made.append(anchorURL)
        }

        // 3. The target, one transaction.
        let postgres = try await PostgresStudyDatabase.connect(url: to, keysFolder: target.keysFolder, auditAnchor: anchorURL)
        defer { postgres.close() }
        let occupied = try await postgres.occupiedTables()
        guard occupied.isEmpty else {
            throw MigrationRefusal("\(target.description) already holds study data: \(occupied.joined(separator: ", ")); migrate only into an empty database (nothing was written)")
        }
        let sourceCounts = copy.counts
        let recording = try Self.recording(from: source.database.path, counts: sourceCounts, auditRows: entries.count)
        committed = true
        let imported = try await postgres.importStudy(copy, auditTrail: entries, recording: recording)
        try copyPDFFiles(copy, from: source.url, to: target.dataFolder)
        let elapsed = Date().timeIntervalSince(started)

        // 4. The checks.
        var lastSource: Int64 = 0
        try await sqlite.forEachAuditEntry { lastSource = $0.sequence; return true }
        let targetStorage = postgres.postgresStudyStore.storage
        let written = try await StudyDataCopy.read(study: targetStorage, researchers: targetStorage.researcherAccounts.storage,
                                                   care: postgres.postgresCareStore.storage)
        var targetCounts = written.counts
        let signingKey = try ConsentKeyStore(keysDirectory: target.keysFolder).load()
        let consentProblems = signingKey.map { written.consentProblems(key: $0.publicKey) } ?? ["there is no consent signing key to verify the records with"]
        let trailBreak = try await postgres.verifyAuditTrail()
        var counts = sourceCounts
        counts.set("auditLog", entries.count)
        targetCounts.set("auditLog", try await postgres.auditRowCount() - 1)

        print("Copied \(data) (\(source.database.path)) into \(target.description) in \(String(format: "%.1f", elapsed)) s.")
        print(String(repeating: " ", count: 2) + "table".padding(toLength: 24, withPad: " ", startingAt: 0) + "source".leftPadded(8) + "target".leftPadded(8))
        var mismatched: [String] = []
        for (name, count) in counts.tables {
            let copied = targetCounts[name]
            if copied != count { mismatched.append(name) }
            print("  " + name.padding(toLength: 24, withPad: " ", startingAt: 0) + "\(count)".leftPadded(8) + "\(copied)".leftPadded(8)
                  + (copied == count ? "" : "  MISMATCH"))
        }
        print("  (the target's trail has one row more: row \(imported.sequence), recording this migration)")
        print("Left out as transient: sign-in codes, leases, sign-in limit buckets, researchers' password links, console sessions, wrong-password tallies.")
        print("Keys: \(target.keysFolder.path). Audit anchor: \(anchorURL.path).")
        print("Consent records: \(written.consentRecords.count), " + (consentProblems.isEmpty ? "every one verifies." : "\(consentProblems.count) problem(s):"))
        for problem in consentProblems { print("  \(problem)") }
        print("Audit trail: " + (trailBreak.map { "does NOT verify: \($0)" } ?? "verifies (\(imported.sequence) rows, anchored at row \(imported.sequence))."))
        if lastSource != entries.last?.sequence ?? 0 {
            print("The source changed during the copy (its trail ends at row \(lastSource) now, row \(entries.last?.sequence ?? 0) was copied): stop its server and migrate again into an empty database.")
        }
        print("Serve it with: studykit serve --database \(target.description) --keys \(target.keysFolder.path) --data \(target.dataFolder.path)")
        guard mismatched.isEmpty, consentProblems.isEmpty, trailBreak == nil, lastSource == entries.last?.sequence ?? 0 else {
            if !mismatched.isEmpty { print("Counts differ: \(mismatched.joined(separator: ", ")).") }
            throw ExitCode(1)
        }
    }

    /// The migration row's `after`: where from, and the rows copied per table.
    static func recording(from path: String, counts: StudyDataCounts, auditRows: Int) throws -> String {
        var rows: [String: Int] = [:]
        for (name, count) in counts.tables { rows[name] = count }
        rows["auditLog"] = auditRows
        let object: [String: Any] = ["from": path, "rows": rows]
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Copies the study's key files into `keysFolder` (made owner-only), refusing a folder that holds different ones;
    /// returns what it made (the folder when it was new, else the files it added).
    private func copyKeys(from source: URL, to keysFolder: URL) throws -> [URL] {
        let manager = FileManager.default
        var present: [(name: String, bytes: Data)] = []
        for name in Self.keyFiles {
            let file = source.appendingPathComponent(name)
            guard manager.fileExists(atPath: file.path) else { continue }
            let bytes = try Data(contentsOf: file)
            let existing = keysFolder.appendingPathComponent(name)
            if manager.fileExists(atPath: existing.path), try Data(contentsOf: existing) != bytes {
                throw MigrationRefusal("\(existing.path) is not the study's own \(name) (\(file.path)): give --keys an empty folder or one with the study's keys")
            }
            present.append((name, bytes))
        }
        guard present.contains(where: { $0.name == AuditKey.fileName }) else {
            throw MigrationRefusal("the study has no audit-trail-key in \(source.path): open it once with studykit serve --data \(data)")
        }
        var made: [URL] = []
        if !manager.fileExists(atPath: keysFolder.path) {
            try manager.createDirectory(at: keysFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            made.append(keysFolder)
        }
        try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: keysFolder.path)
        for (name, bytes) in present {
            let file = keysFolder.appendingPathComponent(name)
            if !manager.fileExists(atPath: file.path) {
                guard manager.createFile(atPath: file.path, contents: bytes, attributes: [.posixPermissions: 0o600]) else {
                    throw MigrationRefusal("\(file.path) cannot be written")
                }
                if made.first != keysFolder { made.append(file) }
            }
            try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        }
        return made
    }

    /// Copies consent PDFs that the source keeps as files in its data folder (`ConsentPDFState.file`, from before PDFs
    /// were kept in the database) to the same place under the target's.
    private func copyPDFFiles(_ copy: StudyDataCopy, from source: URL, to target: URL) throws {
        guard source.standardizedFileURL != target.standardizedFileURL else { return }
        for record in copy.consentRecords {
            guard case .file(let path) = record.pdf else { continue }
            let from = source.appendingPathComponent(path), to = target.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: from.path), !FileManager.default.fileExists(atPath: to.path) else { continue }
            try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try FileManager.default.copyItem(at: from, to: to)
        }
    }
}

/// A refusal of `studykit migrate`, in a sentence.
struct MigrationRefusal: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension String {
    /// The text right-aligned in `width` columns.
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}

extension StudyDataLocation {
    /// A PostgreSQL place, as `--database URL --keys KEYS --data DATA` would give it.
    static func postgres(url: String, keys: String, data: String) -> StudyDataLocation {
        var location = StudyDataLocation()
        location.database = url
        location.keys = keys
        location.data = data
        return location
    }
}
