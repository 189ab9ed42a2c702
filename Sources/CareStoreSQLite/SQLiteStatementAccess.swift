import Foundation
import GRDB
import GRDBSQLite

/// Binding and stepping GRDB's prepared statements with SQLite's C API, for the few statements on the hot paths:
/// the outcome rows a batch writes (``OutcomeRowWriter``) and the outcome reads behind every daily page.
///
/// GRDB's general machinery (`StatementArguments` built from existentials, a `Row` per row, decoding through
/// protocols) cost those statements more than SQLite's own work (`studykit bench --only care-writes`, and perf on the
/// daily page). The statements are still GRDB's cached statements of the transaction's connection, used inside the
/// transaction GRDB opened; each use resets the statement and clears its bindings when it is done.
enum SQLiteStatementAccess {
    /// Binds with `bind`, then runs `statement` to its end, calling `row` for each row; `row` reads the current row's
    /// columns with ``Columns``.
    static func rows(of statement: Statement, in db: Database, bind: (inout Binder) -> Void,
                     _ row: (Columns) throws -> Void) throws {
        let raw = statement.sqliteStatement
        // Every parameter is bound below; the reset only ends a run GRDB may have left unfinished.
        sqlite3_reset(raw)
        defer {
            sqlite3_reset(raw)
            sqlite3_clear_bindings(raw)
        }
        var binder = Binder(raw)
        bind(&binder)
        if let failure = binder.failure { throw error(failure, statement, db) }
        try step(statement, in: db, row)
    }

    /// Runs `statement`, already bound (by GRDB's `setArguments`), to its end, calling `row` for each row.
    static func rows(ofBound statement: Statement, in db: Database, _ row: (Columns) throws -> Void) throws {
        defer { sqlite3_reset(statement.sqliteStatement) }
        try step(statement, in: db, row)
    }

    /// Runs a statement that returns no rows (an insert) to its end, after binding with `bind`.
    static func run(_ statement: Statement, in db: Database, bind: (inout Binder) -> Void) throws {
        try rows(of: statement, in: db, bind: bind) { _ in
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a statement that writes returned a row", sql: statement.sql)
        }
    }

    private static func step(_ statement: Statement, in db: Database, _ row: (Columns) throws -> Void) throws {
        let raw = statement.sqliteStatement
        let columns = Columns(statement: raw)
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error(code, statement, db) }
            try row(columns)
        }
    }

    private static func error(_ code: Int32, _ statement: Statement, _ db: Database) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
    }

    /// Binds values to a statement's parameters in order, keeping the first failure.
    struct Binder {
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

    /// The columns of the row a statement is on, by index from 0.
    struct Columns {
        let statement: OpaquePointer

        func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }

        /// An integer column; nil for a value of any other kind (NULL, real, text, blob).
        func int(_ index: Int32) -> Int? {
            sqlite3_column_type(statement, index) == SQLITE_INTEGER ? Int(sqlite3_column_int64(statement, index)) : nil
        }

        /// An integer or real column as a double; nil for NULL, text or a blob.
        func number(_ index: Int32) -> Double? {
            switch sqlite3_column_type(statement, index) {
            case SQLITE_INTEGER, SQLITE_FLOAT: sqlite3_column_double(statement, index)
            default: nil
            }
        }

        /// A text column; nil for a value of any other kind.
        func text(_ index: Int32) -> String? {
            guard sqlite3_column_type(statement, index) == SQLITE_TEXT, let bytes = sqlite3_column_text(statement, index) else { return nil }
            let count = Int(sqlite3_column_bytes(statement, index))
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }

        /// A blob column (text as its UTF-8 bytes, as GRDB reads `Data`); nil for NULL or a number.
        func blob(_ index: Int32) -> Data? {
            switch sqlite3_column_type(statement, index) {
            case SQLITE_BLOB, SQLITE_TEXT:
                let count = Int(sqlite3_column_bytes(statement, index))
                guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return Data() }
                return Data(bytes: bytes, count: count)
            default:
                return nil
            }
        }

        /// A UUID as GRDB reads one: 16 bytes, or its text; nil for anything else.
        func uuid(_ index: Int32) -> UUID? {
            switch sqlite3_column_type(statement, index) {
            case SQLITE_BLOB:
                guard sqlite3_column_bytes(statement, index) == 16, let bytes = sqlite3_column_blob(statement, index) else { return nil }
                var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: 16)) }
                return UUID(uuid: uuid)
            case SQLITE_TEXT:
                return text(index).flatMap(UUID.init(uuidString:))
            default:
                return nil
            }
        }

        /// The column as GRDB's value, for a column whose storage class varies (an outcome value's).
        func value(_ index: Int32) -> DatabaseValue { DatabaseValue(sqliteStatement: statement, index: index) }
    }
}
