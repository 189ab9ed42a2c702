import Hummingbird
import NIOCore
import Study

/// A request's context on the study server: Hummingbird's core context, the connection's remote address (which the
/// sign-in limit counts by, see ``ClientAddress``), and the participant whose session cookie came with it, which
/// ``SessionMiddleware`` sets; routes that need a participant take ``ParticipantRequestContext`` instead.
public struct StudyRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage (logger, route parameters).
    public var coreContext: CoreRequestContextStorage
    /// The connection's peer; nil when the request did not come over a socket (tests).
    public let remoteAddress: SocketAddress?
    /// The participant signed in with this request's session cookie; nil when there is none or it is not valid.
    var signedIn: StudyService.SignedIn?

    /// A context for a request arriving on `source`'s channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// The context of a route only a signed-in participant may use: the participant is there, never nil. Made from a
/// ``StudyRequestContext`` whose session ``SessionMiddleware`` found; without one the request is refused
/// (``StudyServerError/notSignedIn``) before any route sees it. A posted form is read and its CSRF token checked by
/// ``SignedInFormMiddleware``, which leaves it here.
struct ParticipantRequestContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The signed-in participant.
    let signedIn: StudyService.SignedIn
    /// The connection's peer.
    let remoteAddress: SocketAddress?
    /// The posted form, read and checked; nil for a request that posts none.
    var form: PostedForm?

    init(context: StudyRequestContext) throws {
        guard let signedIn = context.signedIn else { throw StudyServerError.notSignedIn }
        coreContext = context.coreContext
        self.signedIn = signedIn
        remoteAddress = context.remoteAddress
    }

    /// The participant.
    var participant: StudyParticipant { signedIn.participant }

    /// The posted form's fields (empty when none was posted).
    var fields: [String: [String]] { form?.fields ?? [:] }
}
