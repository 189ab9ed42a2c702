import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request body arrives too slowly: after a grace period, the body must keep up an average
/// rate, so that a client trickling a byte now and then cannot hold a connection (and its memory) for ever.
///
/// Hummingbird's idle timeout (``StudyServerApplication/idleTimeout``) already closes a connection that sends nothing
/// for that long, and one whose request head does not arrive within it; this handler adds the rate for bodies that
/// do arrive, byte by byte. The defaults allow a phone on a 2G network to send the largest file a study accepts.
final class SlowRequestBodyHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    /// How long a body may take before its rate is checked.
    let gracePeriod: TimeAmount
    /// The least average rate, in bytes per second since the head, once the grace period is over.
    let minimumBytesPerSecond: Int
    /// How often the rate is checked.
    let checkInterval: TimeAmount
    private var bodyStartedAt: NIODeadline?
    private var bytesReceived = 0
    private var check: Scheduled<Void>?

    /// A handler enforcing `minimumBytesPerSecond` after `gracePeriod`.
    init(gracePeriod: TimeAmount = .seconds(60), minimumBytesPerSecond: Int = 1_024, checkInterval: TimeAmount = .seconds(5)) {
        self.gracePeriod = gracePeriod
        self.minimumBytesPerSecond = minimumBytesPerSecond
        self.checkInterval = checkInterval
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            bodyStartedAt = context.eventLoop.now
            bytesReceived = 0
            scheduleCheck(context)
        case .body(let buffer):
            bytesReceived += buffer.readableBytes
        case .end:
            bodyStartedAt = nil
            check?.cancel()
            check = nil
        }
        context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
        context.fireChannelInactive()
    }

    private func scheduleCheck(_ context: ChannelHandlerContext) {
        check?.cancel()
        check = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: checkInterval) { [self] in
            check = nil
            guard let start = bodyStartedAt else { return }
            let elapsed = context.eventLoop.now - start
            if elapsed >= gracePeriod,
               Int64(bytesReceived) * 1_000_000_000 < Int64(minimumBytesPerSecond) * elapsed.nanoseconds {
                context.close(promise: nil)
                return
            }
            scheduleCheck(context)
        }
    }
}
