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

    /// `storage`, with the database's refusal of a withdrawn participant's outcomes read as the workflow's refusal.
    public init(_ storage: PostgresCareStorage) {
        self.storage = storage
    }

    /// Runs `body` in a read-only transaction (`PostgresCareStorage.read(_:)`).
    public func read<T: Sendable>(_ body: @escaping @Sendable (any CareStorageReader) async throws -> T) async throws -> T {
        try await storage.read(body)
    }

    /// Runs `body` in a serializable write transaction (`PostgresCareStorage.write(_:)`).
    public func write<T: Sendable>(_ body: @escaping @Sendable (any CareStorageWriter) async throws -> T) async throws -> T {
        do {
            return try await storage.write(body)
        } catch {
            throw PostgresWithdrawalGuard.refusal(for: error)
        }
    }
}
