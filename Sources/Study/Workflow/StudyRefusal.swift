import Foundation

/// Why the study refused what a participant asked for. Nothing stored is changed by a refused action.
///
/// A value, not a sentence: the server shows each one as a page in the participant's language, a native app as its
/// own screen. ``description`` is an English line for logs and tests. Each refusal has a ``kind``, from which a page's
/// or an API answer's status is derived, and a stable ``code``, which the API's JSON answers carry.
public enum StudyRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The study enrols by invitation only, and no invitation code was given.
    case invitationRequired
    /// The invitation code cannot enrol anyone: unknown, used already, or expired.
    case invitationUnusable
    /// A language the study does not offer.
    case notAStudyLanguage(String)
    /// Until the onboarding is completed it is the only task.
    case onboardingRequired
    /// The onboarding was completed already; it is not started again.
    case onboardingCompleted
    /// The onboarding is started from its own card, never as an event of a task.
    case onboardingHasNoEvents
    /// The study has no task with this id, or none of the kind asked for (a survey, a task ticked off from its card).
    case noSuchTask(String)
    /// The participant's care plan has no such event of the task.
    case noSuchEvent(task: String, occurrence: Int)
    /// The event has an outcome already.
    case eventDone(task: String, occurrence: Int)
    /// The event has no outcome to take back.
    case eventNotDone(task: String, occurrence: Int)
    /// The event has not started yet.
    case eventNotDue(task: String, occurrence: Int)
    /// The event's day is over and its task does not allow late entry: it can no longer be recorded or undone.
    case eventClosed(task: String, occurrence: Int)
    /// The number entered on a numeric card is outside the task's limits.
    case valueNotAccepted(task: String, minimum: Double, maximum: Double)
    /// The participant has no run with this id (someone else's run is reported the same way).
    case noSuchRun(UUID)
    /// The run has ended: completed, discarded, or being finished by another request.
    case runEnded(UUID)
    /// The run's saved state no longer fits its task (the study changed under it); the reason is technical.
    case runCannotBeResumed(UUID, reason: String)
    /// The posted answers were for another step than the run's current one (a second tab, the browser's back button).
    case staleStep(UUID)
    /// The finished onboarding cannot be sealed into a consent record; the reason is technical.
    case consentCannotBeRecorded(reason: String)
    /// The participant has left the study: no new data is taken from them.
    case withdrawn

    /// The refusal in English, for logs and tests.
    public var description: String {
        switch self {
        case .invitationRequired: "the study enrols by invitation only"
        case .invitationUnusable: "the invitation cannot be used: it is unknown, used or expired"
        case .notAStudyLanguage(let language): "'\(language)' is not one of the study's languages"
        case .onboardingRequired: "the onboarding must be completed first"
        case .onboardingCompleted: "the onboarding was completed already"
        case .onboardingHasNoEvents: "the onboarding is started from its own card"
        case .noSuchTask(let task): "the study has no such task '\(task)'"
        case .noSuchEvent(let task, let occurrence): "there is no event \(occurrence) of task '\(task)'"
        case .eventDone(let task, let occurrence): "event \(occurrence) of task '\(task)' is done already"
        case .eventNotDue(let task, let occurrence): "event \(occurrence) of task '\(task)' has not started yet"
        case .eventNotDone(let task, let occurrence): "event \(occurrence) of task '\(task)' has nothing to take back"
        case .eventClosed(let task, let occurrence): "event \(occurrence) of task '\(task)' is closed: its day is over"
        case .valueNotAccepted(let task, let minimum, let maximum): "task '\(task)' takes a number from \(minimum) to \(maximum)"
        case .noSuchRun(let run): "there is no run \(run.uuidString.lowercased())"
        case .runEnded(let run): "run \(run.uuidString.lowercased()) has ended"
        case .runCannotBeResumed(let run, let reason): "run \(run.uuidString.lowercased()) cannot be resumed: \(reason)"
        case .staleStep(let run): "the answers were for another step of run \(run.uuidString.lowercased())"
        case .consentCannotBeRecorded(let reason): "the consent cannot be recorded: \(reason)"
        case .withdrawn: "the participant has left the study"
        }
    }
}

extension StudyRefusal {
    /// The refusal a participant meets when a store refuses their request (an invitation that cannot enrol anyone, a
    /// run that has ended or is not theirs); nil for a store error no participant's request should meet, which is the
    /// server's fault. The one mapping the workflow, the pages and the REST API use.
    public init?(_ error: StudyStoreError) {
        switch error {
        case .unknownInvitation, .invitationUsed, .invitationExpired, .invitationRevoked: self = .invitationUnusable
        case .runFinished(let run, _): self = .runEnded(run)
        case .runOfAnotherParticipant(let run): self = .noSuchRun(run)
        default: return nil
        }
    }
}

extension StudyRefusal {
    /// What kind of refusal it is, whoever refuses (the study's workflow, or the server around it): the status of a
    /// page or an API answer is derived from it, one status per kind, each kind named after the status it becomes.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A request no client of the study should send (a malformed form).
        case badRequest
        /// Nobody is signed in, or not as the request needs.
        case unauthorized
        /// Not allowed: not yet (the onboarding first), or no more (withdrawn), or not by this role.
        case forbidden
        /// Nothing of the caller's has this name: no such page, task, event, run or invitation.
        case notFound
        /// What is asked for no longer fits what is stored: done already, ended, closed, changed by another request.
        case conflict
        /// The request is larger than what it may carry.
        case contentTooLarge
        /// The request was read, and something in it is to be corrected (a number out of range, a choice missing).
        case unprocessableContent
        /// Too many attempts: asked again later, it may be answered.
        case tooManyRequests
        /// The server failed; nothing the caller did.
        case internalServerError
        /// The server cannot answer for now (its database does not: `DatabaseUnavailable`): asked again in a
        /// moment, it will be; nothing was written.
        case serviceUnavailable
    }

    /// The refusal's kind.
    public var kind: Kind {
        switch self {
        case .invitationRequired, .onboardingRequired, .withdrawn: .forbidden
        case .invitationUnusable, .onboardingHasNoEvents, .noSuchTask, .noSuchEvent, .noSuchRun: .notFound
        case .onboardingCompleted, .eventDone, .eventNotDone, .eventNotDue, .eventClosed, .runEnded, .runCannotBeResumed, .staleStep: .conflict
        case .notAStudyLanguage, .valueNotAccepted, .consentCannotBeRecorded: .unprocessableContent
        }
    }

    /// The refusal's stable code, in kebab case: what a client of the API tells refusals apart by. The onboarding,
    /// which has no events, is refused as an event that does not exist.
    public var code: String {
        switch self {
        case .invitationRequired: "invitation-required"
        case .invitationUnusable: "invitation-unusable"
        case .notAStudyLanguage: "choose-language"
        case .onboardingRequired: "onboarding-required"
        case .onboardingCompleted: "onboarding-completed"
        case .onboardingHasNoEvents, .noSuchEvent: "no-such-event"
        case .noSuchTask: "no-such-task"
        case .eventDone: "event-done"
        case .eventNotDone: "event-not-done"
        case .eventNotDue: "event-not-due"
        case .eventClosed: "event-closed"
        case .valueNotAccepted: "value-not-accepted"
        case .noSuchRun: "no-such-run"
        case .runEnded: "run-ended"
        case .runCannotBeResumed: "run-cannot-be-resumed"
        case .staleStep: "stale-step"
        case .consentCannotBeRecorded: "consent-cannot-be-recorded"
        case .withdrawn: "withdrawn"
        }
    }
}
