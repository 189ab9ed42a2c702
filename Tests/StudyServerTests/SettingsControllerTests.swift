import CareStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import Testing
import ZIPFoundation
import Research

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

    @Test func aParticipantDownloadsTheirOwnDataAndNoOneElses() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let alex = try await Fixture.participant(of: service, zone: tokyo), sam = try await Fixture.participant(of: service, zone: .gmt)
        func completedRun(of signedIn: StudyService.SignedIn, answer: String) async throws -> UUID {
            let id = UUID()
            let result = TaskResult(identifier: "pain", taskRunUUID: id, startDate: clock.now, endDate: clock.now, stepResults: [
                StepResult(identifier: "notes", startDate: clock.now, endDate: clock.now,
                           results: [.question(QuestionResult(identifier: "notes", type: .text, answer: .text(answer)))]),
            ])
            try await service.store.saveRun(TaskRun(id: id, participantID: signedIn.participant.id, taskID: "pain", occurrence: 0,
                                                    state: .completed, result: result))
            return id
        }
        let alexRun = try await completedRun(of: alex, answer: "Alex's knee")
        let samRun = try await completedRun(of: sam, answer: "Sam's knee")
        #expect(try await service.settingsPage(signedIn: alex).contains(#"<a href="/settings/my-data.zip" download>Download my data (ZIP)</a>"#))

        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/settings/my-data.zip", method: .get, headers: Fixture.headers(alex))
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/zip")
            #expect(response.headers[.contentDisposition] == "attachment; filename=\"recover-my-data.zip\"")
            #expect(response.headers[.cacheControl] == "private, no-store")
            let archive = try Archive(data: Data(buffer: response.body), accessMode: .read)
            func entry(_ path: String) throws -> String {
                var data = Data()
                _ = try archive.extract(try #require(archive[path], "\(path)")) { data.append($0) }
                return String(decoding: data, as: UTF8.self)
            }
            #expect(try entry("participant.json").contains(alex.participant.id))
            let runs = try entry("runs.json")
            #expect(runs.contains(alexRun.uuidString.lowercased()) && runs.contains("Alex's knee"))
            #expect(!runs.contains(samRun.uuidString.lowercased()) && !runs.contains("Sam's knee") && !runs.contains(sam.participant.id))
            // The onboarding's outcome is Alex's own.
            #expect(try entry("outcomes.json").contains("\"task\" : \"onboarding\""))

            let anonymous = try await client.execute(uri: "/settings/my-data.zip", method: .get, headers: [:])
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.headers[.contentType] != "application/zip")
        }
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
