import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import Testing

/// Refusals the server makes whatever the pages offer: forms from other sites, tasks before onboarding or before
/// they are due, the onboarding twice, absurd event numbers, and enormous language headers.
@Suite("Study server refusals")
struct StudyRouterSecurityTests {
    typealias Fixture = HomePageCacheTests
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

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

    @Test func tasksStartOnlyAfterOnboardingAndOnceDue() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")) // 10:00 on 4 March in Tokyo
        let service = try Fixture.service(clock: clock)
        let signedIn = try await Fixture.participant(of: service, zone: tokyo, onboarded: false)
        let participant = signedIn.participant

        // Before onboarding: no task but the onboarding, and no checklist either.
        await #expect(throws: StudyRefusal.onboardingRequired) {
            _ = try await service.startRun(taskID: "pain", occurrence: 0, for: participant)
        }
        clock.set(Fixture.date("2026-03-04T23:10:00Z")) // 08:10 on 5 March: the exercises are due
        await #expect(throws: StudyRefusal.onboardingRequired) {
            try await service.workflow.checkOff(taskID: "exercises", occurrence: 0, for: signedIn.participant)
        }
        clock.set(Fixture.date("2026-03-04T01:00:00Z"))
        await #expect(throws: StudyRefusal.onboardingHasNoEvents) {
            _ = try await service.startRun(taskID: "onboarding", occurrence: 5, for: participant)
        }
        #expect(try await service.store.openRuns(participantID: participant.id).isEmpty)

        _ = try await OnboardingGate(careStore: service.careStore, environment: service.environment)
            .recordCompletion(participantID: participant.id, timeZone: tokyo)
        await #expect(throws: StudyRefusal.onboardingCompleted) {
            _ = try await service.startRun(taskID: "onboarding", occurrence: nil, for: participant)
        }
        // Today's pain check (from 00:00) can start; tomorrow's cannot yet.
        _ = try await service.startRun(taskID: "pain", occurrence: 0, for: participant)
        await #expect(throws: StudyRefusal.eventNotDue(task: "pain", occurrence: 1)) {
            _ = try await service.startRun(taskID: "pain", occurrence: 1, for: participant)
        }
        #expect(try await service.store.openRuns(participantID: participant.id).map(\.taskID) == ["pain"])
    }

    @Test func aLargeUploadIsRefusedWhereTheStepAsksForNoFile() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        let run = try await service.startRun(taskID: "pain", occurrence: 0, for: signedIn.participant)
        #expect(try await service.largestUpload(runID: run, participant: signedIn.participant) == 0)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            var headers: HTTPFields = [.cookie: "\(StudyRouter.sessionCookie)=\(signedIn.sessionToken)"]
            headers[.contentType] = "multipart/form-data; boundary=XyZ"
            let file = String(repeating: "a", count: 2 * StudyRouter.maximumBody)
            let body = "--XyZ\r\nContent-Disposition: form-data; name=\"q0\"; filename=\"big.txt\"\r\nContent-Type: text/plain\r\n\r\n"
                + file + "\r\n--XyZ--\r\n"
            let response = try await client.execute(uri: "/runs/\(run.uuidString.lowercased())", method: .post, headers: headers,
                                                    body: ByteBuffer(string: body))
            #expect(response.status == .contentTooLarge)
            #expect(String(buffer: response.body).contains("The form is too large"))
        }
        #expect(try await service.store.run(id: run, participantID: signedIn.participant.id)?.restorationData?.path.count == 1)
    }

    @Test func aPostWhileAnotherFinishesTheRunChangesNothing() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        let run = try await service.startRun(taskID: "pain", occurrence: 0, for: signedIn.participant)
        let before = try await service.store.run(id: run, participantID: signedIn.participant.id)
        let form = ["_csrf": [signedIn.csrfToken], "_step": ["painLevel"], "action": ["next"], "q0": ["3"]]
        service.workflow.finishingRuns.withLock { _ = $0.insert(run) } // as a first post of the last step leaves it
        guard case .redirect("/") = try await service.post(form, to: run, signedIn: signedIn) else {
            Issue.record("a post of a run being finished should lead home")
            return
        }
        #expect(try await service.store.run(id: run, participantID: signedIn.participant.id) == before)
        service.workflow.finishingRuns.withLock { _ = $0.remove(run) }
        guard case .redirect = try await service.post(form, to: run, signedIn: signedIn) else {
            Issue.record("the post should be applied once the run is free")
            return
        }
        #expect(try await service.store.run(id: run, participantID: signedIn.participant.id) != before)
    }

    @Test func absurdEventNumbersAndHugeLanguageHeadersAreHarmless() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let cookie: HTTPFields = [.cookie: "\(StudyRouter.sessionCookie)=\(signedIn.sessionToken)"]
            for occurrence in ["9223372036854775807", "\(StudyRouter.maximumOccurrence + 1)", "-1"] {
                let response = try await client.execute(uri: "/tasks/mood/\(occurrence)", method: .get, headers: cookie)
                #expect(response.status == .notFound, "\(occurrence)")
            }
            let huge = Array(repeating: "a", count: 30_000).joined(separator: "-")
            let response = try await client.execute(uri: "/signin", method: .get, headers: [.acceptLanguage: huge + ", ja"])
            #expect(response.status == .ok)
            #expect(String(buffer: response.body).contains(#"lang="ja""#))
        }
    }
}

@Suite("Sign-in attempt limit")
struct SignInAttemptLimiterTests {
    @Test func wrongCodesEmptyTheBucketWhichRefillsWithTime() {
        let limiter = SignInAttemptLimiter(burst: 3, failuresPerSecond: 0.5, clientBurst: 100, clientFailuresPerSecond: 100)
        let start = Date(timeIntervalSince1970: 1_772_700_000)
        for _ in 0..<3 {
            #expect(limiter.allowsAttempt(from: "10.0.0.1", at: start))
            limiter.recordFailure(from: "10.0.0.1", at: start)
        }
        #expect(!limiter.allowsAttempt(from: "10.0.0.1", at: start))
        #expect(!limiter.allowsAttempt(from: "10.0.0.1", at: start.addingTimeInterval(1.9)))
        #expect(limiter.allowsAttempt(from: "10.0.0.1", at: start.addingTimeInterval(2)))
        limiter.recordFailure(from: "10.0.0.1", at: start.addingTimeInterval(2))
        #expect(!limiter.allowsAttempt(from: "10.0.0.1", at: start.addingTimeInterval(2)))
        // A clock that goes back adds nothing.
        #expect(!limiter.allowsAttempt(from: "10.0.0.1", at: start))
        #expect(limiter.allowsAttempt(from: "10.0.0.1", at: start.addingTimeInterval(600)))
    }

    @Test func theServerStopsLookingCodesUpPastTheLimit() async throws {
        let clock = HomePageCacheTests.Clock(HomePageCacheTests.date("2026-03-04T01:00:00Z"))
        let service = try HomePageCacheTests.service(clock: clock)
        let signedIn = try await HomePageCacheTests.participant(of: service, zone: TimeZone(identifier: "Asia/Tokyo")!)
        let code = try await service.makeSignInCode(for: signedIn.participant)
        for index in 0..<Int(service.signInAttempts.burst) { #expect(try await service.signIn(code: "0000-0000", from: "10.0.\(index / 200).\(index % 200)") == nil) }
        await #expect(throws: StudyServerError(.tooManyRequests, .refusalTooManySignIns)) {
            _ = try await service.signIn(code: code.code, from: "10.9.9.9")
        }
        clock.set(clock.now.addingTimeInterval(1))
        #expect(try await service.signIn(code: code.code, from: "10.9.9.9") != nil)
    }
}

@Suite("Signed-in browsers")
struct SignedInBrowsersTests {
    typealias Fixture = HomePageCacheTests

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

@Suite("Error pages")
struct ErrorPageTests {
    struct DiskOnFire: Error, CustomStringConvertible { var description: String { "secret detail /var/data/study.sqlite" } }

    @Test func anUnexpectedErrorIsA500PageWithoutItsDetailsAndWithTheSecurityHeaders() async throws {
        let service = try HomePageCacheTests.service(clock: HomePageCacheTests.Clock(HomePageCacheTests.date("2026-03-04T01:00:00Z")))
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
