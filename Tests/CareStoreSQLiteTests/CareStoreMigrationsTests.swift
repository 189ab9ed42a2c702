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

    @Test func reopeningAFileKeepsItsDataAndSchema() async throws {
        try await withTemporaryDatabase { database in
            let version = Fixture.version(id: "a", tags: ["t"])
            let outcome = Fixture.outcome(task: version.uuid, occurrence: 3)
            do {
                let storage = try SQLiteCareStorage(path: database.path)
                try await storage.write { try $0.insert(version); try $0.insert(outcome) }
            } // the pool closes here
            let reopened = try SQLiteCareStorage(path: database.path)
            try await reopened.read { (reader) throws in
                #expect(try reader.versions(uuids: [version.uuid]) == [version])
                #expect(try reader.outcomes(uuids: [outcome.uuid]) == [outcome])
            }
            let applied = try await reopened.database.read { try CareStoreMigrations.migrator.appliedMigrations($0) }
            #expect(applied == CareStoreMigrations.migrationNames)
        }
    }
}
