import CareStore
import Foundation
import GRDB

/// The storage primitives inside one transaction on a lent connection: each runs its SQL at once on the connection
/// (``SQLiteCareRows``), so a primitive that is asynchronous by its protocol costs SQLite nothing more.
final class SQLiteCareTransaction: CareStorageWriter {
    private let connection: SQLiteLentConnection
    /// The rows of this transaction, made on its first statement: they keep their prepared outcome statements for the
    /// rest of the transaction.
    private var rows: SQLiteCareRows?

    init(_ connection: SQLiteLentConnection) {
        self.connection = connection
    }

    private func onRows<T>(_ body: (SQLiteCareRows) throws -> T) throws -> T {
        try connection.run { db in
            let rows = self.rows ?? SQLiteCareRows(db)
            self.rows = rows
            return try body(rows)
        }
    }

    func versions(of kind: EntityKind, ids: Set<String>) throws -> [StoredVersion] {
        try onRows { try $0.versions(of: kind, ids: ids) }
    }

    func versions(of kind: EntityKind, matching filter: StoredVersionFilter) throws -> [StoredVersion] {
        try onRows { try $0.versions(of: kind, matching: filter) }
    }

    func versions(uuids: Set<UUID>) throws -> [StoredVersion] {
        try onRows { try $0.versions(uuids: uuids) }
    }

    func outcomes(taskUUIDs: Set<UUID>, occurrences: ClosedRange<Int>?, includeDeleted: Bool) throws -> [Outcome] {
        try onRows { try $0.outcomes(taskUUIDs: taskUUIDs, occurrences: occurrences, includeDeleted: includeDeleted) }
    }

    func outcomes(uuids: Set<UUID>) throws -> [Outcome] {
        try onRows { try $0.outcomes(uuids: uuids) }
    }

    func liveOutcomes(in ranges: [UUID: ClosedRange<Int>]) throws -> [Outcome] {
        try onRows { try $0.liveOutcomes(in: ranges) }
    }

    func liveOutcomeEvents(in ranges: [UUID: ClosedRange<Int>]) throws -> [(taskUUID: UUID, occurrenceIndex: Int)] {
        try onRows { try $0.liveOutcomeEvents(in: ranges) }
    }

    func versionsRevision() throws -> Int64? {
        try onRows { try $0.versionsRevision() }
    }

    func insert(_ version: StoredVersion) throws {
        try onRows { try $0.insert(version) }
    }

    func setNextVersion(of uuid: UUID, to next: UUID) throws {
        try onRows { try $0.setNextVersion(of: uuid, to: next) }
    }

    func insert(_ outcome: Outcome) throws {
        try onRows { try $0.insert(outcome) }
    }

    /// The batch in one access to the connection: a statement's own work, without a hop per outcome.
    func insert(contentsOf outcomes: [Outcome]) throws {
        try onRows { rows in for outcome in outcomes { try rows.insert(outcome) } }
    }

    func markOutcomeDeleted(_ uuid: UUID, at date: Date) throws {
        try onRows { try $0.markOutcomeDeleted(uuid, at: date) }
    }

    func eraseOutcomes(ofTaskIDs taskIDs: Set<String>) throws -> Set<String> {
        try onRows { try $0.eraseOutcomes(ofTaskIDs: taskIDs) }
    }
}
