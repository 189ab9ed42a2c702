import Foundation
import Testing
@testable import CareStore

/// Change streams: observed queries yield their first result, then one fresh result per write that changes it and
/// none for writes that do not; `changes()` yields one change per committed write.
///
/// No test waits for silence: to show that a write yielded nothing, a test makes a matching write after it and
/// checks that the next element is that write's result.
@Suite("Conformance: change streams")
struct ChangeStreamConformanceTests {
    let tokyo = Zone.tokyo

    @Test(arguments: CareStoreBackend.allCases)
    func observedEntitiesYieldOnlyWhenTheQueryResultChanges(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let plans = try await store.add([Make.plan("A", in: tokyo), Make.plan("B", in: tokyo)])
        var query = CareQuery()
        query.carePlanIDs = ["A"]
        var results = store.observe(CareTask.self, query: query).makeAsyncIterator()

        #expect(try await results.next()?.map(\.id) == [])

        _ = try await store.add([Make.task("a1", plan: plans[0], in: tokyo)])
        #expect(try await results.next()?.map(\.id) == ["a1"])

        // A task of another care plan changes nothing: the next element is the one after the next matching write,
        // which also shows that the write before yielded exactly one element.
        let b1 = try await store.add([Make.task("b1", plan: plans[1], in: tokyo)])[0]
        _ = try await store.add([Make.task("a2", plan: plans[0], in: tokyo)])
        #expect(try await results.next()?.map(\.id) == ["a1", "a2"])

        // Writes of other kinds and outcomes change nothing either.
        _ = try await store.add([Make.patient("p", in: tokyo)])
        _ = try await store.addOutcomes([Outcome(taskUUID: b1.uuid, occurrenceIndex: 0, values: [])])
        _ = try await store.delete([b1])
        var renamed = Make.task("a1", plan: plans[0], effective: date(2026, 3, 5, in: tokyo), in: tokyo)
        renamed.title = "renamed"
        _ = try await store.update([renamed])
        #expect(try await results.next()?.map { $0.title ?? "" } == ["renamed", "a2"])

        _ = try await store.delete([Make.task("a2", in: tokyo)])
        #expect(try await results.next()?.map(\.id) == ["a1"])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func observedEventsYieldForTheirOwnOutcomesOnly(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let tasks = try await store.add([Make.task("pill", hour: 8, in: tokyo), Make.task("walk", hour: 9, in: tokyo)])
        let (pill, walk) = (tasks[0], tasks[1])
        var query = CareQuery()
        query.ids = ["pill"]
        var results = store.observeEvents(taskQuery: query, window: days(from: (2026, 3, 2), to: (2026, 3, 4), in: tokyo)).makeAsyncIterator()

        let initial = try #require(try await results.next())
        #expect(initial.map(\.scheduleEvent.occurrence) == [1, 2])
        #expect(initial.allSatisfy { $0.outcome == nil })

        // An outcome of another task, then one of an event outside the window: nothing. Then one that counts.
        _ = try await store.addOutcomes([Outcome(taskUUID: walk.uuid, occurrenceIndex: 1, values: [])])
        _ = try await store.addOutcomes([Outcome(taskUUID: pill.uuid, occurrenceIndex: 5, values: [])])
        let outcome = try await store.addOutcomes([Outcome(taskUUID: pill.uuid, occurrenceIndex: 2, values: [OutcomeValue(.integer(1))])])[0]
        let fresh = try #require(try await results.next())
        #expect(fresh.map(\.outcome) == [nil, outcome])
        #expect(fresh.map(\.progress.isCompleted) == [false, true])

        _ = try await store.deleteOutcomes([outcome])
        #expect(try await results.next()?.map(\.outcome) == [nil, nil])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func anyFetchCanBeObserved(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let task = try await store.add([Make.task("pill", hour: 8, in: tokyo)])[0]
        let window = day(2026, 3, 2, in: tokyo)
        let cal = calendar(tokyo)
        var results = store.observe { try await $0.adherence(taskQuery: CareQuery(), window: window, calendar: cal) }.makeAsyncIterator()

        #expect(try await results.next()?.map(\.state) == [.progress(0)])
        _ = try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 0, values: [])]) // March 1: another day
        _ = try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 1, values: [])])
        #expect(try await results.next()?.map(\.state) == [.progress(1)])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func changesYieldOneChangePerCommittedWrite(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        var changes = store.changes().makeAsyncIterator()
        var others = store.changes().makeAsyncIterator()

        let plan = try await store.add([Make.plan("plan", in: tokyo)])[0]
        await #expect(throws: CareStoreError.self) { try await store.add([Make.plan("plan", in: tokyo)]) }
        let tasks = try await store.add([Make.task("pill", plan: plan, in: tokyo), Make.task("walk", plan: plan, in: tokyo)])
        await #expect(throws: CareStoreError.self) {
            try await store.addOutcomes([Outcome(taskUUID: tasks[0].uuid, occurrenceIndex: -1, values: [])])
        }
        let outcomes = try await store.addOutcomes([Outcome(taskUUID: tasks[0].uuid, occurrenceIndex: 0, values: []),
                                                    Outcome(taskUUID: tasks[1].uuid, occurrenceIndex: 0, values: [])])
        _ = try await store.update([Make.task("walk", plan: plan, effective: date(2026, 3, 3, in: tokyo), in: tokyo)])
        await #expect(throws: CareStoreError.self) {
            try await store.update([Make.task("walk", plan: plan, effective: date(2026, 3, 2, in: tokyo), in: tokyo)])
        }
        _ = try await store.updateOutcomes([outcomes[0]])
        _ = try await store.deleteOutcomes([outcomes[1]])
        await #expect(throws: CareStoreError.self) { try await store.deleteOutcomes([outcomes[1]]) }
        _ = try await store.delete([tasks[0]])
        _ = try await store.add([Make.patient("last", in: tokyo)])

        let expected = [
            CareChange(entities: [.carePlan: ["plan"]]),
            CareChange(entities: [.task: ["pill", "walk"]]),
            CareChange(outcomeTaskIDs: ["pill", "walk"]),
            CareChange(entities: [.task: ["walk"]]),
            CareChange(outcomeTaskIDs: ["pill"]),
            CareChange(outcomeTaskIDs: ["walk"]),
            CareChange(entities: [.task: ["pill"]]),
            CareChange(entities: [.patient: ["last"]]),
        ]
        for change in expected {
            #expect(await changes.next() == change)
            #expect(await others.next() == change)
        }
    }

    @Test(arguments: CareStoreBackend.allCases)
    func writesOfNothingYieldNoChange(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        var changes = store.changes().makeAsyncIterator()
        _ = try await store.add([CareTask]())
        _ = try await store.update([Patient]())
        _ = try await store.delete([Contact]())
        _ = try await store.addOutcomes([])
        _ = try await store.updateOutcomes([])
        _ = try await store.deleteOutcomes([])
        _ = try await store.add([Make.patient("p", in: tokyo)])
        #expect(await changes.next() == CareChange(entities: [.patient: ["p"]]))
    }

    @Test(arguments: CareStoreBackend.allCases)
    func theRevisionGrowsWithEveryCommittedWriteBeforeItReturns(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let start = store.revision
        let task = try await store.add([Make.task("pill", hour: 8, in: tokyo)])[0]
        #expect(store.revision == start + 1)
        _ = try await store.fetch(CareTask.self, query: CareQuery())
        _ = try await store.events(taskQuery: CareQuery(), window: day(2026, 3, 2, in: tokyo))
        #expect(store.revision == start + 1) // reads count nothing
        let outcome = try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 1, values: [])])[0]
        #expect(store.revision == start + 2)
        // A refused write (a second outcome for the same event) and an empty one commit nothing.
        await #expect(throws: (any Error).self) {
            try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 1, values: [])])
        }
        _ = try await store.deleteOutcomes([])
        #expect(store.revision == start + 2)
        _ = try await store.deleteOutcomes([outcome])
        #expect(store.revision == start + 3)
    }
}
