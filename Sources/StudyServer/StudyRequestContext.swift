import Hummingbird
import NIOCore
import Study

/// A request's context on the study server: Hummingbird's core context and the connection's remote address (which the
/// sign-in limit counts by, see ``ClientAddress``). On the participant's routes ``SessionMiddleware`` adds the
/// signed-in participant and the checked form, which the routes read from ``ParticipantRequestContext``; on the
/// console's, ``ConsoleAccessMiddleware`` adds the researcher and the form, read from ``ConsoleRequestContext``.
public struct StudyRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage (logger, route parameters).
    public var coreContext: CoreRequestContextStorage
    /// The connection's peer; nil when the request did not come over a socket (tests).
    public let remoteAddress: SocketAddress?
    /// The participant signed in with this request's session cookie, on the participant's routes.
    var signedIn: StudyService.SignedIn?
    /// The posted form, read and its CSRF token checked, on the participant's routes.
    var form: PostedForm?
    /// The console's researcher and form, on the console's routes once ``ConsoleAccessMiddleware`` let the request in.
    var console: ConsoleVisit?

    /// A context for a request arriving on `source`'s channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// The context of a route only a signed-in participant may use: the participant is there, never nil. Made from a
/// ``StudyRequestContext`` whose session ``SessionMiddleware`` found (without one the request was refused before any
/// route sees it), with the posted form it read and checked.
struct ParticipantRequestContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The signed-in participant.
    let signedIn: StudyService.SignedIn
    /// The posted form, read and checked; nil for a request that posts none.
    var form: PostedForm?
    /// The connection's peer; nil when the request did not come over a socket (tests).
    let remoteAddress: SocketAddress?

    init(context: StudyRequestContext) throws {
        guard let signedIn = context.signedIn else { throw StudyServerError.notSignedIn }
        coreContext = context.coreContext
        self.signedIn = signedIn
        form = context.form
        remoteAddress = context.remoteAddress
    }

    /// The participant.
    var participant: StudyParticipant { signedIn.participant }

    /// The posted form's fields (empty when none was posted).
    var fields: [String: [String]] { form?.fields ?? [:] }
}

/// What ``ConsoleAccessMiddleware`` found of a request on a console route it let in: the signed-in researcher and
/// their session (nil on the routes open to anyone, before signing in), and the posted form, its CSRF token checked
/// when there is a session.
struct ConsoleVisit: Sendable {
    let researcher: Researcher?
    let session: ResearcherSession?
    /// The CSRF token of the researcher's session, for the page's forms; nil before signing in.
    let csrfToken: String?
    let form: [String: [String]]
}

/// The context of a console route, made from a ``StudyRequestContext`` that ``ConsoleAccessMiddleware`` let in (a
/// request it refused never reaches a route): who is signed in, and the posted form.
struct ConsoleRequestContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection's peer; nil when the request did not come over a socket (tests).
    let remoteAddress: SocketAddress?
    /// The signed-in researcher; nil on the routes open to anyone.
    let researcher: Researcher?
    /// The researcher's session; nil on the routes open to anyone.
    let session: ResearcherSession?
    /// The CSRF token of the researcher's session, for the page's forms; nil before signing in.
    let csrfToken: String?
    /// The posted form's fields (empty when none was posted).
    let form: [String: [String]]

    init(context: StudyRequestContext) throws {
        // Only a route behind ConsoleAccessMiddleware has this context: without its visit, no one was let in.
        guard let visit = context.console else { throw StudyServerError.consoleNotSignedIn }
        coreContext = context.coreContext
        remoteAddress = context.remoteAddress
        researcher = visit.researcher
        session = visit.session
        csrfToken = visit.csrfToken
        form = visit.form
    }

    /// The signed-in researcher (on a route that needs one, there always is).
    var signedIn: Researcher {
        get throws(StudyServerError) {
            guard let researcher else { throw .consoleNotSignedIn }
            return researcher
        }
    }

    /// A route parameter, or 404.
    func parameter(_ name: String) throws(StudyServerError) -> String {
        guard let value = parameters.get(name) else { throw .consoleNoSuchPage }
        return value
    }

    /// The one value of a form field; empty when absent.
    func field(_ name: String) -> String { form[name]?.first ?? "" }
}
