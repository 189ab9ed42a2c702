import Foundation
import Testing
@testable import CareStore

/// Outcomes: one live outcome per existing, unshadowed event; delete and replace; outcome queries.
@Suite("Conformance: outcomes")
struct OutcomeConformanceTests {
    let newYork = Zone.newYork

    @Test(arguments: CareStoreBackend.allCases)
    func outcomeForAnOccurrenceThatDoesNotExistIsRefused(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        // Three events: March 1, 2 and 3 at 08:00.
        let task = try await store.add([Make.task("pill", end: date(2026, 3, 4, in: newYork), in: newYork)])[0]
        for index in [3, 4, 1_000, -1] {
            await #expect(throws: CareStoreError.noSuchOccurrence(taskID: "pill", occurrenceIndex: index)) {
                try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: index, values: [])])
            }
        }
        let unknown = UUID()
        await #expect(throws: CareStoreError.unknownTaskVersion(unknown)) {
            try await store.addOutcomes([Outcome(taskUUID: unknown, occurrenceIndex: 0, values: [])])
        }
        #expect(try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 2, values: [])]).count == 1)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func outcomeForAnEventBeforeItsVersionTookEffectIsRefused(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        _ = try await store.add([Make.task("pill", in: newYork)])
        // The second version's schedule starts on March 1 too, but the version owns its events from March 10 only.
        let second = try await store.update([Make.task("pill", hour: 9, effective: date(2026, 3, 10, in: newYork), in: newYork)])[0]
        await #expect(throws: CareStoreError.noSuchOccurrence(taskID: "pill", occurrenceIndex: 2)) {
            try await store.addOutcomes([Outcome(taskUUID: second.uuid, occurrenceIndex: 2, values: [])])
        }
        #expect(try await store.addOutcomes([Outcome(taskUUID: second.uuid, occurrenceIndex: 9, values: [])]).count == 1)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func outcomeForAnEventThatANewerVersionShadowsIsRefused(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let first = try await store.add([Make.task("pill", in: newYork)])[0]
        // Daylight saving time starts in New York on March 8: the 08:00 event is at 12:00 UTC from then on.
        _ = try await store.update([Make.task("pill", hour: 9, effective: date(2026, 3, 10, in: newYork), in: newYork)])

        await #expect(throws: CareStoreError.shadowedOccurrence(taskID: "pill", occurrenceIndex: 11, eventStart: date(2026, 3, 12, 8, in: newYork),
                                                                newerVersionEffective: date(2026, 3, 10, in: newYork))) {
            try await store.addOutcomes([Outcome(taskUUID: first.uuid, occurrenceIndex: 11, values: [])])
        }
        #expect(date(2026, 3, 12, 8, in: newYork) == Date(timeIntervalSince1970: 1_773_316_800)) // 2026-03-12T12:00:00Z
        // The first version still owns its events before March 10.
        let kept = try await store.addOutcomes([Outcome(taskUUID: first.uuid, occurrenceIndex: 8, values: [])])
        #expect(kept.map(\.occurrenceIndex) == [8])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func outcomeForADeletedTaskIsRefused(backend: CareStoreBackend) async throws {
        let clock = TestClock() // March 20, 12:00 UTC
        let store = try await backend.makeStore(clock: clock)
        let task = try await store.add([Make.task("pill", in: newYork)])[0]
        let tombstone = try await store.delete([task])[0]
        // Events after the delete belong to no version.
        await #expect(throws: CareStoreError.self) {
            try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 22, values: [])])
        }
        await #expect(throws: CareStoreError.unknownTaskVersion(tombstone.uuid)) {
            try await store.addOutcomes([Outcome(taskUUID: tombstone.uuid, occurrenceIndex: 0, values: [])])
        }
        // Events before it still take outcomes (March 19, 08:00 EDT, was before the delete).
        #expect(try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 18, values: [])]).count == 1)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func secondLiveOutcomeForAnEventIsRefused(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let task = try await store.add([Make.task("pill", in: newYork)])[0]
        let first = try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 4, values: [OutcomeValue(.boolean(true))])])[0]

        await #expect(throws: CareStoreError.outcomeExists(taskID: "pill", occurrenceIndex: 4)) {
            try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 4, values: [OutcomeValue(.boolean(false))])])
        }
        // Handing the stored outcome back (same UUID) is no way around the rule.
        await #expect(throws: CareStoreError.outcomeExists(taskID: "pill", occurrenceIndex: 4)) {
            try await store.addOutcomes([first])
        }
        #expect(try await store.fetchOutcomes(query: OutcomeQuery()) == [first])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func secondOutcomeForAnEventInOneBatchIsRefused(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let task = try await store.add([Make.task("pill", in: newYork)])[0]
        await #expect(throws: CareStoreError.outcomeExists(taskID: "pill", occurrenceIndex: 5)) {
            try await store.addOutcomes([
                Outcome(taskUUID: task.uuid, occurrenceIndex: 5, values: []),
                Outcome(taskUUID: task.uuid, occurrenceIndex: 6, values: []),
                Outcome(taskUUID: task.uuid, occurrenceIndex: 5, values: []),
            ])
        }
        #expect(try await store.fetchOutcomes(query: OutcomeQuery()).isEmpty)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func afterDeletingAnOutcomeTheEventTakesANewOne(backend: CareStoreBackend) async throws {
        let clock = TestClock()
        let store = try await backend.makeStore(clock: clock)
        let task = try await store.add([Make.task("pill", in: newYork)])[0]
        let first = try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 4, values: [OutcomeValue(.integer(1))])])[0]
        clock.advance(by: 60)

        let deleted = try await store.deleteOutcomes([first])

        #expect(deleted.map(\.uuid) == [first.uuid])
        #expect(deleted.first?.deletedDate == clock.now)
        #expect(try await store.fetchOutcomes(query: OutcomeQuery()).isEmpty)
        #expect(try await store.events(taskQuery: CareQuery(), window: day(2026, 3, 5, in: newYork)).first?.outcome == nil)
        await #expect(throws: CareStoreError.outcomeNotFound(first.uuid)) { try await store.deleteOutcomes([first]) }

        let second = try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 4, values: [OutcomeValue(.integer(2))])])[0]
        #expect(try await store.fetchOutcomes(query: OutcomeQuery()) == [second])
        #expect(try await store.events(taskQuery: CareQuery(), window: day(2026, 3, 5, in: newYork)).first?.outcome == second)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func updateOutcomesReplacesValues(backend: CareStoreBackend) async throws {
        let clock = TestClock()
        let store = try await backend.makeStore(clock: clock)
        let task = try await store.add([Make.task("pain", in: newYork)])[0]
        let other = try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 2, values: [OutcomeValue(.integer(7), kind: "pain")])])[0]
        let first = try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 3, values: [OutcomeValue(.integer(6), kind: "pain")])])[0]
        clock.advance(by: 60)

        var change = first
        change.values = [OutcomeValue(.integer(4), kind: "pain"), OutcomeValue(.text("better"), kind: "note")]
        change.occurrenceIndex = 9 // an update keeps the outcome on its event
        let updated = try await store.updateOutcomes([change])[0]

        #expect(updated.values == change.values)
        #expect(updated.taskUUID == task.uuid)
        #expect(updated.occurrenceIndex == 3)
        #expect(updated.deletedDate == nil)
        let live = try await store.fetchOutcomes(query: OutcomeQuery())
        #expect(live == [other, updated])
        let events = try await store.events(taskQuery: CareQuery(), window: day(2026, 3, 4, in: newYork))
        #expect(events.first?.outcome?.values == change.values)

        var missing = first
        missing.uuid = UUID()
        await #expect(throws: CareStoreError.outcomeNotFound(missing.uuid)) { try await store.updateOutcomes([missing]) }
        if updated.uuid != first.uuid {
            // The replaced outcome is no longer live.
            await #expect(throws: CareStoreError.outcomeNotFound(first.uuid)) { try await store.updateOutcomes([change]) }
        }
    }

    @Test(arguments: CareStoreBackend.allCases)
    func oneOutcomeTwiceInOneChangeIsRefused(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let task = try await store.add([Make.task("pain", in: newYork)])[0]
        let first = try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 3, values: [OutcomeValue(.integer(6))])])[0]
        var change = first
        change.values = [OutcomeValue(.integer(5))]
        await #expect(throws: CareStoreError.self) { try await store.updateOutcomes([change, change]) }
        await #expect(throws: CareStoreError.self) { try await store.deleteOutcomes([first, first]) }
        #expect(try await store.fetchOutcomes(query: OutcomeQuery()) == [first])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func fetchOutcomesFiltersSortsAndPages(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let pill = try await store.add([Make.task("pill", hour: 8, in: newYork)])[0]
        let walk = try await store.add([Make.task("walk", hour: 7, in: newYork)])[0]
        let walk2 = try await store.update([Make.task("walk", hour: 19, effective: date(2026, 3, 5, in: newYork), in: newYork)])[0]
        var tagged = Outcome(taskUUID: pill.uuid, occurrenceIndex: 1, values: [], tags: ["late"], remoteID: "r-1")
        tagged.notes = [Note(content: "late")]
        let outcomes = try await store.addOutcomes([
            tagged,                                                                      // pill, March 2 08:00
            Outcome(taskUUID: pill.uuid, occurrenceIndex: 5, values: []),                // pill, March 6 08:00
            Outcome(taskUUID: walk.uuid, occurrenceIndex: 0, values: []),                // walk v1, March 1 07:00
            Outcome(taskUUID: walk2.uuid, occurrenceIndex: 5, values: [], tags: ["late"]), // walk v2, March 6 19:00
        ])
        func uuids(_ configure: (inout OutcomeQuery) -> Void) async throws -> [UUID] {
            var query = OutcomeQuery()
            configure(&query)
            return try await store.fetchOutcomes(query: query).map(\.uuid)
        }
        let (pill1, pill5, walk0, walk5) = (outcomes[0].uuid, outcomes[1].uuid, outcomes[2].uuid, outcomes[3].uuid)

        #expect(try await uuids { _ in } == [walk0, pill1, pill5, walk5])
        #expect(try await uuids { $0.ascending = false } == [walk5, pill5, pill1, walk0])
        #expect(try await uuids { $0.taskIDs = ["walk"] } == [walk0, walk5])
        #expect(try await uuids { $0.taskUUIDs = [walk2.uuid] } == [walk5])
        #expect(try await uuids { $0.taskIDs = ["walk"]; $0.taskUUIDs = [walk.uuid] } == [walk0])
        #expect(try await uuids { $0.taskIDs = ["walk"]; $0.taskUUIDs = [pill.uuid] } == []) // both must hold
        #expect(try await uuids { $0.taskIDs = ["nothing"] } == [])
        #expect(try await uuids { $0.uuids = [pill5, walk0] } == [walk0, pill5])
        #expect(try await uuids { $0.remoteIDs = ["r-1"] } == [pill1])
        #expect(try await uuids { $0.tags = ["late"] } == [pill1, walk5])
        #expect(try await uuids { $0.dateInterval = days(from: (2026, 3, 2), to: (2026, 3, 7), in: newYork) } == [pill1, pill5, walk5])
        #expect(try await uuids { $0.dateInterval = day(2026, 3, 6, in: newYork); $0.ascending = false } == [walk5, pill5])
        #expect(try await uuids { $0.offset = 1; $0.limit = 2 } == [pill1, pill5])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func concurrentOutcomesForOneEventLeaveExactlyOne(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let task = try await store.add([Make.task("pill", in: newYork)])[0]
        let accepted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for attempt in 0..<12 {
                group.addTask {
                    do {
                        _ = try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 3, values: [OutcomeValue(.integer(attempt))])])
                        return true
                    } catch CareStoreError.outcomeExists {
                        return false
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(accepted == 1)
        #expect(try await store.fetchOutcomes(query: OutcomeQuery()).count == 1)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func concurrentAddsOfOneIDLeaveExactlyOne(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let accepted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for hour in 0..<12 {
                group.addTask {
                    do {
                        _ = try await store.add([Make.task("pill", hour: hour, in: newYork)])
                        return true
                    } catch CareStoreError.alreadyExists {
                        return false
                    } catch {
                        // Any other refusal fails the test with the database's own words (postgres-nio's errors describe
                        // themselves generically unless reflected): seen once under a full parallel run, not since.
                        Issue.record("an add failed otherwise than as already existing: \(String(reflecting: error))")
                        return false
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(accepted == 1)
        #expect(try await store.versions(of: CareTask.self, id: "pill").count == 1)
    }
}
