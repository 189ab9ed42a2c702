import CareStore
import CareStorePostgres
import Foundation
import Logging
import PostgresNIO
import Study
import StudyKitEnvironment

/// A study's data in one PostgreSQL schema: the study store's tables (``PostgresStudyMigrations``) and the care store's
/// (`PostgresCareMigrations`) side by side, over one connection pool, so that what one participant action changes in
/// both commits in one transaction (``commit(_:)``, ``enrol(invitationCode:timeZone:language:carePlan:)``).
///
/// ```swift
/// let data = try await PostgresStudyDatabase.open(client: client, schema: .public, environment: .live)
/// let participant = try await data.studyStore.participant(id: id)
/// let committed = try await data.commit(change)      // run, consent record and outcomes: all or nothing
/// ```
///
/// Each store still works alone through its own protocol, and passes its own conformance suite over this schema. A
/// joint transaction leases one connection and gives each store's rules a writer over it (the study store's
/// ``PostgresStudyStorage``, the care store's `PostgresCareStorage.writer(in:)`), as SQLite's joint file does with its
/// one writer; it is `SERIALIZABLE` and run again when PostgreSQL refuses it for a concurrent one. Besides the two
/// stores' own rules, the schema refuses a withdrawn participant's runs and outcomes (``PostgresWithdrawalGuard``),
/// thrown as `StudyRefusal.withdrawn`.
///
/// A withdrawal with deletion deletes the rows in its transaction; PostgreSQL keeps the deleted row versions in the
/// table's files until `VACUUM` (autovacuum, by default) reclaims them.
///
/// It is a whole ``StudyDatabase`` a server can be given: every write ends with the audit trail's rows
/// (``PostgresAuditTrail``, keyed with the ``AuditKey`` of the keys folder and anchored in a file outside the
/// database), and commits of other processes on the same schema reach this one's `revision(of:)` and care-commit
/// observers over LISTEN/NOTIFY (``PostgresChangeFeed``). A server opens it with ``connect(url:keysFolder:auditAnchor:schema:environment:logger:)``.
public final class PostgresStudyDatabase: StudyDatabase {
    /// The connection pool. Whoever made it runs it (`run()`) and ends it (``close()`` does, for ``connect(url:keysFolder:auditAnchor:schema:environment:logger:)``'s).
    public let client: PostgresClient
    /// The schema holding both stores' tables.
    public let schema: PostgresCareSchema
    /// The study store over this schema.
    public let postgresStudyStore: PostgresStudyStore
    /// The care store over this schema.
    public let postgresCareStore: StorageBackedCareStore<PostgresStudyCareStorage>
    private let logger: Logger
    let transactions: PostgresWriteTransactions
    let audit: PostgresWriteTransactions.Audit
    /// The anchor file's location; nil for a trail that is not anchored (``open(client:schema:environment:logger:)``).
    public let auditAnchorURL: URL?
    /// The keys folder; nil for a trail keyed in memory only.
    public let keysFolder: URL?
    /// The task running the pool, when this database made it.
    private let running: Task<Void, Never>?

    /// The study store, for the workflow.
    public var studyStore: any StudyStore { postgresStudyStore }
    /// The care store, for the workflow.
    public var careStore: any CareStore { postgresCareStore }
    /// The study team's accounts, in the same schema.
    public var researchers: any ResearcherStore { postgresStudyStore }

    /// The stores in `schema` of the database `client` connects to, migrated first (the care store's tables, then the
    /// study store's with the joint migrations, each set under its own advisory lock, so several processes starting at
    /// once migrate once), with the audit trail keyed with a key made now and kept in memory only, nothing anchored, and
    /// no listening for other processes' commits: for tests and tools that check one process's writes. A server uses
    /// ``open(client:schema:keysFolder:auditAnchor:environment:listening:logger:)`` or ``connect(url:keysFolder:auditAnchor:schema:environment:logger:)``.
    /// `client` must be running (`client.run()`) for as long as the stores are used.
    public static func open(client: PostgresClient, schema: PostgresCareSchema = .public, environment: StudyKitEnvironment = .live,
                            logger: Logger = PostgresStudyStorage.silentLogger) async throws -> PostgresStudyDatabase {
        try await migrate(client: client, schema: schema, logger: logger)
        let key = try AuditKey(rawRepresentation: Data(environment.randomBytes(AuditKey.byteCount)))
        return PostgresStudyDatabase(client: client, schema: schema, key: key, anchor: nil, keysFolder: nil, environment: environment,
                                     listening: nil, running: nil, logger: logger)
    }

    /// The stores in `schema` of the database `client` connects to, migrated first, as a server keeps them: the audit
    /// trail keyed with the ``AuditKey`` of `keysFolder` (`audit-trail-key`, beside the consent signing key
    /// `consent-signing-key.ed25519`; both created owner-only when missing, the audit key only while the trail is
    /// empty) and anchored, signed with the signing key, in the file `auditAnchor` (several processes on one host may
    /// share it); with `listening`, other processes' commits on the schema are received (``observeCareCommits(_:)``,
    /// the study store's `revision(of:)`). Without `migrating`, the schema must be migrated already (by its owner: a
    /// server role without the privilege to create tables, `deploy/postgresql-roles.sql`). Throws
    /// ``PostgresStudyDatabaseError`` when a key cannot be read or made, or the anchor does not match the trail (rows cut
    /// from its end, or the trail rewritten).
    public static func open(client: PostgresClient, schema: PostgresCareSchema = .public, keysFolder: URL, auditAnchor: URL,
                            environment: StudyKitEnvironment = .live, listening: PostgresChangeListening? = .standard, migrating: Bool = true,
                            logger: Logger = PostgresStudyStorage.silentLogger) async throws -> PostgresStudyDatabase {
        try await open(client: client, schema: schema, keysFolder: keysFolder, auditAnchor: auditAnchor, environment: environment,
                       listening: listening, migrating: migrating, running: nil, logger: logger)
    }

    private static func open(client: PostgresClient, schema: PostgresCareSchema, keysFolder: URL, auditAnchor: URL, environment: StudyKitEnvironment,
                             listening: PostgresChangeListening?, migrating: Bool, running: Task<Void, Never>?,
                             logger: Logger) async throws -> PostgresStudyDatabase {
        if migrating { try await migrate(client: client, schema: schema, logger: logger) }
        let readHead: @Sendable () async throws -> (sequence: Int64, hash: String) = {
            try await PostgresTransactionRunner.readOnly(client, logger: logger) { connection in
                try await Self.head(on: connection, schema: schema, logger: logger)
            }
        }
        let head = try await readHead()
        let keying = try await PostgresAuditKeying.open(keysFolder: keysFolder, anchorURL: auditAnchor, head: head, now: environment.now,
                                                        readHead: readHead) { sequence in
            try await PostgresTransactionRunner.readOnly(client, logger: logger) { connection in
                var binds = PostgresBindings()
                binds.append(sequence)
                return try await (try await connection.query(PostgresQuery(unsafeSQL: "SELECT hash FROM \(schema.name).auditLog WHERE sequence = $1", binds: binds),
                                                  logger: logger)).decode(String.self).collected().first
            }
        }
        return PostgresStudyDatabase(client: client, schema: schema, key: keying.key, anchor: keying.anchor, keysFolder: keysFolder,
                                     environment: environment, listening: listening, running: running, logger: logger)
    }

    /// The database at `url` (`postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=…]`), for a server: its pool made and
    /// run (until ``close()``), the database checked to answer within `timeout`, the stores in `schema` migrated, the
    /// keys of `keysFolder` loaded (or made, owner-only) and the trail's anchor `auditAnchor` checked, as
    /// ``open(client:schema:keysFolder:auditAnchor:environment:listening:logger:)`` does, and other processes' commits
    /// listened for.
    ///
    /// ```swift
    /// let database = try await PostgresStudyDatabase.connect(url: "postgres://studykit@db.example.org/study",
    ///                                                         keysFolder: URL(fileURLWithPath: "/etc/studykit/keys"),
    ///                                                         auditAnchor: URL(fileURLWithPath: "/var/lib/studykit/study.audit-anchor.json"),
    ///                                                         environment: .live)
    /// defer { database.close() }
    /// ```
    ///
    /// Throws ``PostgresStudyDatabaseError``, naming the host and database (never the password) or the file at fault.
    public static func connect(url: String, keysFolder: URL, auditAnchor: URL, schema: PostgresCareSchema = .public,
                               environment: StudyKitEnvironment = .live, timeout: Duration = .seconds(10),
                               listening: PostgresChangeListening = .standard, migrating: Bool = true,
                               logger: Logger = PostgresStudyStorage.silentLogger) async throws -> PostgresStudyDatabase {
        let (client, running, parsed) = try startClient(url: url, logger: logger)
        do {
            try await Self.withTimeout(timeout) {
                _ = try await client.query("SELECT 1", logger: logger).collect()
            }
        } catch {
            running.cancel()
            throw PostgresStudyDatabaseError.unreachable(database: parsed.description, reason: Self.describe(error))
        }
        do {
            return try await open(client: client, schema: schema, keysFolder: keysFolder, auditAnchor: auditAnchor, environment: environment,
                                  listening: listening, migrating: migrating, running: running, logger: logger)
        } catch let error as PostgresStudyDatabaseError {
            running.cancel()
            throw error
        } catch {
            running.cancel()
            throw PostgresStudyDatabaseError.migrationFailed(database: parsed.description, reason: Self.describe(error))
        }
    }

    /// A pool for the database at `url`, running until the task returned is cancelled; ``PostgresStudyDatabaseError/invalidURL(reason:)``
    /// for a URL that is not PostgreSQL's.
    static func startClient(url: String, logger: Logger) throws -> (client: PostgresClient, running: Task<Void, Never>, url: PostgresDatabaseURL) {
        let parsed: PostgresDatabaseURL
        do {
            parsed = try PostgresDatabaseURL(url)
        } catch {
            throw PostgresStudyDatabaseError.invalidURL(reason: "\(error)")
        }
        let client = PostgresClient(configuration: parsed.configuration, backgroundLogger: logger)
        return (client, Task { await client.run() }, parsed)
    }

    /// The stores in a schema that is migrated already (``open(client:schema:environment:logger:)`` migrates too), a
    /// second instance over it as another process would hold: its audit trail rows keyed with `auditKey` (by default a
    /// key made now, kept in memory only: give the first instance's to keep one verifiable chain), nothing anchored,
    /// and no listening for other processes' commits.
    public convenience init(client: PostgresClient, schema: PostgresCareSchema = .public, auditKey: AuditKey? = nil,
                            environment: StudyKitEnvironment = .live, logger: Logger = PostgresStudyStorage.silentLogger) {
        let key = auditKey ?? (try? AuditKey(rawRepresentation: Data(environment.randomBytes(AuditKey.byteCount))))
            ?? (try! AuditKey(rawRepresentation: Data(repeating: 0, count: AuditKey.byteCount)))
        self.init(client: client, schema: schema, key: key, anchor: nil, keysFolder: nil, environment: environment, listening: nil, running: nil,
                  logger: logger)
    }

    private init(client: PostgresClient, schema: PostgresCareSchema, key: AuditKey, anchor: AuditAnchorFile?, keysFolder: URL?,
                 environment: StudyKitEnvironment, listening: PostgresChangeListening?, running: Task<Void, Never>?, logger: Logger) {
        self.client = client
        self.schema = schema
        self.logger = logger
        self.keysFolder = keysFolder
        self.running = running
        auditAnchorURL = anchor?.url
        audit = PostgresWriteTransactions.Audit(key: key, now: environment.now, anchor: anchor, feed: PostgresChangeFeed(schema: schema))
        transactions = PostgresWriteTransactions(client: client, schema: schema, logger: logger, audit: audit)
        postgresStudyStore = PostgresStudyStore(storage: PostgresStudyStorage(transactions: transactions, environment: environment), environment: environment)
        postgresCareStore = StorageBackedCareStore(storage: PostgresStudyCareStorage(PostgresCareStorage(client: client, schema: schema, logger: logger),
                                                                                     transactions: transactions),
                                                   environment: environment)
        if let listening {
            let studyStore = postgresStudyStore, careStore = postgresCareStore
            // Commits made while the feed was not listening were never heard: every participant's revision moves.
            audit.feed.start(client: client, listening: listening, logger: logger, missed: { studyStore.countCommitOfEveryone() }) { changes in
                for (participant, change) in changes {
                    studyStore.countCommit(of: participant)
                    // A change of the participant's study data alone (a withdrawal, a run) is told to the care store's
                    // observers as a change of their care plan: the server's live streams and page caches key on whose
                    // data changed, and a stream checks the withdrawal when told (LiveUpdatesController).
                    let told = change.entities.isEmpty && change.outcomeTaskIDs.isEmpty
                        ? CareChange(entities: [.carePlan: [StudyCareIdentifiers.carePlanID(participant: participant)]])
                        : change
                    careStore.announce(told)
                }
            }
        }
    }

    /// Stops listening for other processes' commits and, for a database made by ``connect(url:keysFolder:auditAnchor:schema:environment:timeout:listening:logger:)``,
    /// ends its pool. The stores cannot be used after.
    public func close() {
        audit.feed.stop()
        running?.cancel()
    }

    /// Returns once this process listens for other processes' commits (`count` times in all: 1 for the first LISTEN,
    /// one more after each reconnection).
    public func waitUntilListening(count: Int = 1) async {
        await audit.feed.waitUntilListening(count: count)
    }

    /// Returns once this process has heard `count` notifications of other processes' commits in all (a commit sends
    /// one; one whose changes exceed a notification's 8000 bytes sends several), each counted in the study store's
    /// `revision(of:)` and announced to the care-commit observers.
    public func waitUntilHeard(count: Int) async {
        await audit.feed.waitUntilHeard(count: count)
    }

    private static func migrate(client: PostgresClient, schema: PostgresCareSchema, logger: Logger) async throws {
        try await PostgresCareMigrations.migrate(schema, with: client, logger: logger)
        try await PostgresStudyMigrations.migrate(schema, with: client, joint: true, logger: logger)
    }

    // MARK: - One participant action, one transaction

    /// Applies `change` in one transaction (``StudyDataTransaction/apply(_:at:)``): runs saved, consent records
    /// appended and outcomes added, each checked as the stores check their own writes. When anything is refused,
    /// nothing is kept.
    public func commit(_ change: ParticipantChange) async throws -> CommittedParticipantChange {
        let prepared = try PreparedParticipantChange(change)
        let now = postgresStudyStore.environment.now()
        let studyStore = postgresStudyStore, careStore = postgresCareStore
        let (committed, careChange) = try await transactions.serializable { connection in
            try await StudyDataTransaction(studyStore: studyStore, careStore: careStore, study: studyStore.storage.writer(in: connection),
                                           care: careStore.storage.storage.writer(in: connection)).apply(prepared, at: now)
        }
        studyStore.countCommit(of: prepared.participantID)
        if !careChange.outcomeTaskIDs.isEmpty { careStore.announce(careChange) }
        return committed
    }

    /// Enrols a participant with their care plan in one transaction (``StudyDataTransaction/enrol(id:invitationCodeSHA256:timeZone:language:at:carePlan:)``):
    /// the invitation used up, the participant, then the patient, the care plan for it, its tasks and contacts.
    public func enrol(invitationCode: String?, timeZone: TimeZone, language: String,
                      carePlan: @escaping @Sendable (StudyParticipant) throws -> EnrolmentPlan) async throws -> StudyParticipant {
        let now = postgresStudyStore.environment.now()
        let id = postgresStudyStore.environment.makeUUID().uuidString.lowercased()
        let hash = invitationCode.map(StudySecrets.codeHash)
        let studyStore = postgresStudyStore, careStore = postgresCareStore
        let (participant, careChange) = try await transactions.serializable { connection in
            try await StudyDataTransaction(studyStore: studyStore, careStore: careStore, study: studyStore.storage.writer(in: connection),
                                           care: careStore.storage.storage.writer(in: connection))
                .enrol(id: id, invitationCodeSHA256: hash, timeZone: timeZone, language: language, at: now, carePlan: carePlan)
        }
        studyStore.countCommit(of: id)
        careStore.announce(careChange)
        return participant
    }

    // MARK: - StudyDatabase

    /// Calls `observer` with each committed write of the care store: this process's, before the write returns, and
    /// another process's on the same schema, once its notification arrives.
    public func observeCareCommits(_ observer: @escaping @Sendable (CareChange) -> Void) {
        postgresCareStore.observeCommits(observer)
    }

    /// Returns when the database answers `SELECT 1` within `timeout`; throws ``PostgresStudyDatabaseError/unreachable(database:reason:)``
    /// when it does not.
    public func checkAvailability(timeout: Duration) async throws {
        let client = client, logger = logger
        do {
            try await Self.withTimeout(timeout) { _ = try await client.query("SELECT 1", logger: logger).collect() }
        } catch {
            throw PostgresStudyDatabaseError.unreachable(database: "the study's database", reason: Self.describe(error))
        }
    }

    /// ``checkAvailability(timeout:)`` within 2 seconds.
    public func checkAvailability() async throws {
        try await checkAvailability(timeout: .seconds(2))
    }

    /// Runs `operation`, throwing ``PostgresStudyDatabaseError/timedOut(after:)`` when it has not returned within `timeout`.
    static func withTimeout(_ timeout: Duration, _ operation: @escaping @Sendable () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { try await operation(); return true }
            group.addTask { try await Task.sleep(for: timeout); return false }
            defer { group.cancelAll() }
            guard let finished = try await group.next(), finished else { throw PostgresStudyDatabaseError.timedOut(after: timeout) }
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            return String(reflecting: error)
        }
        return "\(error)"
    }
}
