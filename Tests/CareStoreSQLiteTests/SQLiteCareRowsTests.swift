import CareStore
import Foundation
import GRDB
import Testing
@testable import CareStoreSQLite

@Suite("SQLiteCareRows")
struct SQLiteCareRowsTests {
    /// Every query the storage makes finds its rows through the index meant for it, whatever the size of its
    /// sets: the statements each reader method runs are traced, and SQLite's plan for each is checked.
    @Test func everyQueryUsesItsIndex() async throws {
        let storage = try SQLiteCareStorage.inMemory()
        let failures = try await storage.database.write { db -> [String] in
            final class Statements { var sql: [String] = [] }
            let traced = Statements()
            db.trace { event in if case .statement(let statement) = event { traced.sql.append(statement.sql) } }
            defer { db.trace(nil) }
            let transaction = SQLiteCareRows(db)
            var failures: [String] = []
            /// Runs `call`, and notes a failure unless each SELECT it ran has a plan that uses every one of `indexes`
            /// and scans no table.
            func expect(_ indexes: [String], _ call: () throws -> Void) throws {
                traced.sql = []
                try call()
                let selects = traced.sql.filter { $0.hasPrefix("SELECT") }
                if selects.isEmpty { failures.append("no query for \(indexes)") }
                for sql in selects {
                    let nulls = StatementArguments(Array(repeating: nil as String?, count: sql.count { $0 == "?" }))
                    let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: nulls).map { $0["detail"] as String }
                    let scansATable = plan.contains { $0.hasPrefix("SCAN") && !$0.contains("json_each") }
                    if scansATable || !indexes.allSatisfy({ index in plan.contains { $0.contains("INDEX \(index) ") } }) {
                        failures.append("\(sql)\n  plan: \(plan)\n  expected: \(indexes)")
                    }
                }
            }
            for count in [1, 3, SQLiteCareRows.inlineLimit + 1] {
                let uuids = Set((0..<count).map { _ in UUID() })
                let texts = Set(uuids.map(\.uuidString))
                try expect(["version_on_kind_id"]) { _ = try transaction.versions(of: .task, ids: texts) }
                try expect(["sqlite_autoindex_version_1"]) { _ = try transaction.versions(uuids: uuids) }
                try expect(["sqlite_autoindex_outcome_1"]) { _ = try transaction.outcomes(uuids: uuids) }
                // Live outcomes through the index of live outcomes; every outcome, deleted too, through the full one.
                try expect(["outcome_live_on_taskUUID_occurrenceIndex"]) {
                    _ = try transaction.outcomes(taskUUIDs: uuids, occurrences: 3...9, includeDeleted: false)
                }
                let ranges = Dictionary(uniqueKeysWithValues: uuids.map { ($0, 3...9) })
                try expect(["outcome_live_on_taskUUID_occurrenceIndex"]) { _ = try transaction.liveOutcomes(in: ranges) }
                try expect(["outcome_live_on_taskUUID_occurrenceIndex"]) { _ = try transaction.liveOutcomeEvents(in: ranges) }
                try expect(["outcome_on_taskUUID_occurrenceIndex"]) {
                    _ = try transaction.outcomes(taskUUIDs: uuids, occurrences: nil, includeDeleted: true)
                }
                let filters: [(String, [String], (inout StoredVersionFilter) -> Void)] = [
                    ("ids", ["version_on_kind_id"], { $0.ids = texts }),
                    ("uuids", ["sqlite_autoindex_version_1"], { $0.uuids = uuids }),
                    ("remoteIDs", ["version_on_remoteID"], { $0.remoteIDs = texts }),
                    ("groupIdentifiers", ["version_on_groupIdentifier"], { $0.groupIdentifiers = texts }),
                    ("tags", ["versionTag_on_tag", "sqlite_autoindex_version_1"], { $0.tags = texts }),
                    ("parentUUIDs", ["version_on_parentUUID"], { $0.parentUUIDs = uuids }),
                ]
                for (_, indexes, configure) in filters {
                    for date in [nil, Date()] {
                        var filter = StoredVersionFilter()
                        configure(&filter)
                        filter.effectiveBefore = date
                        try expect(indexes) { _ = try transaction.versions(of: .contact, matching: filter) }
                    }
                }
            }
            var onlyDate = StoredVersionFilter()
            onlyDate.effectiveBefore = Date()
            try expect(["version_on_kind_effectiveDate"]) { _ = try transaction.versions(of: .task, matching: onlyDate) }
            return failures
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
