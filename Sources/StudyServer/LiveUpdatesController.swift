import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle
import Study

/// Server-sent events that tell a participant's open pages their data changed: the daily page's script then fetches
/// the page afresh and puts its new content in place, so every card and ring follows a change made in another tab
/// or on another device. No page polls.
///
/// | Route | What it does |
/// |---|---|
/// | `GET /events` | `text/event-stream`: an event `changed` with the id `BOOT.N` for each change N of the participant |
///
/// A browser that reconnects sends the last id it saw (`Last-Event-ID`); when the participant's data changed since,
/// or the server restarted (another `BOOT`), the stream starts with an event, so nothing missed stays missed.
///
/// Streams are bounded and end with what they serve (``LiveStreamRegistry``):
/// - One session holds at most ``LiveStreamRegistry/Limits/perSession`` streams (4) and one client address (as
///   ``ClientAddress`` finds it behind trusted proxies) at most ``LiveStreamRegistry/Limits/perClient`` (32). A stream
///   past either limit is refused, `429 Too Many Requests` with `Retry-After`, and the streams already open are left
///   alone: closing the oldest instead would let five tabs take the streams from each other for ever, each reconnecting
///   three seconds after it lost its own. A browser's `EventSource` does not retry a 429, so that page is simply not
///   live; the others stay live.
/// - A stream ends as soon as its client closes the connection (the request's inbound side closes: Hummingbird's
///   `consumeWithInboundCloseHandler`), not at the next write.
/// - A stream ends when its session is signed out (``StudyService/signOut(sessionID:signedIn:)``) or its participant
///   leaves the study (``StudyService/withdraw(_:reason:data:)``), at once in this process. A withdrawal recorded by
///   another process over the same database reaches this one as a change of the participant's, after which the stream
///   checks the withdrawal and ends. At each ``heartbeat`` a stream checks its session and participant again
///   (``StudyService/isStillLive(_:)``), so that a sign-out made by another process (which sends no change) ends it
///   within a heartbeat (and the ``StudyService/sessionRecheckInterval`` for which a session found valid is trusted).
///   A withdrawn participant's new stream is refused (403); a signed-out browser's, like any request without a session
///   (401). A browser's `EventSource` reconnects after a stream ends, gets that refusal, and stops.
///
/// A comment every ``heartbeat`` keeps proxies from closing a quiet stream.
struct LiveUpdatesController {
    /// What the live-update stream uses of the server.
    protocol Service: Sendable {
        /// The participant's rules (whether they left the study).
        var workflow: ParticipantWorkflow { get }
        /// The heartbeat (``StudyServerConfiguration/liveUpdateHeartbeat``).
        var configuration: StudyServerConfiguration { get }
        /// The proxies whose `X-Forwarded-For` the stream limits trust.
        var trustedProxies: Set<String> { get }
        /// The streams open, bounded per session and client address.
        var liveStreams: LiveStreamRegistry { get }
        /// The participants' changes, as they are committed by this process or heard from others.
        var changeFeed: InProcessParticipantChangeFeed { get }
        /// This run of the server, in event ids.
        var bootID: String { get }
        /// Whether the session is still signed in and its participant still in the study.
        func isStillLive(_ signedIn: StudyService.SignedIn) async throws -> Bool
    }

    let service: any Service

    /// How often a quiet stream sends a comment, and checks its session and participant against the database
    /// (``StudyServerConfiguration/liveUpdateHeartbeat``, 25 seconds unless configured).
    var heartbeat: Duration { service.configuration.liveUpdateHeartbeat }
    /// How long a browser waits before reconnecting a broken stream, in milliseconds.
    static let retryMilliseconds = 3_000
    /// How long a client refused for too many streams is asked to wait, in seconds.
    static let retryAfterSeconds = 30

    func addRoutes(to group: RouterGroup<ParticipantRequestContext>) {
        group.get("/events") { request, context in
            let signedIn = context.signedIn, participant = signedIn.participant.id
            if try await service.workflow.withdrawal.isWithdrawn(signedIn.participant) { throw StudyServerError(StudyRefusal.withdrawn) }
            let client = ClientAddress.resolve(peer: context.remoteAddress, forwardedFor: request.headers[HTTPField.Name("X-Forwarded-For")!],
                                               trustedProxies: service.trustedProxies)
            let lease: LiveStreamRegistry.Lease
            switch service.liveStreams.open(session: signedIn.sessionID, participant: participant, client: client) {
            case .success(let opened): lease = opened
            case .failure(let refusal): return Self.tooMany(refusal)
            }
            let feed = service.changeFeed, boot = service.bootID
            let lastSeen = request.headers[HTTPField.Name("Last-Event-ID")!]
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream; charset=utf-8"
            headers[.cacheControl] = "no-store"
            headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                defer { lease.close() }
                // The request's inbound side closes when the browser goes: the stream ends then, not at its next write.
                try await request.body.consumeWithInboundCloseHandler { _ in
                    try await stream(to: &writer, lease: lease, signedIn: signedIn, feed: feed, boot: boot, lastSeen: lastSeen)
                } onInboundClosed: {
                    lease.end(.clientGone)
                }
                try await writer.finish(nil)
            })
        }
    }

    /// Writes the participant's changes to `writer` until the lease says the stream must end or the server shuts down.
    private func stream(to writer: inout any ResponseBodyWriter, lease: LiveStreamRegistry.Lease, signedIn: StudyService.SignedIn,
                        feed: any ParticipantChangeFeed, boot: String, lastSeen: String?) async throws {
        let participant = signedIn.participant.id
        // Subscribed before the latest number is read: a change in between is in the stream.
        let changes = feed.changes(of: participant)
        let latest = feed.latest(of: participant)
        var opening = "retry: \(Self.retryMilliseconds)\n\n"
        if let lastSeen, lastSeen != Self.eventID(boot: boot, number: latest) {
            opening += Self.event(boot: boot, number: latest)
        }
        try await writer.write(ByteBuffer(string: opening))
        let (messages, sink) = AsyncStream<Message>.makeStream(bufferingPolicy: .bufferingNewest(4))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await number in changes { sink.yield(.changed(number)) }
                sink.yield(.end)
            }
            let heartbeat = self.heartbeat
            group.addTask {
                while true {
                    try await Task.sleep(for: heartbeat)
                    sink.yield(.heartbeat)
                }
            }
            group.addTask {
                for await _ in lease.endings {
                    sink.yield(.end)
                    return
                }
            }
            // Ends when told to (the browser went, the session or the participant ended), when a write fails, or
            // when the server shuts down.
            loop: for await message in messages.cancelOnGracefulShutdown() {
                switch message {
                case .changed(let number):
                    try await writer.write(ByteBuffer(string: Self.event(boot: boot, number: number)))
                    // A withdrawal recorded by another process reaches this one as a change of the participant's: the
                    // stream ends then, not at the next heartbeat (the answer is kept per revision, so the streams of
                    // one participant ask the store once).
                    if try await service.workflow.withdrawal.isWithdrawn(signedIn.participant) { break loop }
                case .heartbeat:
                    guard try await service.isStillLive(signedIn) else { break loop }
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                case .end:
                    break loop
                }
            }
            group.cancelAll()
        }
    }

    /// What a stream writes next, or that it ends.
    private enum Message: Sendable {
        case changed(UInt64)
        case heartbeat
        case end
    }

    /// The answer to a stream past a limit: 429, with when to try again.
    private static func tooMany(_ refusal: LiveStreamRegistry.Refusal) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.retryAfter] = String(retryAfterSeconds)
        let text = switch refusal {
        case .session: "This browser has too many live-update streams open; close a tab of the study and reload.\n"
        case .client: "Too many live-update streams are open from this address.\n"
        }
        return Response(status: .tooManyRequests, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func eventID(boot: String, number: UInt64) -> String { "\(boot).\(number)" }

    static func event(boot: String, number: UInt64) -> String {
        "id: \(eventID(boot: boot, number: number))\nevent: changed\ndata: \(number)\n\n"
    }
}

extension StudyService: LiveUpdatesController.Service {}
