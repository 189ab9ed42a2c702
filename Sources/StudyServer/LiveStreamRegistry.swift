import Foundation
import Synchronization

/// The live-update streams open in this process (``LiveUpdatesController``), each with the session, participant and
/// client address it serves: it caps how many one session and one client address may hold at once, and ends a
/// session's streams when it is signed out and a participant's when they leave the study.
///
/// ```swift
/// guard let lease = registry.open(session: session.id, participant: participant.id, client: address) else { return tooMany }
/// defer { lease.close() }
/// for await ending in lease.endings { … }      // .signedOut, .withdrawn or .clientGone
/// registry.end(session: session.id, because: .signedOut)
/// ```
///
/// A stream holds its place from ``open(session:participant:client:)`` until its ``Lease`` is closed or released,
/// whichever comes first: a response that is never written still gives its place back.
///
/// The registry is one process's memory, and so are the streams it counts. A sign-out or a withdrawal made by another
/// process (a second server over the same database, or the command line) reaches this process's streams at their
/// next heartbeat, when each checks its session and participant against the database again.
final class LiveStreamRegistry: Sendable {
    /// How many streams one session and one client address may hold open at once.
    struct Limits: Sendable, Hashable {
        /// Streams per session: a participant's tabs in one browser (a browser opens at most six connections to a
        /// server over HTTP/1.1, so four leave room for the pages themselves).
        var perSession: Int
        /// Streams per client address: several participants behind one network (a household, a clinic's Wi-Fi).
        var perClient: Int

        /// Four per session, 32 per client address.
        static let standard = Limits(perSession: 4, perClient: 32)
    }

    /// Why a stream is told to end.
    enum Ending: Sendable, Hashable {
        /// Its session was signed out (from another browser's settings) or is no longer valid.
        case signedOut
        /// Its participant left the study.
        case withdrawn
        /// Its client closed the connection.
        case clientGone
    }

    /// Why a stream was not opened.
    enum Refusal: Error, Sendable, Hashable {
        /// The session holds ``Limits/perSession`` streams already.
        case session
        /// The client address holds ``Limits/perClient`` streams already.
        case client
    }

    /// A stream's place in the registry, and where it hears that it must end.
    final class Lease: Sendable {
        /// The reasons this stream must end, as they come (the first is enough).
        let endings: AsyncStream<Ending>
        private let id: UInt64
        private let registry: LiveStreamRegistry

        fileprivate init(id: UInt64, endings: AsyncStream<Ending>, registry: LiveStreamRegistry) {
            self.id = id
            self.endings = endings
            self.registry = registry
        }

        /// Tells the stream to end (its client went, say).
        func end(_ ending: Ending) { registry.end(id: id, because: ending) }

        /// Gives the stream's place back; calling it again does nothing.
        func close() { registry.release(id: id) }

        deinit { registry.release(id: id) }
    }

    /// The limits this registry keeps.
    let limits: Limits
    private let state = Mutex(State())

    private struct Entry {
        let session: UUID
        let participant: String
        let client: String
        let continuation: AsyncStream<Ending>.Continuation
    }

    private struct State {
        var streams: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        var perSession: [UUID: Int] = [:]
        var perClient: [String: Int] = [:]
    }

    /// An empty registry keeping `limits`.
    init(limits: Limits = .standard) {
        self.limits = limits
    }

    /// A place for a new stream of `session` (of `participant`) from `client`, or why there is none.
    func open(session: UUID, participant: String, client: String) -> Result<Lease, Refusal> {
        let (endings, continuation) = AsyncStream<Ending>.makeStream(bufferingPolicy: .bufferingOldest(1))
        let opened = state.withLock { state -> Result<UInt64, Refusal> in
            if state.perSession[session, default: 0] >= limits.perSession { return .failure(.session) }
            if state.perClient[client, default: 0] >= limits.perClient { return .failure(.client) }
            state.nextID += 1
            state.streams[state.nextID] = Entry(session: session, participant: participant, client: client, continuation: continuation)
            state.perSession[session, default: 0] += 1
            state.perClient[client, default: 0] += 1
            return .success(state.nextID)
        }
        return opened.map { Lease(id: $0, endings: endings, registry: self) }
    }

    /// Tells every stream of `session` to end.
    func end(session: UUID, because ending: Ending) {
        tell(because: ending) { $0.session == session }
    }

    /// Tells every stream of `participant` (in any session) to end.
    func end(participant: String, because ending: Ending) {
        tell(because: ending) { $0.participant == participant }
    }

    /// How many streams are open.
    var openCount: Int { state.withLock { $0.streams.count } }

    /// How many streams `session` holds open.
    func openCount(session: UUID) -> Int { state.withLock { $0.perSession[session, default: 0] } }

    private func tell(because ending: Ending, where matches: (Entry) -> Bool) {
        let told = state.withLock { state in state.streams.values.filter(matches).map(\.continuation) }
        for continuation in told { continuation.yield(ending) }
    }

    private func end(id: UInt64, because ending: Ending) {
        state.withLock { $0.streams[id]?.continuation }?.yield(ending)
    }

    private func release(id: UInt64) {
        let released = state.withLock { state -> Entry? in
            guard let entry = state.streams.removeValue(forKey: id) else { return nil }
            state.perSession[entry.session] = state.perSession[entry.session].map { $0 - 1 }.flatMap { $0 > 0 ? $0 : nil }
            state.perClient[entry.client] = state.perClient[entry.client].map { $0 - 1 }.flatMap { $0 > 0 ? $0 : nil }
            return entry
        }
        released?.continuation.finish()
    }
}
