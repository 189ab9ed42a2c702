import Synchronization
import Testing
import StudyKitEnvironment

/// One holder at a time, across suspension points, let in in the order they came.
@Suite("AsyncGate")
struct AsyncGateTests {
    /// Many tasks each read a counter, await, and write it back plus one: with the gate none of their increments is
    /// lost, and no two of them are ever inside at once.
    @Test func holdersNeverOverlapAcrossSuspensionPoints() async {
        let gate = AsyncGate()
        let state = Shared((count: 0, inside: 0, most: 0))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    await gate.withLock {
                        let seen = state.withLock { state -> Int in
                            state.inside += 1
                            state.most = max(state.most, state.inside)
                            return state.count
                        }
                        await Task.yield()
                        state.withLock { state in
                            state.count = seen + 1
                            state.inside -= 1
                        }
                    }
                }
            }
        }
        let final = state.withLock { $0 }
        #expect(final.count == 200 && final.most == 1)
    }

    /// A task that comes while the gate is held waits, and waiting tasks enter in the order they came.
    @Test func waitingTasksEnterInTheOrderTheyCame() async {
        let gate = AsyncGate()
        let order = Shared<[Int]>([])
        let (held, holding) = AsyncStream<Void>.makeStream()
        let (release, releasing) = AsyncStream<Void>.makeStream()
        let first = Task {
            await gate.withLock {
                holding.yield()
                for await _ in release { break }
                order.withLock { $0.append(0) }
            }
        }
        for await _ in held { break }
        var waiters: [Task<Void, Never>] = []
        for number in 1...5 {
            waiters.append(Task { await gate.withLock { order.withLock { $0.append(number) } } })
            // Each waiter is queued before the next one starts: it cannot enter, so it waits on the gate.
            while !gate.isContended(waiting: number) { await Task.yield() }
        }
        releasing.yield()
        await first.value
        for waiter in waiters { await waiter.value }
        #expect(order.withLock { $0 } == [0, 1, 2, 3, 4, 5])
    }
}

/// A value behind a lock that tasks share.
private final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func withLock<T>(_ body: (inout Value) -> T) -> T { value.withLock { body(&$0) } }
}
