import Foundation
import StudyKitEnvironment
import PostgresTestSupport
import Testing
@testable import CareStore
import CareStorePostgres
import CareStoreSQLite
import StudyPostgres
import StudySQLite

/// A kind of care store the conformance suite runs against: a name for the test report and a way to make an
/// empty store on a given clock.
///
/// Every conformance test takes `CareStoreBackend.allCases` as its arguments, so a new backend joins the suite by
/// adding one line to ``allCases``.
struct CareStoreBackend: CaseIterable, CustomTestStringConvertible, Sendable {
    /// The backend's name in test reports.
    let name: String
    /// Makes an empty store that takes its time and UUIDs from `environment`.
    let factory: @Sendable (_ environment: StudyKitEnvironment) async throws -> any CareStore

    static let allCases: [CareStoreBackend] = [
        CareStoreBackend(name: "in-memory") { InMemoryCareStore(environment: $0) },
        // SQLite's own engine on a memory database: the same SQL, schema and transactions as a file, without the files.
        CareStoreBackend(name: "sqlite") { try SQLiteCareStore.inMemory(environment: $0) },
        // The study server's one database, where the care store's tables sit beside the study store's.
        CareStoreBackend(name: "sqlite, shared with the study store") { try SQLiteStudyDatabase.inMemory(environment: $0).careStore },
    ] + (PostgresTestDatabase.isConfigured ? [postgreSQL, postgreSQLSharedWithStudy] : [])

    /// PostgreSQL, each store in a schema of its own in the database of `STUDYKIT_TEST_POSTGRES_URL`; left out when
    /// that is not set, which ``PostgresTestDatabase`` reports (`make test` always sets it).
    static let postgreSQL = CareStoreBackend(name: "postgresql") { environment in
        try await PostgresCareStore.open(client: PostgresTestDatabase.client.get(), schema: PostgresTestDatabase.freshSchema(),
                                         environment: environment)
    }

    /// PostgreSQL's study database, where the care store's tables sit beside the study store's in one schema (with the
    /// trigger that refuses a withdrawn participant's outcomes); left out as ``postgreSQL`` is.
    static let postgreSQLSharedWithStudy = CareStoreBackend(name: "postgresql, shared with the study store") { environment in
        try await PostgresStudyDatabase.open(client: PostgresTestDatabase.client.get(), schema: PostgresTestDatabase.freshSchema(),
                                             environment: environment).careStore
    }

    var testDescription: String { name }

    /// An empty store that takes its time and UUIDs from `environment`.
    func makeStore(environment: StudyKitEnvironment) async throws -> any CareStore {
        try await factory(environment)
    }

    /// An empty store on `clock`.
    func makeStore(clock: TestClock) async throws -> any CareStore {
        try await factory(clock.environment)
    }
}
