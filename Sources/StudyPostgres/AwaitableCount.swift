import Synchronization

/// A count that only grows, and a way to wait until it reaches a number without polling: how the change feed tells
/// how many times it has listened and how many of other processes' notifications it has handled.
final class AwaitableCount: Sendable {
    private struct State {
        var value = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let state = Mutex(State())

    /// The count now.
    var value: Int { state.withLock { $0.value } }

    /// Adds one, and wakes whoever waits for the new count or less.
    func increment() {
        let ready = state.withLock { state in
            state.value += 1
            let value = state.value
            defer { state.waiters.removeAll { $0.count <= value } }
            return state.waiters.filter { $0.count <= value }
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Returns once the count is `count` or more.
    func wait(for count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.value >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
