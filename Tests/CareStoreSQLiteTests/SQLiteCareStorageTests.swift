import CareStore
import Foundation
import GRDB
import Synchronization
import Testing
@testable import CareStoreSQLite

@Suite("SQLiteCareStorage")
struct SQLiteCareStorageTests {
    struct Boom: Error, Equatable {}

    // MARK: - Versions

    @Test func aVersionRoundTripsEveryColumn() async throws {
        try await withTemporaryDatabase { database in
            let storage = try SQLiteCareStorage(path: database.path)
            // Sub-millisecond dates, repeated and ordered tags, every optional column set.
            let version = Fixture.version(.contact, id: "physio", effective: Date(timeIntervalSinceReferenceDate: 794_188_800.123_456_7),
                                          deleted: Date(timeIntervalSinceReferenceDate: 794_188_900.000_001), previous: UUID(), next: UUID(),
                                          group: "arm-a", remoteID: "remote-1", tags: ["b", "a", "b"], parent: UUID())
            let bare = Fixture.version(.patient, id: "p")
            try await storage.write { try await $0.insert(version); try await $0.insert(bare) }
            let read = try await storage.read { try await $0.versions(uuids: [version.uuid, bare.uuid, UUID()]) }
            #expect(read.byUUID == [version, bare].byUUID)
        }
    }

    @Test func versionsByKindAndIDs() async throws {
        let storage = try SQLiteCareStorage.inMemory()
        let a1 = Fixture.version(.task, id: "a"), a2 = Fixture.version(.task, id: "a", effective: Fixture.date(days: 1))
        let b = Fixture.version(.task, id: "b"), contactA = Fixture.version(.contact, id: "a")
        try await storage.write { writer in for version in [a1, a2, b, contactA] { try await writer.insert(version) } }
        try await storage.read { (reader) throws in
            #expect(try await reader.versions(of: .task, ids: ["a"]).byUUID == [a1, a2].byUUID)
            #expect(try await reader.versions(of: .task, ids: ["a", "b", "c"]).byUUID == [a1, a2, b].byUUID)
            #expect(try await reader.versions(of: .contact, ids: ["a"]) == [contactA])
            #expect(try await reader.versions(of: .carePlan, ids: ["a"]).isEmpty)
            #expect(try await reader.versions(of: .task, ids: []).isEmpty)
        }
    }

    @Test func versionsMatchingEachFilter() async throws {
        let storage = try SQLiteCareStorage.inMemory()
        let plan1 = UUID(), plan2 = UUID()
        let a = Fixture.version(.task, id: "a", effective: Fixture.date(days: 0), group: "g1", remoteID: "r1", tags: ["x", "y"], parent: plan1)
        let b = Fixture.version(.task, id: "b", effective: Fixture.date(days: 1), group: "g2", remoteID: "r2", tags: ["y"], parent: plan2)
        let c = Fixture.version(.task, id: "c", effective: Fixture.date(days: 2))
        let other = Fixture.version(.contact, id: "a", group: "g1", remoteID: "r1", tags: ["x"], parent: plan1)
        try await storage.write { writer in for version in [a, b, c, other] { try await writer.insert(version) } }

        func tasks(_ configure: (inout StoredVersionFilter) -> Void) async throws -> [StoredVersion] {
            var filter = StoredVersionFilter()
            configure(&filter)
            let chosen = filter
            return try await storage.read { try await $0.versions(of: .task, matching: chosen) }.byUUID
        }
        #expect(try await tasks { _ in } == [a, b, c].byUUID)
        #expect(try await tasks { $0.ids = ["a", "c"] } == [a, c].byUUID)
        #expect(try await tasks { $0.uuids = [b.uuid, other.uuid] } == [b])
        #expect(try await tasks { $0.remoteIDs = ["r1"] } == [a])
        #expect(try await tasks { $0.groupIdentifiers = ["g2", "nope"] } == [b])
        #expect(try await tasks { $0.tags = ["y"] } == [a, b].byUUID)
        #expect(try await tasks { $0.tags = ["x", "y"] } == [a, b].byUUID) // once each, though a has both
        #expect(try await tasks { $0.parentUUIDs = [plan1] } == [a])
        // effectiveBefore is strict: a version in effect exactly at the date is not before it.
        #expect(try await tasks { $0.effectiveBefore = Fixture.date(days: 1) } == [a])
        #expect(try await tasks { $0.effectiveBefore = Fixture.date(days: 1, hours: 1) } == [a, b].byUUID)
        // All conditions hold together.
        #expect(try await tasks { $0.tags = ["y"]; $0.groupIdentifiers = ["g1"] } == [a])
        #expect(try await tasks { $0.ids = ["a"]; $0.effectiveBefore = Fixture.date(days: -1) } == [])
    }

    @Test func settingTheNextVersion() async throws {
        let storage = try SQLiteCareStorage.inMemory()
        let first = Fixture.version(id: "a"), second = Fixture.version(id: "a", previous: first.uuid)
        try await storage.write { writer in
            try await writer.insert(first)
            try await writer.insert(second)
            try await writer.setNextVersion(of: first.uuid, to: second.uuid)
            try await writer.setNextVersion(of: UUID(), to: second.uuid) // no such version: nothing happens
        }
        let read = try await storage.read { try await $0.versions(uuids: [first.uuid]) }
        #expect(read.first?.nextVersionUUID == second.uuid)
    }

    // MARK: - Outcomes

    @Test func outcomesRoundTripAndFilter() async throws {
        try await withTemporaryDatabase { database in
            let storage = try SQLiteCareStorage(path: database.path)
            let task1 = UUID(), task2 = UUID()
            let created = Date(timeIntervalSinceReferenceDate: 794_188_800.987_654_3)
            let outcomes = (0..<5).map { Fixture.outcome(task: task1, occurrence: $0, created: created) } + [Fixture.outcome(task: task2, occurrence: 2)]
            try await storage.write { writer in for outcome in outcomes { try await writer.insert(outcome) } }
            let deletedAt = Date(timeIntervalSinceReferenceDate: 794_200_000.5)
            try await storage.write { try await $0.markOutcomeDeleted(outcomes[1].uuid, at: deletedAt) }
            let deleted = { var outcome = outcomes[1]; outcome.deletedDate = deletedAt; return outcome }()
            let live = outcomes.filter { $0.uuid != deleted.uuid }

            try await storage.read { (reader) throws in
                #expect(try await reader.outcomes(taskUUIDs: [task1], occurrences: nil, includeDeleted: false).byUUID == live.filter { $0.taskUUID == task1 }.byUUID)
                #expect(try await reader.outcomes(taskUUIDs: [task1], occurrences: nil, includeDeleted: true).byUUID == (live.filter { $0.taskUUID == task1 } + [deleted]).byUUID)
                #expect(try await reader.outcomes(taskUUIDs: [task1], occurrences: 1...3, includeDeleted: false).byUUID == [outcomes[2], outcomes[3]].byUUID)
                #expect(try await reader.outcomes(taskUUIDs: [task1, task2], occurrences: 2...2, includeDeleted: false).byUUID == [outcomes[2], outcomes[5]].byUUID)
                // No task UUIDs: every task.
                #expect(try await reader.outcomes(taskUUIDs: [], occurrences: 2...2, includeDeleted: false).byUUID == [outcomes[2], outcomes[5]].byUUID)
                #expect(try await reader.outcomes(taskUUIDs: [], occurrences: nil, includeDeleted: true).count == 6)
                #expect(try await reader.outcomes(taskUUIDs: [UUID()], occurrences: nil, includeDeleted: true).isEmpty)
                // By UUID, deleted or not.
                #expect(try await reader.outcomes(uuids: [deleted.uuid, outcomes[0].uuid, UUID()]).byUUID == [deleted, outcomes[0]].byUUID)
                #expect(try await reader.outcomes(uuids: []).isEmpty)
            }
        }
    }

    /// The day's outcomes are read with one SELECT per task version and no ORDER BY: each outcome still comes whole
    /// with its values in order of position, though several task versions' outcomes were written interleaved and in
    /// reverse, and though positions edited by hand under the store no longer follow the order the rows were written in.
    @Test func liveOutcomesComeWholeWithTheirValuesInOrderOfPosition() async throws {
        let storage = try SQLiteCareStorage.inMemory()
        let tasks = (0..<3).map { _ in UUID() }
        var outcomes: [Outcome] = []
        for occurrence in 0..<4 {
            for (index, task) in tasks.enumerated() {
                var outcome = Fixture.outcome(task: task, occurrence: occurrence)
                outcome.values = (0..<4).map { OutcomeValue(.text("\(index)-\(occurrence)-\($0)"), kind: "k\($0)") }
                outcomes.append(outcome)
            }
        }
        let written = outcomes
        try await storage.write { writer in for outcome in written.reversed() { try await writer.insert(outcome) } }
        let ranges = Dictionary(uniqueKeysWithValues: tasks.map { ($0, 1...3) })
        func read() async throws -> [Outcome] {
            let live = try await storage.read { try await $0.liveOutcomes(in: ranges) }
            #expect(Set(live.map(\.uuid)).count == live.count, "an outcome came in more than one piece")
            for task in tasks { #expect(live.filter { $0.taskUUID == task }.map(\.occurrenceIndex) == [1, 2, 3]) }
            // The same as the read that orders its rows.
            let ordered = try await storage.read { try await $0.outcomes(taskUUIDs: Set(tasks), occurrences: 1...3, includeDeleted: false) }
            #expect(live.byUUID == ordered.byUUID)
            return live
        }
        let expected = outcomes.filter { $0.occurrenceIndex >= 1 }
        #expect(try await read().byUUID == expected.byUUID)

        try await storage.database.write { db in try db.execute(sql: "UPDATE outcomeValue SET position = 10 - position") }
        let reversed = expected.map { outcome in
            var outcome = outcome
            outcome.values.reverse()
            return outcome
        }
        #expect(try await read().byUUID == reversed.byUUID)
    }

    /// A database edited by hand under the store: a value of the wrong kind in a column is refused with its table
    /// and column, by the reads behind the daily page (stepped directly) as by the others, never read as 0 or "".
    @Test func aValueOfTheWrongKindEditedIntoTheFileIsRefusedWithItsColumn() async throws {
        try await withTemporaryDatabase { database in
            let storage = try SQLiteCareStorage(path: database.path)
            let task = UUID()
            let outcome = Fixture.outcome(task: task, occurrence: 3)
            try await storage.write { try await $0.insert(outcome) }
            #expect(try await storage.read { try await $0.liveOutcomeEvents(in: [task: 0...5]) }.map(\.occurrenceIndex) == [3])
            #expect(try await storage.read { try await $0.liveOutcomes(in: [task: 0...5]) }.map(\.uuid) == [outcome.uuid])
            for (column, value, sql) in [("occurrenceIndex", "'three'", "UPDATE outcome SET occurrenceIndex = 'three'"),
                                         ("timeZone", "42", "UPDATE outcome SET timeZone = 42"),
                                         ("createdDate", "yesterday", "UPDATE outcome SET createdDate = 'yesterday'")] {
                try await storage.database.write { db in try db.execute(sql: sql) }
                let problem = SQLiteCareStorageError.self
                await #expect(throws: problem, "\(column) = \(value)") {
                    _ = try await storage.read { try await $0.outcomes(taskUUIDs: [task], occurrences: nil, includeDeleted: false) }
                }
                do {
                    _ = try await storage.read { try await $0.liveOutcomes(in: [task: Int.min...Int.max]) }
                    // Text sorts after every number in SQLite, so an occurrence edited into text falls outside any range.
                    if column != "occurrenceIndex" { Issue.record("\(column) = \(value) was read") }
                } catch let error as SQLiteCareStorageError {
                    #expect(error.table == "outcome" && error.column == column, "\(error)")
                }
                try await storage.database.write { db in
                    try db.execute(sql: "UPDATE outcome SET occurrenceIndex = 3, timeZone = 'Europe/Berlin', createdDate = 1.5")
                }
            }
        }
    }

    // MARK: - Large sets

    @Test func setsLargerThanSQLiteVariableLimit() async throws {
        try await withTemporaryDatabase { database in
            let storage = try SQLiteCareStorage(path: database.path)
            let count = 41_000
            let tasks = (0..<count).map { _ in UUID() }
            let outcomes = tasks.enumerated().map { Fixture.outcome(task: $1, occurrence: $0 % 7) }
            let versions = tasks.enumerated().map { Fixture.version(.task, id: "t\($0)", uuid: $1, tags: ["tag\($0)"]) }
            try await storage.write { writer in
                for outcome in outcomes { try await writer.insert(outcome) }
                for version in versions { try await writer.insert(version) }
            }
            let unknown = (0..<500).map { _ in UUID() }
            try await storage.read { (reader) throws in
                #expect(try await reader.outcomes(uuids: Set(outcomes.map(\.uuid) + unknown)).count == count)
                let byTask = try await reader.outcomes(taskUUIDs: Set(tasks + unknown), occurrences: 0...2, includeDeleted: false)
                #expect(byTask.count == outcomes.filter { $0.occurrenceIndex <= 2 }.count)
                #expect(Set(byTask.map(\.uuid)).count == byTask.count)
                #expect(try await reader.versions(uuids: Set(tasks + unknown)).count == count)
                #expect(try await reader.versions(of: .task, ids: Set((0..<count + 100).map { "t\($0)" })).count == count)
                var filter = StoredVersionFilter()
                filter.uuids = Set(tasks.prefix(40_500))
                filter.tags = Set((0..<count).map { "tag\($0)" })
                filter.ids = Set((0..<40_001).map { "t\($0)" })
                let matched = try await reader.versions(of: .task, matching: filter)
                #expect(matched.count == 40_001)
                #expect(Set(matched.map(\.uuid)).count == matched.count)
            }
        }
    }

    // MARK: - Transactions

    @Test func aWriteThatThrowsKeepsNothing() async throws {
        try await withTemporaryDatabase { database in
            let storage = try SQLiteCareStorage(path: database.path)
            let kept = Fixture.version(id: "kept")
            try await storage.write { try await $0.insert(kept) }
            let version = Fixture.version(id: "a"), outcome = Fixture.outcome(task: version.uuid, occurrence: 0)
            await #expect(throws: Boom.self) {
                try await storage.write { writer in
                    try await writer.insert(version)
                    try await writer.insert(outcome)
                    try await writer.setNextVersion(of: kept.uuid, to: version.uuid)
                    throw Boom()
                }
            }
            try await storage.read { (reader) throws in
                #expect(try await reader.versions(uuids: [version.uuid]).isEmpty)
                #expect(try await reader.outcomes(uuids: [outcome.uuid]).isEmpty)
                #expect(try await reader.versions(uuids: [kept.uuid]).first?.nextVersionUUID == nil)
            }
        }
    }

    @Test func aDatabaseErrorIsThrownAndRollsBackTheWrite() async throws {
        let storage = try SQLiteCareStorage.inMemory()
        let outcome = Fixture.outcome(task: UUID(), occurrence: 0)
        try await storage.write { try await $0.insert(outcome) }
        let other = Fixture.outcome(task: UUID(), occurrence: 1)
        await #expect(throws: DatabaseError.self) {
            try await storage.write { writer in
                try await writer.insert(other)
                try await writer.insert(outcome) // the same UUID again
            }
        }
        #expect(try await storage.read { try await $0.outcomes(uuids: [other.uuid]) }.isEmpty)
    }

    @Test func readersSeeCommittedWritesOnly() async throws {
        try await withTemporaryDatabase { database in
            let storage = try SQLiteCareStorage(path: database.path)
            let task = UUID()
            try await storage.write { try await $0.insert(Fixture.outcome(task: task, occurrence: 0)) }
            // While a write is open, a read sees the state before it.
            let seenDuringWrite = try await storage.write { writer in
                try await writer.insert(Fixture.outcome(task: task, occurrence: 1))
                let pool = try #require(storage.database as? DatabasePool)
                return try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outcome") ?? -1 }
            }
            #expect(seenDuringWrite == 1)
            #expect(try await storage.read { try await $0.outcomes(taskUUIDs: [task], occurrences: nil, includeDeleted: false) }.count == 2)
        }
    }

    @Test func theFileIsInWALModeAndCommitsWithFullSync() async throws {
        try await withTemporaryDatabase { database in
            let storage = try SQLiteCareStorage(path: database.path)
            let (journal, synchronous) = try await storage.database.write { db in
                (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
            }
            #expect(journal == "wal")
            #expect(synchronous == 2) // FULL, on the connection that commits
        }
    }

    @Test func processCrashDurabilityCommitsWithNormalSync() async throws {
        try await withTemporaryDatabase { database in
            let storage = try SQLiteCareStorage(path: database.path, durability: .processCrash)
            let (journal, synchronous) = try await storage.database.write { db in
                (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
            }
            #expect(journal == "wal")
            #expect(synchronous == 1) // NORMAL: the WAL is synced at checkpoints
        }
    }

    /// A read on the calling thread takes a reader of the pool, as a queued read does: it sees the last committed
    /// state, without waiting for a write that is open.
    @Test func readsOnTheCallingThreadDoNotWaitForAnOpenWrite() async throws {
        try await withTemporaryDatabase { database in
            let storage = try SQLiteCareStorage(path: database.path)
            let task = UUID()
            try await storage.write { try await $0.insert(Fixture.outcome(task: task, occurrence: 0)) }
            let writeIsOpen = Mutex(false)
            // The write stays open until the read has returned, suspended rather than holding a thread: a semaphore
            // waited on here held one of the two threads Swift's concurrency has on two cores, and with another test
            // holding the other, nothing could run the read that would signal it.
            let (readIsDone, markReadDone) = AsyncStream.makeStream(of: Void.self)
            let write = Task {
                try await storage.write { writer in
                    try await writer.insert(Fixture.outcome(task: task, occurrence: 1))
                    writeIsOpen.withLock { $0 = true }
                    for await _ in readIsDone {}
                }
            }
            while !writeIsOpen.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
            let seen = try await storage.read { try await $0.outcomes(taskUUIDs: [task], occurrences: nil, includeDeleted: false).count }
            markReadDone.finish()
            try await write.value
            #expect(seen == 1)
            #expect(try await storage.read { try await $0.outcomes(taskUUIDs: [task], occurrences: nil, includeDeleted: false) }.count == 2)
        }
    }

    /// A read on the calling thread is one transaction: a write another connection commits between two of its
    /// statements is not seen by the second, and the next read sees it.
    @Test func aReadOnTheCallingThreadSeesOneStateThroughout() async throws {
        try await withTemporaryDatabase { database in
            let storage = try SQLiteCareStorage(path: database.path)
            let other = try DatabaseQueue(path: database.path)
            let task = UUID()
            try await storage.write { try await $0.insert(Fixture.outcome(task: task, occurrence: 0)) }
            let counts = try await storage.read { reader in
                let before = try await reader.outcomes(taskUUIDs: [task], occurrences: nil, includeDeleted: false).count
                try await other.write { db in try SQLiteCareRows(db).insert(Fixture.outcome(task: task, occurrence: 1)) }
                return (before, try await reader.outcomes(taskUUIDs: [task], occurrences: nil, includeDeleted: false).count)
            }
            #expect(counts == (1, 1))
            #expect(try await storage.read { try await $0.outcomes(taskUUIDs: [task], occurrences: nil, includeDeleted: false) }.count == 2)
        }
    }

    /// A read on the calling thread whose body throws ends its transaction: the error reaches the caller, and every
    /// later read on the same connection starts afresh and sees later writes.
    @Test func aFailedReadOnTheCallingThreadLeavesNoTransactionOpen() async throws {
        try await withTemporaryDatabase { database in
            let storage = try SQLiteCareStorage(path: database.path)
            let task = UUID()
            for occurrence in 0..<3 {
                await #expect(throws: Boom.self) {
                    try await storage.read { reader in
                        _ = try await reader.outcomes(taskUUIDs: [task], occurrences: nil, includeDeleted: false)
                        throw Boom()
                    }
                }
                try await storage.write { try await $0.insert(Fixture.outcome(task: task, occurrence: occurrence)) }
                #expect(try await storage.read { try await $0.outcomes(taskUUIDs: [task], occurrences: nil, includeDeleted: false) }.count == occurrence + 1)
            }
            #expect(try await storage.database.unsafeRead { db in db.isInsideTransaction } == false)
        }
    }

    /// Reads reuse their connections and keep no more than their limit open (a read that finds them all busy opens one
    /// for itself, closed when it ends), and cannot write.
    @Test func callingThreadReadersReuseConnectionsWithinTheirLimit() async throws {
        try await withTemporaryDatabase { database in
            let storage = try SQLiteCareStorage(path: database.path)
            let readers = CallingThreadReaders(path: database.path, configuration: Configuration(), limit: 2)
            for _ in 0..<10 {
                let one = try await Self.select(1, on: readers)
                #expect(one == 1)
            }
            #expect(readers.openCount == 1)
            let nested = try await readers.withConnection { _ in
                try await readers.withConnection { _ in try await Self.select(3, on: readers) }
            }
            #expect(nested == 3)
            #expect(readers.openCount == 2)
            var refused = false
            do {
                try await readers.withConnection { queue in try Self.createTable(on: queue) }
            } catch is DatabaseError {
                refused = true
            }
            #expect(refused, "a reader cannot write")
            // The storage's own reads go on when they are nested past the limit.
            let task = UUID()
            try await storage.write { try await $0.insert(Fixture.outcome(task: task, occurrence: 0)) }
            #expect(try await storage.read { try await $0.outcomes(taskUUIDs: [task], occurrences: nil, includeDeleted: false) }.count == 1)
        }
    }

    private static func select(_ value: Int, on readers: CallingThreadReaders) async throws -> Int? {
        try await readers.withConnection { queue in try readSync(value, on: queue) }
    }

    private static func readSync(_ value: Int, on queue: DatabaseQueue) throws -> Int? {
        try queue.read { db in try Int.fetchOne(db, sql: "SELECT \(value)") }
    }

    private static func createTable(on queue: DatabaseQueue) throws {
        try queue.inDatabase { db in try db.execute(sql: "CREATE TABLE x (a)") }
    }
}
