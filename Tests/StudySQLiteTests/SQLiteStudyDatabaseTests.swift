import CareStore
import CareStoreSQLite
import Consent
import Foundation
import GRDB
import Research
import Study
import StudyFHIR
import StudySQLite
import Testing

/// The study server's one file: a participant action commits whole across both stores, and data folders written
/// before the join (two files) are merged once without losing a row.
@Suite("One database for both stores")
struct SQLiteStudyDatabaseTests {
    static let recover = FinishingCrashTests.recover
    let zone = TimeZone(identifier: "Pacific/Auckland")!

    /// A participant enrolled in Recover in `study` and `care`, with an onboarding run in progress.
    func enrolled(study: any StudyStore, care: any CareStore) async throws -> (StudyParticipant, TaskRun) {
        let definition = try StudyLoader.load(folder: Self.recover, surveyFormats: [FHIRSurveyFormat()])
        let participant = try await study.enrol(invitationCode: nil, timeZone: zone, language: "en")
        _ = try await StudyEnrolment(study: definition, environment: .live)
            .enrol(participantID: participant.id, enrolledAt: participant.enrolledAt, timeZone: zone, into: care)
        let (restoration, _) = try pausedRun()
        let run = TaskRun(id: restoration.taskRunUUID, participantID: participant.id, taskID: StudyTaskDefinition.onboardingID, occurrence: nil,
                          state: .inProgress, restorationData: restoration)
        return (participant, try await study.saveRun(run))
    }

    /// The onboarding's finishing change for `run`: the run completed, a consent record, the gate's outcome.
    func finishing(_ run: TaskRun, of participant: StudyParticipant, in data: any StudyDataStore) async throws -> ParticipantChange {
        var completed = run
        completed.state = .completed
        completed.restorationData = nil
        completed.result = try pausedRun(run.id).result
        var change = ParticipantChange(participantID: participant.id)
        change.runs = [completed]
        change.consentRecords = [try sealedConsent(participant: participant.id)]
        change.outcomes = [try await OnboardingGate(careStore: data.careStore, environment: .live)
            .completionOutcome(participantID: participant.id, timeZone: zone)]
        return change
    }

    @Test func aChangeCommitsWholeAndCountsInBothRevisions() async throws {
        let data = try SQLiteStudyDatabase.inMemory()
        let (participant, run) = try await enrolled(study: data.studyStore, care: data.careStore)
        let (studyBefore, careBefore) = (data.studyStore.revision, data.careStore.revision)
        let committed = try await data.commit(try await finishing(run, of: participant, in: data))
        #expect(committed.runs.map(\.state) == [.completed] && committed.consentRecords.count == 1 && committed.outcomes.count == 1)
        #expect(try await data.studyStore.run(id: run.id, participantID: participant.id)?.state == .completed)
        #expect(try await data.studyStore.consentRecords(participantID: participant.id).count == 1)
        #expect(try await OnboardingGate(careStore: data.careStore, environment: .live).isOnboarded(participantID: participant.id))
        #expect(data.studyStore.revision > studyBefore && data.careStore.revision > careBefore)
    }

    @Test func aRefusedPartLeavesNothingOfTheChange() async throws {
        let data = try SQLiteStudyDatabase.inMemory()
        let (participant, run) = try await enrolled(study: data.studyStore, care: data.careStore)
        let (other, _) = try await enrolled(study: data.studyStore, care: data.careStore)
        // The gate outcome of someone else's care task rides along: the whole change is refused, the run and record too.
        var change = try await finishing(run, of: participant, in: data)
        change.outcomes = [try await OnboardingGate(careStore: data.careStore, environment: .live).completionOutcome(participantID: other.id, timeZone: zone)]
        await #expect(throws: CareStoreError.self) { _ = try await data.commit(change) }
        #expect(try await data.studyStore.run(id: run.id, participantID: participant.id)?.state == .inProgress)
        #expect(try await data.studyStore.consentRecords(participantID: participant.id).isEmpty)
        #expect(try await data.careStore.fetchOutcomes(query: OutcomeQuery()).isEmpty)
        // A run of another participant in the change is refused before anything is written.
        change = try await finishing(run, of: participant, in: data)
        change.participantID = other.id
        await #expect(throws: StudyStoreError.runOfAnotherParticipant(run: run.id)) { _ = try await data.commit(change) }
        // An event done already: by default the first outcome stands and the rest is stored; asked not to, all is refused.
        _ = try await data.commit(try await finishing(run, of: participant, in: data))
        let (restoration, _) = try pausedRun()
        let secondRun = TaskRun(id: restoration.taskRunUUID, participantID: participant.id, taskID: StudyTaskDefinition.onboardingID,
                                occurrence: nil, state: .inProgress, restorationData: restoration)
        try await data.studyStore.saveRun(secondRun)
        var again = try await finishing(secondRun, of: participant, in: data)
        again.keepsExistingOutcomes = false
        await #expect(throws: CareStoreError.self) { _ = try await data.commit(again) }
        #expect(try await data.studyStore.consentRecords(participantID: participant.id).count == 1)
        again.keepsExistingOutcomes = true
        let kept = try await data.commit(again)
        #expect(kept.outcomes.isEmpty && kept.outcomesAlreadyRecorded.count == 1 && kept.consentRecords.count == 1)
    }

    @Test func enrolmentStoresTheParticipantWithTheirCarePlanOrNothing() async throws {
        let data = try SQLiteStudyDatabase.inMemory()
        let definition = try StudyLoader.load(folder: Self.recover, surveyFormats: [FHIRSurveyFormat()])
        let enrolment = StudyEnrolment(study: definition, environment: .live)
        let issued = try await data.studyStore.createInvitation(label: nil, expiresAt: nil)
        struct PlanFailed: Error {}
        // The plan cannot be made: the invitation stays unused and no participant is left without a care plan.
        await #expect(throws: PlanFailed.self) {
            _ = try await data.enrol(invitationCode: issued.code, timeZone: zone, language: "en") { _ in throw PlanFailed() }
        }
        #expect(try await data.studyStore.participants().isEmpty)
        #expect(try await data.studyStore.invitation(code: issued.code)?.usedAt == nil)
        let participant = try await data.enrol(invitationCode: issued.code, timeZone: zone, language: "en") { participant in
            try enrolment.plan(participantID: participant.id, enrolledAt: participant.enrolledAt, timeZone: participant.timeZone)
        }
        var query = CareQuery()
        query.carePlanIDs = [StudyCareIdentifiers.carePlanID(participant: participant.id)]
        #expect(try await data.careStore.fetch(CareTask.self, query: query).count == definition.tasks.count + 1)
        // The code is used up with the enrolment: a second one is refused and stores nothing.
        await #expect(throws: StudyStoreError.self) {
            _ = try await data.enrol(invitationCode: issued.code, timeZone: zone, language: "en") { participant in
                try enrolment.plan(participantID: participant.id, enrolledAt: participant.enrolledAt, timeZone: participant.timeZone)
            }
        }
        #expect(try await data.studyStore.participants().map(\.id) == [participant.id])
    }

    /// A data folder as the server wrote it before the join: `study.sqlite` and `care.sqlite`, each through its own store.
    func legacyFolder() async throws -> (folder: URL, participant: StudyParticipant, outcomes: Int) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("legacy-data-\(UUID().uuidString)")
        let study = try SQLiteStudyStore(path: folder.appendingPathComponent("study.sqlite").path, environment: .live)
        let care = try SQLiteCareStore(path: folder.appendingPathComponent("care.sqlite").path, durability: .processCrash)
        let (participant, run) = try await enrolled(study: study, care: care)
        var completed = run
        completed.state = .completed
        completed.restorationData = nil
        completed.result = try pausedRun(run.id).result
        try await study.saveRun(completed)
        try await study.appendConsentRecord(try sealedConsent(participant: participant.id))
        _ = try await OnboardingGate(careStore: care, environment: .live).recordCompletion(participantID: participant.id, timeZone: zone)
        // The care file as the StudyKit of the time wrote it: its first migration only, without the revision of versions.
        let older = try DatabaseQueue(path: folder.appendingPathComponent("care.sqlite").path)
        try await older.write { db in
            for event in ["Insert", "Update", "Delete"] { try db.execute(sql: "DROP TRIGGER versionRevision_after\(event)") }
            try db.execute(sql: "DROP TABLE versionRevision")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [CareStoreMigrations.versionsRevisionMigration])
        }
        try older.close()
        // The care file's last commits are left in its WAL, as a running server leaves them.
        return (folder, participant, try await care.fetchOutcomes(query: OutcomeQuery()).count)
    }

    @Test func aDataFolderWithTwoFilesIsMergedOnceWithEveryRow() async throws {
        let (folder, participant, outcomes) = try await legacyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let care = folder.appendingPathComponent("care.sqlite")
        // Read as it is, before any server opened it since the join.
        let (oldStudy, oldCare) = try SQLiteStudyDatabase.readOnlyStores(path: folder.appendingPathComponent("study.sqlite").path,
                                                                          legacyCarePath: care.path)
        #expect(try await oldStudy.consentRecords(participantID: participant.id).count == 1)
        #expect(try await oldCare.fetchOutcomes(query: OutcomeQuery()).count == outcomes)
        var byID = CareQuery()
        byID.ids = Set(try await oldCare.fetch(CareTask.self, query: CareQuery()).map(\.id))
        #expect(!(try await oldCare.events(taskQuery: byID, window: DateInterval(start: participant.enrolledAt, duration: 7 * 86_400))).isEmpty)

        let data = try SQLiteStudyDatabase(path: folder.appendingPathComponent("study.sqlite").path)
        // While another process (an older server) has the care file open, nothing is merged or moved.
        let holder = try SQLiteCareStore(path: care.path, durability: .processCrash)
        _ = try await holder.fetchOutcomes(query: OutcomeQuery())
        let reader = try DatabaseQueue(path: care.path)
        try await reader.read { db in
            _ = try Row.fetchAll(db, sql: "SELECT * FROM outcome")
            #expect(throws: SQLiteStudyDatabaseMergeError.inUse(path: care.path)) { try data.mergeCareFile(at: care) }
        }
        #expect(FileManager.default.fileExists(atPath: care.path))
        #expect(try await data.careStore.fetchOutcomes(query: OutcomeQuery()).isEmpty)
        try reader.close()
        #expect(try data.mergeCareFile(at: care))
        #expect(!FileManager.default.fileExists(atPath: care.path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("care.sqlite.merged").path))
        #expect(try await data.careStore.fetchOutcomes(query: OutcomeQuery()).count == outcomes && outcomes == 1)
        #expect(try await OnboardingGate(careStore: data.careStore, environment: .live).isOnboarded(participantID: participant.id))
        var query = CareQuery()
        query.carePlanIDs = [StudyCareIdentifiers.carePlanID(participant: participant.id)]
        #expect(try await data.careStore.fetch(CareTask.self, query: query).count > 1)
        #expect(try await data.studyStore.consentRecords(participantID: participant.id).count == 1)
        #expect(try data.mergeCareFile(at: care) == false, "nothing left to merge")
        // Read-only, the merged folder reads as one file.
        let (_, mergedCare) = try SQLiteStudyDatabase.readOnlyStores(path: folder.appendingPathComponent("study.sqlite").path, legacyCarePath: care.path)
        #expect(try await mergedCare.fetchOutcomes(query: OutcomeQuery()).count == outcomes)
    }

    /// A data folder from before run files lived in the database (`run-files/PARTICIPANT/RUN/NAME`): a server starting
    /// on it moves them in, each in the audit trail, and removes the folder; a file of a run that is gone goes too; a
    /// second start finds nothing; a folder whose run belongs to someone else is refused and nothing moves.
    @Test func runFilesOfAnOlderDataFolderMoveIntoTheDatabaseOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("run-files-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try SQLiteStudyDatabase.openForServer(dataFolder: folder, environment: .live, durability: .processCrash, auditAnchorInterval: .zero)
        let (participant, run) = try await enrolled(study: data.studyStore, care: data.careStore)
        let other = try await data.studyStore.enrol(invitationCode: nil, timeZone: zone, language: "en")
        let root = folder.appendingPathComponent("run-files", isDirectory: true)
        func put(_ bytes: Data, _ participantID: String, _ runID: UUID, _ name: String) throws {
            let runFolder = root.appendingPathComponent(participantID, isDirectory: true).appendingPathComponent(runID.uuidString, isDirectory: true)
            try FileManager.default.createDirectory(at: runFolder, withIntermediateDirectories: true)
            try bytes.write(to: runFolder.appendingPathComponent(name))
        }
        let photo = Data((0..<70_000).map { UInt8($0 % 251) })
        try put(photo, participant.id, run.id, "photo-1-0a1b2c3d.jpg")
        try put(Data("gone".utf8), participant.id, UUID(), "deleted-run.m4a")

        // Someone else's run under this participant's folder, or a folder that names no run: refused, naming it,
        // nothing moved, the folder kept.
        try put(Data("x".utf8), other.id, run.id, "stray.jpg")
        #expect(throws: SQLiteRunFilesMoveError.self) { try data.moveRunFilesIn(from: root) }
        #expect(try await data.studyStore.runFiles(participantID: participant.id).isEmpty)
        try FileManager.default.removeItem(at: root.appendingPathComponent(other.id, isDirectory: true))
        let notARun = root.appendingPathComponent(participant.id, isDirectory: true).appendingPathComponent("notes", isDirectory: true)
        try FileManager.default.createDirectory(at: notARun, withIntermediateDirectories: true)
        #expect(throws: SQLiteRunFilesMoveError.unexpected(path: notARun.path, reason: "a run's folder is named by the run's UUID")) {
            try data.moveRunFilesIn(from: root)
        }
        #expect(try await data.studyStore.runFiles(participantID: participant.id).isEmpty)
        try FileManager.default.removeItem(at: notARun)

        #expect(try data.moveRunFilesIn(from: root) == 1)
        #expect(!FileManager.default.fileExists(atPath: root.path))
        #expect(try await data.studyStore.runFiles(participantID: participant.id)
                == [StoredRunFile(runID: run.id, participantID: participant.id, name: "photo-1-0a1b2c3d.jpg", data: photo)])
        #expect(try data.moveRunFilesIn(from: root) == 0, "nothing left to move")
        let trail = try await data.auditEntries(participantID: participant.id, limit: 50)
        #expect(trail.contains { $0.entity == "runFile" && $0.action == "insert" && $0.entityID == run.id.uuidString.lowercased().replacingOccurrences(of: "-", with: "") + "/photo-1-0a1b2c3d.jpg" },
                "\(trail.map { ($0.entity, $0.action, $0.entityID) })")
        #expect(try await data.verifyAuditTrail() == nil)
        data.anchorAuditTrailNow()
    }

    @Test func aMergeCutOffBeforeTheRenameOnlyRenamesAndTwoSourcesAreRefused() async throws {
        let (folder, _, outcomes) = try await legacyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let care = folder.appendingPathComponent("care.sqlite"), merged = folder.appendingPathComponent("care.sqlite.merged")
        let data = try SQLiteStudyDatabase(path: folder.appendingPathComponent("study.sqlite").path)
        try data.mergeCareFile(at: care)
        // As if the process died after the merge committed and before the rename: only the rename is left, and the rows
        // are not copied twice.
        try FileManager.default.moveItem(at: merged, to: care)
        #expect(try data.mergeCareFile(at: care))
        #expect(FileManager.default.fileExists(atPath: merged.path) && !FileManager.default.fileExists(atPath: care.path))
        #expect(try await data.careStore.fetchOutcomes(query: OutcomeQuery()).count == outcomes)
        // A care.sqlite appearing again after the merge (an older StudyKit started on the folder) is refused, and neither
        // it nor the set-aside file is touched.
        try FileManager.default.copyItem(at: merged, to: care)
        let setAside = try Data(contentsOf: merged)
        #expect(throws: SQLiteStudyDatabaseMergeError.reappeared(path: care.path)) { try data.mergeCareFile(at: care) }
        #expect(try Data(contentsOf: merged) == setAside && FileManager.default.fileExists(atPath: care.path))
        try FileManager.default.removeItem(at: care)
        // A care file never merged, beside a database that has care rows of its own: refused, nothing changed.
        try FileManager.default.copyItem(at: merged, to: folder.appendingPathComponent("other-care.sqlite"))
        #expect(throws: SQLiteStudyDatabaseMergeError.self) { try data.mergeCareFile(at: folder.appendingPathComponent("other-care.sqlite")) }
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("other-care.sqlite").path))
        #expect(try await data.careStore.fetchOutcomes(query: OutcomeQuery()).count == outcomes)
        // A file that is not a database, and a database that is not a care store's (a copy of study.sqlite): refused,
        // naming the file, and left exactly as they were.
        let garbage = folder.appendingPathComponent("garbage.sqlite"), copy = folder.appendingPathComponent("copy.sqlite")
        try Data("not a database".utf8).write(to: garbage)
        try FileManager.default.copyItem(at: folder.appendingPathComponent("study.sqlite"), to: copy)
        for file in [garbage, copy] {
            let before = try Data(contentsOf: file)
            #expect {
                try data.mergeCareFile(at: file)
            } throws: { error in
                guard case .unreadable(let path, _)? = error as? SQLiteStudyDatabaseMergeError else { return false }
                return path == file.path
            }
            #expect(try Data(contentsOf: file) == before, "\(file.lastPathComponent) was changed")
        }
    }
}
