import Foundation
import Testing
@testable import CareStore

/// Versions: updates, the version in effect at a date, events from each version's own span, orphaned outcomes,
/// tombstones and re-adding a deleted id.
@Suite("Conformance: versioning")
struct VersioningConformanceTests {
    let berlin = Zone.berlin

    @Test(arguments: CareStoreBackend.allCases)
    func updateWritesALinkedVersionEffectiveFromItsDate(backend: CareStoreBackend) async throws {
        let clock = TestClock()
        let store = try await backend.makeStore(clock: clock)
        let first = try await store.add([Make.task("walk", title: "Walk", in: berlin)])[0]
        clock.advance(by: 3_600)
        var change = first
        change.title = "Walk further"
        change.version.effectiveDate = date(2026, 3, 10, in: berlin)

        let second = try await store.update([change])[0]

        #expect(second.uuid != first.uuid)
        #expect(second.title == "Walk further")
        #expect(second.effectiveDate == date(2026, 3, 10, in: berlin))
        #expect(second.version.previousVersionUUIDs == [first.uuid])
        #expect(second.version.nextVersionUUIDs.isEmpty)
        #expect(second.version.createdDate == first.version.createdDate)
        #expect(second.version.updatedDate == clock.now)
        #expect(second.version.deletedDate == nil)

        let versions = try await store.versions(of: CareTask.self, id: "walk")
        #expect(versions.map(\.uuid) == [first.uuid, second.uuid])
        #expect(versions[0].version.nextVersionUUIDs == [second.uuid])
        #expect(versions[0].title == "Walk")
        #expect(versions[1] == second)
        #expect(try await store.fetchOne(CareTask.self, id: "walk") == second)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func queryForAnIntervalReturnsTheVersionInEffectAtItsEnd(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let first = try await store.add([Make.task("walk", title: "v1", in: berlin)])[0]
        let second = try await store.update([Make.task("walk", effective: date(2026, 3, 10, in: berlin), title: "v2", in: berlin)])[0]
        let third = try await store.update([Make.task("walk", effective: date(2026, 3, 15, 12, in: berlin), title: "v3", in: berlin)])[0]

        func title(from start: Date, to end: Date) async throws -> String? {
            try await store.fetchOne(CareTask.self, id: "walk", at: DateInterval(start: start, end: end))?.title
        }
        #expect(try await title(from: date(2026, 3, 5, in: berlin), to: date(2026, 3, 9, in: berlin)) == "v1")
        // Spanning an update, the interval gets the version in effect at its end.
        #expect(try await title(from: date(2026, 3, 5, in: berlin), to: date(2026, 3, 12, in: berlin)) == "v2")
        // Ending exactly when v2 takes effect, the interval is still v1's.
        #expect(try await title(from: date(2026, 3, 9, in: berlin), to: date(2026, 3, 10, in: berlin)) == "v1")
        #expect(try await title(from: date(2026, 3, 9, in: berlin), to: date(2026, 3, 10, 0, 1, in: berlin)) == "v2")
        #expect(try await title(from: date(2026, 3, 15, in: berlin), to: date(2026, 3, 16, in: berlin)) == "v3")
        #expect(try await title(from: date(2026, 2, 1, in: berlin), to: date(2026, 2, 28, in: berlin)) == nil)
        #expect(try await store.fetchOne(CareTask.self, id: "walk")?.uuid == third.uuid)
        // A UUID filter applies to the version in effect: an old version's UUID finds it where it is in effect.
        var byUUID = CareQuery(for: day(2026, 3, 11, in: berlin))
        byUUID.uuids = [second.uuid]
        #expect(try await store.fetch(CareTask.self, query: byUUID).map(\.uuid) == [second.uuid])
        byUUID.uuids = [first.uuid]
        #expect(try await store.fetch(CareTask.self, query: byUUID).isEmpty)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func updateEarlierThanTheCurrentVersionIsRefused(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        _ = try await store.add([Make.task("walk", in: berlin)])
        _ = try await store.update([Make.task("walk", effective: date(2026, 3, 10, in: berlin), in: berlin)])
        await #expect(throws: CareStoreError.effectiveDateTooEarly(kind: .task, id: "walk", effectiveDate: date(2026, 3, 5, in: berlin),
                                                                   previous: date(2026, 3, 10, in: berlin))) {
            try await store.update([Make.task("walk", effective: date(2026, 3, 5, in: berlin), in: berlin)])
        }
        #expect(try await store.versions(of: CareTask.self, id: "walk").count == 2)
        await #expect(throws: CareStoreError.notFound(kind: .task, id: "run")) {
            try await store.update([Make.task("run", in: berlin)])
        }
    }

    @Test(arguments: CareStoreBackend.allCases)
    func eventsAcrossVersionsComeFromEachVersionsOwnSpan(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        // v1: daily at 08:00 from March 1; v2 from March 28 at noon: daily at 18:00, its schedule also from March 1.
        // Daylight saving time starts in Berlin on March 29.
        let first = try await store.add([Make.task("walk", hour: 8, text: "old", in: berlin)])[0]
        let second = try await store.update([
            Make.task("walk", hour: 18, effective: date(2026, 3, 28, 12, in: berlin), text: "new", in: berlin),
        ])[0]

        let events = try await store.events(taskQuery: CareQuery(), window: days(from: (2026, 3, 27), to: (2026, 3, 31), in: berlin))

        let seen = events.map { event in
            let time = wallClock(event.scheduleEvent.start, in: berlin)
            return "\(time.day) \(time.hour):\(time.minute) \(event.scheduleEvent.text ?? "-") #\(event.scheduleEvent.occurrence)"
        }
        #expect(seen == ["27 8:0 old #26", "28 8:0 old #27", "28 18:0 new #27", "29 18:0 new #28", "30 18:0 new #29"])
        #expect(events.map(\.task.uuid) == [first.uuid, first.uuid, second.uuid, second.uuid, second.uuid])
        #expect(events[3].scheduleEvent.start == Date(timeIntervalSince1970: 1_774_800_000)) // 2026-03-29T16:00:00Z, CEST
        #expect(events[2].scheduleEvent.start == Date(timeIntervalSince1970: 1_774_717_200)) // 2026-03-28T17:00:00Z, CET
    }

    @Test(arguments: CareStoreBackend.allCases)
    func updateThatWouldOrphanOutcomesIsRefusedNamingTheirDates(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let task = try await store.add([Make.task("walk", in: berlin)])[0]
        // Events at 08:00 Berlin (07:00 UTC in March before daylight saving time); occurrence 11 is March 12.
        _ = try await store.addOutcomes([
            Outcome(taskUUID: task.uuid, occurrenceIndex: 11, values: []),
            Outcome(taskUUID: task.uuid, occurrenceIndex: 3, values: []),
            Outcome(taskUUID: task.uuid, occurrenceIndex: 13, values: []),
        ])

        let effective = date(2026, 3, 10, in: berlin)
        let expected = CareStoreError.wouldOrphanOutcomes(taskID: "walk", effectiveDate: effective,
                                                          eventDates: [date(2026, 3, 12, 8, in: berlin), date(2026, 3, 14, 8, in: berlin)])
        let error = await #expect(throws: CareStoreError.self) {
            try await store.update([Make.task("walk", hour: 9, effective: effective, in: berlin)])
        }
        #expect(error == expected)
        let message = try #require(error).description
        #expect(message.contains("'walk'"))
        #expect(message.contains("2026-03-12T07:00:00Z"))
        #expect(message.contains("2026-03-14T07:00:00Z"))
        #expect(!message.contains("2026-03-04T07:00:00Z"))

        // An event that starts exactly when the new version takes effect would be orphaned too.
        await #expect(throws: CareStoreError.wouldOrphanOutcomes(taskID: "walk", effectiveDate: date(2026, 3, 14, 8, in: berlin),
                                                                  eventDates: [date(2026, 3, 14, 8, in: berlin)])) {
            try await store.update([Make.task("walk", hour: 9, effective: date(2026, 3, 14, 8, in: berlin), in: berlin)])
        }
        #expect(try await store.versions(of: CareTask.self, id: "walk").count == 1)

        // After the last outcome's event the update is accepted, and the outcomes stay with their events.
        let second = try await store.update([Make.task("walk", hour: 9, effective: date(2026, 3, 14, 8, 1, in: berlin), in: berlin)])[0]
        let events = try await store.events(taskQuery: CareQuery(), window: day(2026, 3, 14, in: berlin))
        #expect(events.map(\.task.uuid) == [task.uuid, second.uuid])
        #expect(events.map { $0.outcome?.occurrenceIndex } == [13, nil])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func deleteWritesATombstone(backend: CareStoreBackend) async throws {
        let clock = TestClock() // March 20, 12:00 UTC
        let store = try await backend.makeStore(clock: clock)
        let task = try await store.add([Make.task("walk", in: berlin)])[0]
        clock.advance(by: 60)

        let tombstone = try await store.delete([task])[0]

        #expect(tombstone.isDeleted)
        #expect(tombstone.version.deletedDate == clock.now)
        #expect(tombstone.effectiveDate == clock.now)
        #expect(tombstone.version.previousVersionUUIDs == [task.uuid])
        #expect(tombstone.uuid != task.uuid)
        #expect(try await store.fetchOne(CareTask.self, id: "walk") == nil)
        #expect(try await store.fetch(CareTask.self, query: CareQuery()).isEmpty)
        let versions = try await store.versions(of: CareTask.self, id: "walk")
        #expect(versions.map(\.uuid) == [task.uuid, tombstone.uuid])
        #expect(versions.last?.isDeleted == true)
        #expect(versions.first?.version.nextVersionUUIDs == [tombstone.uuid])
        // Before the delete, the task was in effect.
        #expect(try await store.fetchOne(CareTask.self, id: "walk", at: day(2026, 3, 15, in: berlin))?.uuid == task.uuid)
        // Its events end where the tombstone takes effect: March 20 at 08:00 is before, March 21 after.
        let events = try await store.events(taskQuery: CareQuery(), window: days(from: (2026, 3, 19), to: (2026, 3, 23), in: berlin))
        #expect(events.map { wallClock($0.scheduleEvent.start, in: berlin).day } == [19, 20])
        // A deleted entity cannot be deleted or updated again.
        await #expect(throws: CareStoreError.notFound(kind: .task, id: "walk")) { try await store.delete([task]) }
        await #expect(throws: CareStoreError.notFound(kind: .task, id: "walk")) { try await store.update([task]) }
    }

    @Test(arguments: CareStoreBackend.allCases)
    func deleteThatWouldOrphanLaterOutcomesIsRefused(backend: CareStoreBackend) async throws {
        let clock = TestClock() // March 20, 12:00 UTC
        let store = try await backend.makeStore(clock: clock)
        let task = try await store.add([Make.task("walk", in: berlin)])[0]
        let outcome = try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 24, values: [])])[0] // March 25
        await #expect(throws: CareStoreError.wouldOrphanOutcomes(taskID: "walk", effectiveDate: clock.now, eventDates: [date(2026, 3, 25, 8, in: berlin)])) {
            try await store.delete([task])
        }
        _ = try await store.deleteOutcomes([outcome])
        #expect(try await store.delete([task]).count == 1)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func deletedIDMayBeAddedAgainContinuingTheChain(backend: CareStoreBackend) async throws {
        let clock = TestClock()
        let store = try await backend.makeStore(clock: clock)
        let first = try await store.add([Make.plan("plan", in: berlin)])[0]
        let tombstone = try await store.delete([first])[0]
        clock.advance(by: 3_600)

        // Not before the tombstone...
        await #expect(throws: CareStoreError.effectiveDateTooEarly(kind: .carePlan, id: "plan", effectiveDate: date(2026, 3, 1, in: berlin),
                                                                   previous: tombstone.effectiveDate)) {
            try await store.add([Make.plan("plan", in: berlin)])
        }
        // ...but from it on.
        var again = Make.plan("plan", in: berlin, effective: clock.now)
        again.title = "Plan, again"
        let readded = try await store.add([again])[0]

        #expect(readded.version.previousVersionUUIDs == [tombstone.uuid])
        #expect(readded.version.createdDate == clock.now)
        #expect(readded.isDeleted == false)
        let versions = try await store.versions(of: CarePlan.self, id: "plan")
        #expect(versions.map(\.uuid) == [first.uuid, tombstone.uuid, readded.uuid])
        #expect(versions[1].version.nextVersionUUIDs == [readded.uuid])
        #expect(try await store.fetchOne(CarePlan.self, id: "plan") == readded)
        // Between the delete and the new version nothing is in effect.
        let gap = DateInterval(start: tombstone.effectiveDate, end: tombstone.effectiveDate + 1_800)
        #expect(try await store.fetchOne(CarePlan.self, id: "plan", at: gap) == nil)
        await #expect(throws: CareStoreError.alreadyExists(kind: .carePlan, id: "plan")) {
            try await store.add([again])
        }
    }

    @Test(arguments: CareStoreBackend.allCases)
    func aReaddedTaskOwnsItsEventsFromItsNewEffectiveDate(backend: CareStoreBackend) async throws {
        let clock = TestClock() // March 20, 12:00 UTC: 13:00 in Berlin
        let store = try await backend.makeStore(clock: clock)
        let first = try await store.add([Make.task("walk", hour: 8, in: berlin)])[0]
        _ = try await store.delete([first])
        let again = try await store.add([Make.task("walk", hour: 18, effective: date(2026, 3, 22, in: berlin), in: berlin)])[0]

        let events = try await store.events(taskQuery: CareQuery(), window: days(from: (2026, 3, 19), to: (2026, 3, 24), in: berlin))
        let seen = events.map { "\(wallClock($0.scheduleEvent.start, in: berlin).day) \(wallClock($0.scheduleEvent.start, in: berlin).hour)" }
        #expect(seen == ["19 8", "20 8", "22 18", "23 18"])
        #expect(events.map(\.task.uuid) == [first.uuid, first.uuid, again.uuid, again.uuid])
        // Between the delete and the new version, the task has no events to take outcomes.
        await #expect(throws: CareStoreError.self) {
            try await store.addOutcomes([Outcome(taskUUID: first.uuid, occurrenceIndex: 20, values: [])]) // March 21
        }
        await #expect(throws: CareStoreError.noSuchOccurrence(taskID: "walk", occurrenceIndex: 20)) {
            try await store.addOutcomes([Outcome(taskUUID: again.uuid, occurrenceIndex: 20, values: [])])
        }
        #expect(try await store.addOutcomes([Outcome(taskUUID: again.uuid, occurrenceIndex: 21, values: [])]).count == 1)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func anEventRunningIntoTheWindowComesFromTheVersionThatOwnsIt(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        // Daily at 23:30 for an hour, so each event runs into the next day; from 23:45 on March 9, daily at 09:00.
        let first = try await store.add([Make.task("night", hour: 23, start: date(2026, 3, 1, 23, 30, in: berlin), in: berlin)])[0]
        let window = day(2026, 3, 10, in: berlin)
        let before = try await store.events(taskQuery: CareQuery(), window: window)
        #expect(before.map(\.scheduleEvent.start) == [date(2026, 3, 9, 23, 30, in: berlin), date(2026, 3, 10, 23, 30, in: berlin)])

        let second = try await store.update([Make.task("night", hour: 9, effective: date(2026, 3, 9, 23, 45, in: berlin), in: berlin)])[0]
        let after = try await store.events(taskQuery: CareQuery(), window: window)
        #expect(after.map(\.scheduleEvent.start) == [date(2026, 3, 9, 23, 30, in: berlin), date(2026, 3, 10, 9, in: berlin)])
        #expect(after.map(\.task.uuid) == [first.uuid, second.uuid])
    }
}
