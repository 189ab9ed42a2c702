import NIOCore
import NIOPosix
import NIOSSL

/// One TCP connection to an SMTP server: writes commands and waits for each reply, within the command timeout.
final class SMTPConnection: Sendable {
    private let channel: any Channel
    private let replies: NIOLoopBound<SMTPReplyHandler>
    private let commandTimeout: TimeAmount

    private init(channel: any Channel, replies: NIOLoopBound<SMTPReplyHandler>, commandTimeout: TimeAmount) {
        self.channel = channel
        self.replies = replies
        self.commandTimeout = commandTimeout
    }

    /// A connection to the configured server, within its connect timeout; TLS from the first byte when `implicitTLS`
    /// is given.
    static func open(
        _ configuration: SMTPConfiguration, implicitTLS: NIOSSLContext?, serverHostname: String?, group: any EventLoopGroup
    ) async throws(SMTPError) -> SMTPConnection {
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(TimeAmount(configuration.connectTimeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let implicitTLS {
                        try pipeline.addHandler(NIOSSLClientHandler(context: implicitTLS, serverHostname: serverHostname))
                    }
                    try pipeline.addHandler(SMTPReplyHandler())
                }
            }
        do {
            let channel = try await bootstrap.connect(host: configuration.host, port: configuration.port).get()
            let replies = try await channel.eventLoop.submit {
                NIOLoopBound(try channel.pipeline.syncOperations.handler(type: SMTPReplyHandler.self), eventLoop: channel.eventLoop)
            }.get()
            return SMTPConnection(channel: channel, replies: replies, commandTimeout: TimeAmount(configuration.commandTimeout))
        } catch {
            throw SMTPError(error, during: .connect)
        }
    }

    /// Sends `line` and CRLF (or nothing, to read the greeting) and returns the reply, which must be of
    /// `expectedClass` (2 for 2xx, 3 for 3xx): a 4xx or 5xx reply is thrown as ``SMTPError/Kind/rejected``.
    @discardableResult
    func command(_ line: String?, as command: SMTPCommand, expecting expectedClass: Int) async throws(SMTPError) -> SMTPReply {
        try await exchange(line.map { ByteBuffer(string: $0 + "\r\n") }, as: command, expecting: expectedClass)
    }

    /// Sends the message after DATA's 354 (dot-stuffed and terminated) and waits for the server to accept it.
    func sendContent(_ message: [UInt8]) async throws(SMTPError) {
        try await exchange(DotStuffing.encode(message), as: .messageContent, expecting: 2)
    }

    /// Adds TLS under the reply handler, after the server's 220 to STARTTLS. Anything the server sent after that
    /// reply and before the handshake is refused rather than read (it could be an attacker's, RFC 3207 §5).
    func startTLS(_ context: NIOSSLContext, serverHostname: String?) async throws(SMTPError) {
        let channel = self.channel, replies = self.replies
        do {
            try await channel.eventLoop.submit {
                guard !replies.value.hasUnreadInput else { throw SMTPConnectionFailure.dataBeforeTLS }
                let tls = try NIOSSLClientHandler(context: context, serverHostname: serverHostname)
                try channel.pipeline.syncOperations.addHandler(tls, position: .first)
            }.get()
        } catch {
            throw SMTPError(error, during: .startTLS)
        }
    }

    /// Closes the connection (without QUIT).
    func close() async {
        try? await channel.close().get()
    }

    @discardableResult
    private func exchange(_ bytes: ByteBuffer?, as command: SMTPCommand, expecting expectedClass: Int) async throws(SMTPError) -> SMTPReply {
        let reply: SMTPReply
        do {
            reply = try await nextReply(after: bytes)
        } catch {
            throw SMTPError(error, during: command)
        }
        guard reply.code / 100 == expectedClass else {
            throw SMTPError(kind: reply.code >= 400 ? .rejected : .unexpectedReply, command: command, reply: reply)
        }
        return reply
    }

    /// Writes `bytes` and waits for the next reply; cancelling the task closes the connection.
    private func nextReply(after bytes: ByteBuffer?) async throws -> SMTPReply {
        let channel = self.channel, replies = self.replies, timeout = commandTimeout
        let promise = channel.eventLoop.makePromise(of: SMTPReply.self)
        channel.eventLoop.execute {
            replies.value.expectReply(promise, within: timeout)
            if let bytes {
                channel.writeAndFlush(bytes).whenFailure { error in replies.value.fail(error) }
            }
        }
        return try await withTaskCancellationHandler {
            try await promise.futureResult.get()
        } onCancel: {
            channel.eventLoop.execute { replies.value.fail(CancellationError()) }
        }
    }
}
