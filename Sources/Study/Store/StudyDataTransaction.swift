import CareStore
import Consent
import Foundation

/// One transaction of a database that holds a study's rows and its care store's side by side: what a participant action
/// that changes both stores does in it, written once for every such database (SQLite's one file, PostgreSQL), with the
/// study store's and the care store's own rules.
///
/// ```swift
/// // Inside the database's write transaction, on its one connection:
/// let transaction = StudyDataTransaction(studyStore: studyStore, careStore: careStore, study: studyRows, care: careRows)
/// let (committed, careChange) = try await transaction.apply(prepared, at: now)
/// ```
///
/// The database runs it in one transaction and, once committed, counts the commit (``StorageBackedStudyStore/countCommit(of:)``)
/// and announces the care change (`StorageBackedCareStore.announce`).
public struct StudyDataTransaction<StudyRows: StudyStorage, CareRows: CareStorage> {
    /// The study store whose rules apply.
    public let studyStore: StorageBackedStudyStore<StudyRows>
    /// The care store whose rules apply.
    public let careStore: StorageBackedCareStore<CareRows>
    /// The study rows of the transaction.
    public let study: any StudyStorageWriter
    /// The care rows of the same transaction.
    public let care: any CareStorageWriter

    /// The two stores' rules over the two writers of one transaction.
    public init(studyStore: StorageBackedStudyStore<StudyRows>, careStore: StorageBackedCareStore<CareRows>,
                study: any StudyStorageWriter, care: any CareStorageWriter) {
        self.studyStore = studyStore
        self.careStore = careStore
        self.study = study
        self.care = care
    }

    /// Applies `change`: runs saved, consent records appended and outcomes added, each checked as the stores check their
    /// own writes, after checking that every part belongs to the change's participant. A withdrawal is decided here, in
    /// the transaction that stores it: refused when one is stored already, and what it deletes is what is stored now; its
    /// deletions come before its record. Throws, for the caller to roll everything back, when anything is refused.
    public func apply(_ change: PreparedParticipantChange, at now: Date) async throws -> (CommittedParticipantChange, CareChange) {
        let participantID = change.participantID
        var careChange = CareChange()
        var deleted = change.deletedRunIDs
        if let withdrawal = change.withdrawal {
            if try await study.hasWithdrawalRecord(participantID: participantID) { throw StudyRefusal.withdrawn }
            // A participant who left is reached no more: their addresses, subscriptions and feed go with the withdrawal.
            try await study.deleteReminderData(participantID: participantID, deliveries: withdrawal.deletesData)
            if withdrawal.deletesData {
                deleted += try await study.runSummaries(participantID: participantID, state: nil)
                    .filter { !withdrawal.keptRunTaskIDs.contains($0.taskID) }
                    .sorted { ($0.createdAt ?? .distantPast, $0.id.uuidString) < ($1.createdAt ?? .distantPast, $1.id.uuidString) }
                    .map(\.id)
                careChange.outcomeTaskIDs = try await care.eraseOutcomes(ofTaskIDs: withdrawal.deletedOutcomeTaskIDs)
            }
        }
        for run in deleted {
            // A run that is not the participant's (or not stored) rolls the whole change back.
            guard try await study.deleteRun(id: run, participantID: participantID) else { throw StudyStoreError.noRunToDelete(run: run) }
        }
        try await requireCareTasks(of: change.outcomes, belongTo: participantID)
        var savedRuns: [TaskRun] = []
        for run in change.runs { savedRuns.append(try await studyStore.save(run, at: now, in: study)) }
        var added: [Outcome] = [], kept: [Outcome] = []
        if !change.removedOutcomes.isEmpty {
            let (removed, removal) = try await careStore.deleteOutcomes(change.removedOutcomes, in: care)
            // Checked on the outcomes as stored: an outcome of someone else's task rolls the whole change back.
            try await requireCareTasks(of: removed, belongTo: participantID)
            careChange.outcomeTaskIDs.formUnion(removal.outcomeTaskIDs)
        }
        for outcome in change.outcomes {
            do {
                // One at a time, so that an event done already (two tabs) keeps its outcome and refuses only this one: the
                // checks run before the outcome is written, so a refused outcome leaves nothing behind.
                let (stored, addition) = try await careStore.addOutcomes([outcome], in: care)
                added += stored
                careChange.outcomeTaskIDs.formUnion(addition.outcomeTaskIDs)
            } catch CareStoreError.outcomeExists where change.keepsExistingOutcomes {
                kept.append(outcome)
            }
        }
        // Records last: a withdrawal's record closes the participant's data only once its deletions are done.
        var storedRecords: [StoredConsentRecord] = []
        for (sealed, json) in change.consentRecords {
            storedRecords.append(try await studyStore.appendConsentRecord(sealed, json: json, at: now, in: study))
        }
        let committed = CommittedParticipantChange(runs: savedRuns, consentRecords: storedRecords, outcomes: added,
                                                   outcomesAlreadyRecorded: kept, deletedRunIDs: deleted)
        return (committed, careChange)
    }

    /// Enrols participant `id` with the invitation whose code has SHA-256 `invitationCodeSHA256` (nil: open enrolment),
    /// then adds their care plan as `carePlan` makes it: the patient, the plan for it, its tasks and contacts, each added
    /// as the care store adds them.
    public func enrol(id: String, invitationCodeSHA256: String?, timeZone: TimeZone, language: String, at now: Date,
                      carePlan: (StudyParticipant) throws -> EnrolmentPlan) async throws -> (StudyParticipant, CareChange) {
        let participant = try await studyStore.enrol(id: id, invitationCodeSHA256: invitationCodeSHA256, timeZone: timeZone, language: language,
                                                     at: now, in: study)
        var plan = try carePlan(participant)
        var change = CareChange()
        func add<Entity: VersionedEntity>(_ entities: [Entity]) async throws -> [Entity] {
            let (added, addition) = try await careStore.add(entities, in: care)
            change.entities.merge(addition.entities) { $0.union($1) }
            return added
        }
        let patient = try await add([plan.patient])[0]
        plan.carePlan.patientUUID = patient.version.uuid
        let stored = try await add([plan.carePlan])[0]
        var tasks = plan.allTasks
        for index in tasks.indices { tasks[index].carePlanUUID = stored.version.uuid }
        _ = try await add(tasks)
        for index in plan.contacts.indices { plan.contacts[index].carePlanUUID = stored.version.uuid }
        _ = try await add(plan.contacts)
        return (participant, change)
    }

    /// Refuses outcomes on a task version that is not one of the participant's care tasks.
    private func requireCareTasks(of outcomes: [Outcome], belongTo participantID: String) async throws {
        let taskUUIDs = Set(outcomes.map(\.taskUUID))
        guard !taskUUIDs.isEmpty else { return }
        let versions = Dictionary(try await care.versions(uuids: taskUUIDs).map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
        for taskUUID in taskUUIDs {
            guard let version = versions[taskUUID], version.kind == .task,
                  StudyCareIdentifiers.studyTaskID(careTaskID: version.id, participant: participantID) != nil else {
                throw CareStoreError.unknownTaskVersion(taskUUID)
            }
        }
    }
}

/// A ``ParticipantChange`` checked and encoded before its transaction, so that the writer, which serializes every write,
/// spends no time on JSON.
public struct PreparedParticipantChange: Sendable {
    /// Whose change it is.
    public let participantID: String
    /// The runs to save, encoded.
    public let runs: [EncodedTaskRun]
    /// The consent records to append, each with its JSON.
    public let consentRecords: [(SealedConsentRecord, Data)]
    /// The outcomes to add.
    public let outcomes: [Outcome]
    /// The outcomes to delete.
    public let removedOutcomes: [Outcome]
    /// The runs to delete.
    public let deletedRunIDs: [UUID]
    /// Whether an outcome found on its event already is kept (and this one refused quietly).
    public let keepsExistingOutcomes: Bool
    /// The withdrawal the change records, if any.
    public let withdrawal: ParticipantChange.Withdrawal?

    /// `change`, after checking that each run and record is the participant's, with its runs and records encoded.
    public init(_ change: ParticipantChange) throws {
        for run in change.runs where run.participantID != change.participantID {
            throw StudyStoreError.runOfAnotherParticipant(run: run.id)
        }
        for sealed in change.consentRecords where sealed.record.participantIdentifier != change.participantID {
            throw StudyStoreError.unknownParticipant(sealed.record.participantIdentifier)
        }
        participantID = change.participantID
        runs = try change.runs.map(EncodedTaskRun.init)
        consentRecords = try change.consentRecords.map { ($0, try $0.jsonData()) }
        outcomes = change.outcomes
        removedOutcomes = change.removedOutcomes
        deletedRunIDs = change.deletedRunIDs
        keepsExistingOutcomes = change.keepsExistingOutcomes
        withdrawal = change.withdrawal
    }
}
