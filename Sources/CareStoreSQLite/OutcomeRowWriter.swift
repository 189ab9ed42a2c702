import CareStore
import Foundation
import GRDB
import GRDBSQLite

/// Writes an outcome's rows with SQLite's C API on GRDB's prepared statements.
///
/// Outcomes arrive in batches of thousands, and GRDB's general argument handling (`StatementArguments`, then
/// binding each value) cost about two thirds of an insert in `studykit bench --only care-writes`; binding the few
/// known columns directly leaves SQLite's own work. The statements are GRDB's cached statements of the writer's
/// connection, stepped inside the transaction GRDB opened, so atomicity and durability are unchanged. (No GRDB
/// transaction observer watches these tables; one added later would have to use `execute(arguments:)` instead.)
///
/// One writer serves one transaction and keeps its two statements, so a batch looks them up once.
final class OutcomeRowWriter {
    let db: Database
    private var outcomeStatement: Statement?
    private var valueStatement: Statement?

    init(db: Database) { self.db = db }

    /// Inserts the outcome row and one row per value, in order.
    func insert(_ outcome: Outcome) throws {
        let row = try outcomeStatement ?? db.cachedStatement(sql: """
            INSERT INTO outcome (uuid, taskUUID, occurrenceIndex, createdDate, deletedDate, timeZone, remoteID, source, details)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        outcomeStatement = row
        var binder = Binder(row.sqliteStatement)
        binder.bind(outcome.uuid)
        binder.bind(outcome.taskUUID)
        binder.bind(Int64(outcome.occurrenceIndex))
        binder.bind(outcome.createdDate?.timeIntervalSinceReferenceDate)
        binder.bind(outcome.deletedDate?.timeIntervalSinceReferenceDate)
        binder.bind(outcome.timeZone.identifier)
        binder.bind(outcome.remoteID)
        binder.bind(outcome.source)
        binder.bind(try OutcomeDetails(outcome).json())
        try step(row, binder)
        let outcomeID = db.lastInsertedRowID
        guard !outcome.values.isEmpty else { return }
        let valueRow = try valueStatement ?? db.cachedStatement(sql: """
            INSERT INTO outcomeValue (outcomeID, position, type, value, kind, units, createdDate) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        valueStatement = valueRow
        for (position, value) in outcome.values.enumerated() {
            let (type, stored) = OutcomeValueColumns.columns(of: value.value)
            var binder = Binder(valueRow.sqliteStatement)
            binder.bind(outcomeID)
            binder.bind(Int64(position))
            binder.bind(type)
            binder.bind(stored)
            binder.bind(value.kind)
            binder.bind(value.units)
            binder.bind(value.createdDate?.timeIntervalSinceReferenceDate)
            try step(valueRow, binder)
        }
    }

    /// Runs the bound statement to completion, then clears it for its next use.
    private func step(_ statement: Statement, _ binder: Binder) throws {
        let raw = statement.sqliteStatement
        defer {
            sqlite3_reset(raw)
            sqlite3_clear_bindings(raw)
        }
        if let failure = binder.failure {
            throw DatabaseError(resultCode: ResultCode(rawValue: failure), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }
        let code = sqlite3_step(raw)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }
    }

    /// Binds values to a statement's parameters in order, keeping the first failure.
    private struct Binder {
        let statement: OpaquePointer
        var index: Int32 = 1
        var failure: Int32?

        init(_ statement: OpaquePointer) { self.statement = statement }

        /// SQLite copies text and blobs at once (SQLITE_TRANSIENT), so no buffer has to outlive the call.
        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        private mutating func record(_ code: Int32) {
            if code != SQLITE_OK && failure == nil { failure = code }
            index += 1
        }

        /// A UUID as its 16 bytes, as GRDB stores it.
        mutating func bind(_ uuid: UUID) {
            let code = withUnsafeBytes(of: uuid.uuid) { sqlite3_bind_blob(statement, index, $0.baseAddress, 16, Self.transient) }
            record(code)
        }

        mutating func bind(_ number: Int64) { record(sqlite3_bind_int64(statement, index, number)) }

        mutating func bind(_ number: Double?) {
            record(number.map { sqlite3_bind_double(statement, index, $0) } ?? sqlite3_bind_null(statement, index))
        }

        mutating func bind(_ text: String?) {
            guard let text else { return record(sqlite3_bind_null(statement, index)) }
            record(sqlite3_bind_text(statement, index, text, -1, Self.transient))
        }

        mutating func bind(_ value: DatabaseValue) {
            switch value.storage {
            case .null: record(sqlite3_bind_null(statement, index))
            case .int64(let number): record(sqlite3_bind_int64(statement, index, number))
            case .double(let number): record(sqlite3_bind_double(statement, index, number))
            case .string(let text): record(sqlite3_bind_text(statement, index, text, -1, Self.transient))
            case .blob(let data):
                let code = data.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), Self.transient) }
                record(code)
            }
        }
    }
}
