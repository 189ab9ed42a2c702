import Synchronization

/// A lock that a task holds across suspension points: one holder at a time, the others wait without blocking a thread
/// and are let in in the order they came.
///
/// What a storage transaction holds while its work awaits (a database connection lent to it, tables changed in place),
/// where a `Mutex` would block a thread and may not be held across an `await`.
///
/// ```swift
/// let gate = AsyncGate()
/// let total = try await gate.withLock { try await addUpRows() }
/// ```
///
/// A waiting task is not woken by cancellation: the work it waits to do is the kind that must run whole once begun.
public final class AsyncGate: Sendable {
    private struct State {
        var held = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var next = 0
    }

    private let state = Mutex(State())

    /// An open gate.
    public init() {}

    /// Runs `body` holding the gate, and lets the next waiting task in when it returns or throws.
    public func withLock<T>(_ body: () async throws -> T) async rethrows -> T {
        await enter()
        defer { leave() }
        return try await body()
    }

    /// Whether the gate is held with at least `waiting` tasks waiting for it (for tests that line tasks up).
    public func isContended(waiting: Int) -> Bool {
        state.withLock { $0.held && $0.waiting.count - $0.next >= waiting }
    }

    private func enter() async {
        let entered = state.withLock { state -> Bool in
            guard state.held else {
                state.held = true
                return true
            }
            return false
        }
        if entered { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let enteredMeanwhile = state.withLock { state -> Bool in
                guard state.held else {
                    state.held = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if enteredMeanwhile { continuation.resume() }
        }
    }

    private func leave() {
        // The gate passes straight to the first waiting task, which holds it when it resumes.
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.next < state.waiting.count else {
                state.held = false
                state.waiting.removeAll(keepingCapacity: true)
                state.next = 0
                return nil
            }
            let first = state.waiting[state.next]
            state.next += 1
            // Those let in leave the front of the queue now and then, so that a gate never free stays small.
            if state.next >= 64, state.next * 2 >= state.waiting.count {
                state.waiting.removeFirst(state.next)
                state.next = 0
            }
            return first
        }
        next?.resume()
    }
}
