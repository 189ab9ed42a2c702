import CareStore
import Foundation

/// Everything a study server keeps in its one database, whatever the backend (SQLite's file, PostgreSQL): both stores,
/// written together in one transaction per participant action (``StudyDataStore``), the study team's accounts, and the
/// audit trail. The server is given one, made by whoever starts it (`studykit serve --database`), and knows no backend.
///
/// ```swift
/// let service = try StudyService(study: study, configuration: configuration, data: database)
/// ```
public protocol StudyDatabase: StudyDataStore, AuditTrailStore {
    /// The study team's accounts, in the same database.
    var researchers: any ResearcherStore { get }
    /// Calls `observer` with each committed write of the care store, in the writing task, before the write returns:
    /// how the server's page caches and open pages learn which participants' data changed.
    func observeCareCommits(_ observer: @escaping @Sendable (CareChange) -> Void)
    /// Returns when the database answers a trivial read; throws when it does not (a server's health check for its proxy).
    func checkAvailability() async throws
}
