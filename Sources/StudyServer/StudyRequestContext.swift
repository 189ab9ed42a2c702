import Hummingbird
import NIOCore
import Study

/// A request's context on the study server: Hummingbird's core context and the connection's remote address (which the
/// sign-in limit counts by, see ``ClientAddress``). On the participant's routes ``SessionMiddleware`` adds the
/// signed-in participant and the checked form, which the routes read from ``ParticipantRequestContext``.
public struct StudyRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage (logger, route parameters).
    public var coreContext: CoreRequestContextStorage
    /// The connection's peer; nil when the request did not come over a socket (tests).
    public let remoteAddress: SocketAddress?
    /// The participant signed in with this request's session cookie, on the participant's routes.
    var signedIn: StudyService.SignedIn?
    /// The posted form, read and its CSRF token checked, on the participant's routes.
    var form: PostedForm?

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
