import CareStore
import Foundation
import PostgresNIO
import StudyKitEnvironment
import Testing
@testable import CareStorePostgres

/// A PostgreSQL database that does not answer is said so, promptly: a request waits at most
/// `PostgresTransactionRunner.connectionWait` for a connection, and is then refused with `DatabaseUnavailable`, which a
/// server turns into "try again in a moment". Needs no PostgreSQL: the pool points at a port nothing listens on.
@Suite("PostgreSQL unavailable")
struct PostgresUnavailabilityTests {
    /// A port on 127.0.0.1 that nothing listens on now.
    private static func closedPort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func aReadAndAWriteAreRefusedAsUnavailableAfterTheWaitForAConnection() async throws {
        var configuration = try PostgresDatabaseURL("postgres://studykit@127.0.0.1:\(try Self.closedPort())/study").configuration
        configuration.tls = .disable
        let client = PostgresClient(configuration: configuration)
        let running = Task { await client.run() }
        defer { running.cancel() }
        let store = StorageBackedCareStore(storage: PostgresCareStorage(client: client), environment: .live)
        for attempt in ["read", "write"] {
            let error = await #expect(throws: DatabaseUnavailable.self, "\(attempt)") { () async throws in
                if attempt == "read" {
                    _ = try await store.fetch(Patient.self, query: CareQuery())
                } else {
                    var name = PersonNameComponents()
                    name.givenName = "Alex"
                    _ = try await store.add([Patient(id: "p", name: name, effectiveDate: Date())])
                }
            }
            // Refused by the wait for a connection (this test ending at all shows it never hangs), not by another path.
            #expect(error?.description.contains("no connection within") == true, "\(attempt): \(String(describing: error))")
        }
    }
}
