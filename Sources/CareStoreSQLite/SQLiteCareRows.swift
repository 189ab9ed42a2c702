import CareStore
import Foundation
import GRDB
import StudyKitEnvironment

/// The storage's reads and writes on a connection inside its transaction, in SQL with bound arguments: what
/// ``SQLiteCareTransaction`` runs for each primitive.
///
/// Sets of values become `column IN (?, …)`; a set larger than ``inlineLimit`` is bound instead as one JSON array
/// read by `json_each`, so no set can reach SQLite's limit on variables in a statement (32,766) and no row is
/// returned twice, as it could be when a query is split into chunks.
struct SQLiteCareRows {
    let db: Database

    /// The most values of one set bound as separate variables.
    static let inlineLimit = 500
    /// Statements whose sets are all this small are prepared once per connection and reused.
    private static let cachedSetLimit = 8

    /// Writes outcome rows, keeping its statements for the rest of the transaction.
    private let outcomeRows: OutcomeRowWriter

    init(_ db: Database) {
        self.db = db
        outcomeRows = OutcomeRowWriter(db: db)
    }

    // MARK: - Reading

    func versions(of kind: EntityKind, ids: Set<String>) throws -> [StoredVersion] {
        guard !ids.isEmpty else { return [] }
        var query = Query()
        query.where("kind = ?", kind.rawValue)
        query.where("id", in: ids)
        return try fetchVersions(query)
    }

    func versions(of kind: EntityKind, matching filter: StoredVersionFilter) throws -> [StoredVersion] {
        // SQLite keeps no statistics here, and without them it prefers the (kind, effectiveDate) index to any other,
        // which reads every version of the kind. A unary + keeps a column's index out of the choice: when a set
        // names the versions, SQLite finds them through that set's index, and filters on kind and date after.
        let namedByOtherSets = !(filter.uuids.isEmpty && filter.remoteIDs.isEmpty && filter.groupIdentifiers.isEmpty
                                 && filter.tags.isEmpty && filter.parentUUIDs.isEmpty)
        let namedBySets = namedByOtherSets || !filter.ids.isEmpty
        var query = Query()
        query.where(namedByOtherSets ? "+kind = ?" : "kind = ?", kind.rawValue)
        query.where("id", in: filter.ids)
        query.where("uuid", inUUIDs: filter.uuids)
        query.where("remoteID", in: filter.remoteIDs)
        query.where("groupIdentifier", in: filter.groupIdentifiers)
        query.where("parentUUID", inUUIDs: filter.parentUUIDs)
        if !filter.tags.isEmpty {
            query.where("uuid IN (SELECT versionUUID FROM versionTag WHERE tag", in: filter.tags, closing: ")")
        }
        if let date = filter.effectiveBefore {
            query.where(namedBySets ? "+effectiveDate < ?" : "effectiveDate < ?", date.timeIntervalSinceReferenceDate)
        }
        return try fetchVersions(query)
    }

    /// The number the `versionRevision` triggers raise with every change to a version; nil when its row or its table
    /// is missing (a file of an older StudyKit opened for reading, or someone's shell deleted it under the server), so
    /// that nothing is kept and every read goes to the versions themselves.
    func versionsRevision() throws -> Int64? {
        do {
            // Read on every page's care read: stepped directly (SQLiteStatementAccess). A value that is no integer keeps nothing.
            var revision: Int64?
            try SQLiteStatementAccess.rows(of: db.cachedStatement(sql: "SELECT value FROM versionRevision WHERE id = 1"), in: db,
                                           bind: { _ in }) { row in revision = row.int(0).map(Int64.init) }
            return revision
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            if try !db.tableExists("versionRevision") { return nil }
            throw error
        }
    }

    func versions(uuids: Set<UUID>) throws -> [StoredVersion] {
        guard !uuids.isEmpty else { return [] }
        var query = Query()
        query.where("uuid", inUUIDs: uuids)
        return try fetchVersions(query)
    }

    func outcomes(taskUUIDs: Set<UUID>, occurrences: ClosedRange<Int>?, includeDeleted: Bool) throws -> [Outcome] {
        var query = Query()
        query.where("o.taskUUID", inUUIDs: taskUUIDs) // an empty set: every task
        if let occurrences {
            query.where("o.occurrenceIndex BETWEEN ? AND ?", occurrences.lowerBound, occurrences.upperBound)
        }
        if !includeDeleted { query.where("o.deletedDate IS NULL") }
        return try fetchOutcomes(query)
    }

    func outcomes(uuids: Set<UUID>) throws -> [Outcome] {
        guard !uuids.isEmpty else { return [] }
        var query = Query()
        query.where("o.uuid", inUUIDs: uuids)
        return try fetchOutcomes(query)
    }

    func liveOutcomes(in ranges: [UUID: ClosedRange<Int>]) throws -> [Outcome] {
        var outcomes: [Outcome] = []
        for group in Self.rangeGroups(ranges) {
            let statement = try db.cachedStatement(sql: Self.liveOutcomesSQL(count: group.count))
            try appendOutcomes(to: &outcomes) { row in
                try SQLiteStatementAccess.rows(of: statement, in: db, bind: { Self.bind(group, to: &$0) }, row)
            }
        }
        return outcomes
    }

    /// The statement of ``liveOutcomes(in:)`` for `count` task versions, bound as ``rangeGroups(_:)`` binds them: one
    /// SELECT per task version, joined by UNION ALL, each answered by one search of the index of live outcomes. There
    /// is no ORDER BY, which made SQLite gather the matching rows, read them, then sort them all in a temporary
    /// B-tree: each outcome's rows still come together, its values in order of position, since the left table of a
    /// LEFT JOIN is always SQLite's outer loop and `outcomeValue`'s primary key is (outcomeID, position); the
    /// outcomes of one task version come in order of occurrence.
    static func liveOutcomesSQL(count: Int) -> String {
        liveOutcomesStatements.value(for: count) {
            repeatElement("SELECT " + outcomeColumns + " FROM " + outcomeTables
                            + " WHERE o.taskUUID = ? AND o.occurrenceIndex BETWEEN ? AND ? AND o.deletedDate IS NULL", count: count)
                .joined(separator: " UNION ALL ")
        }
    }

    private static let liveOutcomesStatements = KeptValues<Int, String>(capacity: rangesPerStatement)

    /// The task versions of `ranges` in groups of at most ``rangesPerStatement`` (in any order: each appears in one
    /// group only).
    private static func rangeGroups(_ ranges: [UUID: ClosedRange<Int>]) -> [ArraySlice<(key: UUID, value: ClosedRange<Int>)>] {
        let entries = Array(ranges)
        return stride(from: 0, to: entries.count, by: rangesPerStatement).map { start in
            entries[start..<min(entries.count, start + rangesPerStatement)]
        }
    }

    /// Binds a group of ``rangeGroups(_:)`` as its statements name them: each task version's UUID, then the first and
    /// the last occurrence of its range.
    private static func bind(_ group: ArraySlice<(key: UUID, value: ClosedRange<Int>)>, to binder: inout SQLiteStatementAccess.Binder) {
        for (task, range) in group {
            binder.bind(task)
            binder.bind(Int64(range.lowerBound))
            binder.bind(Int64(range.upperBound))
        }
    }

    func liveOutcomeEvents(in ranges: [UUID: ClosedRange<Int>]) throws -> [(taskUUID: UUID, occurrenceIndex: Int)] {
        var events: [(taskUUID: UUID, occurrenceIndex: Int)] = []
        for group in Self.rangeGroups(ranges) {
            // One SELECT per task version, joined by UNION ALL: each is answered from the index of live outcomes
            // alone, and names its task version by its place in the group rather than by a UUID read per row.
            let statement = try db.cachedStatement(sql: Self.liveEventsSQL(count: group.count))
            try SQLiteStatementAccess.rows(of: statement, in: db, bind: { Self.bind(group, to: &$0) }) { row in
                // The place is the statement's own constant; the occurrence is the table's, checked as any column read.
                guard let place = row.int(0), group.indices.contains(group.startIndex + place) else {
                    throw SQLiteCareStorageError(table: "outcome", column: "taskUUID", value: "\(row.value(0))")
                }
                guard let occurrence = row.int(1) else {
                    throw SQLiteCareStorageError(table: "outcome", column: "occurrenceIndex", value: "\(row.value(1))")
                }
                events.append((group[group.startIndex + place].key, occurrence))
            }
        }
        return events
    }

    /// The statement of ``liveOutcomeEvents(in:)`` for `count` task versions, each bound as its UUID and the first
    /// and last occurrence of its range; a row gives the task version's place in the statement and an occurrence.
    static func liveEventsSQL(count: Int) -> String {
        liveEventsStatements.value(for: count) {
            (0..<count).map { index in
                "SELECT \(index), occurrenceIndex FROM outcome WHERE taskUUID = ? AND occurrenceIndex BETWEEN ? AND ? AND deletedDate IS NULL"
            }.joined(separator: " UNION ALL ")
        }
    }

    private static let liveEventsStatements = KeptValues<Int, String>(capacity: rangesPerStatement)

    /// The most task versions in one statement of ``liveOutcomes(in:)`` or ``liveOutcomeEvents(in:)`` (three variables
    /// each; SQLite allows 500 SELECTs joined by UNION ALL).
    static let rangesPerStatement = 200

    // MARK: - Writing

    func insert(_ version: StoredVersion) throws {
        let tags = try StringListJSON.encode(version.tags)
        try db.cachedStatement(sql: """
            INSERT INTO version (uuid, kind, id, effectiveDate, deletedDate, previousVersionUUID, nextVersionUUID,
                                 groupIdentifier, remoteID, parentUUID, tags, payload)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
            version.uuid, version.kind.rawValue, version.id, version.effectiveDate.timeIntervalSinceReferenceDate,
            version.deletedDate?.timeIntervalSinceReferenceDate, version.previousVersionUUID,
            version.nextVersionUUID, version.groupIdentifier, version.remoteID, version.parentUUID,
            tags, version.payload,
        ])
        let insertTag = try db.cachedStatement(sql: "INSERT INTO versionTag (versionUUID, tag) VALUES (?, ?)")
        for tag in Set(version.tags) {
            try insertTag.execute(arguments: [version.uuid, tag])
        }
    }

    func setNextVersion(of uuid: UUID, to next: UUID) throws {
        try db.cachedStatement(sql: "UPDATE version SET nextVersionUUID = ? WHERE uuid = ?")
            .execute(arguments: [next, uuid])
    }

    func insert(_ outcome: Outcome) throws {
        try outcomeRows.insert(outcome)
    }

    func markOutcomeDeleted(_ uuid: UUID, at date: Date) throws {
        try db.cachedStatement(sql: "UPDATE outcome SET deletedDate = ? WHERE uuid = ?")
            .execute(arguments: [date.timeIntervalSinceReferenceDate, uuid])
    }

    /// Deletes every outcome of every version of the tasks `taskIDs` with its values (the values first, while their
    /// outcome still names them in an audit trail's rows); returns the task ids that had outcomes.
    func eraseOutcomes(ofTaskIDs taskIDs: Set<String>) throws -> Set<String> {
        guard !taskIDs.isEmpty else { return [] }
        let ids = Array(taskIDs.sorted())
        let list = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        let outcomes = "SELECT o.id FROM outcome o JOIN version v ON v.uuid = o.taskUUID WHERE v.kind = 'task' AND v.id IN (\(list))"
        let changed = try String.fetchAll(db, sql: "SELECT DISTINCT v.id FROM outcome o JOIN version v ON v.uuid = o.taskUUID "
                                            + "WHERE v.kind = 'task' AND v.id IN (\(list))", arguments: StatementArguments(ids))
        try db.execute(sql: "DELETE FROM outcomeValue WHERE outcomeID IN (\(outcomes))", arguments: StatementArguments(ids))
        try db.execute(sql: "DELETE FROM outcome WHERE id IN (\(outcomes))", arguments: StatementArguments(ids))
        return Set(changed)
    }

    // MARK: - Rows

    private func fetchVersions(_ query: Query) throws -> [StoredVersion] {
        var versions: [StoredVersion] = []
        // Stepped directly (SQLiteStatementAccess): a reminder round after a start reads tens of thousands of versions.
        for (statement, arguments) in try query.statements(in: db, selecting: """
            uuid, kind, id, effectiveDate, deletedDate, previousVersionUUID, nextVersionUUID, groupIdentifier, remoteID,
            parentUUID, tags, payload
            """, from: "version") {
            try statement.setArguments(arguments)
            try SQLiteStatementAccess.rows(ofBound: statement, in: db) { row in
                func fault(_ column: String, _ index: Int32) -> SQLiteCareStorageError {
                    SQLiteCareStorageError(table: "version", column: column, value: "\(row.value(index))")
                }
                func optionalUUID(_ column: String, _ index: Int32) throws -> UUID? {
                    if row.isNull(index) { return nil }
                    guard let uuid = row.uuid(index) else { throw fault(column, index) }
                    return uuid
                }
                func optionalText(_ column: String, _ index: Int32) throws -> String? {
                    if row.isNull(index) { return nil }
                    guard let text = row.text(index) else { throw fault(column, index) }
                    return text
                }
                guard let kindName = row.text(1), let kind = EntityKind(rawValue: kindName) else { throw fault("kind", 1) }
                guard let tagsJSON = row.text(10), let tags = StringListJSON.decode(tagsJSON) else { throw fault("tags", 10) }
                guard let uuid = row.uuid(0) else { throw fault("uuid", 0) }
                guard let id = row.text(2) else { throw fault("id", 2) }
                guard let effectiveDate = row.number(3) else { throw fault("effectiveDate", 3) }
                let deletedDate = row.isNull(4) ? nil : row.number(4)
                if !row.isNull(4), deletedDate == nil { throw fault("deletedDate", 4) }
                guard let payload = row.blob(11) else { throw fault("payload", 11) }
                versions.append(StoredVersion(
                    kind: kind, uuid: uuid, id: id,
                    effectiveDate: Date(timeIntervalSinceReferenceDate: effectiveDate),
                    deletedDate: deletedDate.map(Date.init(timeIntervalSinceReferenceDate:)),
                    previousVersionUUID: try optionalUUID("previousVersionUUID", 5),
                    nextVersionUUID: try optionalUUID("nextVersionUUID", 6),
                    groupIdentifier: try optionalText("groupIdentifier", 7),
                    remoteID: try optionalText("remoteID", 8),
                    tags: tags,
                    parentUUID: try optionalUUID("parentUUID", 9),
                    payload: payload))
            }
        }
        return versions
    }

    /// An outcome's columns and its values', in the order ``appendOutcomes(to:rows:)`` reads them.
    private static let outcomeColumns = """
        o.uuid, o.taskUUID, o.occurrenceIndex, o.createdDate, o.deletedDate, o.timeZone, o.remoteID, o.source, o.details,
        v.position, v.type, v.value, v.kind, v.units, v.createdDate
        """
    private static let outcomeTables = "outcome o LEFT JOIN outcomeValue v ON v.outcomeID = o.id"
    /// Each outcome's rows together, its values in order.
    private static let outcomeOrder = "o.id, v.position"

    /// Outcomes with their values, read in one query: one row per value (or one row for an outcome without values).
    private func fetchOutcomes(_ query: Query) throws -> [Outcome] {
        var outcomes: [Outcome] = []
        for (statement, arguments) in try query.statements(in: db, selecting: Self.outcomeColumns, from: Self.outcomeTables,
                                                            orderBy: Self.outcomeOrder) {
            try statement.setArguments(arguments)
            try appendOutcomes(to: &outcomes) { row in try SQLiteStatementAccess.rows(ofBound: statement, in: db, row) }
        }
        return outcomes
    }

    /// The time zones outcomes were recorded in, by identifier: looked up once, not for every outcome read.
    private static let timeZones = KeptValues<String, TimeZone>(capacity: 1_024)

    /// The time zone `identifier` names; nil for an identifier that names none.
    private static func timeZone(named identifier: String) -> TimeZone? {
        if let kept = timeZones[identifier] { return kept }
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        timeZones.keep(zone, for: identifier)
        return zone
    }

    /// Appends the outcomes of the rows `rows` gives (each selecting ``outcomeColumns``, in ``outcomeOrder``): it runs
    /// a statement and calls its body for each row. A value of the wrong kind in any column (a database edited by
    /// hand) is refused with its table and column, as GRDB's decoding would refuse it.
    private func appendOutcomes(to outcomes: inout [Outcome],
                                rows: ((SQLiteStatementAccess.Columns) throws -> Void) throws -> Void) throws {
        var currentUUID: UUID?
        try rows { row in
            func refuse(_ table: String, _ column: String, _ index: Int32) -> SQLiteCareStorageError {
                SQLiteCareStorageError(table: table, column: column, value: "\(row.value(index))")
            }
            func date(_ index: Int32, _ table: String, _ column: String) throws -> Date? {
                guard !row.isNull(index) else { return nil }
                guard let seconds = row.number(index) else { throw refuse(table, column, index) }
                return Date(timeIntervalSinceReferenceDate: seconds)
            }
            func text(_ index: Int32, _ table: String, _ column: String) throws -> String? {
                guard !row.isNull(index) else { return nil }
                guard let text = row.text(index) else { throw refuse(table, column, index) }
                return text
            }
            guard let outcomeUUID = row.uuid(0) else { throw refuse("outcome", "uuid", 0) }
            if outcomeUUID != currentUUID {
                currentUUID = outcomeUUID
                guard let taskUUID = row.uuid(1) else { throw refuse("outcome", "taskUUID", 1) }
                guard let occurrence = row.int(2) else { throw refuse("outcome", "occurrenceIndex", 2) }
                guard let zoneName = try text(5, "outcome", "timeZone") else { throw refuse("outcome", "timeZone", 5) }
                guard let zone = Self.timeZone(named: zoneName) else {
                    throw SQLiteCareStorageError(table: "outcome", column: "timeZone", value: zoneName)
                }
                var outcome = Outcome(taskUUID: taskUUID, occurrenceIndex: occurrence, values: [], uuid: outcomeUUID, timeZone: zone,
                                      remoteID: try text(6, "outcome", "remoteID"), source: try text(7, "outcome", "source"))
                outcome.createdDate = try date(3, "outcome", "createdDate")
                outcome.deletedDate = try date(4, "outcome", "deletedDate")
                if let details = try text(8, "outcome", "details") {
                    guard let decoded = OutcomeDetails(json: details) else {
                        throw SQLiteCareStorageError(table: "outcome", column: "details", value: details)
                    }
                    decoded.apply(to: &outcome)
                }
                outcomes.append(outcome)
            }
            guard let type = try text(10, "outcomeValue", "type") else { return } // an outcome without values
            let stored = row.value(11)
            guard let value = OutcomeValueColumns.value(type: type, stored: stored) else {
                throw SQLiteCareStorageError(table: "outcomeValue", column: "value", value: "\(type): \(stored)")
            }
            outcomes[outcomes.count - 1].values.append(OutcomeValue(
                value, kind: try text(12, "outcomeValue", "kind"), units: try text(13, "outcomeValue", "units"),
                createdDate: try date(14, "outcomeValue", "createdDate")))
        }
    }

    private func uuid(_ row: Row, _ index: Int, _ table: String, _ column: String) throws -> UUID {
        guard let uuid = row[index] as UUID? else {
            throw SQLiteCareStorageError(table: table, column: column, value: "\(row[index] as DatabaseValue)")
        }
        return uuid
    }

    private func optionalUUID(_ row: Row, _ index: Int, _ table: String, _ column: String) throws -> UUID? {
        (row[index] as DatabaseValue).isNull ? nil : try uuid(row, index, table, column)
    }

    // MARK: - Queries

    /// The conditions of a SELECT, with their arguments in order.
    private struct Query {
        private var conditions: [String] = []
        private var values: [DatabaseValue] = []
        /// Whether every set in the query is small enough for the statement to be cached.
        private(set) var isSmall = true

        // Through the initializer that takes optional values: the one for a sequence of DatabaseValue makes a key path
        // at run time on every call.
        var arguments: StatementArguments { StatementArguments(values.map { $0 as (any DatabaseValueConvertible)? }) }

        /// Adds a condition with its arguments.
        mutating func `where`(_ condition: String, _ arguments: (any DatabaseValueConvertible)?...) {
            conditions.append(condition)
            values.append(contentsOf: arguments.map { $0?.databaseValue ?? .null })
        }

        /// A set of UUIDs too large for one statement, run as several statements of ``SQLiteCareRows/inlineLimit``
        /// each. A row has one value in a column, so the statements' rows never overlap.
        private var chunkedSet: (column: String, values: [UUID])?

        /// Adds `column IN (…)` for a set of UUIDs (16-byte blobs); nothing when `set` is empty. The first set larger
        /// than ``SQLiteCareRows/inlineLimit`` is split over several statements (see ``statements(in:selecting:from:orderBy:)``);
        /// a second one in the same query is matched by its hex text in one JSON argument, which reads the table
        /// rather than the index — no query of the store has two such sets.
        mutating func `where`(_ column: String, inUUIDs set: some Collection<UUID>) {
            guard !set.isEmpty else { return }
            if set.count > SQLiteCareRows.cachedSetLimit { isSmall = false }
            if set.count <= SQLiteCareRows.inlineLimit {
                appendInList(column, set.map(\.databaseValue))
            } else if chunkedSet == nil {
                chunkedSet = (column, Array(set))
            } else {
                conditions.append("hex(" + column + ") IN (SELECT value FROM json_each(?))")
                let hex = set.map { $0.uuidString.replacingOccurrences(of: "-", with: "") }
                values.append(StringListJSON.encodeForQuery(hex).databaseValue)
            }
        }

        /// Adds `prefix IN (?, …)closing` with one bound value per item.
        private mutating func appendInList(_ prefix: String, _ items: [DatabaseValue], closing: String = "") {
            let markers = items.count == 1 ? "?" : repeatElement("?", count: items.count).joined(separator: ", ")
            conditions.append(prefix + " IN (" + markers + ")" + closing)
            values.append(contentsOf: items)
        }

        /// The prepared statements of the query with their arguments: one, or one per chunk of a large UUID set.
        func statements(in db: Database, selecting columns: String, from table: String, orderBy: String? = nil) throws -> [(Statement, StatementArguments)] {
            guard let chunked = chunkedSet else {
                return [(try statement(in: db, selecting: columns, from: table, orderBy: orderBy, cached: isSmall), arguments)]
            }
            return try stride(from: 0, to: chunked.values.count, by: SQLiteCareRows.inlineLimit).map { start in
                var chunk = self
                chunk.chunkedSet = nil
                chunk.where(chunked.column, inUUIDs: chunked.values[start..<min(chunked.values.count, start + SQLiteCareRows.inlineLimit)])
                return (try chunk.statement(in: db, selecting: columns, from: table, orderBy: orderBy, cached: false), chunk.arguments)
            }
        }

        /// Adds `prefix IN (…)closing` for `set`; nothing when `set` is empty (an empty set is no condition).
        mutating func `where`(_ prefix: String, in set: some Collection<String>, closing: String = "") {
            guard !set.isEmpty else { return }
            if set.count > SQLiteCareRows.cachedSetLimit { isSmall = false }
            if set.count <= SQLiteCareRows.inlineLimit {
                appendInList(prefix, set.map(\.databaseValue), closing: closing)
            } else {
                conditions.append(prefix + " IN (SELECT value FROM json_each(?))" + closing)
                values.append(StringListJSON.encodeForQuery(Array(set)).databaseValue)
            }
        }

        /// The prepared `SELECT columns FROM table WHERE … ORDER BY …`.
        func statement(in db: Database, selecting columns: String, from table: String, orderBy: String? = nil, cached: Bool) throws -> Statement {
            var sql = "SELECT " + columns + " FROM " + table
            if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
            if let orderBy { sql += " ORDER BY " + orderBy }
            return cached ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        }
    }
}
