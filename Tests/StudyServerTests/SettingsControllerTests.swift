import CareStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import Testing

/// The participant's settings over HTTP.
@Suite("Settings routes")
struct SettingsControllerTests {
    typealias Fixture = ServerFixture
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    @Test func aLanguageTheStudyDoesNotOfferIsRefusedInTheParticipantsLanguage() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        _ = try await service.setLanguage("ja", for: signedIn.participant)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let refused = try await client.execute(uri: "/settings/language", method: .post, headers: Fixture.headers(signedIn, form: true),
                                                   body: ByteBuffer(string: Fixture.token(signedIn) + "&language=fr"))
            #expect(refused.status == .unprocessableContent)
            // The page is in the participant's language (Japanese), whatever the browser asks for.
            #expect(String(buffer: refused.body).contains("この研究の言語から選んでください。"))
            let changed = try await client.execute(uri: "/settings/language", method: .post, headers: Fixture.headers(signedIn, form: true),
                                                   body: ByteBuffer(string: Fixture.token(signedIn) + "&language=ko"))
            #expect(changed.status == .seeOther)
        }
        #expect(try await service.store.participant(id: signedIn.participant.id)?.language == "ko")
    }

    @Test func anotherBrowserIsSignedOutAtOnceButNotTheOneInUse() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let phone = try await Fixture.participant(of: service, zone: TimeZone(identifier: "Asia/Tokyo")!)
        clock.set(clock.now.addingTimeInterval(3_600))
        let laptopToken = try await service.store.createSession(participantID: phone.participant.id, lifetime: 86_400).token
        let laptop = try #require(try await service.signedIn(sessionToken: laptopToken))

        let settings = try await service.settingsPage(signedIn: phone)
        #expect(settings.contains("This browser"))
        let action = "/settings/browsers/\(laptop.sessionID.uuidString.lowercased())/sign-out"
        #expect(settings.contains(action))
        #expect(!settings.contains(phone.sessionID.uuidString.lowercased()))

        // Someone else's browser is not found; the one in use cannot sign itself out.
        let other = try await Fixture.participant(of: service, zone: .gmt)
        await #expect(throws: StudyServerError(.notFound, .refusalNoSuchBrowser)) {
            try await service.signOut(sessionID: other.sessionID, signedIn: phone)
        }
        await #expect(throws: StudyServerError.self) { try await service.signOut(sessionID: phone.sessionID, signedIn: phone) }

        // Over HTTP the form needs the CSRF token; with it, the laptop's cookie stops working at once, though it was
        // just used (and so remembered).
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            var headers: HTTPFields = [.cookie: "\(StudyRouter.sessionCookie)=\(phone.sessionToken)"]
            headers[.contentType] = "application/x-www-form-urlencoded"
            let refused = try await client.execute(uri: action, method: .post, headers: headers, body: ByteBuffer(string: "_csrf=nope"))
            #expect(refused.status == .forbidden)
            #expect(try await service.signedIn(sessionToken: laptopToken) != nil)
            let done = try await client.execute(uri: action, method: .post, headers: headers,
                                                body: ByteBuffer(string: "_csrf=\(phone.csrfToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"))
            #expect(done.status == .seeOther)
        }
        #expect(try await service.signedIn(sessionToken: laptopToken) == nil)
        #expect(try await service.signedIn(sessionToken: phone.sessionToken) != nil)
        #expect(!(try await service.settingsPage(signedIn: phone)).contains(action))
    }
}
