import CareStore
import Foundation

/// A database path in a fresh temporary folder, removed by ``remove()``.
struct TemporaryDatabase {
    let folder: URL
    let path: String

    init(file: String = "care.sqlite") {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("carestore-sqlite-\(UUID().uuidString)", isDirectory: true)
        path = folder.appendingPathComponent(file).path
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Runs `body` with a path in a fresh temporary folder, and removes the folder afterwards.
func withTemporaryDatabase<T>(file: String = "care.sqlite", _ body: (TemporaryDatabase) async throws -> T) async throws -> T {
    let database = TemporaryDatabase(file: file)
    defer { database.remove() }
    return try await body(database)
}

/// Fixed dates, so that tests do not depend on the clock.
enum Fixture {
    /// 2026-03-02 00:00:00 UTC, a Monday.
    static let monday = Date(timeIntervalSince1970: 1_772_409_600)

    static func date(days: Double = 0, hours: Double = 0) -> Date {
        monday.addingTimeInterval(days * 86_400 + hours * 3_600)
    }

    /// A stored version with the given columns and a small JSON payload.
    static func version(_ kind: EntityKind = .task, id: String, uuid: UUID = UUID(), effective: Date = monday, deleted: Date? = nil,
                        previous: UUID? = nil, next: UUID? = nil, group: String? = nil, remoteID: String? = nil,
                        tags: [String] = [], parent: UUID? = nil) -> StoredVersion {
        StoredVersion(kind: kind, uuid: uuid, id: id, effectiveDate: effective, deletedDate: deleted, previousVersionUUID: previous,
                      nextVersionUUID: next, groupIdentifier: group, remoteID: remoteID, tags: tags, parentUUID: parent,
                      payload: Data(#"{"id":"\#(id)"}"#.utf8))
    }

    /// An outcome with one integer value.
    static func outcome(task: UUID, occurrence: Int, uuid: UUID = UUID(), created: Date? = nil) -> Outcome {
        var outcome = Outcome(taskUUID: task, occurrenceIndex: occurrence, values: [OutcomeValue(.integer(occurrence), kind: "count", units: "reps")],
                              uuid: uuid, timeZone: TimeZone(identifier: "Asia/Tokyo")!, notes: [Note(author: "nurse", content: "fine")],
                              tags: ["knee"], remoteID: "r-\(occurrence)", source: "test", userInfo: ["k": "v"])
        outcome.createdDate = created
        return outcome
    }
}

extension Array where Element == StoredVersion {
    /// The versions in UUID order, for comparing results that come in no particular order.
    var byUUID: [StoredVersion] { sorted { $0.uuid.uuidString < $1.uuid.uuidString } }
}

extension Array where Element == Outcome {
    /// The outcomes in UUID order, for comparing results that come in no particular order.
    var byUUID: [Outcome] { sorted { $0.uuid.uuidString < $1.uuid.uuidString } }
}
