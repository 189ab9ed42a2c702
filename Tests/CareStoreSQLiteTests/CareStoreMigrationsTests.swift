import CareStore
import Foundation
import GRDB
import Testing
@testable import CareStoreSQLite

@Suite("CareStoreMigrations")
struct CareStoreMigrationsTests {
    @Test func aFreshFileGetsTheSchema() async throws {
        try await withTemporaryDatabase(file: "nested/folders/care.sqlite") { database in
            let storage = try SQLiteCareStorage(path: database.path)
            #expect(FileManager.default.fileExists(atPath: database.path))
            try await storage.database.read { db in
                #expect(try CareStoreMigrations.migrator.appliedMigrations(db) == CareStoreMigrations.migrationNames)
                for table in ["version", "versionTag", "outcome", "outcomeValue"] { #expect(try db.tableExists(table), "\(table)") }
                #expect(try Set(db.columns(in: "version").map(\.name)) == [
                    "uuid", "kind", "id", "effectiveDate", "deletedDate", "previousVersionUUID", "nextVersionUUID",
                    "groupIdentifier", "remoteID", "parentUUID", "tags", "payload",
                ])
                #expect(try Set(db.columns(in: "outcome").map(\.name)) == [
                    "id", "uuid", "taskUUID", "occurrenceIndex", "createdDate", "deletedDate", "timeZone", "remoteID", "source", "details",
                ])
                #expect(try Set(db.columns(in: "outcomeValue").map(\.name)) == [
                    "outcomeID", "position", "type", "value", "kind", "units", "createdDate",
                ])
                let indexes = try Set(["version", "versionTag", "outcome"].flatMap { try db.indexes(on: $0).map(\.name) })
                #expect(indexes.isSuperset(of: [
                    "version_on_kind_id", "version_on_kind_effectiveDate", "version_on_parentUUID", "version_on_remoteID",
                    "version_on_groupIdentifier", "versionTag_on_tag", "outcome_on_taskUUID_occurrenceIndex",
                ]))
            }
        }
    }

    /// Which events have a live outcome, asked for every task of a week on each daily page, is read from the index of
    /// live outcomes alone, never from the table.
    @Test func liveEventsAreReadFromTheIndexAlone() async throws {
        let storage = try SQLiteCareStorage.inMemory()
        let plan = try await storage.database.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + SQLiteCareRows.liveEventsSQL(count: 3),
                             arguments: StatementArguments([UUID(), 0, 9, UUID(), 0, 9, UUID(), 0, 9] as [(any DatabaseValueConvertible)?]))
                .map { $0["detail"] as String }
        }
        let searches = plan.filter { $0.hasPrefix("SEARCH") }
        #expect(searches.count == 3, "\(plan)")
        #expect(searches.allSatisfy { $0.contains("USING COVERING INDEX outcome_live_on_taskUUID_occurrenceIndex") }, "\(plan)")
    }

    @Test func reopeningAFileKeepsItsDataAndSchema() async throws {
        try await withTemporaryDatabase { database in
            let version = Fixture.version(id: "a", tags: ["t"])
            let outcome = Fixture.outcome(task: version.uuid, occurrence: 3)
            do {
                let storage = try SQLiteCareStorage(path: database.path)
                try await storage.write { try await $0.insert(version); try await $0.insert(outcome) }
            } // the pool closes here
            let reopened = try SQLiteCareStorage(path: database.path)
            try await reopened.read { (reader) throws in
                #expect(try await reader.versions(uuids: [version.uuid]) == [version])
                #expect(try await reader.outcomes(uuids: [outcome.uuid]) == [outcome])
            }
            let applied = try await reopened.database.read { try CareStoreMigrations.migrator.appliedMigrations($0) }
            #expect(applied == CareStoreMigrations.migrationNames)
        }
    }
}
