import CareStore
import Foundation
import GRDB
import StudyKitEnvironment
import Synchronization
import Testing
@testable import CareStoreSQLite

/// The store's rules over SQLite, end to end. (The shared conformance suite covers the rules themselves.)
@Suite("SQLiteCareStore")
struct SQLiteCareStoreTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// A clock that moves only when told, and sequential UUIDs.
    final class Clock: Sendable {
        let now = Mutex(Fixture.monday)
        var environment: StudyKitEnvironment {
            StudyKitEnvironment(now: { self.now.withLock { $0 } }, makeUUID: { UUID() })
        }
    }

    func seed(_ store: SQLiteCareStore) async throws -> CareTask {
        let patient = try await store.add([Patient(id: "ana", name: PersonNameComponents(givenName: "Ana"), effectiveDate: Fixture.monday, timeZone: Self.utc)])[0]
        let plan = try await store.add([CarePlan(id: "knee", title: "Knee rehabilitation", patientUUID: patient.uuid, effectiveDate: Fixture.monday, timeZone: Self.utc)])[0]
        let task = CareTask(id: "stretch", title: "Stretch", schedule: .dailyAt(hour: 8, minute: 0, start: Fixture.monday, timeZone: Self.utc),
                            carePlanUUID: plan.uuid, effectiveDate: Fixture.monday, timeZone: Self.utc)
        return try await store.add([task])[0]
    }

    /// The store keeps the task versions it read while no version changes; a change made to the file by another
    /// process (here a second connection, as the `sqlite3` shell would) raises the revision the triggers keep, so
    /// the next read sees it. On the storage's own readers (which GRDB does not check for schema changes), a revision's
    /// row or table deleted under the store leaves reads answering.
    @Test func aVersionEditedUnderTheStoreIsSeenAtTheNextRead() async throws {
        try await withTemporaryDatabase { database in
            let store = try SQLiteCareStore(path: database.path, environment: Clock().environment)
            _ = try await seed(store)
            var query = CareQuery()
            query.ids = ["stretch"]
            let tuesday = DateInterval(start: Fixture.date(days: 1), duration: 86_400)
            #expect(try await store.events(taskQuery: query, window: tuesday).count == 1)

            let shell = try DatabaseQueue(path: database.path)
            let before = try await shell.read { db in try Int64.fetchOne(db, sql: "SELECT value FROM versionRevision") }
            // The task now takes effect a week later: nothing on Tuesday.
            try await shell.write { db in
                try db.execute(sql: "UPDATE version SET effectiveDate = ? WHERE id = 'stretch'",
                               arguments: [Fixture.date(days: 7).timeIntervalSinceReferenceDate])
            }
            let after = try await shell.read { db in try Int64.fetchOne(db, sql: "SELECT value FROM versionRevision") }
            try shell.close()
            #expect(after == before.map { $0 + 1 })
            #expect(try await store.events(taskQuery: query, window: tuesday).isEmpty)

            // Without the revision's row, then without its table, nothing is kept and reads still answer.
            let edits = ["UPDATE version SET effectiveDate = ? WHERE id = 'stretch'", "DELETE FROM versionRevision",
                         "DROP TRIGGER versionRevision_afterInsert", "DROP TRIGGER versionRevision_afterUpdate",
                         "DROP TRIGGER versionRevision_afterDelete", "DROP TABLE versionRevision"]
            let vandal = try DatabaseQueue(path: database.path)
            try await vandal.write { db in
                try db.execute(sql: edits[0], arguments: [Fixture.monday.timeIntervalSinceReferenceDate])
                try db.execute(sql: edits[1])
            }
            #expect(try await store.events(taskQuery: query, window: tuesday).count == 1)
            try await vandal.write { db in
                try db.execute(sql: edits[0], arguments: [Fixture.date(days: 7).timeIntervalSinceReferenceDate])
                for edit in edits.dropFirst(2) { try db.execute(sql: edit) }
            }
            #expect(try await store.events(taskQuery: query, window: tuesday).isEmpty)
            try vandal.close()
        }
    }

    @Test func aStoreInAFileKeepsEverythingAcrossReopening() async throws {
        try await withTemporaryDatabase { database in
            let clock = Clock()
            let task: CareTask
            do {
                let store = try SQLiteCareStore(path: database.path, environment: clock.environment)
                task = try await seed(store)
                _ = try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 1, values: [OutcomeValue(.boolean(true))], timeZone: Self.utc)])
                var updated = task
                updated.title = "Stretch gently"
                updated.version.effectiveDate = Fixture.date(days: 3)
                clock.now.withLock { $0 = Fixture.date(days: 2) }
                _ = try await store.update([updated])
            }
            let store = try SQLiteCareStore(path: database.path, environment: clock.environment)
            let versions = try await store.versions(of: CareTask.self, id: "stretch")
            #expect(versions.map(\.title) == ["Stretch", "Stretch gently"])
            #expect(versions[0].version.nextVersionUUIDs == [versions[1].uuid])
            let tuesday = DateInterval(start: Fixture.date(days: 1), duration: 86_400)
            let events = try await store.events(taskQuery: CareQuery(for: tuesday), window: tuesday)
            #expect(events.count == 1)
            #expect(events.first?.outcome?.values == [OutcomeValue(.boolean(true))])
            #expect(events.first?.progress.isCompleted == true)
            var byPlan = CareQuery()
            byPlan.carePlanIDs = ["knee"]
            #expect(try await store.fetch(CareTask.self, query: byPlan).map(\.title) == ["Stretch gently"])
        }
    }

    @Test func aRefusedChangeKeepsNothing() async throws {
        let store = try SQLiteCareStore.inMemory(environment: Clock().environment)
        let task = try await seed(store)
        let good = Outcome(taskUUID: task.uuid, occurrenceIndex: 0, values: [], timeZone: Self.utc)
        let bad = Outcome(taskUUID: task.uuid, occurrenceIndex: -1, values: [], timeZone: Self.utc)
        await #expect(throws: CareStoreError.noSuchOccurrence(taskID: "stretch", occurrenceIndex: -1)) {
            _ = try await store.addOutcomes([good, bad])
        }
        var query = OutcomeQuery()
        query.taskIDs = ["stretch"]
        #expect(try await store.fetchOutcomes(query: query).isEmpty)
    }

    @Test func outcomesAreUpdatedAndDeleted() async throws {
        let store = try SQLiteCareStore.inMemory(environment: Clock().environment)
        let task = try await seed(store)
        let added = try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 0, values: [OutcomeValue(.integer(1))], timeZone: Self.utc)])
        var changed = added[0]
        changed.values = [OutcomeValue(.integer(2))]
        let updated = try await store.updateOutcomes([changed])
        var query = OutcomeQuery()
        query.taskIDs = ["stretch"]
        #expect(try await store.fetchOutcomes(query: query).map(\.values) == [[OutcomeValue(.integer(2))]])
        _ = try await store.deleteOutcomes(updated)
        #expect(try await store.fetchOutcomes(query: query).isEmpty)
        let all = try await store.storage.read { try await $0.outcomes(taskUUIDs: [task.uuid], occurrences: nil, includeDeleted: true) }
        #expect(all.count == 2 && all.allSatisfy { $0.deletedDate != nil })
    }
}
