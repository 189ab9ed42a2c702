import CareStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import Testing

/// Refusals turned into pages, and the security headers.
@Suite("Error pages")
struct ErrorPageTests {
    struct DiskOnFire: Error, CustomStringConvertible { var description: String { "secret detail /var/data/study.sqlite" } }

    @Test func anUnexpectedErrorIsA500PageWithoutItsDetailsAndWithTheSecurityHeaders() async throws {
        let service = try ServerFixture.service(clock: ServerFixture.Clock(ServerFixture.date("2026-03-04T01:00:00Z")))
        let router = Router(context: StudyRequestContext.self)
        router.add(middleware: StudyPageMiddleware(service: service))
        router.get("/fails") { _, _ -> String in throw DiskOnFire() }
        router.get("/ended") { _, _ -> String in throw StudyStoreError.runFinished(run: UUID(), state: .completed) }
        try await Application(router: router).test(.router) { client in
            let failed = try await client.execute(uri: "/fails", method: .get)
            #expect(failed.status == .internalServerError)
            #expect(failed.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
            let page = String(buffer: failed.body)
            #expect(page.contains("Something went wrong on the server") && !page.contains("secret detail"))
            let ended = try await client.execute(uri: "/ended", method: .get)
            #expect(ended.status == .conflict)
            #expect(String(buffer: ended.body).contains("This task run has already ended."))
        }
    }
}
