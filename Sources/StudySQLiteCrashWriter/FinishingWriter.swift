import CareStore
import Consent
import Foundation
import StudyKitEnvironment
import Research
import Study
import StudyFHIR
import StudySQLite
import Synchronization

/// The `--finishing` mode: for one participant after another, enrols them in the study (with their care plan, in one
/// transaction), starts an onboarding run and a
/// survey run, then finishes each the way ``ParticipantWorkflow`` does, as one ``ParticipantChange`` each: the onboarding
/// (the run completed, a sealed consent record, the gate's outcome), then the survey (the run completed, its outcome).
/// After each commit returns it prints `onboarded PARTICIPANT` or `surveyed PARTICIPANT`.
///
/// With `--crash-in-commit N`, the N-th commit (from 1) kills the process from inside its transaction: the database's
/// UUID source, asked for the outcome's UUID after the run and the record are written, sends SIGKILL to the process.
enum FinishingWriter {
    /// Set while a commit runs, so that the UUID source knows it is inside one.
    static let commitsStarted = Atomic<Int>(0)
    static let inCommit = Atomic<Bool>(false)

    static func run(path: String, studyFolder: URL, crashInCommit: Int?, durability: SQLiteStudyStore.Durability) async throws {
        let environment = StudyKitEnvironment(now: { Date() }, makeUUID: {
            if let crashInCommit, inCommit.load(ordering: .acquiring), commitsStarted.load(ordering: .acquiring) == crashInCommit {
                kill(getpid(), SIGKILL)
            }
            return UUID()
        })
        let database = try SQLiteStudyDatabase(path: path, environment: environment, durability: durability)
        let study = try StudyLoader.load(folder: studyFolder, surveyFormats: [FHIRSurveyFormat()])
        let key = ConsentSigningKey.generate()
        let zone = TimeZone(identifier: "Asia/Tokyo") ?? .gmt
        let task = try TaskValidator.load(Data(#"""
            {"identifier": "finish", "steps": [{"type": "question", "identifier": "level", "answerFormat": {"type": "scale", "minimum": 0, "maximum": 10}}]}
            """#.utf8))
        while true {
            let enrolment = StudyEnrolment(study: study, environment: .live)
            let participant = try await database.enrol(invitationCode: nil, timeZone: zone, language: "en") { participant in
                try enrolment.plan(participantID: participant.id, enrolledAt: participant.enrolledAt, timeZone: zone)
            }
            let onboarding = try await startedRun(task: task, taskID: StudyTaskDefinition.onboardingID, occurrence: nil, participant: participant,
                                                  in: database)
            let survey = try await startedRun(task: task, taskID: "pain", occurrence: 0, participant: participant, in: database)

            var change = ParticipantChange(participantID: participant.id)
            change.runs = [onboarding]
            change.consentRecords = [try ConsentRecorder(signingKey: key).sealConsent(
                participantIdentifier: participant.id, studyIdentifier: study.identifier, studyName: study.name, documentIdentifier: "consent",
                documentVersion: "1", language: "en", html: "<p>I agree.</p>", signatures: [], answers: [:])]
            change.outcomes = [try await OnboardingGate(careStore: database.careStore, environment: .live)
                .completionOutcome(participantID: participant.id, timeZone: zone)]
            try await commit(change, in: database)
            say("onboarded \(participant.id)")

            change = ParticipantChange(participantID: participant.id)
            change.runs = [survey]
            let pain = try await SurveyOutcomeMapper.careTask(participantID: participant.id, taskID: "pain", in: database.careStore)
            change.outcomes = [Outcome(taskUUID: pain.version.uuid, occurrenceIndex: 0, values: [OutcomeValue(.integer(4), kind: "painLevel")],
                                       uuid: UUID(), timeZone: zone, source: study.identifier)]
            try await commit(change, in: database)
            say("surveyed \(participant.id)")
        }
    }

    /// A run of `task` saved in progress, then returned completed (not yet saved).
    private static func startedRun(task: ResearchTask, taskID: String, occurrence: Int?, participant: StudyParticipant,
                                   in database: SQLiteStudyDatabase) async throws -> TaskRun {
        var session = try TaskSession(task: task)
        try session.setAnswer(.number(4))
        var run = TaskRun(id: session.taskRunUUID, participantID: participant.id, taskID: taskID, occurrence: occurrence, state: .inProgress,
                          restorationData: session.restorationData)
        try await database.studyStore.saveRun(run)
        try session.goForward()
        run.state = .completed
        run.restorationData = nil
        run.result = session.result
        return run
    }

    private static func commit(_ change: ParticipantChange, in database: SQLiteStudyDatabase) async throws {
        commitsStarted.add(1, ordering: .releasing)
        inCommit.store(true, ordering: .releasing)
        defer { inCommit.store(false, ordering: .releasing) }
        _ = try await database.commit(change)
    }
}
