import Foundation
import HTTPTypes
import Research
import Study
import StudyWeb

/// A request the server refuses: the status, and what the page says in the participant's language (a key into the
/// web strings), with a technical detail for requests no browser sends (a malformed form), shown untranslated after
/// it. Nothing stored is changed by a refused request.
public struct StudyServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The HTTP status of the refusal.
    public var status: HTTPResponse.Status
    /// The sentence that says what was wrong, translated on the page.
    public var message: WebStringKey
    /// What exactly could not be read, for a request a browser would not send; nil otherwise.
    public var detail: String?
    /// The values of the message's placeholders (`{minimum}`), already formatted.
    public var parameters: [String: String]

    /// A refusal with `status` and `message`.
    public init(_ status: HTTPResponse.Status, _ message: WebStringKey, detail: String? = nil, parameters: [String: String] = [:]) {
        self.status = status
        self.message = message
        self.detail = detail
        self.parameters = parameters
    }

    /// The refusal in English with its detail: for logs and tests.
    public var description: String {
        text(in: Self.english)
    }

    /// The built-in English texts, worked out once (a description is made for every refusal logged).
    private static let english = WebStrings(language: "en")

    /// The text of the page in `strings`' language.
    func text(in strings: WebStrings) -> String {
        let sentence = parameters.isEmpty ? strings[message] : strings.format(message, parameters)
        return detail.map { "\(sentence) \($0)" } ?? sentence
    }

    /// The participant is not signed in (401; pages link to sign-in).
    static let notSignedIn = StudyServerError(.unauthorized, .refusalNotSignedIn)
    /// No such page (404).
    static let noSuchPage = StudyServerError(.notFound, .refusalNoSuchPage)
    /// The form's CSRF token is missing or does not match the session (403).
    static let formToken = StudyServerError(.forbidden, .refusalFormToken)
    /// The form is larger than the server accepts for it (413).
    static let formTooLarge = StudyServerError(.contentTooLarge, .refusalFormTooLarge)
    /// Something failed on the server (500): the page says what the participant can do, never what failed.
    static let serverError = StudyServerError(.internalServerError, .refusalServerError)

    /// A request that could not be read (400); `detail` says what and where.
    static func malformed(_ detail: String) -> StudyServerError {
        StudyServerError(.badRequest, .refusalMalformedRequest, detail: detail)
    }

    /// The page of a refusal of the study's workflow.
    init(_ refusal: StudyRefusal) {
        switch refusal {
        case .invitationRequired: self.init(.forbidden, .refusalInvitationRequired)
        case .invitationUnusable: self.init(.notFound, .refusalInvitationUnusable)
        case .notAStudyLanguage: self.init(.unprocessableContent, .refusalChooseLanguage)
        case .onboardingRequired: self.init(.forbidden, .refusalOnboardingRequired)
        case .onboardingCompleted: self.init(.conflict, .refusalOnboardingCompleted)
        case .onboardingHasNoEvents, .noSuchEvent: self.init(.notFound, .refusalNoSuchEvent)
        case .noSuchTask: self.init(.notFound, .refusalNoSuchTask)
        case .eventDone: self.init(.conflict, .refusalEventDone)
        case .eventNotDue: self.init(.conflict, .refusalEventNotDue)
        case .eventClosed: self.init(.conflict, .refusalEventClosed)
        case .eventNotDone: self.init(.conflict, .refusalEventNotDone)
        case .valueNotAccepted(_, let minimum, let maximum):
            self.init(.unprocessableContent, .refusalValueNotAccepted,
                      parameters: ["minimum": NumberText.plain(minimum), "maximum": NumberText.plain(maximum)])
        case .noSuchRun: self.init(.notFound, .refusalNoSuchRun)
        case .runEnded: self.init(.conflict, .refusalRunEnded)
        case .runCannotBeResumed: self.init(.conflict, .refusalRunCannotBeResumed)
        case .staleStep: self.init(.conflict, .refusalStaleStep)
        case .consentCannotBeRecorded: self.init(.unprocessableContent, .refusalConsentCannotBeRecorded)
        case .withdrawn: self.init(.forbidden, .refusalWithdrawn)
        }
    }
}
