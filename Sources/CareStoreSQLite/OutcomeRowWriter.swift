import CareStore
import Foundation
import GRDB

/// Writes an outcome's rows with SQLite's C API on GRDB's prepared statements (``SQLiteStatementAccess``).
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
        let details = try OutcomeDetails(outcome).json()
        try SQLiteStatementAccess.run(row, in: db) { binder in
            binder.bind(outcome.uuid)
            binder.bind(outcome.taskUUID)
            binder.bind(Int64(outcome.occurrenceIndex))
            binder.bind(outcome.createdDate?.timeIntervalSinceReferenceDate)
            binder.bind(outcome.deletedDate?.timeIntervalSinceReferenceDate)
            binder.bind(outcome.timeZone.identifier)
            binder.bind(outcome.remoteID)
            binder.bind(outcome.source)
            binder.bind(details)
        }
        let outcomeID = db.lastInsertedRowID
        guard !outcome.values.isEmpty else { return }
        let valueRow = try valueStatement ?? db.cachedStatement(sql: """
            INSERT INTO outcomeValue (outcomeID, position, type, value, kind, units, createdDate) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        valueStatement = valueRow
        for (position, value) in outcome.values.enumerated() {
            let (type, stored) = OutcomeValueColumns.columns(of: value.value)
            try SQLiteStatementAccess.run(valueRow, in: db) { binder in
                binder.bind(outcomeID)
                binder.bind(Int64(position))
                binder.bind(type)
                binder.bind(stored)
                binder.bind(value.kind)
                binder.bind(value.units)
                binder.bind(value.createdDate?.timeIntervalSinceReferenceDate)
            }
        }
    }
}
