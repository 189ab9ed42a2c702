import Foundation
import GRDB
import Study
import StudySQLite
import Testing

/// A study database opened read-only, as `studykit export` opens it: it reads what the server wrote, changes nothing,
/// and says clearly when there is no database or one of another schema.
@Suite struct ReadOnlyStudyStoreTests {
    @Test func readsWhatWasWrittenAndRefusesToWrite() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("study-readonly-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("study.sqlite").path
        let writer = try SQLiteStudyStore(path: path, environment: .live)
        let participant = try await writer.enrol(invitationCode: nil, timeZone: TimeZone(identifier: "Asia/Tokyo")!, language: "ja")

        let reader = try SQLiteStudyStore.readOnly(path: path)
        #expect(try await reader.participants().map(\.id) == [participant.id])
        await #expect(throws: (any Error).self) { try await reader.createInvitation(label: nil, expiresAt: nil) }
        #expect(try await writer.invitations().isEmpty, "the refused write left nothing behind")
    }

    @Test func aMissingFileOrAnotherSchemaIsNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("study-readonly-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("study.sqlite").path
        #expect(throws: SQLiteStudyStoreOpenError.missing(path: path)) { try SQLiteStudyStore.readOnly(path: path) }
        #expect(!FileManager.default.fileExists(atPath: path), "nothing is created")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE other (x)") }
        #expect(throws: SQLiteStudyStoreOpenError.outdatedSchema(path: path)) { try SQLiteStudyStore.readOnly(path: path) }
    }
}
