import CareStore
import CareStoreSQLite
import Foundation
import GRDB
import Testing

/// A care database opened read-only, as `studykit export` opens it beside a running server.
@Suite struct ReadOnlyCareStoreTests {
    @Test func readsWhatWasWrittenAndRefusesToWrite() async throws {
        try await withTemporaryDatabase { database in
            let writer = try SQLiteCareStore(path: database.path)
            _ = try await writer.add([CarePlan(id: "knee", title: "Knee rehabilitation", effectiveDate: Fixture.monday)])
            let reader = try SQLiteCareStore.readOnly(path: database.path)
            #expect(try await reader.fetch(CarePlan.self, query: CareQuery()).map(\.id) == ["knee"])
            await #expect(throws: (any Error).self) {
                try await reader.add([CarePlan(id: "hip", title: "Hip", effectiveDate: Fixture.monday)])
            }
            #expect(try await writer.fetch(CarePlan.self, query: CareQuery()).map(\.id) == ["knee"])
        }
    }

    @Test func aMissingFileOrAnotherSchemaIsNamed() async throws {
        try await withTemporaryDatabase { database in
            #expect(throws: SQLiteCareStorageOpenError.missing(path: database.path)) { try SQLiteCareStore.readOnly(path: database.path) }
            #expect(!FileManager.default.fileExists(atPath: database.path), "nothing is created")
            try FileManager.default.createDirectory(at: database.folder, withIntermediateDirectories: true)
            try DatabaseQueue(path: database.path).write { db in try db.execute(sql: "CREATE TABLE other (x)") }
            #expect(throws: SQLiteCareStorageOpenError.outdatedSchema(path: database.path)) { try SQLiteCareStore.readOnly(path: database.path) }
        }
    }
}
