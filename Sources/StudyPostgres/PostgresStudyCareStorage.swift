import CareStore
import CareStorePostgres
import PostgresNIO

/// The care store's storage in a study's PostgreSQL database (``PostgresStudyDatabase``): `PostgresCareStorage`, whose
/// writes the database refuses for a withdrawn participant (``PostgresWithdrawalGuard``'s trigger on outcomes) throw
/// the workflow's `StudyRefusal.withdrawn`, as the study store's do.
///
/// ```swift
/// let care = StorageBackedCareStore(storage: PostgresStudyCareStorage(PostgresCareStorage(client: client, schema: schema)))
/// ```
public struct PostgresStudyCareStorage: CareStorage {
    /// The care store's storage, whose SQL this runs.
    public let storage: PostgresCareStorage
    /// Where its write transactions run (with the audit trail's flush in a ``PostgresStudyDatabase``); nil: the care
    /// storage's own.
    let transactions: PostgresWriteTransactions?

    /// `storage`, with the database's refusal of a withdrawn participant's outcomes read as the workflow's refusal.
    /// Its writes run in the care storage's own transactions, which a schema that keeps the audit trail refuses to
    /// commit: there, use ``PostgresStudyDatabase/careStore``.
    public init(_ storage: PostgresCareStorage) {
        self.storage = storage
        transactions = nil
    }

    /// `storage`'s SQL in write transactions run through `transactions`.
    init(_ storage: PostgresCareStorage, transactions: PostgresWriteTransactions) {
        self.storage = storage
        self.transactions = transactions
    }

    /// Runs `body` in a read-only transaction (`PostgresCareStorage.read(_:)`).
    public func read<T: Sendable>(_ body: @escaping @Sendable (any CareStorageReader) async throws -> T) async throws -> T {
        try await storage.read(body)
    }

    /// Runs `body` in a serializable write transaction (`PostgresCareStorage.write(_:)`).
    public func write<T: Sendable>(_ body: @escaping @Sendable (any CareStorageWriter) async throws -> T) async throws -> T {
        if let transactions {
            // Refusals of a withdrawn participant's data are read by the study's runner already.
            let storage = storage
            return try await transactions.serializable { connection in try await body(storage.writer(in: connection)) }
        }
        do {
            return try await storage.write(body)
        } catch {
            throw PostgresWithdrawalGuard.refusal(for: error)
        }
    }
}
