import CareStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import Testing

/// Joining with an invitation link and signing in with a code: the routes before a session exists.
@Suite("Enrolment and sign-in routes")
struct EnrolmentControllerTests {
    typealias Fixture = ServerFixture
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    @Test func anInvitationEnrolsOnceAndARefusalSpeaksTheBrowsersLanguage() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        let invitation = try await service.store.createInvitation(label: nil, expiresAt: nil)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: true))
        try await app.test(.router) { client in
            let page = try await client.execute(uri: "/join/\(invitation.code)", method: .get, headers: [.acceptLanguage: "ja-JP"])
            #expect(page.status == .ok && String(buffer: page.body).contains(#"lang="ja""#))
            // No time zone: refused, in the browser's language, and the invitation is not used.
            let noZone = try await client.execute(uri: "/join/\(invitation.code)", method: .post,
                                                  headers: [.contentType: "application/x-www-form-urlencoded", .acceptLanguage: "ja"],
                                                  body: ByteBuffer(string: "timeZone=Mars%2FOlympus"))
            #expect(noZone.status == .badRequest)
            #expect(String(buffer: noZone.body).contains("一覧からタイムゾーンを選んでください。"))
            let joined = try await client.execute(uri: "/join/\(invitation.code)", method: .post,
                                                  headers: [.contentType: "application/x-www-form-urlencoded"],
                                                  body: ByteBuffer(string: "timeZone=Asia%2FTokyo"))
            #expect(joined.status == .seeOther && joined.headers[.location] == "/")
            let cookie = try #require(joined.headers[.setCookie])
            #expect(cookie.contains("HttpOnly") && cookie.contains("Secure") && cookie.contains("SameSite=Lax"))
            // Used: the link's page says so, in Korean for a Korean browser.
            let again = try await client.execute(uri: "/join/\(invitation.code)", method: .get, headers: [.acceptLanguage: "ko-KR"])
            #expect(again.status == .notFound)
            #expect(String(buffer: again.body).contains("이 초대 링크는 더 이상 유효하지 않습니다."))
        }
        #expect(try await service.store.participants().count == 1)
    }

    @Test func aFormPostedFromAnotherSiteIsRefused() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            func signIn(_ headers: HTTPFields) async throws -> HTTPResponse.Status {
                var headers = headers
                headers[.contentType] = "application/x-www-form-urlencoded"
                return try await client.execute(uri: "/signin", method: .post, headers: headers, body: ByteBuffer(string: "code=ABCD-EFGH")).status
            }
            // An unknown code is 422 when the form comes from the study's own page or from a program.
            #expect(try await signIn([:]) == .unprocessableContent)
            #expect(try await signIn([HTTPField.Name("Sec-Fetch-Site")!: "same-origin"]) == .unprocessableContent)
            // From another site: refused before the code is even looked at.
            #expect(try await signIn([HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]) == .forbidden)
            #expect(try await signIn([HTTPField.Name("Origin")!: "https://attacker.example"]) == .forbidden)
            #expect(try await signIn([HTTPField.Name("Origin")!: "null"]) == .forbidden)
            // A page of the study itself is not refused.
            let get = try await client.execute(uri: "/signin", method: .get, headers: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"])
            #expect(get.status == .ok)
        }
    }

    @Test func anOriginMustNameTheHostWhenTheBrowserSaysNothingMore() throws {
        func post(authority: String?, origin: String?, site: String? = nil) -> Request {
            var fields = HTTPFields()
            if let origin { fields[HTTPField.Name("Origin")!] = origin }
            if let site { fields[HTTPField.Name("Sec-Fetch-Site")!] = site }
            return Request(head: HTTPRequest(method: .post, scheme: "https", authority: authority, path: "/signin", headerFields: fields),
                           body: RequestBody(buffer: ByteBuffer()))
        }
        #expect(throws: Never.self) { try StudyPageMiddleware.refuseCrossSitePost(post(authority: "study.example", origin: "https://study.example")) }
        #expect(throws: Never.self) {
            try StudyPageMiddleware.refuseCrossSitePost(post(authority: "study.example:8080", origin: "http://Study.Example:8080"))
        }
        #expect(throws: Never.self) { try StudyPageMiddleware.refuseCrossSitePost(post(authority: "study.example", origin: nil)) }
        #expect(throws: StudyServerError.self) {
            try StudyPageMiddleware.refuseCrossSitePost(post(authority: "study.example", origin: "https://study.example.attacker.net"))
        }
        #expect(throws: StudyServerError.self) {
            try StudyPageMiddleware.refuseCrossSitePost(post(authority: "study.example:8080", origin: "https://study.example"))
        }
        // Sec-Fetch-Site decides when a browser sends it.
        #expect(throws: Never.self) {
            try StudyPageMiddleware.refuseCrossSitePost(post(authority: "internal:8080", origin: "https://study.example", site: "same-origin"))
        }
    }

    @Test func theServerStopsLookingCodesUpPastTheLimit() async throws {
        let clock = ServerFixture.Clock(ServerFixture.date("2026-03-04T01:00:00Z"))
        let service = try ServerFixture.service(clock: clock)
        let signedIn = try await ServerFixture.participant(of: service, zone: TimeZone(identifier: "Asia/Tokyo")!)
        let code = try await service.makeSignInCode(for: signedIn.participant)
        for index in 0..<Int(service.signInAttempts.burst) { #expect(try await service.signIn(code: "0000-0000", from: "10.0.\(index / 200).\(index % 200)") == nil) }
        await #expect(throws: StudyServerError(.tooManyRequests, .refusalTooManySignIns)) {
            _ = try await service.signIn(code: code.code, from: "10.9.9.9")
        }
        clock.set(clock.now.addingTimeInterval(1))
        #expect(try await service.signIn(code: code.code, from: "10.9.9.9") != nil)
    }
}
