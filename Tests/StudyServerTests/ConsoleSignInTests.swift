import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import Testing

/// The console's sign-in as an attacker sees it: whether an address has an account cannot be told from the answers,
/// and wrong passwords from one place cannot keep a researcher out from another.
@Suite("Console sign-in")
struct ConsoleSignInTests {
    typealias Fixture = ServerFixture

    /// A researcher with the password `correct horse battery`.
    private func ana(_ service: StudyService) async throws -> Researcher {
        let ana = try await service.researchers.store.addResearcher(email: "ana@example.org", role: .investigator)
        let link = try await service.researchers.store.createPasswordLink(researcherID: ana.id, lifetime: 600)
        return try #require(try await service.researchers.setPassword("correct horse battery", linkToken: link.token))
    }

    @Test func anUnknownAddressAndAResearchersGetTheSameStatusAndPageForEachWrongPasswordUpToThePauseAndPastIt() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        _ = try await ana(service)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: true))
        try await app.test(.router) { client in
            func signIn(_ email: String) async throws -> (status: HTTPResponse.Status, page: String) {
                let response = try await client.execute(uri: "/console/sign-in", method: .post, headers: Fixture.consoleForm(nil),
                                                        body: ByteBuffer(string: "email=\(email)%40example.org&password=wrong+horse+battery"))
                // The page echoes the address typed; everything else must be the same.
                return (response.status, String(buffer: response.body).replacingOccurrences(of: "\(email)@example.org", with: "ADDRESS"))
            }
            var statuses: [HTTPResponse.Status] = []
            for _ in 1...7 {
                let unknown = try await signIn("nobody"), known = try await signIn("ana")
                #expect(unknown.status == known.status)
                #expect(unknown.page == known.page, "an unknown address is answered exactly like a researcher's")
                statuses.append(known.status)
            }
            #expect(statuses == [.unprocessableContent, .unprocessableContent, .unprocessableContent, .unprocessableContent,
                                 .tooManyRequests, .tooManyRequests, .tooManyRequests])
        }
    }

    @Test func aFloodOfWrongPasswordsForAResearcherFromOneAddressDoesNotKeepThemOutFromAnotherAndTheyAreToldOfIt() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        // The test client connects from 127.0.0.1, which stands for a proxy naming each client in X-Forwarded-For.
        let service = try Fixture.service(clock: clock, trustedProxies: ["127.0.0.1"])
        _ = try await ana(service)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.live) { client in
            func signIn(password: String, from address: String) async throws -> TestResponse {
                var headers = Fixture.consoleForm(nil)
                headers[HTTPField.Name("X-Forwarded-For")!] = address
                return try await client.execute(uri: "/console/sign-in", method: .post, headers: headers,
                                                body: ByteBuffer(string: "email=ana%40example.org&password=\(password)"))
            }
            var flood: [HTTPResponse.Status] = []
            for _ in 1...40 { flood.append(try await signIn(password: "wrong+horse+battery", from: "203.0.113.66").status) }
            #expect(Set(flood) == [.unprocessableContent, .tooManyRequests] && flood.last == .tooManyRequests)
            #expect(try await signIn(password: "correct+horse+battery", from: "203.0.113.66").status == .tooManyRequests,
                    "the flooding address is paused, the right password too")

            let elsewhere = try await signIn(password: "correct+horse+battery", from: "198.51.100.7")
            #expect(elsewhere.status == .seeOther, "the researcher signs in from another address")
            let cookie = try #require(elsewhere.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            let home = try await client.execute(uri: "/console", method: .get, headers: Fixture.consoleForm(cookie, form: false))
            #expect(home.status == .ok)
            #expect(String(buffer: home.body).contains(
                "Since you last signed in, 5 wrong passwords were tried for your email address from 1 network address, the first at "
                    + "2026-03-04T01:00:00Z, the last at 2026-03-04T01:00:00Z."), "told on the first page after signing in")
        }
    }
}
