import CareStore
import Consent
import Foundation
import Study
@testable import StudyServer
import Synchronization
import Testing

/// The home page is kept per session and served again only while nothing on it can have changed: these tests change
/// each thing a page shows — an answer, an outcome written past the server, the time of day, the day itself across a
/// daylight-saving change, the language, the session — and check that the next page shows it.
@Suite("Home page cache")
struct HomePageCacheTests {
    typealias Fixture = ServerFixture

    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    @Test func aPageIsServedAgainUntilACardsEventStartsOrEnds() async throws {
        // Enrolled on 4 March at 10:00 in Tokyo: the knee exercises are due from 08:00 to 08:30 on 5 March.
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)

        clock.set(Fixture.date("2026-03-04T22:59:00Z")) // 07:59 on 5 March in Tokyo
        let early = try await service.homePageText(signedIn: signedIn, date: nil, notice: nil)
        #expect(Fixture.cardStates(early)["Knee exercises"] == "later")
        clock.set(Fixture.date("2026-03-04T22:59:59Z"))
        #expect(try await service.homePageText(signedIn: signedIn, date: nil, notice: nil) == early)
        #expect(service.homePages.hitsAndMisses == (hits: 1, misses: 1))

        clock.set(Fixture.date("2026-03-04T23:00:00Z")) // 08:00: due
        let due = try await service.homePageText(signedIn: signedIn, date: nil, notice: nil)
        #expect(Fixture.cardStates(due)["Knee exercises"] == "todo")
        #expect(due.contains("/tasks/exercises/"))

        clock.set(Fixture.date("2026-03-04T23:30:00Z")) // 08:30: its half hour is over; the session after lunch is next
        #expect(Fixture.cardStates(try await service.homePageText(signedIn: signedIn, date: nil, notice: nil))["Knee exercises"] == "later")
        #expect(service.homePages.hitsAndMisses == (hits: 1, misses: 3))
    }

    @Test func anAnswerAndAnOutcomeWrittenPastTheServerShowAtOnce() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let signedIn = try await Fixture.participant(of: service, zone: tokyo, onboarded: false)

        let gate = try await service.homePageText(signedIn: signedIn, date: nil, notice: nil)
        #expect(gate.contains("/onboarding") && !gate.contains("Daily pain check"))
        #expect(try await service.homePageText(signedIn: signedIn, date: nil, notice: nil) == gate)
        // Onboarding completed by a write to the care store that does not go through the service.
        _ = try await OnboardingGate(careStore: service.careStore, environment: service.environment)
            .recordCompletion(participantID: signedIn.participant.id, timeZone: tokyo)
        let home = try await service.homePageText(signedIn: signedIn, date: nil, notice: nil)
        #expect(Fixture.cardStates(home)["Daily pain check"] == "todo")

        // The exercises ticked off through the service: the card is done on the next page.
        clock.set(Fixture.date("2026-03-04T23:10:00Z")) // 08:10 on 5 March in Tokyo
        let due = try await service.homePageText(signedIn: signedIn, date: nil, notice: nil)
        let occurrence = try #require(due.firstMatch(of: #/tasks/exercises/(\d+)/done/#).flatMap { Int($0.output.1) })
        try await service.workflow.record(taskID: "exercises", occurrence: occurrence, for: signedIn.participant)
        #expect(try await service.homePageText(signedIn: signedIn, date: nil, notice: nil).contains("/tasks/exercises/\(occurrence)/undo"))

        // A survey started: its card offers to continue.
        let started = try await service.homePageText(signedIn: signedIn, date: nil, notice: nil)
        let painPath = try #require(started.firstMatch(of: #/href="(/tasks/pain/\d+)"/#).map { String($0.output.1) })
        _ = try await service.startRun(taskID: "pain", occurrence: Int(painPath.split(separator: "/").last!), for: signedIn.participant)
        #expect(try await service.homePageText(signedIn: signedIn, date: nil, notice: nil) != started)
    }

    @Test func aLanguageChangeAndAnotherSessionGetTheirOwnPages() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        clock.set(Fixture.date("2026-03-04T23:10:00Z")) // 08:10 on 5 March in Tokyo: the exercises card has a form
        let english = try await service.homePageText(signedIn: signedIn, date: nil, notice: nil)
        #expect(english.contains(#"lang="en""#))

        // The same participant on a second browser: a page with that session's CSRF token, not the first one's.
        let second = try await service.store.createSession(participantID: signedIn.participant.id, lifetime: 3_600)
        let other = try #require(try await service.signedIn(sessionToken: second.token))
        let otherPage = try await service.homePageText(signedIn: other, date: nil, notice: nil)
        #expect(otherPage.contains(other.csrfToken) && !otherPage.contains(signedIn.csrfToken))
        #expect(english.contains(signedIn.csrfToken))

        _ = try await service.setLanguage("ja", for: signedIn.participant)
        let renewed = try #require(try await service.signedIn(sessionToken: signedIn.sessionToken))
        let japanese = try await service.homePageText(signedIn: renewed, date: nil, notice: nil)
        #expect(japanese.contains(#"lang="ja""#))
        // A session remembered from before the change cannot bring the English page back.
        #expect(try await service.homePageText(signedIn: signedIn, date: nil, notice: nil).contains(#"lang="en""#))
        #expect(try await service.homePageText(signedIn: renewed, date: nil, notice: nil) == japanese)
    }

    @Test func anotherParticipantsWritesLeaveThePageInPlaceAndOwnCareWritesDoNot() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let me = try await Fixture.participant(of: service, zone: tokyo)
        let someone = try await Fixture.participant(of: service, zone: tokyo)
        clock.set(Fixture.date("2026-03-04T23:10:00Z")) // 08:10 on 5 March: the exercises are due
        let page = try await service.homePageText(signedIn: me, date: nil, notice: nil)
        // Someone else ticks their exercises, starts a survey and changes their language: my page is served again.
        let theirs = try await service.homePageText(signedIn: someone, date: nil, notice: nil)
        let occurrence = try #require(theirs.firstMatch(of: #/tasks/exercises/(\d+)/done/#).flatMap { Int($0.output.1) })
        try await service.workflow.record(taskID: "exercises", occurrence: occurrence, for: someone.participant)
        let pain = try #require(theirs.firstMatch(of: #/href="/tasks/pain/(\d+)"/#).flatMap { Int($0.output.1) })
        _ = try await service.startRun(taskID: "pain", occurrence: pain, for: someone.participant)
        _ = try await service.setLanguage("ja", for: someone.participant)
        let (hits, misses) = service.homePages.hitsAndMisses
        #expect(try await service.homePageText(signedIn: me, date: nil, notice: nil) == page)
        #expect(service.homePages.hitsAndMisses == (hits + 1, misses))
        // My own tick, written straight to the care store, is seen at once.
        try await service.workflow.record(taskID: "exercises", occurrence: occurrence, for: me.participant)
        let after = try await service.homePageText(signedIn: me, date: nil, notice: nil)
        #expect(after != page && after.contains("/tasks/exercises/\(occurrence)/undo"))
        #expect(service.homePages.hitsAndMisses.misses == misses + 1)
    }

    @Test func theDayTurnsAtLocalMidnightOnTheDayDaylightSavingEnds() async throws {
        // New York leaves daylight saving time at 02:00 on 1 November 2026: that day has 25 hours, and the next
        // one starts at 05:00 UTC.
        let newYork = TimeZone(identifier: "America/New_York")!
        let clock = Fixture.Clock(Fixture.date("2026-10-30T16:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let signedIn = try await Fixture.participant(of: service, zone: newYork)

        clock.set(Fixture.date("2026-11-02T04:50:00Z")) // 23:50 on Sunday 1 November
        let sunday = try await service.homePageText(signedIn: signedIn, date: nil, notice: nil)
        #expect(sunday.contains("Sunday, November 1, 2026"))
        clock.set(Fixture.date("2026-11-02T04:59:59Z"))
        #expect(try await service.homePageText(signedIn: signedIn, date: nil, notice: nil) == sunday)
        clock.set(Fixture.date("2026-11-02T05:00:00Z")) // midnight
        #expect(try await service.homePageText(signedIn: signedIn, date: nil, notice: nil).contains("Monday, November 2, 2026"))
    }

    @Test func aPageWithANoticeIsMadeEachTimeAndNotKept() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        let notice = try await service.homePageText(signedIn: signedIn, date: nil, notice: "Thank you.")
        #expect(notice.contains("Thank you."))
        #expect(!(try await service.homePageText(signedIn: signedIn, date: nil, notice: nil)).contains("Thank you."))
        #expect(service.homePages.hitsAndMisses.hits == 0)
    }

    @Test func aFullCacheDropsPagesOutOfDateFirstThenTheOldest() {
        let cache = HomePageCache(capacity: 2)
        let now = Fixture.date("2026-03-04T01:00:00Z")
        func source(_ participant: String, revision: UInt64) -> HomePageCache.Source {
            HomePageCache.Source(participantID: participant, language: "en", timeZone: "Asia/Tokyo", day: "", studyRevision: revision, careRevision: 0)
        }
        cache.keep(Array("a".utf8), session: "A", source: source("a", revision: 1), validUntil: now.addingTimeInterval(60), now: now)
        cache.keep(Array("b".utf8), session: "B", source: source("b", revision: 2), validUntil: now.addingTimeInterval(60), now: now)
        cache.keep(Array("c".utf8), session: "C", source: source("c", revision: 2), validUntil: now.addingTimeInterval(60), now: now)
        #expect(cache.page(session: "A", source: source("a", revision: 1), now: now) == nil) // the oldest
        #expect(cache.page(session: "B", source: source("b", revision: 2), now: now) == Array("b".utf8))
        #expect(cache.page(session: "C", source: source("c", revision: 2), now: now) == Array("c".utf8))
        #expect(cache.page(session: "C", source: source("c", revision: 2), now: now.addingTimeInterval(60)) == nil)
        #expect(cache.page(session: "C", source: source("x", revision: 2), now: now) == nil) // another participant
    }

    @Test func aFullCacheDropsPagesOutOfDateBeforeNewerOnes() {
        let cache = HomePageCache(capacity: 2)
        let now = Fixture.date("2026-03-04T01:00:00Z")
        let source = HomePageCache.Source(participantID: "p", language: "en", timeZone: "UTC", day: "", studyRevision: 0, careRevision: 0)
        cache.keep(Array("a".utf8), session: "A", source: source, validUntil: now.addingTimeInterval(600), now: now)
        cache.keep(Array("b".utf8), session: "B", source: source, validUntil: now.addingTimeInterval(60), now: now)
        let later = now.addingTimeInterval(120)
        cache.keep(Array("c".utf8), session: "C", source: source, validUntil: later.addingTimeInterval(60), now: later)
        #expect(cache.page(session: "A", source: source, now: later) == Array("a".utf8), "B was out of date: it went, not the older A")
        #expect(cache.page(session: "C", source: source, now: later) == Array("c".utf8))
    }
}

extension StudyService {
    /// The daily page as ``homePage(signedIn:date:notice:)`` sends it, read as text.
    func homePageText(signedIn: SignedIn, date: Date?, notice: String?) async throws -> String {
        String(decoding: try await homePage(signedIn: signedIn, date: date, notice: notice), as: UTF8.self)
    }
}
