import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import Testing

/// Every API operation against no token, a participant's token and each researcher role's token: who may call it,
/// and that a refusal is the JSON `Error` body.
@Suite("API routes")
struct APIRouteTests {
    typealias Fixture = ServerFixture

    private func headers(_ token: String?, json: Bool = false) -> HTTPFields {
        var headers = HTTPFields()
        if let token { headers[.authorization] = "Bearer \(token)" }
        if json { headers[.contentType] = "application/json" }
        return headers
    }

    @Test func eachOperationAnswersItsCallersAndRefusesOthersWithJSON() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let alex = try await Fixture.participant(of: service, zone: .gmt)
        try await Fixture.consent(of: service, for: alex, at: clock.now)
        clock.set(Fixture.date("2026-03-05T03:00:00Z")) // the day after enrolment, when Recover's symptom log starts
        let viewer = try await service.researchers.store.addResearcher(email: "v@example.org", role: .viewer)
        let researcherToken = try await service.researchers.store.createResearcherSession(researcherID: viewer.id, lifetime: 600).token
        // (method, path, body, statuses with no token, with the participant's, with a researcher's)
        let operations: [(HTTPRequest.Method, String, String?, Int, Int, Int)] = [
            (.get, "/api/v1/participant", nil, 401, 200, 401),
            (.get, "/api/v1/participant/events?from=2026-03-04&to=2026-03-05", nil, 401, 200, 401),
            (.post, "/api/v1/participant/events/symptoms/0/outcome", #"{"action":"log"}"#, 401, 204, 401),
            (.get, "/api/v1/participant/consent.pdf", nil, 401, 409, 401),
            (.get, "/api/v1/exports/outcomes", nil, 401, 401, 200),
            (.post, "/api/v1/participant/sessions", #"{"signInCode":"AAAA-AAAA"}"#, 404, 404, 404),
            (.post, "/api/v1/researcher/sessions", #"{"email":"v@example.org","password":"wrong password here"}"#, 401, 401, 401),
        ]
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            for (method, path, body, none, participant, researcher) in operations {
                for (token, expected) in [(nil, none), (alex.sessionToken, participant), (researcherToken, researcher)] {
                    let response = try await client.execute(uri: path, method: method, headers: headers(token, json: body != nil),
                                                            body: body.map { ByteBuffer(string: $0) })
                    #expect(Int(response.status.code) == expected, "\(method) \(path) with \(token == nil ? "no token" : token == researcherToken ? "a researcher's" : "the participant's") token: \(String(buffer: response.body).prefix(200))")
                    if response.status.code >= 400 {
                        let error = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: String]
                        #expect(error?.keys.sorted() == ["code", "message"], "\(path)")
                    }
                }
            }
        }
    }
}
