import CareStore
import Consent
import Foundation
import Research
import Study
import StudyWeb

/// Task runs over HTTP: a run's step as a page, a posted step form applied through the workflow, and the consent PDFs
/// a finished onboarding leaves to print. What is allowed and what is stored is the ``ParticipantWorkflow``'s.
extension StudyService {
    /// What a request about a run leads to.
    enum RunResponse: Sendable {
        /// A page to show, with its status (200, or 422 when the post had problems to correct); `isolated` for an
        /// active step's page, served cross-origin isolated so that its timers are precise.
        case page(status: Int, html: String, isolated: Bool)
        /// Go to this path (after a post, or when the run has ended).
        case redirect(String)
    }

    /// The participant's run still in progress for this task and occurrence, or a new one; returns its id.
    func startRun(taskID: String, occurrence: Int?, for participant: StudyParticipant) async throws -> UUID {
        try await workflow.startRun(taskID: taskID, occurrence: occurrence, for: participant)
    }

    /// The page context of a run's step pages.
    private func pageContext(runID: UUID, signedIn: SignedIn) -> PageContext {
        PageContext(strings: strings(language: signedIn.participant.language), csrfToken: signedIn.csrfToken,
                    formAction: "/runs/\(runID.uuidString.lowercased())", studyName: study.localized(signedIn.participant.language).name, themeTint: study.theme.tint,
                    allowsTypedSignature: true, assets: .linked(basePath: "/assets"),
                    languageNotice: languageNotice(signedIn.participant.language), offersReminderEmail: offersReminderEmail)
    }

    /// Whether a permissions step's reminder email address has a field: the server sends mail.
    var offersReminderEmail: Bool { configuration.reminders.mail != nil }

    /// The current step's page, or home when the run has ended.
    func runPage(_ runID: UUID, signedIn: SignedIn) async throws -> RunResponse {
        guard let session = try await workflow.run(runID, for: signedIn.participant).session else { return .redirect("/") }
        do {
            return .page(status: 200, html: try stepPages.render(session: session, context: pageContext(runID: runID, signedIn: signedIn)),
                         isolated: Self.isActive(session))
        } catch StepPageError.finished {
            return .redirect("/")
        }
    }

    /// The largest file the current step of the participant's run `runID` accepts, in bytes, or for an active step
    /// whose module records more than 1 MB of samples (a walk: ``StepSubmission/extraFormBytes(for:)``), twice that;
    /// 0 when it asks for neither (or there is no such run of theirs): how large a posted form may be beyond the usual limit.
    func largestUpload(runID: UUID, participant: StudyParticipant) async throws -> Int {
        guard let step = try await workflow.currentStep(of: runID, for: participant) else { return 0 }
        if case .active = step.kind { return StepSubmission.extraFormBytes(for: step) }
        return step.questions.reduce(0) { largest, question in
            guard case .file(let format) = question.format else { return largest }
            return max(largest, format.maximumBytes)
        }
    }

    /// Applies a posted step form (its CSRF token checked by ``SessionMiddleware``): all or nothing. A form with problems shows the step again (422) with them; an
    /// accepted one is saved before the answer goes back, then leads to the next step, or home when the run ends.
    func post(_ form: [String: [String]], files: [String: UploadedFile] = [:], to runID: UUID, signedIn: SignedIn) async throws -> RunResponse {
        let (submission, applied) = try await apply(form, files: files, to: runID, for: signedIn.participant)
        let context = pageContext(runID: runID, signedIn: signedIn)
        switch applied {
        case .refused(let session, let errors):
            return .page(status: 422, html: try stepPages.render(session: session, context: context, errors: errors, submitted: submission),
                         isolated: Self.isActive(session))
        case .saved:
            return .redirect(context.formAction)
        case .beingFinished, .finished(.discarded):
            // The first of two posts of the last step is finishing the run: the second goes where the first will.
            return .redirect("/")
        case .finished(.onboarding):
            return .redirect("/?notice=onboarded")
        case .finished(.survey):
            return .redirect("/?notice=done")
        }
    }

    /// Applies a posted step (a web form, or the REST API's fields in the same names) to the participant's run
    /// through the workflow, all or nothing; starts printing the consent PDFs when it completes the onboarding.
    /// Returns the submission as read, for a page that shows it again with its problems.
    ///
    /// A reminder email address the participant goes on with (a permissions step's `email` permission) is added first,
    /// as on the reminders page (``addReminderEmail(_:for:)``: checked, unconfirmed, its confirmation mailed); a refusal
    /// shows the step again with it and applies nothing. The run records only that an address was given.
    func apply(_ form: [String: [String]], files: [String: UploadedFile] = [:], to runID: UUID,
               for participant: StudyParticipant) async throws -> (StepSubmission, ParticipantWorkflow.StepApplication<[String: FieldProblem]>) {
        let submission: StepSubmission
        do { submission = try StepSubmission(form: form, files: files) } catch { throw StudyServerError.malformed("\(error)") }
        if let refused = try await addReminderEmails(of: submission, to: runID, for: participant) { return (submission, refused) }
        let offersReminderEmail = offersReminderEmail
        let applied = try await workflow.applyStep(to: runID, for: participant) { session -> [String: FieldProblem]? in
            let result: StepSubmissionResult
            do {
                result = try submission.apply(to: &session, allowsTypedSignature: true, offersReminderEmail: offersReminderEmail)
            } catch StepSubmissionError.staleStep {
                throw StudyRefusal.staleStep(runID)
            } catch StepSubmissionError.finished {
                throw StudyRefusal.runEnded(runID)
            } catch StepSubmissionError.refused(let failure) where failure.isServerFault {
                // A file that could not be stored or a score that could not be computed is the server's fault: logged
                // and shown as a 500 without its details (paths, OS errors), never as the participant's bad request.
                throw failure
            } catch {
                throw StudyServerError.malformed("\(error)")
            }
            return result.errors.isEmpty ? nil : result.errors
        }
        if case .finished(.onboarding) = applied { printConsentPDFs() }
        return (submission, applied)
    }

    /// Adds the reminder email addresses a post goes on with, before its step is applied (the mail cannot wait inside
    /// the run's transaction); nil when there are none or all were added, else the step to show again with the refusals.
    private func addReminderEmails(of submission: StepSubmission, to runID: UUID,
                                   for participant: StudyParticipant) async throws -> ParticipantWorkflow.StepApplication<[String: FieldProblem]>? {
        guard offersReminderEmail, case .next = submission.action,
              let step = try await workflow.currentStep(of: runID, for: participant) else { return nil }
        let addresses = submission.reminderEmailAddresses(on: step)
        guard !addresses.isEmpty else { return nil }
        if try await workflow.withdrawal.isWithdrawn(participant) { throw StudyRefusal.withdrawn }
        var problems: [String: FieldProblem] = [:]
        for (permission, address) in addresses {
            do throws(EmailRefusal) {
                try await addReminderEmail(address, for: participant)
            } catch {
                problems[permission] = error.problem
            }
        }
        guard !problems.isEmpty else { return nil }
        guard let session = try await workflow.run(runID, for: participant).session else { throw StudyRefusal.runEnded(runID) }
        return .refused(session, problems: problems)
    }

    /// Whether the run's current step is an active step.
    static func isActive(_ session: TaskSession) -> Bool {
        if case .active? = session.currentStep?.kind { return true }
        return false
    }

    /// Every consent record checked against the server's key, with a line for each participant whose record does not
    /// verify, cannot be read, or is missing though the onboarding was completed (``OnboardedWithoutConsent``): run at
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
            if let problem = try await OnboardedWithoutConsent.problem(of: participant, verified: verified, store: store, careStore: careStore) {
                lines.append("participant \(participant.id): \(problem)")
            }
        }
        return lines
    }

}
