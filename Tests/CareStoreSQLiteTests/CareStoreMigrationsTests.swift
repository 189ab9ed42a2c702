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
                for table in ["version", "versionTag", "outcome"] { #expect(try db.tableExists(table), "\(table)") }
                #expect(try Set(db.columns(in: "version").map(\.name)) == [
                    "uuid", "kind", "id", "effectiveDate", "deletedDate", "previousVersionUUID", "nextVersionUUID",
                    "groupIdentifier", "remoteID", "parentUUID", "tags", "payload",
                ])
                #expect(try Set(db.columns(in: "outcome").map(\.name)) == ["uuid", "taskUUID", "occurrenceIndex", "createdDate", "deletedDate", "payload"])
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

    /// The queries the store makes find their rows through an index, not by scanning a table.
    @Test(arguments: [
        "SELECT payload FROM outcome WHERE taskUUID IN (?) AND occurrenceIndex BETWEEN ? AND ? AND deletedDate IS NULL",
        "SELECT payload FROM outcome WHERE taskUUID IN (?, ?, ?) AND deletedDate IS NULL",
        "SELECT payload FROM outcome WHERE uuid IN (?, ?)",
        "SELECT payload FROM version WHERE kind = ? AND id IN (?, ?)",
        "SELECT payload FROM version WHERE uuid IN (?)",
        "SELECT payload FROM version WHERE kind = ? AND parentUUID IN (?)",
        "SELECT payload FROM version WHERE kind = ? AND remoteID IN (?)",
        "SELECT payload FROM version WHERE kind = ? AND groupIdentifier IN (?)",
        "SELECT payload FROM version WHERE kind = ? AND uuid IN (SELECT versionUUID FROM versionTag WHERE tag IN (?))",
        "SELECT payload FROM version WHERE kind = ? AND effectiveDate < ?",
    ])
    func queriesUseIndexes(sql: String) async throws {
        let storage = try SQLiteCareStorage.inMemory()
        let plan = try await storage.database.read { db in
            let nulls = StatementArguments(Array(repeating: nil as String?, count: sql.count { $0 == "?" }))
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: nulls).map { $0["detail"] as String }
        }
        #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
    }
}
