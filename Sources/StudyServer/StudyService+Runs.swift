import CareStore
import Consent
import Foundation
import Research
import Study
import StudyWeb
import Synchronization

/// Task runs: starting or resuming a survey or the onboarding, showing the current step, and applying a posted
/// step form; a finished run leaves its outcome (and, for onboarding, the sealed consent record).
extension StudyService {
    /// What a request about a run leads to.
    enum RunResponse: Sendable {
        /// A page to show, with its status (200, or 422 when the post had problems to correct).
        case page(status: Int, html: String)
        /// Go to this path (after a post, or when the run has ended).
        case redirect(String)
    }

    /// The consent rendering context for a participant: their language, zone and the study's consent strings.
    func consentContext(for participant: StudyParticipant) -> ConsentContext {
        ConsentContext(strings: study.strings.consent, language: participant.language, locale: Locale(identifier: participant.language),
                       timeZone: participant.timeZone, calendar: calendar(for: participant))
    }

    /// The onboarding task in the participant's language, its dates in their zone.
    func onboardingTask(for participant: StudyParticipant) throws -> ConsentTask {
        do {
            return try study.onboardingTask(language: participant.language, context: consentContext(for: participant))
        } catch {
            throw StudyServerError.unprocessable("the onboarding task cannot be built: \(error)")
        }
    }

    /// The Research task a run follows.
    func researchTask(_ taskID: String, for participant: StudyParticipant) throws -> ResearchTask {
        if taskID == Self.onboardingTaskID { return try onboardingTask(for: participant).task }
        guard let survey = study.survey(taskID: taskID) else { throw StudyServerError.notFound("The study has no survey '\(taskID)'.") }
        return survey
    }

    /// The participant's run still in progress for this task and occurrence, or a new one; returns its id.
    ///
    /// The onboarding (no occurrence) only until it is done; any other task (with the occurrence of one of its events)
    /// only after onboarding, and only once its event has started: the server keeps the gate and the schedule, not
    /// just the home page.
    func startRun(taskID: String, occurrence: Int?, for participant: StudyParticipant) async throws -> UUID {
        let task = try researchTask(taskID, for: participant)
        let onboarded = try await isOnboarded(participant)
        if taskID == Self.onboardingTaskID {
            guard occurrence == nil else { throw StudyServerError.notFound("The onboarding is started from its own card.") }
            if onboarded { throw StudyServerError.conflict("You have completed the onboarding already.") }
        } else {
            guard onboarded else { throw StudyServerError.forbidden("Complete the onboarding first: it is the only task until then.") }
            guard let occurrence else { throw StudyServerError.notFound("There is no such task event.") }
            let event = try await event(taskID: taskID, occurrence: occurrence, for: participant)
            if event.outcome != nil { throw StudyServerError.conflict("This task is already done.") }
            guard event.scheduleEvent.start <= environment.now() else { throw StudyServerError.conflict("This task is not due yet.") }
        }
        // Only the open runs, as summaries: not every finished run of the task with its result.
        let open = try await store.openRunSummaries(participantID: participant.id)
            .filter { $0.taskID == taskID && $0.occurrence == occurrence }
        if let resumable = open.max(by: { ($0.updatedAt ?? .distantPast) < ($1.updatedAt ?? .distantPast) }) { return resumable.id }
        let session = try TaskSession(task: task, environment: sessionEnvironment(for: participant),
                                      outputDirectory: runFilesFolder(for: participant), device: "web")
        let run = TaskRun(id: session.taskRunUUID, participantID: participant.id, taskID: taskID, occurrence: occurrence,
                          state: .inProgress, restorationData: session.restorationData)
        return try await store.saveRun(run).id
    }

    /// The event of one of the participant's care tasks; not found when the task or the occurrence is not theirs.
    func event(taskID: String, occurrence: Int, for participant: StudyParticipant) async throws -> CareEvent {
        var query = CareQuery()
        query.ids = [StudyCareIdentifiers.taskID(participant: participant.id, task: taskID)]
        query.carePlanIDs = [StudyCareIdentifiers.carePlanID(participant: participant.id)]
        guard let task = try await careStore.fetch(CareTask.self, query: query).first,
              let scheduled = task.schedule.event(occurrence: occurrence) else {
            throw StudyServerError.notFound("There is no such task event.")
        }
        let window = DateInterval(start: scheduled.start, end: max(scheduled.end, scheduled.start.addingTimeInterval(1)))
        var eventQuery = CareQuery(for: window)
        eventQuery.ids = query.ids
        eventQuery.carePlanIDs = query.carePlanIDs
        guard let found = try await careStore.events(taskQuery: eventQuery, window: window)
            .first(where: { $0.scheduleEvent.occurrence == occurrence }) else {
            throw StudyServerError.notFound("There is no such task event.")
        }
        return found
    }

    /// A run of this participant, restored into its session; not found for anyone else's run.
    private func session(of runID: UUID, for participant: StudyParticipant) async throws -> (TaskRun, TaskSession?) {
        guard let run = try await store.run(id: runID, participantID: participant.id) else {
            throw StudyServerError.notFound("There is no such task run.")
        }
        return (run, try restoredSession(of: run, for: participant))
    }

    /// The session of a run in progress, restored; nil for a run that has ended.
    private func restoredSession(of run: TaskRun, for participant: StudyParticipant) throws -> TaskSession? {
        guard run.state == .inProgress, let data = run.restorationData else { return nil }
        let task = try researchTask(run.taskID, for: participant)
        do {
            return try TaskSession(task: task, restoring: data, environment: sessionEnvironment(for: participant),
                                   outputDirectory: runFilesFolder(for: participant))
        } catch {
            throw StudyServerError.conflict("This run cannot be resumed: \(error)")
        }
    }

    /// Where the files attached in a participant's runs are kept: `DATA/run-files/PARTICIPANT/RUN-UUID/`.
    func runFilesFolder(for participant: StudyParticipant) -> URL {
        StudyDataLayout.runFilesFolder(dataFolder: configuration.dataFolder, participantID: participant.id)
    }

    /// What applying a posted form to a run came to.
    private enum PostedStep: Sendable {
        /// The form had problems: nothing was saved; the step is shown again with them.
        case refused(TaskSession, errors: [String: FieldProblem])
        /// The run moved on and was saved.
        case saved
        /// The run has ended with this reason; it is not saved yet, and this post has claimed it to finish it.
        case finished(TaskRun, TaskSession, FinishReason)
        /// Another post is finishing the run: this one changed nothing.
        case beingFinished
    }

    /// The page context of a run's step pages.
    private func pageContext(runID: UUID, signedIn: SignedIn) -> PageContext {
        PageContext(strings: strings(language: signedIn.participant.language), csrfToken: signedIn.csrfToken,
                    formAction: "/runs/\(runID.uuidString.lowercased())", studyName: study.name, themeTint: study.theme.tint,
                    allowsTypedSignature: true, assets: .linked(basePath: "/assets"))
    }

    /// The current step's page, or home when the run has ended.
    func runPage(_ runID: UUID, signedIn: SignedIn) async throws -> RunResponse {
        let (_, restored) = try await session(of: runID, for: signedIn.participant)
        guard let session = restored else { return .redirect("/") }
        do {
            return .page(status: 200, html: try stepPages.render(session: session, context: pageContext(runID: runID, signedIn: signedIn)))
        } catch StepPageError.finished {
            return .redirect("/")
        }
    }

    /// The largest file the current step of the participant's run `runID` accepts, in bytes; 0 when it asks for no
    /// file (or there is no such run of theirs): how large a posted form may be beyond the usual limit.
    func largestUpload(runID: UUID, participant: StudyParticipant) async throws -> Int {
        guard let run = try await store.run(id: runID, participantID: participant.id),
              let stepID = run.restorationData?.path.last?.stepIdentifier,
              let step = try researchTask(run.taskID, for: participant).step(withIdentifier: stepID) else { return 0 }
        return step.questions.reduce(0) { largest, question in
            guard case .file(let format) = question.format else { return largest }
            return max(largest, format.maximumBytes)
        }
    }

    /// Applies a posted step form: all or nothing. A form with problems shows the step again (422) with them; an
    /// accepted one is saved before the answer goes back, then leads to the next step, or home when the run ends.
    func post(_ form: [String: [String]], files: [String: UploadedFile] = [:], to runID: UUID, signedIn: SignedIn) async throws -> RunResponse {
        let submission: StepSubmission
        do { submission = try StepSubmission(form: form, files: files) } catch { throw StudyServerError.badRequest("The form is not a step form: \(error)") }
        try signedIn.requireCSRFToken(in: form)
        let participant = signedIn.participant
        // A post that ends the run claims it inside the transaction (the finishing is done after it): a second post of
        // the run meanwhile (a double tap, another tab) finds the claim before it trims the run's files or applies.
        let claimed = Mutex(false)
        // The run is read, the form applied and the run saved in one transaction of the store: one trip instead of a
        // read and a write, and a second post for the same step (another tab) finds the run already moved on (409).
        let outcome: (saved: TaskRun?, value: PostedStep)?
        do {
            outcome = try await store.updateRun(id: runID, participantID: participant.id) { run -> (save: TaskRun?, value: PostedStep) in
                guard !self.finishingRuns.withLock({ $0.contains(run.id) }) else { return (nil, .beingFinished) }
                return try self.apply(submission, to: run, participant: participant, claimed: claimed)
            }
        } catch {
            if claimed.withLock({ $0 }) { finishingRuns.withLock { _ = $0.remove(runID) } }
            throw error
        }
        guard let applied = outcome else { throw StudyServerError.notFound("There is no such task run.") }
        let context = pageContext(runID: runID, signedIn: signedIn)
        switch applied.value {
        case .refused(let session, let errors):
            let html = try stepPages.render(session: session, context: context, errors: errors, submitted: submission)
            return .page(status: 422, html: html)
        case .saved:
            return .redirect(context.formAction)
        case .beingFinished:
            // The first of two posts of the last step is finishing the run: the second goes where the first will.
            return .redirect("/")
        case .finished(let run, let session, let reason):
            defer { finishingRuns.withLock { _ = $0.remove(run.id) } }
            let response = try await finish(run, session: session, reason: reason, participant: participant)
            // The run has ended and nothing writes to its folder any more: keep the files its result refers to.
            session.removeUnreferencedFiles()
            return response
        }
    }

    /// Applies a step form to the stored `run`, inside the store's transaction: the session restored, the run's
    /// folder trimmed, the form applied; a post that ends the run claims it in ``finishingRuns`` (and says so in
    /// `claimed`).
    private func apply(_ submission: StepSubmission, to run: TaskRun, participant: StudyParticipant, claimed: borrowing Mutex<Bool>) throws
        -> (save: TaskRun?, value: PostedStep) {
        guard var session = try self.restoredSession(of: run, for: participant) else {
            throw StudyServerError.conflict("This task run has already ended.")
        }
        // Inside the transaction no other post of this run writes files: the folder is trimmed to what the run as
        // saved refers to (files let go by earlier posts, and those of refused ones), before this post writes.
        session.removeUnreferencedFiles()
        let result: StepSubmissionResult
        do {
            result = try submission.apply(to: &session, allowsTypedSignature: true)
        } catch {
            switch error {
            case .staleStep, .finished: throw StudyServerError.conflict("\(error)")
            default: throw StudyServerError.badRequest("\(error)")
            }
        }
        guard result.errors.isEmpty else { return (nil, .refused(session, errors: result.errors)) }
        guard let reason = session.finishReason else {
            var saved = run
            saved.restorationData = session.restorationData
            return (saved, .saved)
        }
        finishingRuns.withLock { _ = $0.insert(run.id) }
        claimed.withLock { $0 = true }
        return (nil, .finished(run, session, reason))
    }

    /// Ends a run: a completed one keeps its result and leaves its outcome (onboarding: the sealed consent and the
    /// gate's outcome, and the PDF queued); any other ending discards it.
    private func finish(_ run: TaskRun, session: TaskSession, reason: FinishReason, participant: StudyParticipant) async throws -> RunResponse {
        var ended = run
        ended.restorationData = nil
        guard reason == .completed else {
            ended.state = .discarded
            ended.result = session.result
            _ = try await store.saveRun(ended)
            return .redirect("/")
        }
        let result = session.result
        if run.taskID == Self.onboardingTaskID {
            let consentTask = try onboardingTask(for: participant)
            if !consentTask.consentSteps.isEmpty {
                let builder = ConsentRecordBuilder(studyIdentifier: study.identifier, studyName: study.name,
                                                   context: consentContext(for: participant))
                let recorder = ConsentRecorder(signingKey: consentKey,
                                               environment: ConsentRecordEnvironment(now: environment.now, makeUUID: environment.makeUUID))
                let sealed: SealedConsentRecord
                do {
                    sealed = try builder.seal(run: result, finishReason: reason, of: consentTask, participantIdentifier: participant.id,
                                              signerTimeZone: participant.timeZone, recorder: recorder)
                } catch let error as ConsentRecordBuildError {
                    throw StudyServerError.unprocessable("The consent cannot be recorded: \(error).")
                }
                _ = try await store.appendConsentRecord(sealed)
            }
            ended.state = .completed
            ended.result = result
            _ = try await store.saveRun(ended)
            _ = try await OnboardingGate(careStore: careStore, environment: environment)
                .recordCompletion(participantID: participant.id, timeZone: participant.timeZone)
            printConsentPDFs()
            return .redirect("/?notice=onboarded")
        }
        ended.state = .completed
        ended.result = result
        _ = try await store.saveRun(ended)
        if let occurrence = run.occurrence {
            do {
                _ = try await SurveyOutcomeMapper(study: study, careStore: careStore, environment: environment)
                    .record(result: result, taskID: run.taskID, occurrence: occurrence, participantID: participant.id,
                            timeZone: participant.timeZone)
            } catch CareStoreError.outcomeExists {
                // Done twice (two tabs): the first outcome stands; this run's result is kept all the same.
            }
        }
        return .redirect("/?notice=done")
    }

    /// Marks a care task's event done without a survey (a checklist card).
    func checkOff(taskID: String, occurrence: Int, form: [String: [String]], signedIn: SignedIn) async throws {
        try signedIn.requireCSRFToken(in: form)
        guard try await isOnboarded(signedIn.participant) else {
            throw StudyServerError.forbidden("Complete the onboarding first: it is the only task until then.")
        }
        guard study.task(id: taskID) != nil, study.survey(taskID: taskID) == nil else {
            throw StudyServerError.notFound("There is no checklist task '\(taskID)'.")
        }
        let event = try await event(taskID: taskID, occurrence: occurrence, for: signedIn.participant)
        guard event.outcome == nil else { return }
        guard event.scheduleEvent.start <= environment.now() else {
            throw StudyServerError.conflict("This task is not due yet.")
        }
        _ = try await SurveyOutcomeMapper(study: study, careStore: careStore, environment: environment)
            .recordCompletion(taskID: taskID, occurrence: occurrence, participantID: signedIn.participant.id,
                              timeZone: signedIn.participant.timeZone)
    }

    /// Prints waiting consent PDFs in the background.
    /// Every consent record checked against the server's key, with a line for each participant whose record does not
    /// verify, cannot be read, or is missing though the onboarding was completed (one deleted from the database): run at
    /// every start, since the server refuses to start only when the append-only triggers themselves are gone.
    func auditConsentRecords() async throws -> [String] {
        var lines: [String] = []
        for participant in try await store.participants() {
            let records: [StoredConsentRecord]
            do {
                records = try await store.consentRecords(participantID: participant.id)
            } catch {
                lines.append("participant \(participant.id): the consent records cannot be read: \(error)")
                continue
            }
            let (verified, problems) = StudyExportReader.verified(records, key: consentKey.publicKey)
            lines += problems.map { "participant \(participant.id): \($0)" }
            if !verified.contains(where: { $0.sealed.record.kind == .consent }), try await isOnboarded(participant) {
                lines.append("participant \(participant.id): completed the onboarding but has no valid consent record: one was removed "
                    + "from the database, failed verification, or was never stored")
            }
        }
        return lines
    }

    func printConsentPDFs() {
        let printer = pdfPrinter, store = store, strings = study.strings.consent
        Task.detached { await printer.printPending(from: store, strings: strings) }
    }
}
