import CareStore
import Consent
import Foundation
import Research

/// Reads everything an export writes from a study's stores and data folder into a ``StudyExportSnapshot``. It only
/// reads: open the stores read-only (`SQLiteStudyStore.readOnly(path:)`, `SQLiteCareStore.readOnly(path:)`) and an
/// export can run beside the server.
///
/// ```swift
/// let snapshot = try await StudyExportReader(study: study, store: store, careStore: careStore, dataFolder: data,
///                                            consentPublicKey: key.publicKey).snapshot()
/// ```
public struct StudyExportReader: Sendable {
    /// The study the data belongs to.
    public var study: StudyDefinition
    /// Participants, consent records and task runs.
    public var store: any StudyStore
    /// Care plans, tasks and outcomes.
    public var careStore: any CareStore
    /// The data folder, for the consent PDFs kept as files in it.
    public var dataFolder: URL
    /// The clock that stamps the snapshot.
    public var now: @Sendable () -> Date
    /// The study's consent signing key, which every record must be sealed by; nil checks each record only against the
    /// key it carries (and says so in every participant's problems).
    public var consentPublicKey: ConsentPublicKey?

    /// Creates a reader.
    public init(study: StudyDefinition, store: any StudyStore, careStore: any CareStore, dataFolder: URL,
                consentPublicKey: ConsentPublicKey? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.study = study
        self.store = store
        self.careStore = careStore
        self.dataFolder = dataFolder
        self.consentPublicKey = consentPublicKey
        self.now = now
    }

    /// Every participant, by enrolment time: what an export that reads one participant at a time goes through.
    public func participants() async throws -> [StudyParticipant] {
        try await store.participants()
    }

    /// Every participant's data. Store errors are thrown; a consent PDF that cannot be read becomes a problem of its
    /// participant (the record is still exported, with its HTML).
    public func snapshot() async throws -> StudyExportSnapshot {
        let takenAt = now()
        var participants: [ParticipantExportData] = []
        for participant in try await self.participants() {
            participants.append(try await data(of: participant))
        }
        return StudyExportSnapshot(study: study, participants: participants, takenAt: takenAt)
    }

    /// One participant's data. Each consent record is verified as it is read: one that does not verify (edited in the
    /// database, or sealed by another key) is left out and named in ``ParticipantExportData/problems``, and so is a
    /// participant who completed the onboarding but has no consent record (one removed from the database).
    public func data(of participant: StudyParticipant) async throws -> ParticipantExportData {
        var data = ParticipantExportData(participant: participant)
        do {
            let (verified, problems) = Self.verified(try await store.consentRecords(participantID: participant.id), key: consentPublicKey)
            data.consentRecords = verified
            data.problems += problems
        } catch {
            data.problems.append("the consent records cannot be read, so none is exported: \(error)")
        }
        for stored in data.consentRecords {
            switch pdf(of: stored) {
            case .success(let bytes): data.consentPDFs[stored.id] = bytes
            case .failure(let problem): data.problems.append(problem.message)
            case nil: break
            }
        }
        var planQuery = CareQuery()
        planQuery.ids = [StudyCareIdentifiers.carePlanID(participant: participant.id)]
        data.carePlan = try await careStore.fetch(CarePlan.self, query: planQuery).first

        let studyTaskIDs = [StudyTaskDefinition.onboardingID] + study.tasks.map(\.id)
        var taskQuery = CareQuery()
        taskQuery.carePlanIDs = [StudyCareIdentifiers.carePlanID(participant: participant.id)]
        let current = try await careStore.fetch(CareTask.self, query: taskQuery)
        let order = Dictionary(studyTaskIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        data.tasks = current.sorted { left, right in
            let l = data.studyTaskID(of: left).flatMap { order[$0] } ?? Int.max
            let r = data.studyTaskID(of: right).flatMap { order[$0] } ?? Int.max
            return l != r ? l < r : left.id < right.id
        }
        var careTaskIDs = Set(current.map(\.id))
        careTaskIDs.formUnion(studyTaskIDs.map { StudyCareIdentifiers.taskID(participant: participant.id, task: $0) })
        for id in careTaskIDs.sorted() {
            data.taskVersions += try await careStore.versions(of: CareTask.self, id: id)
        }
        var outcomeQuery = OutcomeQuery()
        outcomeQuery.taskIDs = careTaskIDs
        data.outcomes = try await careStore.fetchOutcomes(query: outcomeQuery)
        data.runs = try await store.runs(participantID: participant.id, taskID: nil)
        data.reminderDeliveries = try await store.reminderDeliveries(participantID: participant.id)
        for file in try await store.runFiles(participantID: participant.id) {
            data.runFiles[file.runID, default: [:]][file.name] = file.data
        }
        let onboardingOutcome = data.outcomes.first { outcome in
            data.taskVersion(of: outcome).flatMap(data.studyTaskID(of:)) == StudyTaskDefinition.onboardingID
        }
        if let problem = OnboardedWithoutConsent.problem(verified: data.consentRecords, onboardingOutcome: onboardingOutcome, runs: data.runs,
                                                         timeZone: participant.timeZone) {
            data.problems.append(problem)
        }
        return data
    }

    /// The records that verify, and a sentence for each that does not (with the study's key, or, without it, only
    /// against the key each carries). A withdrawal is checked against the record it withdraws when that is among them.
    /// The export and the server's check at start both use it.
    public static func verified(_ records: [StoredConsentRecord], key: ConsentPublicKey?) -> ([StoredConsentRecord], [String]) {
        let verifier = ConsentRecordVerifier(expectedPublicKey: key)
        var kept: [StoredConsentRecord] = [], problems: [String] = []
        if key == nil, !records.isEmpty {
            problems.append("no consent signing key was found, so consent records are checked only against the keys they carry")
        }
        for stored in records {
            let original = stored.linkedOriginal(among: records)
            let mismatches = verifier.mismatches(in: stored.sealed, original: original)
            if mismatches.isEmpty {
                kept.append(stored)
            } else {
                problems.append("consent record \(stored.id.uuidString.lowercased()) does not verify, so it is left out: "
                    + mismatches.map(\.description).joined(separator: "; "))
            }
        }
        return (kept, problems)
    }

    /// A problem reading a PDF, in a sentence.
    private struct PDFProblem: Error { let message: String }

    /// The PDF bytes of a record: nil when not printed (pending or failed; the exporter says so), a problem when the
    /// store names a file that cannot be read.
    private func pdf(of stored: StoredConsentRecord) -> Result<Data, PDFProblem>? {
        let id = stored.id.uuidString.lowercased()
        switch stored.pdf {
        case .stored(let bytes):
            return .success(bytes)
        case .file(let relativePath):
            guard ConsentPDFState.isSafeRelativePath(relativePath) else {
                return .failure(PDFProblem(message: "the PDF of consent record \(id) has an unsafe path '\(relativePath)'; it is not read"))
            }
            let url = dataFolder.appendingPathComponent(relativePath)
            guard let bytes = FileManager.default.contents(atPath: url.path) else {
                return .failure(PDFProblem(message: "the PDF of consent record \(id) is missing or unreadable at \(url.path)"))
            }
            return .success(bytes)
        case .pending, .failed:
            return nil
        }
    }
}
