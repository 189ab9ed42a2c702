import ArgumentParser
import CareStorePostgres
import Consent
import Foundation
import Study
import StudyKitEnvironment
import StudyPostgres
import StudySQLite

/// Where a study's data is, as every command that opens it is told (`serve`, `invite`, `researcher`, `export`,
/// `audit`): the embedded SQLite database in the data folder (`DATA/study.sqlite`, its keys in `DATA/keys/`), or a
/// PostgreSQL database (`--database postgres://…`) with the keys of `--keys DIR`, which every process of the study
/// reads and the database never holds.
struct StudyDataLocation: ParsableArguments {
    @Option(help: ArgumentHelp("The data folder: on SQLite, study.sqlite and its keys; with --database, what a process keeps for itself (run files, the audit trail's anchor).",
                               valueName: "folder"),
            completion: .directory)
    var data: String = "data"

    @Option(help: ArgumentHelp("A PostgreSQL database holding the study's data instead of DATA/study.sqlite: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]. Needs --keys.",
                               valueName: "url"))
    var database: String?

    @Option(name: .customLong("database-schema"),
            help: ArgumentHelp("With --database: the schema holding the study's tables (created by the first start when missing; see deploy/postgresql-roles.sql).",
                               valueName: "name"))
    var databaseSchema: String = "public"

    @Option(help: ArgumentHelp("With --database: the folder of the study's keys (the consent signing key, the audit trail's key, the web secret), made owner-only on first use. Give every process of the study the same folder.",
                               valueName: "folder"),
            completion: .directory)
    var keys: String?

    func validate() throws {
        try StudyPaths.check(data: data)
        if let database {
            do { _ = try PostgresDatabaseURL(database) } catch { throw ValidationError("--database: \(error)") }
            guard let keys, !keys.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValidationError("--database needs --keys DIR: the folder of the study's keys, which the database never holds (every process of the study is given the same one)")
            }
            do { _ = try PostgresCareSchema(databaseSchema) } catch { throw ValidationError("--database-schema: \(error)") }
        } else if keys != nil {
            throw ValidationError("--keys goes with --database: on SQLite the keys are the data folder's own (DATA/keys)")
        } else if databaseSchema != "public" {
            throw ValidationError("--database-schema goes with --database")
        }
    }

    /// The schema of `--database-schema`.
    var schema: PostgresCareSchema {
        get throws { try PostgresCareSchema(databaseSchema) }
    }

    /// The data folder.
    var dataFolder: URL { URL(fileURLWithPath: data, isDirectory: true) }

    /// The keys' folder: `--keys`, or the data folder's `keys/`.
    var keysFolder: URL {
        keys.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? dataFolder.appendingPathComponent("keys", isDirectory: true)
    }

    /// Where a process on PostgreSQL anchors the audit trail: beside its data folder, outside the database.
    var postgresAuditAnchor: URL { dataFolder.appendingPathComponent("postgres.audit-anchor.json") }

    /// What a command says of the place: the database's URL without its password, or the SQLite file.
    var description: String {
        if let database { return (try? PostgresDatabaseURL(database).description) ?? "the --database" }
        return dataFolder.appendingPathComponent("study.sqlite").path
    }

    /// The study's database, opened for a server (SQLite: created and migrated, the trail anchored at most every
    /// 100 ms; PostgreSQL: connected, migrated under its advisory lock, listening for other processes' commits).
    func openForServer(environment: StudyKitEnvironment, durability: SQLiteStudyStore.Durability) async throws -> OpenedStudyDatabase {
        if let database { return try await openPostgres(database, environment: environment) }
        let opened = try SQLiteStudyDatabase.openForServer(dataFolder: dataFolder, environment: environment, durability: durability,
                                                           auditAnchorInterval: .milliseconds(100))
        return OpenedStudyDatabase(database: opened, close: { opened.anchorAuditTrailNow() })
    }

    /// The study's database, opened for a command that writes (an invitation, a researcher, an export's audit row):
    /// created and migrated when new, every commit anchored before it returns.
    func openForWriting(environment: StudyKitEnvironment = .live) async throws -> OpenedStudyDatabase {
        if let database { return try await openPostgres(database, environment: environment) }
        let folder = try StudyDataFolder(url: dataFolder)
        try folder.prepare()
        try folder.createOwnerOnlyFiles(named: [folder.database.lastPathComponent])
        let opened = try SQLiteStudyDatabase(path: folder.database.path, environment: environment)
        try opened.mergeCareFile(at: folder.legacyCareDatabase)
        return OpenedStudyDatabase(database: opened, close: {})
    }

    /// The PostgreSQL database at `url`, connected and migrated, its anchor kept under the data folder: the same for
    /// a server and a command, since PostgreSQL's commits are anchored as they are made.
    private func openPostgres(_ url: String, environment: StudyKitEnvironment) async throws -> OpenedStudyDatabase {
        try StudyDataFolder(url: dataFolder).prepare()
        let opened = try await PostgresStudyDatabase.connect(url: url, keysFolder: keysFolder, auditAnchor: postgresAuditAnchor,
                                                              schema: try schema, environment: environment)
        return OpenedStudyDatabase(database: opened, close: { opened.close() })
    }

    /// The check of the study's audit trail: every row keyed with the study's key from where the trail was keyed, and
    /// the trail reaching its latest anchor, signed by `publicKey` (by default the study's own signing key).
    func auditChainCheck(publicKey: ConsentPublicKey?) throws -> AuditChainCheck {
        if database != nil {
            return try PostgresStudyDatabase.auditChainCheck(keysFolder: keysFolder, auditAnchor: postgresAuditAnchor, publicKey: publicKey)
        }
        return try SQLiteStudyDatabase.auditChainCheck(database: try StudyDataFolder(url: dataFolder).database, publicKey: publicKey)
    }

    /// Anchors the study's audit trail afresh where it ends now (``PostgresStudyDatabase/reanchorAuditTrail(url:keysFolder:auditAnchor:schema:reason:environment:logger:)``
    /// or ``SQLiteStudyDatabase/reanchorAuditTrail(path:reason:environment:)``); the anchor it replaced, if any.
    func reanchorAuditTrail(reason: String) async throws -> AuditAnchor? {
        if let database {
            return try await PostgresStudyDatabase.reanchorAuditTrail(url: database, keysFolder: keysFolder, auditAnchor: postgresAuditAnchor,
                                                                      schema: try schema, reason: reason)
        }
        return try await SQLiteStudyDatabase.reanchorAuditTrail(path: try StudyDataFolder(path: data).database.path, reason: reason)
    }
}

/// A study's database a command opened, and how to close it when the command is done.
struct OpenedStudyDatabase: Sendable {
    let database: any StudyDatabase
    /// Ends what the database runs (PostgreSQL's pool and listener; SQLite's pending anchor).
    let close: @Sendable () -> Void
}
