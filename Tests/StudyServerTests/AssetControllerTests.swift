import CareStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import Testing

/// The health check, the stylesheet and the script.
@Suite("Asset routes")
struct AssetControllerTests {
    @Test func assetsAreCachedForAYearAndEveryResponseHasTheSecurityHeaders() async throws {
        let service = try ServerFixture.service(clock: ServerFixture.Clock(ServerFixture.date("2026-03-04T01:00:00Z")))
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok && String(buffer: health.body) == "ok")
            for (uri, type) in [("/assets/studykit.css", "text/css; charset=utf-8"), ("/assets/studykit.js", "text/javascript; charset=utf-8")] {
                let asset = try await client.execute(uri: uri, method: .get)
                #expect(asset.status == .ok && asset.headers[.contentType] == type, "\(uri)")
                #expect(asset.headers[.cacheControl] == "public, max-age=31536000, immutable", "\(uri)")
                #expect(asset.headers[.xContentTypeOptions] == "nosniff" && asset.headers[.contentSecurityPolicy] != nil, "\(uri)")
            }
            let missing = try await client.execute(uri: "/assets/other.js", method: .get)
            #expect(missing.status == .notFound)
        }
    }
}
