import Foundation
import HTTPTypes
import Research
import Study
import StudyKitEnvironment
import StudyWeb

/// A request the server refuses: the one refusal of the participant pages, the console and the REST API. It carries
/// the refusal's kind (``StudyRefusal/Kind``, from which its status is derived), a stable code (what the API's JSON
/// answers carry), and what it says: a key into the web strings, translated on a participant's page, or an English
/// sentence (the console's and the API's own refusals, whose readers work in English), with a technical detail for
/// requests no browser sends (a malformed form), shown untranslated after it. Nothing stored is changed by a refused
/// request.
///
/// Each audience has one mapping: ``text(in:)`` for a participant's page (``StudyPageMiddleware``), ``description``
/// for the console's pages (``ConsolePageMiddleware``) and the API's JSON (``APIMiddleware``); a refusal of the study's
/// workflow becomes one through ``init(_:)-(StudyRefusal)``, and any error that is one through ``init(refusing:)``.
public struct StudyServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the refusal says.
    public enum Message: Hashable, Sendable {
        /// A sentence of the web strings, in the reader's language.
        case key(WebStringKey)
        /// A sentence in English.
        case english(String)
    }

    /// The kind of refusal, from which its status is derived.
    public var kind: StudyRefusal.Kind
    /// The stable code of the refusal, in kebab case (`no-such-event`), as the API's JSON answers carry it.
    public var code: String
    /// The sentence that says what was wrong.
    public var message: Message
    /// What exactly could not be read, for a request a browser would not send; nil otherwise.
    public var detail: String?
    /// The values of the message's placeholders (`{minimum}`), already formatted.
    public var parameters: [String: String]

    /// A refusal of `kind` that says `message`, translated on a participant's page. Its code is the key's name without
    /// `refusal`, in kebab case (`refusalNoSuchBrowser`: `no-such-browser`), unless `code` is given.
    public init(_ kind: StudyRefusal.Kind, _ message: WebStringKey, detail: String? = nil, parameters: [String: String] = [:],
                code: String? = nil) {
        self.kind = kind
        self.code = code ?? Self.code(of: message)
        self.message = .key(message)
        self.detail = detail
        self.parameters = parameters
    }

    /// A refusal of `kind` that says `sentence` in English (the console's and the API's own refusals), with the
    /// stable `code`.
    public init(_ kind: StudyRefusal.Kind, code: String, _ sentence: String) {
        self.kind = kind
        self.code = code
        message = .english(sentence)
        detail = nil
        parameters = [:]
    }

    /// The HTTP status of the refusal: the one mapping of kinds to statuses.
    public var status: HTTPResponse.Status {
        switch kind {
        case .badRequest: .badRequest
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .conflict: .conflict
        case .contentTooLarge: .contentTooLarge
        case .unprocessableContent: .unprocessableContent
        case .tooManyRequests: .tooManyRequests
        case .internalServerError: .internalServerError
        case .serviceUnavailable: .serviceUnavailable
        }
    }

    /// How many seconds the client should wait before asking again, for a refusal that says so (`Retry-After`):
    /// 5 while the study's database does not answer; nil for every other refusal.
    public var retryAfterSeconds: Int? {
        kind == .serviceUnavailable ? Self.databaseRetryAfterSeconds : nil
    }

    /// How long a client waits before asking again while the study's database does not answer: long enough for a
    /// restart of PostgreSQL or a failover, short enough that a participant who waits is not kept waiting long.
    static let databaseRetryAfterSeconds = 5

    /// Sets `Retry-After` on `headers` when the refusal says when to ask again (``retryAfterSeconds``).
    func addRetryAfter(to headers: inout HTTPFields) {
        if let seconds = retryAfterSeconds { headers[.retryAfter] = String(seconds) }
    }

    /// The refusal in English with its detail: the console's pages, the API's JSON, logs and tests.
    public var description: String {
        text(in: Self.english)
    }

    /// The built-in English texts, worked out once (a description is made for every refusal logged).
    private static let english = WebStrings(language: "en")

    /// The text of a participant's page in `strings`' language.
    func text(in strings: WebStrings) -> String {
        let sentence = switch message {
        case .key(let key): parameters.isEmpty ? strings[key] : strings.format(key, parameters)
        case .english(let sentence): sentence
        }
        return detail.map { "\(sentence) \($0)" } ?? sentence
    }

    /// The code of a refusal that says `key`: `refusalNoSuchEvent` → `no-such-event`.
    static func code(of key: WebStringKey) -> String {
        var out = ""
        for character in "\(key)".replacingOccurrences(of: "refusal", with: "") {
            if character.isUppercase, !out.isEmpty { out += "-" }
            out += character.lowercased()
        }
        return out
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
    /// The study's database does not answer for now (503, with `Retry-After`): the page says to try again in a
    /// moment, and that nothing saved is lost.
    static let databaseUnavailable = StudyServerError(.serviceUnavailable, .refusalDatabaseUnavailable, code: "database-unavailable")

    /// A request that could not be read (400); `detail` says what and where.
    static func malformed(_ detail: String) -> StudyServerError {
        StudyServerError(.badRequest, .refusalMalformedRequest, detail: detail)
    }

    /// The refusal of the study's workflow: its kind and code are the refusal's own (``StudyRefusal/kind``,
    /// ``StudyRefusal/code``); what a participant's page says is this mapping's.
    public init(_ refusal: StudyRefusal) {
        let key: WebStringKey
        var parameters: [String: String] = [:]
        switch refusal {
        case .invitationRequired: key = .refusalInvitationRequired
        case .invitationUnusable: key = .refusalInvitationUnusable
        case .notAStudyLanguage: key = .refusalChooseLanguage
        case .onboardingRequired: key = .refusalOnboardingRequired
        case .onboardingCompleted: key = .refusalOnboardingCompleted
        case .onboardingHasNoEvents, .noSuchEvent: key = .refusalNoSuchEvent
        case .noSuchTask: key = .refusalNoSuchTask
        case .eventDone: key = .refusalEventDone
        case .eventNotDue: key = .refusalEventNotDue
        case .eventClosed: key = .refusalEventClosed
        case .eventNotDone: key = .refusalEventNotDone
        case .valueNotAccepted(_, let minimum, let maximum):
            key = .refusalValueNotAccepted
            parameters = ["minimum": NumberText.plain(minimum), "maximum": NumberText.plain(maximum)]
        case .noSuchRun: key = .refusalNoSuchRun
        case .runEnded: key = .refusalRunEnded
        case .runCannotBeResumed: key = .refusalRunCannotBeResumed
        case .staleStep: key = .refusalStaleStep
        case .consentCannotBeRecorded: key = .refusalConsentCannotBeRecorded
        case .withdrawn: key = .refusalWithdrawn
        }
        self.init(refusal.kind, key, parameters: parameters, code: refusal.code)
    }

    /// `error` as a refusal, when it is one: a refusal already, a refusal of the study's workflow, or a store's refusal
    /// a participant can meet (``StudyRefusal/init(_:)``); nil for anything else, which is the server's fault.
    public init?(refusing error: any Error) {
        switch error {
        case let refusal as StudyServerError: self = refusal
        case let refusal as StudyRefusal: self.init(refusal)
        case let error as StudyStoreError:
            guard let refusal = StudyRefusal(error) else { return nil }
            self.init(refusal)
        case is DatabaseUnavailable: self = .databaseUnavailable
        default: return nil
        }
    }
}
