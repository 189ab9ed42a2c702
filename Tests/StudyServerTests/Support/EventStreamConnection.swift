import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A raw HTTP/1.1 connection to a live test server that asks for `GET /events` and keeps what comes back, so that a
/// test can hold many streams open at once, see one end, and close one as a browser going away would.
final class EventStreamConnection: Sendable {
    /// What the server sent so far, and whether it closed the connection.
    private struct Received {
        var text = ""
        var closed = false
        var waiters: [UUID: AsyncStream<Void>.Continuation] = [:]
    }

    private let received = Mutex(Received())
    private let channel: any Channel

    private init(channel: any Channel) {
        self.channel = channel
    }

    /// Connects to `port` on this machine and sends `GET /events` with the participant's session cookie (and
    /// `X-Forwarded-For` when given, as a proxy in front of the server would).
    static func open(port: Int, sessionToken: String, forwardedFor: String? = nil) async throws -> EventStreamConnection {
        let box = Slot()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Collector(box: box)) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let connection = EventStreamConnection(channel: channel)
        box.connection.withLock { $0 = connection }
        var request = "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\nCookie: studykit_session=\(sessionToken)\r\n"
        if let forwardedFor { request += "X-Forwarded-For: \(forwardedFor)\r\n" }
        try await channel.writeAndFlush(ByteBuffer(string: request + "\r\n"))
        return connection
    }

    /// The response's status code, once its head has come (nil when the connection closed first, or after `timeout`).
    func status(timeout: Duration = .seconds(30)) async -> Int? {
        guard await wait(timeout: timeout, until: { $0.text.contains("\r\n\r\n") || $0.closed }) else { return nil }
        let line = received.withLock { $0.text.prefix { $0 != "\r" } }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    /// Whether the stream sent its opening (`retry:`) within `timeout`.
    func opened(timeout: Duration = .seconds(30)) async -> Bool {
        await wait(timeout: timeout) { $0.text.contains("retry: ") }
    }

    /// Whether the server ended the stream (its last chunk, or the connection closed) within `timeout`.
    func ended(timeout: Duration = .seconds(30)) async -> Bool {
        await wait(timeout: timeout) { $0.closed || $0.text.hasSuffix("\r\n0\r\n\r\n") }
    }

    /// Everything received so far.
    var text: String { received.withLock { $0.text } }

    /// Closes the connection, as a browser whose tab closes does.
    func close() async {
        try? await channel.close()
    }

    /// Waits until `condition` holds on what was received, or `timeout` passes (a bound for a test that would
    /// otherwise hang, never a measure); returns whether it holds.
    private func wait(timeout: Duration, until condition: @escaping @Sendable (Received) -> Bool) async -> Bool {
        let key = UUID()
        let (wakeUps, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let holds = received.withLock { state in
            if condition(state) { return true }
            state.waiters[key] = continuation
            return false
        }
        if holds { return true }
        defer { _ = received.withLock { $0.waiters.removeValue(forKey: key) } }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in wakeUps where self.received.withLock({ condition($0) }) { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            continuation.finish()
            return first || received.withLock { condition($0) }
        }
    }

    fileprivate func append(_ text: String?, closed: Bool) {
        let waiters = received.withLock { state in
            if let text { state.text += text }
            if closed { state.closed = true }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.yield() }
    }

    /// Hands what the channel reads to its connection.
    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let box: Slot

        init(box: Slot) { self.box = box }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            connection()?.append(String(buffer: buffer), closed: false)
        }

        func channelInactive(context: ChannelHandlerContext) {
            connection()?.append(nil, closed: true)
            context.fireChannelInactive()
        }

        /// The connection, once `open` made it (a byte cannot arrive before the request is sent, after that).
        private func connection() -> EventStreamConnection? { box.connection.withLock { $0 } }
    }

    /// Where the channel's handler finds its connection, made after the channel.
    private final class Slot: Sendable {
        let connection = Mutex<EventStreamConnection?>(nil)
    }
}
