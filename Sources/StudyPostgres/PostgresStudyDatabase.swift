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
public final class PostgresStudyDatabase: StudyDataStore {
    /// The connection pool. Whoever made it runs it (`run()`) and ends it.
    public let client: PostgresClient
    /// The schema holding both stores' tables.
    public let schema: PostgresCareSchema
    /// The study store over this schema.
    public let postgresStudyStore: PostgresStudyStore
    /// The care store over this schema.
    public let postgresCareStore: StorageBackedCareStore<PostgresStudyCareStorage>
    private let logger: Logger

    /// The study store, for the workflow.
    public var studyStore: any StudyStore { postgresStudyStore }
    /// The care store, for the workflow.
    public var careStore: any CareStore { postgresCareStore }
    /// The study team's accounts, in the same schema.
    public var researchers: any ResearcherStore { postgresStudyStore }

    /// The stores in `schema` of the database `client` connects to, migrated first: the care store's tables, then the
    /// study store's with the joint migrations (each set under its own advisory lock, so several processes starting at
    /// once migrate once). `client` must be running (`client.run()`) for as long as the stores are used.
    public static func open(client: PostgresClient, schema: PostgresCareSchema = .public, environment: StudyKitEnvironment = .live,
                            logger: Logger = PostgresStudyStorage.silentLogger) async throws -> PostgresStudyDatabase {
        try await PostgresCareMigrations.migrate(schema, with: client, logger: logger)
        try await PostgresStudyMigrations.migrate(schema, with: client, joint: true, logger: logger)
        return PostgresStudyDatabase(client: client, schema: schema, environment: environment, logger: logger)
    }

    /// The stores in a schema that is migrated already (``open(client:schema:environment:logger:)`` does both).
    public init(client: PostgresClient, schema: PostgresCareSchema = .public, environment: StudyKitEnvironment = .live,
                logger: Logger = PostgresStudyStorage.silentLogger) {
        self.client = client
        self.schema = schema
        self.logger = logger
        postgresStudyStore = PostgresStudyStore(storage: PostgresStudyStorage(client: client, schema: schema, environment: environment, logger: logger),
                                                environment: environment)
        postgresCareStore = StorageBackedCareStore(storage: PostgresStudyCareStorage(PostgresCareStorage(client: client, schema: schema, logger: logger)),
                                                   environment: environment)
    }

    // MARK: - One participant action, one transaction

    /// Applies `change` in one transaction (``StudyDataTransaction/apply(_:at:)``): runs saved, consent records
    /// appended and outcomes added, each checked as the stores check their own writes. When anything is refused,
    /// nothing is kept.
    public func commit(_ change: ParticipantChange) async throws -> CommittedParticipantChange {
        let prepared = try PreparedParticipantChange(change)
        let now = postgresStudyStore.environment.now()
        let studyStore = postgresStudyStore, careStore = postgresCareStore
        let (committed, careChange) = try await PostgresStudyStorage.serializable(client, logger: logger) { connection in
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
        let (participant, careChange) = try await PostgresStudyStorage.serializable(client, logger: logger) { connection in
            try await StudyDataTransaction(studyStore: studyStore, careStore: careStore, study: studyStore.storage.writer(in: connection),
                                           care: careStore.storage.storage.writer(in: connection))
                .enrol(id: id, invitationCodeSHA256: hash, timeZone: timeZone, language: language, at: now, carePlan: carePlan)
        }
        studyStore.countCommit(of: id)
        careStore.announce(careChange)
        return participant
    }
}
