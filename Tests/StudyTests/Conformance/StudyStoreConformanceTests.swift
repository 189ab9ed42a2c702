import Consent
import Foundation
import Research
import Study
import StudyKitEnvironment
import StudyPostgres
import StudySQLite
import PostgresTestSupport
import Testing

/// The backends the study store conformance suite runs against: the reference store in memory; SQLite in memory, in
/// its own file, and in the study server's one file beside the care store's tables; and PostgreSQL alone and beside the
/// care store's tables, each store in a schema of its own (when `STUDYKIT_TEST_POSTGRES_URL` is set, as `make test`
/// sets it: ``PostgresTestDatabase``).
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory, sqliteInMemory, sqliteFile, sqliteSharedWithCare, postgres, postgresSharedWithCare
    var testDescription: String { rawValue }

    /// Every backend this process can reach: PostgreSQL's only when the test database is configured.
    static var allCases: [Backend] {
        [.inMemory, .sqliteInMemory, .sqliteFile, .sqliteSharedWithCare] + (PostgresTestDatabase.isConfigured ? [.postgres, .postgresSharedWithCare] : [])
    }

    /// The backends that keep the study team's accounts beside the study data: every one.
    static var keepingResearchers: [Backend] { allCases }

    /// The backend's store as the study team's accounts see it.
    func makeResearcherStore(_ clock: TestClock) async throws -> any ResearcherStore {
        guard let store = try await makeStore(clock) as? any ResearcherStore else {
            throw ResearcherStoreError.invalidSetting("\(rawValue) keeps no researchers")
        }
        return store
    }

    func makeStore(_ clock: TestClock) async throws -> any StudyStore {
        let environment = StudyKitEnvironment(now: { clock.now }, makeUUID: { UUID() })
        switch self {
        case .inMemory: return InMemoryStudyStore(environment: environment)
        case .sqliteInMemory: return try SQLiteStudyStore.inMemory(environment: environment)
        case .sqliteFile:
            let path = TestScratchFolder.make("study-store").appendingPathComponent("study.sqlite").path
            return try SQLiteStudyStore(path: path, environment: environment)
        case .sqliteSharedWithCare:
            // The study server's one file, where the study store's tables sit beside the care store's.
            let path = TestScratchFolder.make("study-database").appendingPathComponent("study.sqlite").path
            return try SQLiteStudyDatabase(path: path, environment: environment).studyStore
        case .postgres:
            return try await PostgresStudyStore.open(client: PostgresTestDatabase.client.get(), schema: PostgresTestDatabase.freshSchema(),
                                                     environment: environment)
        case .postgresSharedWithCare:
            // One schema holding the study store's tables beside the care store's, as a PostgreSQL server's database does.
            return try await PostgresStudyDatabase.open(client: PostgresTestDatabase.client.get(), schema: PostgresTestDatabase.freshSchema(),
                                                        environment: environment).studyStore
        }
    }
}

extension Backend {
    /// Two stores over one database, as two server processes have: for SQLite, two connections' sets to one file (an
    /// in-memory database cannot be shared, so there two stores over one storage); for PostgreSQL, two connection pools
    /// on one schema; in memory, two stores over one storage.
    func makeTwoStores(_ clock: TestClock) async throws -> (any StudyStore, any StudyStore) {
        let environment = StudyKitEnvironment(now: { clock.now }, makeUUID: { UUID() })
        switch self {
        case .inMemory:
            let first = InMemoryStudyStore(environment: environment)
            return (first, InMemoryStudyStore(storage: first.storage, environment: environment))
        case .sqliteInMemory:
            let first = try SQLiteStudyStore.inMemory(environment: environment)
            return (first, SQLiteStudyStore(storage: first.storage, environment: environment))
        case .sqliteFile:
            let path = TestScratchFolder.make("study-store").appendingPathComponent("study.sqlite").path
            return (try SQLiteStudyStore(path: path, environment: environment), try SQLiteStudyStore(path: path, environment: environment))
        case .sqliteSharedWithCare:
            let path = TestScratchFolder.make("study-database").appendingPathComponent("study.sqlite").path
            return (try SQLiteStudyDatabase(path: path, environment: environment).studyStore, try SQLiteStudyDatabase(path: path, environment: environment).studyStore)
        case .postgres:
            let schema = try PostgresTestDatabase.freshSchema()
            return (try await PostgresStudyStore.open(client: PostgresTestDatabase.client.get(), schema: schema, environment: environment),
                    try await PostgresStudyStore.open(client: PostgresTestDatabase.otherClient.get(), schema: schema, environment: environment))
        case .postgresSharedWithCare:
            let schema = try PostgresTestDatabase.freshSchema()
            return (try await PostgresStudyDatabase.open(client: PostgresTestDatabase.client.get(), schema: schema, environment: environment).studyStore,
                    try await PostgresStudyDatabase.open(client: PostgresTestDatabase.otherClient.get(), schema: schema, environment: environment).studyStore)
        }
    }
}

/// What every ``StudyStore`` must do, run against every backend, as CareStore's conformance suite is.
@Suite("Study store conformance (every backend)")
struct StudyStoreConformanceTests {
    let clock = TestClock(Date(timeIntervalSince1970: 1_772_700_000)) // 2026-03-05T08:40:00Z

    @Test(arguments: Backend.allCases) func anInvitationEnrolsOnceAndIsStoredAsAHash(_ backend: Backend) async throws {
        let store = try await backend.makeStore(clock)
        let issued = try await store.createInvitation(label: "clinic A", expiresAt: nil)
        #expect(issued.code.count == 26)
        #expect(issued.invitation.codeSHA256 == StudySecrets.codeHash(issued.code))
        #expect(try await store.invitation(code: issued.code.lowercased()) == issued.invitation)

        let participant = try await store.enrol(invitationCode: issued.code, timeZone: TimeZone(identifier: "Asia/Tokyo")!, language: "ja")
        #expect(participant.invitationID == issued.invitation.id)
        #expect(participant.enrolledAt == clock.now && participant.language == "ja" && participant.timeZone.identifier == "Asia/Tokyo")
        #expect(participant.patientID == participant.id && !participant.id.contains("/"))
        #expect(try await store.participant(id: participant.id) == participant)
        let used = try #require(try await store.invitation(code: issued.code))
        #expect(used.usedAt == clock.now && used.usedBy == participant.id)

        await #expect(throws: StudyStoreError.invitationUsed(usedAt: clock.now)) {
            _ = try await store.enrol(invitationCode: issued.code, timeZone: .gmt, language: "en")
        }
        await #expect(throws: StudyStoreError.unknownInvitation) {
            _ = try await store.enrol(invitationCode: "NOT-A-CODE", timeZone: .gmt, language: "en")
        }
        // A revoked invitation enrols no one; a used one cannot be revoked.
        let revoked = try await store.createInvitation(label: "wrong address", expiresAt: nil)
        let revokedAt = clock.now
        #expect(try await store.revokeInvitation(id: revoked.invitation.id).revokedAt == revokedAt)
        clock.advance(by: 5)
        #expect(try await store.revokeInvitation(id: revoked.invitation.id).revokedAt == revokedAt, "the first revocation's time stays")
        #expect(try await store.invitation(code: revoked.code)?.isUsable(at: clock.now) == false)
        await #expect(throws: StudyStoreError.invitationRevoked(revokedAt: revokedAt)) {
            _ = try await store.enrol(invitationCode: revoked.code, timeZone: .gmt, language: "en")
        }
        await #expect(throws: StudyStoreError.invitationUsed(usedAt: used.usedAt!)) { try await store.revokeInvitation(id: issued.invitation.id) }
        let nothing = UUID()
        await #expect(throws: StudyStoreError.unknownInvitationID(nothing)) { try await store.revokeInvitation(id: nothing) }
        let expiring = try await store.createInvitation(label: nil, expiresAt: clock.now.addingTimeInterval(60))
        clock.advance(by: 60)
        await #expect(throws: StudyStoreError.invitationExpired(expiresAt: expiring.invitation.expiresAt!)) {
            _ = try await store.enrol(invitationCode: expiring.code, timeZone: .gmt, language: "en")
        }
        let open = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        #expect(open.invitationID == nil)
        #expect(try await store.participants().map(\.id) == [participant.id, open.id])
        #expect(try await store.invitations().count == 3)
        #expect(try await store.setLanguage("es", participantID: open.id).language == "es")
    }

    @Test(arguments: Backend.allCases) func concurrentEnrolmentsWithOneCodeEnrolOne(_ backend: Backend) async throws {
        let store = try await backend.makeStore(clock)
        let code = try await store.createInvitation(label: nil, expiresAt: nil).code
        let successes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask { (try? await store.enrol(invitationCode: code, timeZone: .gmt, language: "en")) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(successes == 1)
        #expect(try await store.participants().count == 1)
    }

    @Test(arguments: Backend.allCases) func sessionsAreFoundByTokenUntilTheyExpireOrAreRevoked(_ backend: Backend) async throws {
        let store = try await backend.makeStore(clock)
        let participant = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let issued = try await store.createSession(participantID: participant.id, lifetime: 3600)
        #expect(issued.token.count == 43)
        clock.advance(by: 600)
        let found = try #require(try await store.session(token: issued.token))
        #expect(found.id == issued.session.id && found.participantID == participant.id)
        #expect(found.lastSeenAt == clock.now && found.createdAt == clock.now.addingTimeInterval(-600))
        clock.advance(by: 60) // within the last-seen resolution: not written again
        #expect(try await store.session(token: issued.token)?.lastSeenAt == clock.now.addingTimeInterval(-60))
        #expect(try await store.session(token: issued.token + "x") == nil)
        #expect(try await store.session(token: String(issued.token.dropLast())) == nil)

        let second = try await store.createSession(participantID: participant.id, lifetime: 3600)
        #expect(try await store.sessions(participantID: participant.id).map(\.id).contains(second.session.id))
        #expect(try await store.revokeSession(id: second.session.id, participantID: "someone-else") == false)
        #expect(try await store.session(token: second.token) != nil)
        #expect(try await store.revokeSession(id: second.session.id, participantID: participant.id))
        #expect(try await store.session(token: second.token) == nil)

        clock.advance(by: 2940) // 3600 s after creation: expired
        #expect(try await store.session(token: issued.token) == nil)
        await #expect(throws: StudyStoreError.unknownParticipant("nobody")) {
            _ = try await store.createSession(participantID: "nobody", lifetime: 60)
        }
        await #expect(throws: StudyStoreError.invalidLifetime(0)) {
            _ = try await store.createSession(participantID: participant.id, lifetime: 0)
        }
    }

    @Test(arguments: Backend.allCases) func signInCodesWorkOnceAndExpire(_ backend: Backend) async throws {
        let store = try await backend.makeStore(clock)
        let participant = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let code = try await store.createSignInCode(participantID: participant.id, lifetime: 600)
        #expect(code.code.count == 9 && code.code.dropFirst(4).first == "-")
        #expect(code.expiresAt == clock.now.addingTimeInterval(600))
        clock.advance(by: 599)
        #expect(try await store.redeemSignInCode(code.code.lowercased().replacingOccurrences(of: "-", with: " ")) == participant.id)
        #expect(try await store.redeemSignInCode(code.code) == nil) // single use

        let late = try await store.createSignInCode(participantID: participant.id, lifetime: 600)
        clock.advance(by: 600)
        #expect(try await store.redeemSignInCode(late.code) == nil) // expired at exactly its lifetime
        #expect(try await store.redeemSignInCode("0000-0000") == nil)

        // A new code replaces the participant's earlier one; another participant's code is untouched. A wrong guess
        // writes nothing.
        let other = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let first = try await store.createSignInCode(participantID: participant.id, lifetime: 600)
        let others = try await store.createSignInCode(participantID: other.id, lifetime: 600)
        let second = try await store.createSignInCode(participantID: participant.id, lifetime: 600)
        let revision = store.revision
        #expect(try await store.redeemSignInCode("0000-0000") == nil)
        #expect(try await store.redeemSignInCode(first.code) == nil)
        #expect(store.revision == revision)
        #expect(try await store.redeemSignInCode(second.code) == participant.id)
        #expect(try await store.redeemSignInCode(others.code) == other.id)
    }

    /// A store with two participants, Alice with a paused run (occurrence 3) saved now, and Bob with none.
    private func aliceWithARunAndBob(_ backend: Backend) async throws
        -> (store: any StudyStore, alice: StudyParticipant, bob: StudyParticipant, restoration: TaskRestorationData, result: TaskResult, saved: TaskRun) {
        let store = try await backend.makeStore(clock)
        let alice = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let bob = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let (restoration, result) = try pausedRun()
        let saved = try await store.saveRun(TaskRun(id: restoration.taskRunUUID, participantID: alice.id, taskID: "pain", occurrence: 3,
                                                    state: .inProgress, restorationData: restoration))
        return (store, alice, bob, restoration, result, saved)
    }

    @Test(arguments: Backend.allCases) func runsAreSavedWholeAndOnlyTheirParticipantSeesThem(_ backend: Backend) async throws {
        let (store, alice, bob, restoration, result, saved) = try await aliceWithARunAndBob(backend)
        let id = saved.id
        #expect(saved.createdAt == clock.now && saved.updatedAt == clock.now)
        let loaded = try #require(try await store.run(id: id, participantID: alice.id))
        #expect(loaded == saved)
        #expect(loaded.restorationData == restoration && loaded.occurrence == 3)

        // Bob can neither read nor overwrite Alice's run.
        #expect(try await store.run(id: id, participantID: bob.id) == nil)
        #expect(try await store.runs(participantID: bob.id, taskID: nil).isEmpty)
        await #expect(throws: StudyStoreError.runOfAnotherParticipant(run: id)) {
            try await store.saveRun(TaskRun(id: id, participantID: bob.id, taskID: "pain", state: .inProgress, restorationData: restoration))
        }
        #expect(try await store.run(id: id, participantID: alice.id) == saved)

        await #expect(throws: StudyStoreError.runTaskChanged(run: id, stored: "pain", given: "weekly")) {
            try await store.saveRun(TaskRun(id: id, participantID: alice.id, taskID: "weekly", state: .inProgress, restorationData: restoration))
        }
        await #expect(throws: StudyStoreError.invalidRun(run: id, reason: "a completed run needs its result")) {
            try await store.saveRun(TaskRun(id: id, participantID: alice.id, taskID: "pain", state: .completed))
        }
        let otherRun = UUID()
        await #expect(throws: StudyStoreError.invalidRun(run: otherRun, reason: "the restoration data is of run \(id.uuidString)")) {
            try await store.saveRun(TaskRun(id: otherRun, participantID: alice.id, taskID: "pain", state: .inProgress, restorationData: restoration))
        }

        clock.advance(by: 30)
        let completed = try await store.saveRun(TaskRun(id: id, participantID: alice.id, taskID: "pain", occurrence: 3, state: .completed,
                                                        result: result))
        #expect(completed.createdAt == saved.createdAt && completed.updatedAt == clock.now)
        #expect(try await store.run(id: id, participantID: alice.id)?.result == result)
        await #expect(throws: StudyStoreError.runFinished(run: id, state: .completed)) {
            try await store.saveRun(TaskRun(id: id, participantID: alice.id, taskID: "pain", state: .inProgress, restorationData: restoration))
        }
        // A completed run may be withdrawn, keeping its result; then it is final too.
        await #expect(throws: StudyStoreError.invalidRun(run: id, reason: "a withdrawn run needs its result")) {
            try await store.saveRun(TaskRun(id: id, participantID: alice.id, taskID: "pain", occurrence: 3, state: .withdrawn))
        }
        let withdrawn = try await store.saveRun(TaskRun(id: id, participantID: alice.id, taskID: "pain", occurrence: 3, state: .withdrawn,
                                                        result: result))
        #expect(try await store.run(id: id, participantID: alice.id).map { ($0.state, $0.result) } ?? (.inProgress, nil) == (.withdrawn, result))
        #expect(withdrawn.createdAt == saved.createdAt)
        await #expect(throws: StudyStoreError.runFinished(run: id, state: .withdrawn)) {
            try await store.saveRun(TaskRun(id: id, participantID: alice.id, taskID: "pain", occurrence: 3, state: .completed, result: result))
        }
        let never = UUID()
        await #expect(throws: StudyStoreError.invalidRun(run: never, reason: "only a completed run can be withdrawn")) {
            try await store.saveRun(TaskRun(id: never, participantID: alice.id, taskID: "pain", state: .withdrawn,
                                            result: TaskResult(identifier: "recover-pain", taskRunUUID: never, startDate: clock.now, endDate: clock.now, stepResults: [])))
        }

        let (second, _) = try pausedRun()
        clock.advance(by: 30)
        try await store.saveRun(TaskRun(id: second.taskRunUUID, participantID: alice.id, taskID: "weekly", state: .discarded))
        #expect(try await store.runs(participantID: alice.id, taskID: nil).map(\.id) == [second.taskRunUUID, id])
        #expect(try await store.runs(participantID: alice.id, taskID: "pain").map(\.id) == [id])
        // Only runs still in progress are open: none of Alice's now (one completed, one discarded); a new one is.
        #expect(try await store.openRuns(participantID: alice.id).isEmpty)
        let (third, _) = try pausedRun()
        try await store.saveRun(TaskRun(id: third.taskRunUUID, participantID: alice.id, taskID: "pain", occurrence: 4, state: .inProgress,
                                        restorationData: third))
        #expect(try await store.openRuns(participantID: alice.id).map(\.id) == [third.taskRunUUID])
        #expect(try await store.openRuns(participantID: bob.id).isEmpty)
        // The summaries are the open runs without their data, read the same way.
        let open = try await store.openRuns(participantID: alice.id)
        #expect(try await store.openRunSummaries(participantID: alice.id) == open.map(TaskRunSummary.init))
        #expect(try await store.openRunSummaries(participantID: alice.id).first?.occurrence == 4)
        #expect(try await store.openRunSummaries(participantID: bob.id).isEmpty)
        // Every run's summary, in the order runs(participantID:taskID:) gives them.
        #expect(try await store.runSummaries(participantID: alice.id) == store.runs(participantID: alice.id, taskID: nil).map(TaskRunSummary.init))
        #expect(try await store.runSummaries(participantID: alice.id).count == 3)
        await #expect(throws: StudyStoreError.unknownParticipant("nobody")) {
            try await store.saveRun(TaskRun(id: UUID(), participantID: "nobody", taskID: "pain", state: .discarded))
        }
    }

    @Test(arguments: Backend.allCases) func anUpdateReadsAndSavesARunInOneGo(_ backend: Backend) async throws {
        struct Refused: Error {}
        let (store, alice, bob, _, result, saved) = try await aliceWithARunAndBob(backend)
        let id = saved.id

        // Someone else's run, or none: nil, and change is not called.
        #expect(try await store.updateRun(id: id, participantID: bob.id) { _ in Issue.record("called"); return (nil, 0) } == nil)
        #expect(try await store.updateRun(id: UUID(), participantID: alice.id) { _ in Issue.record("called"); return (nil, 0) } == nil)

        // Nothing to save: the value comes back and the run is as it was.
        let unchanged = try #require(try await store.updateRun(id: id, participantID: alice.id) { run in (nil, run.occurrence) })
        #expect(unchanged.saved == nil && unchanged.value == 3)
        #expect(try await store.run(id: id, participantID: alice.id) == saved)

        // A change that throws, or that the save refuses, saves nothing.
        await #expect(throws: Refused.self) {
            try await store.updateRun(id: id, participantID: alice.id) { run -> (save: TaskRun?, value: Int) in throw Refused() }
        }
        await #expect(throws: StudyStoreError.invalidRun(run: id, reason: "a completed run needs its result")) {
            try await store.updateRun(id: id, participantID: alice.id) { run in
                var completed = run
                completed.state = .completed
                return (completed, 0)
            }
        }
        let other = UUID()
        await #expect(throws: StudyStoreError.self) {
            try await store.updateRun(id: id, participantID: alice.id) { run in
                var moved = run
                moved.id = other
                return (moved, 0)
            }
        }
        #expect(try await store.run(id: id, participantID: alice.id) == saved)
        #expect(try await store.run(id: other, participantID: alice.id) == nil)

        // A change is saved as saveRun saves it: the run's creation date kept, updated now.
        clock.advance(by: 60)
        let updated = try #require(try await store.updateRun(id: id, participantID: alice.id) { run in
            var completed = run
            completed.state = .completed
            completed.restorationData = nil
            completed.result = result
            return (completed, "done")
        })
        #expect(updated.value == "done")
        #expect(updated.saved?.createdAt == saved.createdAt && updated.saved?.updatedAt == clock.now)
        #expect(try await store.run(id: id, participantID: alice.id) == updated.saved)
        #expect(try await store.run(id: id, participantID: alice.id)?.result == result)
    }

    @Test(arguments: Backend.allCases) func theRevisionGrowsWithEveryCommittedWriteOnly(_ backend: Backend) async throws {
        let store = try await backend.makeStore(clock)
        var revision = store.revision
        /// Whether the revision moved since the last call.
        func moved() -> Bool {
            defer { revision = store.revision }
            return store.revision != revision
        }
        let participant = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        #expect(moved())
        let issued = try await store.createSession(participantID: participant.id, lifetime: 3_600)
        #expect(moved())
        // Reads write nothing: a session seen a moment ago is not noted as seen again.
        _ = try await store.session(token: issued.token)
        _ = try await store.participant(id: participant.id)
        _ = try await store.openRunSummaries(participantID: participant.id)
        #expect(!moved())
        let (restoration, _) = try pausedRun()
        try await store.saveRun(TaskRun(id: restoration.taskRunUUID, participantID: participant.id, taskID: "pain", state: .inProgress,
                                        restorationData: restoration))
        #expect(moved())
        _ = try await store.setLanguage("ja", participantID: participant.id)
        #expect(moved())
        // A refused write commits nothing.
        await #expect(throws: StudyStoreError.self) {
            try await store.saveRun(TaskRun(id: restoration.taskRunUUID, participantID: participant.id, taskID: "weekly", state: .inProgress,
                                            restorationData: restoration))
        }
        #expect(!moved())
        clock.advance(by: ParticipantSession.lastSeenResolution)
        _ = try await store.session(token: issued.token) // now noted as seen: a write
        #expect(moved())
    }

    @Test(arguments: Backend.allCases) func aParticipantsRevisionMovesWithTheirOwnVisibleDataOnly(_ backend: Backend) async throws {
        let store = try await backend.makeStore(clock)
        let alice = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let bob = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        var seen = (store.revision(of: alice.id), store.revision(of: bob.id))
        #expect(seen.0 > 0, "enrolment is a change of the participant")
        /// Which of Alice and Bob moved since the last call.
        func moved() -> (alice: Bool, bob: Bool) {
            let now = (store.revision(of: alice.id), store.revision(of: bob.id))
            defer { seen = now }
            return (now.0 != seen.0, now.1 != seen.1)
        }
        let (restoration, _) = try pausedRun()
        try await store.saveRun(TaskRun(id: restoration.taskRunUUID, participantID: alice.id, taskID: "pain", state: .inProgress,
                                        restorationData: restoration))
        #expect(moved() == (true, false))
        _ = try await store.updateRun(id: restoration.taskRunUUID, participantID: alice.id) { ($0, ()) }
        #expect(moved() == (true, false))
        _ = try await store.setLanguage("ja", participantID: bob.id)
        #expect(moved() == (false, true))
        _ = try await store.appendConsentRecord(try sealedConsent(participant: bob.id, recorder: ConsentRecorder(signingKey: .generate())))
        #expect(moved() == (false, true))
        // Sessions, sign-in codes and invitations are no page's content.
        _ = try await store.createSession(participantID: alice.id, lifetime: 3_600)
        _ = try await store.createSignInCode(participantID: alice.id, lifetime: 600)
        _ = try await store.createInvitation(label: nil, expiresAt: nil)
        #expect(moved() == (false, false))
        // A refused write moves nothing.
        await #expect(throws: StudyStoreError.self) {
            try await store.saveRun(TaskRun(id: restoration.taskRunUUID, participantID: alice.id, taskID: "weekly", state: .inProgress,
                                            restorationData: restoration))
        }
        #expect(moved() == (false, false))
        #expect(store.revision(of: "nobody") == 0)
    }

    @Test(arguments: Backend.allCases) func consentRecordsAreAppendedAndTheirPDFsFollow(_ backend: Backend) async throws {
        let store = try await backend.makeStore(clock)
        let alice = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let bob = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let recorder = ConsentRecorder(signingKey: .generate())
        let consent = try sealedConsent(participant: alice.id, recorder: recorder)
        let stored = try await store.appendConsentRecord(consent)
        let json = try consent.jsonData()
        #expect(stored.pdf == .pending && stored.sealedJSON == json && stored.participantID == alice.id)
        await #expect(throws: StudyStoreError.consentRecordExists(consent.record.id)) { try await store.appendConsentRecord(consent) }

        let withdrawal = try recorder.sealWithdrawal(of: consent, reason: "moving away")
        clock.advance(by: 60)
        try await store.appendConsentRecord(withdrawal)
        let records = try await store.consentRecords(participantID: alice.id)
        #expect(records.map(\.id) == [consent.record.id, withdrawal.record.id])
        #expect(records.map(\.sealed) == [consent, withdrawal])
        #expect(ConsentRecordVerifier().mismatches(in: records[0].sealed).isEmpty)
        #expect(try await store.consentRecords(participantID: bob.id).isEmpty)
        #expect(try await store.consentRecord(id: consent.record.id, participantID: bob.id) == nil)
        // The count every post checks before reading any record.
        #expect(try await store.consentRecordCount(participantID: alice.id) == 2)
        #expect(try await store.consentRecordCount(participantID: bob.id) == 0)

        #expect(try await store.consentRecordsAwaitingPDF().count == 2)
        try await store.setConsentPDF(.stored(Data("%PDF-1.7".utf8)), recordID: consent.record.id, participantID: alice.id)
        try await store.setConsentPDF(.failed(reason: "chromium is not installed"), recordID: withdrawal.record.id, participantID: alice.id)
        #expect(try await store.consentRecord(id: consent.record.id, participantID: alice.id)?.pdf == .stored(Data("%PDF-1.7".utf8)))
        #expect(try await store.consentRecordsAwaitingPDF().map(\.id) == [withdrawal.record.id])
        try await store.setConsentPDF(.file(relativePath: "consent/\(withdrawal.record.id).pdf"), recordID: withdrawal.record.id, participantID: alice.id)
        #expect(try await store.consentRecordsAwaitingPDF().isEmpty)
        await #expect(throws: StudyStoreError.unsafePDFPath("../etc/passwd")) {
            try await store.setConsentPDF(.file(relativePath: "../etc/passwd"), recordID: consent.record.id, participantID: alice.id)
        }
        await #expect(throws: StudyStoreError.unknownConsentRecord(consent.record.id)) {
            try await store.setConsentPDF(.pending, recordID: consent.record.id, participantID: bob.id)
        }
        await #expect(throws: StudyStoreError.unknownParticipant("nobody")) {
            try await store.appendConsentRecord(try sealedConsent(participant: "nobody"))
        }
    }

    /// Of several printers (processes) asking to print one record's PDF, one gets it while its claim lasts; a claim left
    /// by a printer that died lapses with its lease, and a record that is not stored cannot be claimed.
    @Test(arguments: Backend.allCases)
    func oneClaimOnPrintingAPDFHoldsUntilItsLeaseEnds(backend: Backend) async throws {
        let store = try await backend.makeStore(clock)
        let alice = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let consent = try sealedConsent(participant: alice.id)
        try await store.appendConsentRecord(consent)
        #expect(try await store.claimConsentPDF(recordID: consent.record.id, for: 300))
        #expect(try await store.claimConsentPDF(recordID: consent.record.id, for: 300) == false)
        clock.advance(by: 299)
        #expect(try await store.claimConsentPDF(recordID: consent.record.id, for: 300) == false)
        clock.advance(by: 1)
        #expect(try await store.claimConsentPDF(recordID: consent.record.id, for: 300))
        #expect(try await store.claimConsentPDF(recordID: consent.record.id, for: 300) == false)
        let unknown = UUID()
        await #expect(throws: StudyStoreError.unknownConsentRecord(unknown)) { try await store.claimConsentPDF(recordID: unknown, for: 300) }
        await #expect(throws: StudyStoreError.invalidLifetime(0)) { try await store.claimConsentPDF(recordID: consent.record.id, for: 0) }
    }

    // MARK: - One finisher per run

    /// Of many requests through two stores over one database (two server processes) that each would finish one run, exactly
    /// one claims it; the others are told it is being finished, and their change is not even called. The claim holds
    /// until released by its holder (not by another) or until its lease lapses (a finisher that died); a change that
    /// does not finish the run claims nothing, and a change that throws keeps no claim.
    @Test(arguments: Backend.allCases) func oneFinisherPerRunAcrossTwoStoresOverOneDatabase(_ backend: Backend) async throws {
        let (first, second) = try await backend.makeTwoStores(clock)
        let alice = try await first.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let (restoration, result) = try pausedRun()
        let id = restoration.taskRunUUID
        try await first.saveRun(TaskRun(id: id, participantID: alice.id, taskID: "pain", state: .inProgress, restorationData: restoration))

        // Neither a change that saves only, nor one that throws, leaves a claim.
        struct Refused: Error {}
        let moved = try #require(try await second.updateRun(id: id, participantID: alice.id, finisher: RunFinisher(id: UUID())) { run, _ in (run, 1, false) })
        guard case .changed(let saved, 1, false) = moved, saved?.id == id else { Issue.record("a plain save: \(moved)"); return }
        await #expect(throws: Refused.self) {
            try await first.updateRun(id: id, participantID: alice.id, finisher: RunFinisher(id: UUID())) { _, _ -> (save: TaskRun?, value: Int, finishes: Bool) in
                throw Refused()
            }
        }
        #expect(try await second.updateRun(id: id, participantID: "bob", finisher: RunFinisher(id: UUID())) { _, _ in (nil, 0, true) } == nil)

        // The race: eight finishers, four through each store, at once.
        let finishers = (0..<8).map { _ in RunFinisher(id: UUID()) }
        let outcomes = try await withThrowingTaskGroup(of: (RunFinisher, Bool).self) { group in
            for (index, finisher) in finishers.enumerated() {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask {
                    let update = try await store.updateRun(id: id, participantID: alice.id, finisher: finisher) { _, _ in (nil, (), true) }
                    switch update {
                    case .changed(_, _, let finishing): return (finisher, finishing)
                    case .beingFinished, nil: return (finisher, false)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let winners = outcomes.filter(\.1).map(\.0)
        #expect(winners.count == 1, "\(winners.count) of 8 finishers claimed the run")
        let winner = try #require(winners.first)

        // Another finisher's release leaves the claim; the lease lapses after its time.
        try await second.releaseRunFinish(id: id, finisher: RunFinisher(id: UUID()))
        #expect(try await second.updateRun(id: id, participantID: alice.id, finisher: RunFinisher(id: UUID())) { _, _ in (nil, 0, true) }.map(isBeingFinished) == true)
        clock.advance(by: RunFinisher.defaultLease)
        let late = RunFinisher(id: UUID())
        guard case .changed(_, _, true) = try await first.updateRun(id: id, participantID: alice.id, finisher: late, { _, _ in (nil, 0, true) }) else {
            Issue.record("a lapsed claim should be taken over")
            return
        }
        // The winner's release, after its lease lapsed and another took over, leaves the other's claim.
        try await first.releaseRunFinish(id: id, finisher: winner)
        #expect(try await second.updateRun(id: id, participantID: alice.id, finisher: RunFinisher(id: UUID())) { _, _ in (nil, 0, true) }.map(isBeingFinished) == true)

        // The holder finishes the run and releases its claim: the next post finds a finished run.
        var completed = try #require(try await first.run(id: id, participantID: alice.id))
        completed.state = .completed
        completed.restorationData = nil
        completed.result = result
        try await first.saveRun(completed)
        try await first.releaseRunFinish(id: id, finisher: late)
        let after = try #require(try await second.updateRun(id: id, participantID: alice.id, finisher: RunFinisher(id: UUID())) { run, _ in (nil, run.state, false) })
        guard case .changed(nil, .completed, false) = after else { Issue.record("after the finish: \(after)"); return }
        await #expect(throws: StudyStoreError.invalidLifetime(0)) {
            try await first.updateRun(id: id, participantID: alice.id, finisher: RunFinisher(id: UUID(), lease: 0)) { _, _ in (nil, 0, true) }
        }
    }

    // MARK: - Run files

    /// A run's files are the database's, beside the run: what a post's session writes and removes through the staged
    /// files of ``StudyStore/updateRun(id:participantID:finisher:_:)`` is stored with the saved run (or one about to be
    /// finished), seen by a second store over the same database; a refused post (nothing saved) or a change that throws
    /// stores nothing; a participant's files are listed for them only; and a finished run keeps only what it refers to.
    @Test(arguments: Backend.allCases) func runFilesAreStoredWithTheSavedRunOnlyAndListedForTheirParticipant(_ backend: Backend) async throws {
        let (first, second) = try await backend.makeTwoStores(clock)
        let alice = try await first.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let bob = try await first.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let (restoration, _) = try pausedRun()
        let id = restoration.taskRunUUID
        try await first.saveRun(TaskRun(id: id, participantID: alice.id, taskID: "pain", state: .inProgress, restorationData: restoration))
        let photo = Data((0..<70_000).map { UInt8($0 % 251) }), note = Data("a voice note".utf8)

        // Saved with the run, through either store.
        _ = try await first.updateRun(id: id, participantID: alice.id, finisher: RunFinisher(id: UUID())) { run, files in
            let existed = [try files.write(photo, named: "photo.jpg", ofRun: id), try files.write(note, named: "note.m4a", ofRun: id)]
            #expect(existed == [false, false])
            return (run, (), false)
        }
        #expect(try await second.runFiles(participantID: alice.id) == [StoredRunFile(runID: id, participantID: alice.id, name: "note.m4a", data: note),
                                                                         StoredRunFile(runID: id, participantID: alice.id, name: "photo.jpg", data: photo)])
        #expect(try await second.runFiles(participantID: bob.id).isEmpty)

        // A refused post and a change that throws leave them as they were.
        struct Refused: Error {}
        _ = try await second.updateRun(id: id, participantID: alice.id, finisher: RunFinisher(id: UUID())) { _, files in
            #expect(files.fileNames(ofRun: id) == ["note.m4a", "photo.jpg"])
            let replaced = try files.write(Data("other".utf8), named: "photo.jpg", ofRun: id)
            #expect(replaced)
            files.remove(named: "note.m4a", ofRun: id)
            return (nil, (), false)
        }
        await #expect(throws: Refused.self) {
            try await first.updateRun(id: id, participantID: alice.id, finisher: RunFinisher(id: UUID())) { _, files -> (save: TaskRun?, value: Void, finishes: Bool) in
                files.remove(named: "photo.jpg", ofRun: id)
                throw Refused()
            }
        }
        #expect(try await first.runFiles(participantID: alice.id).map(\.name) == ["note.m4a", "photo.jpg"])
        // Someone else's run takes no files, and theirs are not listed.
        #expect(try await first.updateRun(id: id, participantID: bob.id, finisher: RunFinisher(id: UUID())) { run, _ in (run, (), false) } == nil)

        // A replaced file and a removal, stored with a save; then a finished run keeps only what it refers to.
        _ = try await second.updateRun(id: id, participantID: alice.id, finisher: RunFinisher(id: UUID())) { run, files in
            _ = try files.write(Data("retaken".utf8), named: "photo.jpg", ofRun: id)
            files.remove(named: "note.m4a", ofRun: id)
            _ = try files.write(note, named: "note-2.m4a", ofRun: id)
            return (run, (), false)
        }
        #expect(try await first.runFiles(participantID: alice.id).map { "\($0.name)=\($0.data.count)" } == ["note-2.m4a=12", "photo.jpg=7"])
        try await first.keepOnlyRunFiles(["photo.jpg"], ofRun: id, participantID: bob.id)
        #expect(try await first.runFiles(participantID: alice.id).count == 2, "another participant's call removes nothing")
        try await first.keepOnlyRunFiles(["photo.jpg"], ofRun: id, participantID: alice.id)
        #expect(try await second.runFiles(participantID: alice.id).map(\.name) == ["photo.jpg"])
    }

    private func isBeingFinished<Value>(_ update: RunUpdate<Value>) -> Bool {
        if case .beingFinished = update { return true }
        return false
    }

    // MARK: - Sign-in attempt limits

    /// The buckets of a sign-in attempt limit are the database's: failures counted through either of two stores over it
    /// (two server processes) empty a client's bucket and the server-wide one alike, they refill with time, limits of
    /// different scopes do not share them, and past the limit on remembered clients the refilled ones are forgotten.
    @Test(arguments: Backend.allCases) func signInAttemptBucketsAreSharedByEveryStoreOverOneDatabase(_ backend: Backend) async throws {
        let (first, second) = try await backend.makeTwoStores(clock)
        let limit = SignInAttemptLimit(scope: "test", burst: 3, failuresPerSecond: 0.5, clientBurst: 2, clientFailuresPerSecond: 0.1, clientLimit: 3)
        let other = SignInAttemptLimit(scope: "other", burst: 3, failuresPerSecond: 0.5, clientBurst: 2, clientFailuresPerSecond: 0.1)
        let now = clock.now
        #expect(try await first.allowsSignInAttempt(from: "10.0.0.1", under: limit, at: now))
        try await first.recordFailedSignInAttempt(from: "10.0.0.1", under: limit, at: now)
        #expect(try await second.allowsSignInAttempt(from: "10.0.0.1", under: limit, at: now))
        try await second.recordFailedSignInAttempt(from: "10.0.0.1", under: limit, at: now)
        // The client's two tries are spent, whichever process counted them; another client still has the server's last.
        #expect(try await first.allowsSignInAttempt(from: "10.0.0.1", under: limit, at: now) == false)
        #expect(try await second.allowsSignInAttempt(from: "10.0.0.1", under: limit, at: now) == false)
        #expect(try await second.allowsSignInAttempt(from: "10.0.0.2", under: limit, at: now))
        try await first.recordFailedSignInAttempt(from: "10.0.0.2", under: limit, at: now)
        #expect(try await second.allowsSignInAttempt(from: "10.0.0.3", under: limit, at: now) == false)
        #expect(try await second.allowsSignInAttempt(from: "10.0.0.3", under: other, at: now))
        // The server-wide bucket refills at 0.5 a second: one try after two seconds; the first client's after ten.
        #expect(try await first.allowsSignInAttempt(from: "10.0.0.3", under: limit, at: now.addingTimeInterval(1.9)) == false)
        #expect(try await first.allowsSignInAttempt(from: "10.0.0.3", under: limit, at: now.addingTimeInterval(2)))
        #expect(try await first.allowsSignInAttempt(from: "10.0.0.1", under: limit, at: now.addingTimeInterval(9)) == false)
        #expect(try await first.allowsSignInAttempt(from: "10.0.0.1", under: limit, at: now.addingTimeInterval(10)))
        // A clock that goes back adds nothing.
        #expect(try await first.allowsSignInAttempt(from: "10.0.0.3", under: limit, at: now.addingTimeInterval(-60)) == false)

        // At most three clients remembered. A fourth, when none has refilled, makes the store forget every one: the
        // first client's empty bucket is gone five seconds later, when it would still hold half a try.
        let crowd = SignInAttemptLimit(scope: "crowd", burst: 100, failuresPerSecond: 0.5, clientBurst: 2, clientFailuresPerSecond: 0.1, clientLimit: 3)
        let t0 = now.addingTimeInterval(60)
        for client in ["10.0.0.3", "10.0.0.4", "10.0.0.5"] {
            try await second.recordFailedSignInAttempt(from: client, under: crowd, at: t0)
            try await first.recordFailedSignInAttempt(from: client, under: crowd, at: t0)
        }
        #expect(try await first.allowsSignInAttempt(from: "10.0.0.3", under: crowd, at: t0.addingTimeInterval(5)) == false)
        try await first.recordFailedSignInAttempt(from: "10.0.0.6", under: crowd, at: t0.addingTimeInterval(5))
        #expect(try await first.allowsSignInAttempt(from: "10.0.0.3", under: crowd, at: t0.addingTimeInterval(5)))
        // Those that have refilled are forgotten first, and only they: the empty buckets stay.
        let t1 = t0.addingTimeInterval(30)
        for client in ["10.0.0.7", "10.0.0.8"] {
            try await first.recordFailedSignInAttempt(from: client, under: crowd, at: t1)
            try await second.recordFailedSignInAttempt(from: client, under: crowd, at: t1)
        }
        try await second.recordFailedSignInAttempt(from: "10.0.0.9", under: crowd, at: t1)
        #expect(try await first.allowsSignInAttempt(from: "10.0.0.7", under: crowd, at: t1) == false)
        #expect(try await first.allowsSignInAttempt(from: "10.0.0.8", under: crowd, at: t1) == false)
    }

    /// Failures counted at once through two stores over one database all count: twenty wrong secrets from twenty
    /// clients, half through each store, empty a server-wide bucket of twenty, and none is lost to a race.
    @Test(arguments: Backend.allCases) func failuresCountedAtOnceThroughTwoStoresAllCount(_ backend: Backend) async throws {
        let (first, second) = try await backend.makeTwoStores(clock)
        let limit = SignInAttemptLimit(scope: "race", burst: 20, failuresPerSecond: 1, clientBurst: 5, clientFailuresPerSecond: 1)
        let now = clock.now
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in 0..<19 {
                    let store = client.isMultiple(of: 2) ? first : second
                    group.addTask { try await store.recordFailedSignInAttempt(from: "10.1.0.\(client)", under: limit, at: now) }
                }
                try await group.waitForAll()
            }
        } catch {
            // postgres-nio's errors describe themselves generically unless reflected.
            Issue.record("a failure was not counted: \(String(reflecting: error))")
            return
        }
        #expect(try await first.allowsSignInAttempt(from: "10.1.1.1", under: limit, at: now))
        try await second.recordFailedSignInAttempt(from: "10.1.0.19", under: limit, at: now)
        #expect(try await first.allowsSignInAttempt(from: "10.1.1.1", under: limit, at: now) == false)
        #expect(try await second.allowsSignInAttempt(from: "10.1.1.1", under: limit, at: now) == false)
    }
}
