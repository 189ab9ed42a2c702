import CareStore
import Foundation
import Synchronization

/// Tells open pages that a participant's data changed, without any page knowing another: CareKit's synchronizer for
/// browsers. Each participant's changes are numbered; a page remembers the last number it saw and asks for what came
/// after it.
///
/// The server publishes what each committed care-store write touched (``publish(_:)-(CareChange)``); a backend shared
/// by several server processes (PostgreSQL's `LISTEN`/`NOTIFY`) implements this protocol to carry changes between them.
///
/// ```swift
/// let feed = InProcessParticipantChangeFeed()
/// for await number in feed.changes(of: participant.id) { refresh(after: number) }
/// ```
public protocol ParticipantChangeFeed: Sendable {
    /// Records that the data of each of `participantIDs` changed, and wakes their subscribers.
    func publish(_ participantIDs: Set<String>)
    /// The number of the participant's latest change; 0 before any.
    func latest(of participantID: String) -> UInt64
    /// The numbers of the participant's changes from now on, until the consumer stops iterating. A consumer that
    /// falls behind gets the latest number only: every page refreshes whole, so the ones in between do not matter.
    func changes(of participantID: String) -> AsyncStream<UInt64>
}

extension ParticipantChangeFeed {
    /// Publishes the participants whose care entities or outcomes `change` touched.
    public func publish(_ change: CareChange) {
        let ids = change.outcomeTaskIDs.union(change.entities.values.joined())
        let participants = Set(ids.compactMap(StudyCareIdentifiers.participantID(ofCareID:)))
        if !participants.isEmpty { publish(participants) }
    }
}

/// A ``ParticipantChangeFeed`` within one process: counters and subscribers in memory, numbered from 0 at start.
public final class InProcessParticipantChangeFeed: ParticipantChangeFeed {
    private struct State {
        var latest: [String: UInt64] = [:]
        var subscribers: [String: [UUID: AsyncStream<UInt64>.Continuation]] = [:]
    }

    private let state = Mutex(State())

    /// An empty feed.
    public init() {}

    public func publish(_ participantIDs: Set<String>) {
        let wake = state.withLock { state in
            participantIDs.flatMap { id -> [(AsyncStream<UInt64>.Continuation, UInt64)] in
                let number = (state.latest[id] ?? 0) + 1
                state.latest[id] = number
                return (state.subscribers[id]?.values).map { $0.map { ($0, number) } } ?? []
            }
        }
        for (continuation, number) in wake { continuation.yield(number) }
    }

    public func latest(of participantID: String) -> UInt64 {
        state.withLock { $0.latest[participantID] ?? 0 }
    }

    public func changes(of participantID: String) -> AsyncStream<UInt64> {
        let (stream, continuation) = AsyncStream<UInt64>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let key = UUID()
        state.withLock { $0.subscribers[participantID, default: [:]][key] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in
                state.subscribers[participantID]?[key] = nil
                if state.subscribers[participantID]?.isEmpty == true { state.subscribers[participantID] = nil }
            }
        }
        return stream
    }

    /// How many streams are open, for the benchmark.
    public var subscriberCount: Int { state.withLock { $0.subscribers.values.reduce(0) { $0 + $1.count } } }
}
