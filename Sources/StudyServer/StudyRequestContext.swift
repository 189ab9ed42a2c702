import Hummingbird
import NIOCore

/// A request's context on the study server: Hummingbird's core context and the connection's remote address, which
/// the sign-in limit counts by (see ``ClientAddress``).
public struct StudyRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage (logger, route parameters).
    public var coreContext: CoreRequestContextStorage
    /// The connection's peer; nil when the request did not come over a socket (tests).
    public let remoteAddress: SocketAddress?

    /// A context for a request arriving on `source`'s channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
