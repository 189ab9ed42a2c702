import CareStorePostgres
import PostgresNIO
import PostgresTestSupport
import Testing

@Suite("PostgreSQL test database")
struct PostgresTestDatabaseTests {
    /// Skipped, with the reason, when PostgreSQL is not configured: the one place a run without it says so.
    @Test(.enabled(if: PostgresTestDatabase.isConfigured, Comment(rawValue: PostgresTestDatabase.notConfigured)))
    func postgreSQLIsConfigured() async throws {
        let client = try PostgresTestDatabase.client.get()
        let rows = try await client.query("SELECT 1", logger: PostgresCareStorage.silentLogger).collect()
        #expect(rows.count == 1)
    }
}
