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
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("study-store-\(UUID().uuidString)/study.sqlite").path
            return try SQLiteStudyStore(path: path, environment: environment)
        case .sqliteSharedWithCare:
            // The study server's one file, where the study store's tables sit beside the care store's.
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("study-database-\(UUID().uuidString)/study.sqlite").path
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
}
