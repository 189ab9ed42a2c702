import CareStore
import CareStorePostgres
import Consent
import Foundation
import PostgresNIO
import Research
import Study
import StudyFHIR
import StudyKitEnvironment
import StudyPostgres
import PostgresTestSupport
import Testing

/// What PostgreSQL itself keeps of the study's rules, whoever writes (the server, another process, a hand at `psql`),
/// and what one participant action does to both stores' tables in one transaction of one schema.
@Suite("PostgresStudyDatabase", .enabled(if: PostgresTestDatabase.isConfigured, Comment(rawValue: PostgresTestDatabase.notConfigured)))
struct PostgresStudyDatabaseTests {
    let zone = TimeZone(identifier: "Pacific/Auckland")!
    private let logger = PostgresStudyStorage.silentLogger

    /// Both stores in a migrated, empty schema of their own.
    private func freshDatabase() async throws -> PostgresStudyDatabase {
        try await PostgresStudyDatabase.open(client: PostgresTestDatabase.client.get(), schema: PostgresTestDatabase.freshSchema())
    }

    /// A participant enrolled in Recover with their care plan, in one transaction, and an onboarding run in progress.
    private func enrolled(in data: PostgresStudyDatabase) async throws -> (StudyParticipant, TaskRun) {
        let definition = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let enrolment = StudyEnrolment(study: definition, environment: .live)
        let participant = try await data.enrol(invitationCode: nil, timeZone: zone, language: "en") { participant in
            try enrolment.plan(participantID: participant.id, enrolledAt: participant.enrolledAt, timeZone: participant.timeZone)
        }
        let (restoration, _) = try pausedRun()
        let run = TaskRun(id: restoration.taskRunUUID, participantID: participant.id, taskID: StudyTaskDefinition.onboardingID, occurrence: nil,
                          state: .inProgress, restorationData: restoration)
        return (participant, try await data.studyStore.saveRun(run))
    }

    /// The onboarding's finishing change for `run`: the run completed, a consent record, the gate's outcome.
    private func finishing(_ run: TaskRun, of participant: StudyParticipant, in data: PostgresStudyDatabase,
                           consent: SealedConsentRecord? = nil) async throws -> ParticipantChange {
        var completed = run
        completed.state = .completed
        completed.restorationData = nil
        completed.result = try pausedRun(run.id).result
        var change = ParticipantChange(participantID: participant.id)
        change.runs = [completed]
        change.consentRecords = [try consent ?? sealedConsent(participant: participant.id)]
        change.outcomes = [try await OnboardingGate(careStore: data.careStore, environment: .live)
            .completionOutcome(participantID: participant.id, timeZone: zone)]
        return change
    }

    /// The withdrawal of `consent`, deleting the participant's data or not.
    private func withdrawal(of consent: SealedConsentRecord, participant: StudyParticipant, deletesData: Bool) throws -> ParticipantChange {
        var change = ParticipantChange(participantID: participant.id)
        change.consentRecords = [try ConsentRecorder(signingKey: .generate()).sealWithdrawal(of: consent, reason: nil)]
        change.withdrawal = ParticipantChange.Withdrawal(
            deletesData: deletesData, keptRunTaskIDs: [],
            deletedOutcomeTaskIDs: deletesData ? [StudyCareIdentifiers.taskID(participant: participant.id, task: StudyTaskDefinition.onboardingID)] : [])
        return change
    }

    /// The message of PostgreSQL's refusal of `sql`, run alone outside any store; nil when it was not refused.
    private func refusal(of sql: String, in data: PostgresStudyDatabase) async throws -> String? {
        do {
            _ = try await data.client.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
            return nil
        } catch let error as PSQLError {
            return error.serverInfo?[.message]
        }
    }

    /// How many rows `table` of the database's schema holds, counted by plain SQL.
    private func count(_ table: String, in data: PostgresStudyDatabase) async throws -> Int64 {
        var count: Int64 = -1
        for try await value in try await data.client.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(data.schema.name).\(table)"),
                                                          logger: logger).decode(Int64.self) {
            count = value
        }
        return count
    }

    @Test func consentRecordsRefuseUpdateDeleteAndTruncateFromPlainSQL() async throws {
        let data = try await freshDatabase()
        let (participant, run) = try await enrolled(in: data)
        _ = try await data.commit(try await finishing(run, of: participant, in: data))
        let table = data.schema.name + ".consentRecord"
        for sql in ["UPDATE \(table) SET kind = 'withdrawal'", "DELETE FROM \(table)", "TRUNCATE \(table) CASCADE",
                    // An upsert over a stored id is an UPDATE: refused as well.
                    "INSERT INTO \(table) (id, participantID, kind, sealedJSON, storedAt) SELECT id, participantID, kind, sealedJSON, storedAt FROM \(table) "
                        + "ON CONFLICT (id) DO UPDATE SET sealedJSON = excluded.sealedJSON"] {
            #expect(try await refusal(of: sql, in: data) == PostgresStudyMigrations.appendOnlyMessage, "\(sql)")
        }
        let records = try await data.studyStore.consentRecords(participantID: participant.id)
        #expect(records.count == 1 && records.first?.sealed.record.kind == .consent)
        // The PDF beside the record is not the record: its state still changes.
        try await data.studyStore.setConsentPDF(.stored(Data("%PDF".utf8)), recordID: records[0].id, participantID: participant.id)
        #expect(try await data.studyStore.consentRecordsAwaitingPDF().isEmpty)
    }

    @Test func aWithdrawnParticipantsRunsOutcomesAndSecondWithdrawalAreRefusedByTheDatabase() async throws {
        let data = try await freshDatabase()
        let (participant, run) = try await enrolled(in: data)
        let consent = try sealedConsent(participant: participant.id)
        var finished = try await finishing(run, of: participant, in: data, consent: consent)
        finished.outcomes = []
        _ = try await data.commit(finished)
        _ = try await data.commit(try withdrawal(of: consent, participant: participant, deletesData: false))

        // Through the stores: the database's refusal reads as the workflow's.
        let (restoration, _) = try pausedRun()
        let newRun = TaskRun(id: restoration.taskRunUUID, participantID: participant.id, taskID: "pain", occurrence: 1, state: .inProgress,
                             restorationData: restoration)
        await #expect(throws: StudyRefusal.withdrawn) { try await data.studyStore.saveRun(newRun) }
        let outcome = try await OnboardingGate(careStore: data.careStore, environment: .live).completionOutcome(participantID: participant.id, timeZone: zone)
        await #expect(throws: StudyRefusal.withdrawn) { _ = try await data.careStore.addOutcomes([outcome]) }
        await #expect(throws: StudyRefusal.withdrawn) {
            _ = try await data.commit(try withdrawal(of: consent, participant: participant, deletesData: true))
        }

        // By plain SQL, as another program would write: the triggers refuse with their message.
        let schema = data.schema.name
        #expect(try await refusal(of: """
            INSERT INTO \(schema).taskRun (id, participantID, taskID, state, createdAt, updatedAt)
            VALUES (gen_random_uuid(), '\(participant.id)', 'pain', 'inProgress', now(), now())
            """, in: data) == PostgresWithdrawalGuard.message)
        #expect(try await refusal(of: "UPDATE \(schema).taskRun SET updatedAt = now() WHERE participantID = '\(participant.id)'", in: data)
            == PostgresWithdrawalGuard.message)
        #expect(try await refusal(of: """
            INSERT INTO \(schema).outcome (uuid, taskUUID, occurrenceIndex, timeZone, outcomeValues)
            VALUES (gen_random_uuid(), '\(outcome.taskUUID.uuidString)', 0, 'UTC', '[]')
            """, in: data) == PostgresWithdrawalGuard.message)
        #expect(try await refusal(of: """
            INSERT INTO \(schema).consentRecord (id, participantID, kind, sealedJSON, storedAt)
            VALUES (gen_random_uuid(), '\(participant.id)', 'withdrawal', '\\x7b7d', now())
            """, in: data) == PostgresWithdrawalGuard.message)
        #expect(try await data.studyStore.consentRecords(participantID: participant.id).map(\.sealed.record.kind) == [.consent, .withdrawal])
        #expect(try await data.studyStore.runSummaries(participantID: participant.id).map(\.id) == [run.id])

        // Someone else's data is not theirs: still written.
        let (other, otherRun) = try await enrolled(in: data)
        _ = try await data.commit(try await finishing(otherRun, of: other, in: data))
    }

    @Test func aJointCommitIsKeptWholeOrNotAtAll() async throws {
        let data = try await freshDatabase()
        let (participant, run) = try await enrolled(in: data)
        let (other, _) = try await enrolled(in: data)
        let (studyBefore, careBefore) = (data.studyStore.revision, data.careStore.revision)

        // The gate outcome of someone else's care task rides along: the run, the record and the outcome are all refused.
        var change = try await finishing(run, of: participant, in: data)
        change.outcomes = [try await OnboardingGate(careStore: data.careStore, environment: .live).completionOutcome(participantID: other.id, timeZone: zone)]
        await #expect(throws: CareStoreError.self) { _ = try await data.commit(change) }
        #expect(try await data.studyStore.run(id: run.id, participantID: participant.id)?.state == .inProgress)
        #expect(try await count("consentRecord", in: data) == 0)
        #expect(try await count("outcome", in: data) == 0)
        #expect(data.studyStore.revision == studyBefore && data.careStore.revision == careBefore)

        // The whole change commits, and counts in both revisions.
        let consent = try sealedConsent(participant: participant.id)
        let committed = try await data.commit(try await finishing(run, of: participant, in: data, consent: consent))
        #expect(committed.runs.map(\.state) == [.completed] && committed.consentRecords.count == 1 && committed.outcomes.count == 1)
        #expect(try await OnboardingGate(careStore: data.careStore, environment: .live).isOnboarded(participantID: participant.id))
        #expect(data.studyStore.revision > studyBefore && data.careStore.revision > careBefore)

        // The gate's outcome taken back and given again: two rows, one of them marked deleted.
        _ = try await data.careStore.deleteOutcomes(committed.outcomes)
        _ = try await data.careStore.addOutcomes([try await OnboardingGate(careStore: data.careStore, environment: .live)
            .completionOutcome(participantID: participant.id, timeZone: zone)])
        #expect(try await count("outcome", in: data) == 2)

        // A change refused at its last part (a record stored already) leaves its run and outcome out too.
        let (restoration, _) = try pausedRun()
        let second = TaskRun(id: restoration.taskRunUUID, participantID: participant.id, taskID: StudyTaskDefinition.onboardingID,
                             occurrence: nil, state: .inProgress, restorationData: restoration)
        try await data.studyStore.saveRun(second)
        var again = try await finishing(second, of: participant, in: data, consent: consent)
        again.outcomes = []
        await #expect(throws: StudyStoreError.consentRecordExists(consent.record.id)) { _ = try await data.commit(again) }
        #expect(try await data.studyStore.run(id: second.id, participantID: participant.id)?.state == .inProgress)

        // A withdrawal with deletion: the runs and every outcome of the named tasks (the deleted one too) are gone from the tables, the
        // records stay, in the one transaction that appends the withdrawal.
        let withdrawn = try await data.commit(try withdrawal(of: consent, participant: participant, deletesData: true))
        #expect(Set(withdrawn.deletedRunIDs) == [run.id, second.id])
        #expect(try await data.studyStore.runSummaries(participantID: participant.id).isEmpty)
        #expect(try await count("outcome", in: data) == 0)
        #expect(try await count("consentRecord", in: data) == 2)
    }

    /// Runs saved through another process's stores while a withdrawal with deletion commits through this one: each is
    /// either committed before it (and deleted with it) or refused, so none outlives it; afterwards the other process is
    /// refused the participant's runs and outcomes at once, with nothing cached anywhere.
    @Test func writesRacingAWithdrawalAreDeletedWithItOrRefused() async throws {
        let data = try await freshDatabase()
        // A second server process's stores: its own objects over the same schema (here, the same pool).
        let other = PostgresStudyDatabase(client: data.client, schema: data.schema)
        let (participant, run) = try await enrolled(in: data)
        let consent = try sealedConsent(participant: participant.id)
        var finished = try await finishing(run, of: participant, in: data, consent: consent)
        finished.outcomes = []
        _ = try await data.commit(finished)
        let leaving = try withdrawal(of: consent, participant: participant, deletesData: true)
        let refusals = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    let (restoration, _) = try pausedRun()
                    let run = TaskRun(id: restoration.taskRunUUID, participantID: participant.id, taskID: "pain", occurrence: 1, state: .inProgress,
                                      restorationData: restoration)
                    do {
                        try await other.studyStore.saveRun(run)
                        return 0
                    } catch StudyRefusal.withdrawn {
                        return 1
                    }
                }
            }
            group.addTask {
                _ = try await data.commit(leaving)
                return 0
            }
            return try await group.reduce(0, +)
        }
        #expect(try await other.studyStore.runSummaries(participantID: participant.id).isEmpty, "\(refusals) of 16 runs refused")
        #expect(try await count("taskRun", in: data) == 0)

        let (restoration, _) = try pausedRun()
        await #expect(throws: StudyRefusal.withdrawn) {
            try await other.studyStore.saveRun(TaskRun(id: restoration.taskRunUUID, participantID: participant.id, taskID: "pain", occurrence: 2,
                                                        state: .inProgress, restorationData: restoration))
        }
        let outcome = try await OnboardingGate(careStore: other.careStore, environment: .live).completionOutcome(participantID: participant.id, timeZone: zone)
        await #expect(throws: StudyRefusal.withdrawn) { _ = try await other.careStore.addOutcomes([outcome]) }
    }

    @Test func twoProcessesStartingAtOnceMigrateOnce() async throws {
        let client = try PostgresTestDatabase.client.get(), schema = try PostgresTestDatabase.freshSchema()
        async let first = PostgresStudyMigrations.migrate(schema, with: client, joint: false)
        async let second = PostgresStudyMigrations.migrate(schema, with: client, joint: false)
        let applied = try await [first, second]
        #expect(applied.filter(\.isEmpty).count == 1 && applied.flatMap { $0 } == PostgresStudyMigrations.names)
        // The care store's tables after, then the joint migrations once.
        try await PostgresCareMigrations.migrate(schema, with: client)
        #expect(try await PostgresStudyMigrations.migrate(schema, with: client, joint: true) == PostgresStudyMigrations.jointNames)
        #expect(try await PostgresStudyMigrations.migrate(schema, with: client, joint: true).isEmpty)
    }
}
