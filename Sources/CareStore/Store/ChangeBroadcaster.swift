import Foundation
import Synchronization

/// Hands every committed change to every open ``CareStore/changes()`` stream, and counts them for
/// ``CareStore/revision``.
final class ChangeBroadcaster: Sendable {
    private let listeners = Mutex<[UUID: AsyncStream<CareChange>.Continuation]>([:])
    private let observers = Mutex<[@Sendable (CareChange) -> Void]>([])
    private let sent = Atomic<UInt64>(0)

    /// How many changes were sent so far.
    var count: UInt64 { sent.load(ordering: .acquiring) }

    /// A new stream of changes, open until its consumer stops iterating.
    func stream() -> AsyncStream<CareChange> {
        let (stream, continuation) = AsyncStream<CareChange>.makeStream(bufferingPolicy: .unbounded)
        let key = UUID()
        listeners.withLock { $0[key] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLock { $0.removeValue(forKey: key) }
        }
        return stream
    }

    /// Calls `observer` with every change from now on, on the writer's task, before the write returns.
    func observe(_ observer: @escaping @Sendable (CareChange) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// Counts `change`, tells every observer, and sends it to every open stream.
    func send(_ change: CareChange) {
        sent.add(1, ordering: .releasing)
        for observer in observers.withLock({ $0 }) { observer(change) }
        let targets = listeners.withLock { Array($0.values) }
        for continuation in targets { continuation.yield(change) }
    }
}
