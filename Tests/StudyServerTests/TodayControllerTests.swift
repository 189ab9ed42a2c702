import CareStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import Testing

/// Today's page and what its cards start, behind the session and the onboarding gate.
@Suite("Today routes")
struct TodayControllerTests {
    typealias Fixture = ServerFixture
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    /// The participant's routes refuse a request without a session (401, a page linking to sign-in), and every post
    /// without the session's CSRF token (403): checked once, in the middleware, for every route of the group.
    @Test func participantRoutesNeedASessionAndEveryPostItsToken() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")) // enrolled at 10:00 on 4 March in Tokyo
        let service = try Fixture.service(clock: clock)
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        clock.set(Fixture.date("2026-03-04T23:10:00Z")) // 08:10 on 5 March: the exercises are due
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            for uri in ["/", "/settings", "/onboarding", "/tasks/pain/0", "/consent.pdf"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .unauthorized, "\(uri)")
                #expect(String(buffer: response.body).contains(#"href="/signin""#), "\(uri)")
            }
            for uri in ["/tasks/exercises/0/done", "/settings/language", "/settings/signin-code", "/runs/\(UUID().uuidString)"] {
                let withoutToken = try await client.execute(uri: uri, method: .post, headers: Fixture.headers(signedIn, form: true),
                                                            body: ByteBuffer(string: "language=ja"))
                #expect(withoutToken.status == .forbidden, "\(uri)")
            }
            // Nothing was ticked off and the language is as it was.
            #expect(try await service.careStore.fetchOutcomes(query: OutcomeQuery()).count == 1) // the gate's
            #expect(try await service.store.participant(id: signedIn.participant.id)?.language == "en")
            // With the token, the event is ticked off and the card says so.
            let done = try await client.execute(uri: "/tasks/exercises/0/done", method: .post, headers: Fixture.headers(signedIn, form: true),
                                                body: ByteBuffer(string: Fixture.token(signedIn)))
            #expect(done.status == .seeOther)
            let home = try await client.execute(uri: "/", method: .get, headers: Fixture.headers(signedIn))
            // The morning session is ticked (pressing it again undoes it); the card waits for the next session.
            #expect(String(buffer: home.body).contains(#"<form method="post" action="/tasks/exercises/0/undo">"#))
            #expect(String(buffer: home.body).contains(#/aria-pressed="true">[^<]*after breakfast/#))
        }
    }

    /// Every form and link of a card on the daily page is an action its kind allows (``StudyCardKind/actions``), the
    /// list the workflow holds to: the page never offers what the workflow would refuse.
    @Test func theDailyPageOffersOnlyTheActionsEachCardKindAllows() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        clock.set(Fixture.date("2026-03-04T23:10:00Z")) // 08:10 on 5 March
        let before = String(decoding: try await service.homePage(signedIn: signedIn, date: nil, notice: nil), as: UTF8.self)
        try await service.workflow.record(taskID: "exercises", occurrence: 0, for: signedIn.participant)
        try await service.workflow.log(taskID: "symptoms", occurrence: 0, for: signedIn.participant)
        let after = String(decoding: try await service.homePage(signedIn: signedIn, date: nil, notice: nil), as: UTF8.self)
        var offered: Set<StudyCardAction> = []
        for match in (before + after).matches(of: #/(?:action|href)="/tasks/([^/"?]+)/(\d+)(?:/([a-z/]+))?[?"]/#) {
            let component = match.output.3.map(String.init) ?? ""
            let action = try #require(StudyCardAction.allCases.first { TodayController.pathComponent(of: $0) == component }, "\(match.output.0)")
            let kind = try #require(service.study.task(id: String(match.output.1))).cardKind(eventsThatDay: 1)
            #expect(kind.allows(action), "\(match.output.0): \(kind) does not allow \(action)")
            offered.insert(action)
        }
        #expect(offered.isSuperset(of: [.record, .removeOutcome, .log, .deleteLogEntry, .startRun]), "\(offered)")
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
            try await service.workflow.record(taskID: "exercises", occurrence: 0, for: signedIn.participant)
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
