import CareStore
import Foundation
import Logging
import PostgresNIO
import StudyKitEnvironment

/// The storage's reads and writes inside one transaction on one leased connection, in SQL with bound parameters.
///
/// A set of values is bound as one array (`column = ANY($1)`), whatever its size: one statement, which PostgreSQL
/// answers through the column's index. Each method's statement is made by a static function of the same name
/// (`versionsQuery`, `outcomesQuery`, …), so that a test can ask PostgreSQL for its plan.
struct PostgresCareTransaction: CareStorageWriter, Sendable {
    let connection: PostgresConnection
    let schema: PostgresCareSchema
    let logger: Logger

    // MARK: - Reading

    func versions(of kind: EntityKind, ids: Set<String>) async throws -> [StoredVersion] {
        guard !ids.isEmpty else { return [] }
        var filter = StoredVersionFilter()
        filter.ids = ids
        return try await fetchVersions(Self.versionsQuery(in: schema, of: kind, matching: filter))
    }

    func versions(of kind: EntityKind, matching filter: StoredVersionFilter) async throws -> [StoredVersion] {
        try await fetchVersions(Self.versionsQuery(in: schema, of: kind, matching: filter))
    }

    func versions(uuids: Set<UUID>) async throws -> [StoredVersion] {
        guard !uuids.isEmpty else { return [] }
        return try await fetchVersions(Self.versionsQuery(in: schema, uuids: uuids))
    }

    func outcomes(taskUUIDs: Set<UUID>, occurrences: ClosedRange<Int>?, includeDeleted: Bool) async throws -> [Outcome] {
        try await fetchOutcomes(Self.outcomesQuery(in: schema, taskUUIDs: taskUUIDs, occurrences: occurrences, includeDeleted: includeDeleted))
    }

    func outcomes(uuids: Set<UUID>) async throws -> [Outcome] {
        guard !uuids.isEmpty else { return [] }
        return try await fetchOutcomes(Self.outcomesQuery(in: schema, uuids: uuids))
    }

    func liveOutcomes(in ranges: [UUID: ClosedRange<Int>]) async throws -> [Outcome] {
        guard !ranges.isEmpty else { return [] }
        return try await fetchOutcomes(Self.liveOutcomesQuery(in: schema, ranges: ranges))
    }

    func liveOutcomeEvents(in ranges: [UUID: ClosedRange<Int>]) async throws -> [(taskUUID: UUID, occurrenceIndex: Int)] {
        guard !ranges.isEmpty else { return [] }
        var events: [(taskUUID: UUID, occurrenceIndex: Int)] = []
        let rows = try await connection.query(Self.liveOutcomeEventsQuery(in: schema, ranges: ranges), logger: logger)
        for try await (task, occurrence) in rows.decode((UUID, Int64).self) {
            events.append((task, Int(occurrence)))
        }
        return events
    }

    /// The number the `versionRevision_raise` trigger raises with every statement that changes a version; read in the
    /// transaction's snapshot, so it goes with the versions the same transaction reads.
    func versionsRevision() async throws -> Int64? {
        let rows = try await connection.query(Self.versionsRevisionQuery(in: schema), logger: logger)
        var revision: Int64?
        for try await value in rows.decode(Int64.self) { revision = value }
        return revision
    }

    // MARK: - Writing

    func insert(_ version: StoredVersion) async throws {
        var binds = PostgresBindings(capacity: 12)
        binds.append(version.uuid)
        binds.append(version.kind.rawValue)
        binds.append(version.id)
        binds.append(PostgresTimestamp(version.effectiveDate))
        binds.append(version.deletedDate.map(PostgresTimestamp.init))
        binds.append(version.previousVersionUUID)
        binds.append(version.nextVersionUUID)
        binds.append(version.groupIdentifier)
        binds.append(version.remoteID)
        binds.append(version.parentUUID)
        binds.append(version.tags)
        try binds.append(version.payload)
        try await execute(PostgresQuery(unsafeSQL: """
            INSERT INTO \(schema.qualified("version")) (uuid, kind, id, effectiveDate, deletedDate, previousVersionUUID, nextVersionUUID,
                                 groupIdentifier, remoteID, parentUUID, tags, payload)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
            """, binds: binds))
    }

    /// Sets the next version of a version that has none; throws ``PostgresCareStorageError/versionAlreadyReplaced(_:)``
    /// for one that has (in a serializable transaction, a concurrent replacement is refused before this, as a
    /// serialization failure that ``PostgresCareStorage/write(_:)`` runs again).
    func setNextVersion(of uuid: UUID, to next: UUID) async throws {
        var binds = PostgresBindings(capacity: 2)
        binds.append(next)
        binds.append(uuid)
        let rows = try await connection.query(PostgresQuery(unsafeSQL: """
            UPDATE \(schema.qualified("version")) SET nextVersionUUID = $1 WHERE uuid = $2 AND nextVersionUUID IS NULL RETURNING uuid
            """, binds: binds), logger: logger)
        var updated = 0
        for try await _ in rows { updated += 1 }
        if updated == 0 {
            // No row without a next version: one with a next version means a fork refused; no row at all, nothing to link
            // (as the other backends, which update nothing).
            var binds = PostgresBindings(capacity: 1)
            binds.append(uuid)
            let existing = try await connection.query(PostgresQuery(unsafeSQL: "SELECT 1 FROM \(schema.qualified("version")) WHERE uuid = $1",
                                                                    binds: binds), logger: logger).collect()
            if !existing.isEmpty { throw PostgresCareStorageError.versionAlreadyReplaced(uuid) }
        }
    }

    func insert(_ outcome: Outcome) async throws {
        var binds = PostgresBindings(capacity: 10)
        binds.append(outcome.uuid)
        binds.append(outcome.taskUUID)
        binds.append(Int64(outcome.occurrenceIndex))
        binds.append(outcome.createdDate.map(PostgresTimestamp.init))
        binds.append(outcome.deletedDate.map(PostgresTimestamp.init))
        binds.append(outcome.timeZone.identifier)
        binds.append(outcome.remoteID)
        binds.append(outcome.source)
        binds.append(try StoredOutcomeValues.json(outcome.values))
        binds.append(try OutcomeDetails(outcome).json())
        try await execute(PostgresQuery(unsafeSQL: """
            INSERT INTO \(schema.qualified("outcome")) (uuid, taskUUID, occurrenceIndex, createdDate, deletedDate, timeZone, remoteID, source,
                                 outcomeValues, details)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb)
            """, binds: binds))
    }

    func markOutcomeDeleted(_ uuid: UUID, at date: Date) async throws {
        var binds = PostgresBindings(capacity: 2)
        binds.append(PostgresTimestamp(date))
        binds.append(uuid)
        try await execute(PostgresQuery(unsafeSQL: "UPDATE \(schema.qualified("outcome")) SET deletedDate = $1 WHERE uuid = $2", binds: binds))
    }

    func eraseOutcomes(ofTaskIDs taskIDs: Set<String>) async throws -> Set<String> {
        guard !taskIDs.isEmpty else { return [] }
        var binds = PostgresBindings(capacity: 2)
        binds.append(EntityKind.task.rawValue)
        binds.append(taskIDs.sorted())
        // Gone with their values (a jsonb column of the row), not marked deleted: only updates are refused by a trigger.
        let rows = try await connection.query(PostgresQuery(unsafeSQL: """
            DELETE FROM \(schema.qualified("outcome")) o USING \(schema.qualified("version")) v
            WHERE v.uuid = o.taskUUID AND v.kind = $1 AND v.id = ANY($2) RETURNING v.id
            """, binds: binds), logger: logger)
        var erased = Set<String>()
        for try await id in rows.decode(String.self) { erased.insert(id) }
        return erased
    }

    // MARK: - Statements

    /// The versions' columns, in the order ``fetchVersions(_:)`` reads them.
    private static let versionColumns = """
        uuid, kind, id, effectiveDate, deletedDate, previousVersionUUID, nextVersionUUID, groupIdentifier, remoteID, parentUUID, tags, payload
        """

    /// The versions of `kind` that pass `filter`: each set as `= ANY($n)` (tags: `&&`, the GIN index's operator).
    static func versionsQuery(in schema: PostgresCareSchema, of kind: EntityKind, matching filter: StoredVersionFilter) -> PostgresQuery {
        var binds = PostgresBindings()
        var conditions: [String] = []
        func condition(_ text: (String) -> String, _ bind: (inout PostgresBindings) -> Void) {
            bind(&binds)
            conditions.append(text("$\(binds.count)"))
        }
        condition({ "kind = \($0)" }) { $0.append(kind.rawValue) }
        if !filter.ids.isEmpty { condition({ "id = ANY(\($0))" }) { $0.append(Array(filter.ids)) } }
        if !filter.uuids.isEmpty { condition({ "uuid = ANY(\($0))" }) { $0.append(Array(filter.uuids)) } }
        if !filter.remoteIDs.isEmpty { condition({ "remoteID = ANY(\($0))" }) { $0.append(Array(filter.remoteIDs)) } }
        if !filter.groupIdentifiers.isEmpty { condition({ "groupIdentifier = ANY(\($0))" }) { $0.append(Array(filter.groupIdentifiers)) } }
        if !filter.tags.isEmpty { condition({ "tags && \($0)" }) { $0.append(Array(filter.tags)) } }
        if !filter.parentUUIDs.isEmpty { condition({ "parentUUID = ANY(\($0))" }) { $0.append(Array(filter.parentUUIDs)) } }
        if let date = filter.effectiveBefore { condition({ "effectiveDate < \($0)" }) { $0.append(PostgresTimestamp(date)) } }
        return PostgresQuery(unsafeSQL: "SELECT \(versionColumns) FROM \(schema.qualified("version")) WHERE " + conditions.joined(separator: " AND "),
                             binds: binds)
    }

    /// The versions with these UUIDs, of any kind.
    static func versionsQuery(in schema: PostgresCareSchema, uuids: Set<UUID>) -> PostgresQuery {
        var binds = PostgresBindings(capacity: 1)
        binds.append(Array(uuids))
        return PostgresQuery(unsafeSQL: "SELECT \(versionColumns) FROM \(schema.qualified("version")) WHERE uuid = ANY($1)", binds: binds)
    }

    /// The outcome's columns, in the order ``fetchOutcomes(_:)`` reads them.
    private static let outcomeColumns = """
        o.uuid, o.taskUUID, o.occurrenceIndex, o.createdDate, o.deletedDate, o.timeZone, o.remoteID, o.source, o.outcomeValues, o.details
        """

    /// Outcomes of the task versions (every one when the set is empty), in a range of occurrences, live or all.
    static func outcomesQuery(in schema: PostgresCareSchema, taskUUIDs: Set<UUID>, occurrences: ClosedRange<Int>?, includeDeleted: Bool) -> PostgresQuery {
        var binds = PostgresBindings()
        var conditions: [String] = []
        if !taskUUIDs.isEmpty {
            binds.append(Array(taskUUIDs))
            conditions.append("o.taskUUID = ANY($\(binds.count))")
        }
        if let occurrences {
            binds.append(Int64(occurrences.lowerBound))
            binds.append(Int64(occurrences.upperBound))
            conditions.append("o.occurrenceIndex BETWEEN $\(binds.count - 1) AND $\(binds.count)")
        }
        // Written as the index of live outcomes is (WHERE deletedDate IS NULL), so that the planner may use it.
        if !includeDeleted { conditions.append("o.deletedDate IS NULL") }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return PostgresQuery(unsafeSQL: "SELECT \(outcomeColumns) FROM \(schema.qualified("outcome")) o" + filter, binds: binds)
    }

    /// Outcomes with these UUIDs, deleted or not.
    static func outcomesQuery(in schema: PostgresCareSchema, uuids: Set<UUID>) -> PostgresQuery {
        var binds = PostgresBindings(capacity: 1)
        binds.append(Array(uuids))
        return PostgresQuery(unsafeSQL: "SELECT \(outcomeColumns) FROM \(schema.qualified("outcome")) o WHERE o.uuid = ANY($1)", binds: binds)
    }

    /// The ranges as three parallel arrays, a table of (task, first, last) rows by `unnest`.
    private static func rangeBinds(_ ranges: [UUID: ClosedRange<Int>]) -> PostgresBindings {
        var binds = PostgresBindings(capacity: 3)
        binds.append(ranges.map(\.key))
        binds.append(ranges.map { Int64($0.value.lowerBound) })
        binds.append(ranges.map { Int64($0.value.upperBound) })
        return binds
    }

    /// For each task version, a search of the index of live outcomes over its range: a lateral join, so that each
    /// range is its own index scan rather than one scan of every outcome of the tasks.
    private static func liveOutcomesJoin(_ schema: PostgresCareSchema, selecting columns: String) -> String {
        """
        SELECT \(columns) FROM unnest($1::uuid[], $2::bigint[], $3::bigint[]) AS r(task, first, last)
        CROSS JOIN LATERAL (SELECT * FROM \(schema.qualified("outcome")) o
                            WHERE o.taskUUID = r.task AND o.occurrenceIndex BETWEEN r.first AND r.last AND o.deletedDate IS NULL) o
        """
    }

    /// Live outcomes of several task versions, each over its own range of occurrences, in one statement.
    static func liveOutcomesQuery(in schema: PostgresCareSchema, ranges: [UUID: ClosedRange<Int>]) -> PostgresQuery {
        PostgresQuery(unsafeSQL: liveOutcomesJoin(schema, selecting: outcomeColumns), binds: rangeBinds(ranges))
    }

    /// The events with a live outcome of several task versions, each over its own range: from the index alone.
    static func liveOutcomeEventsQuery(in schema: PostgresCareSchema, ranges: [UUID: ClosedRange<Int>]) -> PostgresQuery {
        PostgresQuery(unsafeSQL: liveOutcomesJoin(schema, selecting: "o.taskUUID, o.occurrenceIndex"), binds: rangeBinds(ranges))
    }

    /// The revision of the versions.
    static func versionsRevisionQuery(in schema: PostgresCareSchema) -> PostgresQuery {
        PostgresQuery(unsafeSQL: "SELECT value FROM \(schema.qualified("versionRevision")) WHERE id = 1")
    }

    // MARK: - Rows

    private func execute(_ query: PostgresQuery) async throws {
        try await PostgresTransactionRunner.execute(query, on: connection, logger: logger)
    }

    private func fetchVersions(_ query: PostgresQuery) async throws -> [StoredVersion] {
        var versions: [StoredVersion] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (uuid, kindName, id, effective, deleted, previous, next, group, remoteID, parent, tags, payload)
                in rows.decode((UUID, String, String, PostgresTimestamp, PostgresTimestamp?, UUID?, UUID?, String?, String?, UUID?, [String], Data).self) {
            guard let kind = EntityKind(rawValue: kindName) else {
                throw PostgresCareStorageError.invalidValue(table: "version", column: "kind", value: kindName)
            }
            versions.append(StoredVersion(kind: kind, uuid: uuid, id: id, effectiveDate: effective.date, deletedDate: deleted?.date,
                                          previousVersionUUID: previous, nextVersionUUID: next, groupIdentifier: group,
                                          remoteID: remoteID, tags: tags, parentUUID: parent, payload: payload))
        }
        return versions
    }

    /// The time zones outcomes were recorded in, by identifier: looked up once, not for every outcome read.
    private static let timeZones = KeptValues<String, TimeZone>(capacity: 1_024)

    private func fetchOutcomes(_ query: PostgresQuery) async throws -> [Outcome] {
        var outcomes: [Outcome] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (uuid, taskUUID, occurrence, created, deleted, zoneName, remoteID, source, valuesJSON, detailsJSON)
                in rows.decode((UUID, UUID, Int64, PostgresTimestamp?, PostgresTimestamp?, String, String?, String?, String, String?).self) {
            let zone: TimeZone
            if let kept = Self.timeZones[zoneName] {
                zone = kept
            } else {
                guard let found = TimeZone(identifier: zoneName) else {
                    throw PostgresCareStorageError.invalidValue(table: "outcome", column: "timeZone", value: zoneName)
                }
                Self.timeZones.keep(found, for: zoneName)
                zone = found
            }
            guard let values = StoredOutcomeValues.values(json: valuesJSON) else {
                throw PostgresCareStorageError.invalidValue(table: "outcome", column: "outcomeValues", value: valuesJSON)
            }
            var outcome = Outcome(taskUUID: taskUUID, occurrenceIndex: Int(occurrence), values: values, uuid: uuid, timeZone: zone,
                                  remoteID: remoteID, source: source)
            outcome.createdDate = created?.date
            outcome.deletedDate = deleted?.date
            if let detailsJSON {
                guard let details = OutcomeDetails(json: detailsJSON) else {
                    throw PostgresCareStorageError.invalidValue(table: "outcome", column: "details", value: detailsJSON)
                }
                details.apply(to: &outcome)
            }
            outcomes.append(outcome)
        }
        return outcomes
    }
}
