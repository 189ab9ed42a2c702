import NIOCore

/// The last handler of a connection's pipeline: reads the server's bytes into replies and hands each to the command
/// waiting for it, or fails that command when no reply comes within its timeout or the connection fails (after which
/// every later command fails the same way). Used on its channel's event loop only.
final class SMTPReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// The most replies kept that no command has asked for yet.
    static let maximumUnclaimedReplies = 8

    private var input = ByteBuffer()
    private var parser = SMTPReplyParser()
    /// Replies no command has asked for yet (the greeting, before the client waits for it).
    private var unclaimedReplies = CircularBuffer<SMTPReply>()
    private var waiting: (promise: EventLoopPromise<SMTPReply>, timeout: Scheduled<Void>)?
    private var failure: (any Error)?
    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        input.writeBuffer(&bytes)
        do {
            while let reply = try parser.nextReply(from: &input) { unclaimedReplies.append(reply) }
        } catch {
            fail(SMTPConnectionFailure.malformed(error.description))
            return
        }
        // The client sends one command at a time: a server that keeps on replying unasked is not one to listen to.
        guard unclaimedReplies.count <= Self.maximumUnclaimedReplies else {
            fail(SMTPConnectionFailure.malformed("more than \(Self.maximumUnclaimedReplies) replies to no command"))
            return
        }
        if input.readableBytes == 0 { input.clear() }
        deliver()
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(SMTPConnectionFailure.closed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) { fail(error) }

    /// Completes `promise` with the next reply, or fails it if none comes within `timeout` (closing the connection: a
    /// late reply could otherwise be taken for the next command's).
    func expectReply(_ promise: EventLoopPromise<SMTPReply>, within timeout: TimeAmount) {
        guard waiting == nil else {
            promise.fail(SMTPConnectionFailure.malformed("a command was sent while another waited for its reply"))
            return
        }
        if let reply = unclaimedReplies.popFirst() {
            promise.succeed(reply)
        } else if let failure {
            promise.fail(failure)
        } else if let context {
            let timeout = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
                fail(SMTPConnectionFailure.timedOut)
            }
            waiting = (promise, timeout)
        } else {
            promise.fail(SMTPConnectionFailure.closed)
        }
    }

    /// Whether the server has sent anything the client has not read: before a TLS handshake there must be nothing.
    var hasUnreadInput: Bool { input.readableBytes > 0 || parser.hasPartialReply || !unclaimedReplies.isEmpty }

    /// Fails the waiting command, and every later one, with `error` (the first failure stays the reason), and closes
    /// the connection.
    func fail(_ error: any Error) {
        let failure = self.failure ?? error
        self.failure = failure
        if let waiting {
            self.waiting = nil
            waiting.timeout.cancel()
            waiting.promise.fail(failure)
        }
        context?.close(promise: nil)
    }

    private func deliver() {
        guard let waiting, let reply = unclaimedReplies.popFirst() else { return }
        self.waiting = nil
        waiting.timeout.cancel()
        waiting.promise.succeed(reply)
    }
}
