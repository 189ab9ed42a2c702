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
/// or the server restarted (another `BOOT`), the stream starts with an event, so nothing missed stays missed. A
/// comment every ``heartbeat`` keeps proxies from closing a quiet stream and finds a browser that has gone.
struct LiveUpdatesController {
    let service: StudyService

    /// How often a quiet stream sends a comment.
    static let heartbeat = Duration.seconds(25)
    /// How long a browser waits before reconnecting a broken stream, in milliseconds.
    static let retryMilliseconds = 3_000

    func addRoutes(to group: RouterGroup<ParticipantRequestContext>) {
        group.get("/events") { request, context in
            let participant = context.participant.id
            let feed = service.changeFeed, boot = service.bootID
            let lastSeen = request.headers[HTTPField.Name("Last-Event-ID")!]
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream; charset=utf-8"
            headers[.cacheControl] = "no-store"
            headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                // Subscribed before the latest number is read: a change in between is in the stream.
                let changes = feed.changes(of: participant)
                let latest = feed.latest(of: participant)
                var opening = "retry: \(Self.retryMilliseconds)\n\n"
                if let lastSeen, lastSeen != Self.eventID(boot: boot, number: latest) {
                    opening += Self.event(boot: boot, number: latest)
                }
                try await writer.write(ByteBuffer(string: opening))
                let (texts, sink) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(4))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await number in changes { sink.yield(Self.event(boot: boot, number: number)) }
                        sink.finish()
                    }
                    group.addTask {
                        while true {
                            try await Task.sleep(for: Self.heartbeat)
                            sink.yield(": keep-alive\n\n")
                        }
                    }
                    // Ends when the browser goes (a write fails) or the server shuts down.
                    for await text in texts.cancelOnGracefulShutdown() { try await writer.write(ByteBuffer(string: text)) }
                    group.cancelAll()
                }
                try await writer.finish(nil)
            })
        }
    }

    static func eventID(boot: String, number: UInt64) -> String { "\(boot).\(number)" }

    static func event(boot: String, number: UInt64) -> String {
        "id: \(eventID(boot: boot, number: number))\nevent: changed\ndata: \(number)\n\n"
    }
}
