import NIOCore
import NIOPosix

/// A server on 127.0.0.1 that plays a fixed part, for what a real server does not do on request: say nothing, hang
/// up, answer out of turn. It greets (unless `greeting` is `nil`: then it never says a word), answers each command
/// line with the reply of the first entry whose prefix the line starts with (500 when none does), and hangs up after
/// a reply of `""`.
func withScriptedSMTPServer(
    greeting: String?, replies: [(prefix: String, reply: String)] = [], _ body: (_ port: Int) async throws -> Void
) async throws {
    let script = replies.map { ScriptedSMTPHandler.Entry(prefix: $0.prefix, reply: $0.reply) }
    let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(ScriptedSMTPHandler(greeting: greeting, script: script))
            }
        }
        .bind(host: "127.0.0.1", port: 0).get()
    do {
        try await body(server.localAddress!.port!)
    } catch {
        try? await server.close().get()
        throw error
    }
    try? await server.close().get()
}

/// A port on 127.0.0.1 where nothing listens (one just released).
func closedPort() async throws -> Int {
    let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
    let port = server.localAddress!.port!
    try await server.close().get()
    return port
}

private final class ScriptedSMTPHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    struct Entry: Sendable {
        let prefix: String
        let reply: String
    }

    private let greeting: String?
    private let script: [Entry]
    private var input = ByteBuffer()

    init(greeting: String?, script: [Entry]) {
        self.greeting = greeting
        self.script = script
    }

    func channelActive(context: ChannelHandlerContext) {
        if let greeting { answer(greeting, context: context) }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        input.writeBuffer(&bytes)
        while let newline = input.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let line = input.readString(length: newline - input.readableBytesView.startIndex + 1)!.trimmingSuffixWhitespace()
            answer(script.first { line.uppercased().hasPrefix($0.prefix) }?.reply ?? "500 Unknown command\r\n", context: context)
        }
    }

    private func answer(_ reply: String, context: ChannelHandlerContext) {
        guard !reply.isEmpty else {
            context.close(promise: nil)
            return
        }
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: reply)), promise: nil)
    }
}

extension String {
    fileprivate func trimmingSuffixWhitespace() -> String {
        var text = self
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}
