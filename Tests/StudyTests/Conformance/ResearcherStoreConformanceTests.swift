import Foundation
import Study
import Testing

/// What every ``ResearcherStore`` must do, on every backend of the study store conformance suite.
@Suite("Researcher store conformance (every backend)")
struct ResearcherStoreConformanceTests {
    let clock = TestClock(Date(timeIntervalSince1970: 1_772_700_000)) // 2026-03-05T08:40:00Z

    @Test(arguments: Backend.keepingResearchers) func aResearcherIsFoundByTheirAddressInAnyCaseAndAnAddressIsTakenOnce(_ backend: Backend) async throws {
        let store = try await backend.makeResearcherStore(clock)
        let ana = try await store.addResearcher(email: "  Ana@Example.ORG ", role: .investigator)
        #expect(ana.email == "ana@example.org" && ana.role == .investigator && ana.passwordHash == nil && ana.createdAt == clock.now)
        #expect(try await store.researcher(email: "ANA@example.org") == ana)
        #expect(try await store.researcher(id: ana.id) == ana)
        await #expect(throws: ResearcherStoreError.emailTaken("ana@example.org")) {
            _ = try await store.addResearcher(email: "ana@EXAMPLE.org", role: .viewer)
        }
        for bad in ["", "ana", "ana@localhost", "@example.org", "a na@example.org", "ana@exa\u{202E}mple.org", "ana@@example.org"] {
            await #expect(throws: ResearcherStoreError.self, "\(bad.debugDescription) is refused") {
                _ = try await store.addResearcher(email: bad, role: .viewer)
            }
        }
        clock.advance(by: 1)
        let bo = try await store.addResearcher(email: "bo@example.org", role: .viewer)
        #expect(try await store.researchers().map(\.email) == ["ana@example.org", "bo@example.org"])
        #expect(try await store.setRole(.admin, researcherID: bo.id).role == .admin)
        #expect(try await store.researcher(id: bo.id)?.role == .admin)
        let nobody = UUID()
        await #expect(throws: ResearcherStoreError.unknownResearcher(nobody)) { try await store.setRole(.viewer, researcherID: nobody) }
    }

    @Test(arguments: Backend.keepingResearchers) func aPasswordLinkWorksOnceBeforeItExpiresAndOnlyTheNewestDoes(_ backend: Backend) async throws {
        let store = try await backend.makeResearcherStore(clock)
        let ana = try await store.addResearcher(email: "ana@example.org", role: .admin)
        let first = try await store.createPasswordLink(researcherID: ana.id, lifetime: 3600)
        #expect(first.token.count == 43 && first.expiresAt == clock.now.addingTimeInterval(3600))
        #expect(try await store.researcher(passwordLinkToken: first.token)?.id == ana.id)
        let second = try await store.createPasswordLink(researcherID: ana.id, lifetime: 3600)
        #expect(try await store.researcher(passwordLinkToken: first.token) == nil, "a newer link replaces the older")
        #expect(try await store.setPassword(linkToken: first.token, passwordHash: "$2b$04$x") == nil)

        let session = try await store.createResearcherSession(researcherID: ana.id, lifetime: 600)
        let set = try #require(try await store.setPassword(linkToken: second.token, passwordHash: "$2b$04$hash"))
        #expect(set.passwordHash == "$2b$04$hash")
        #expect(try await store.researcherSession(token: session.token) == nil, "a new password signs every browser out")
        #expect(try await store.setPassword(linkToken: second.token, passwordHash: "$2b$04$other") == nil, "a link works once")
        #expect(try await store.researcher(id: ana.id)?.passwordHash == "$2b$04$hash")

        let late = try await store.createPasswordLink(researcherID: ana.id, lifetime: 60)
        clock.advance(by: 60)
        #expect(try await store.researcher(passwordLinkToken: late.token) == nil)
        #expect(try await store.setPassword(linkToken: late.token, passwordHash: "$2b$04$late") == nil)
        await #expect(throws: ResearcherStoreError.self) { _ = try await store.createPasswordLink(researcherID: ana.id, lifetime: 0) }
    }

    @Test(arguments: Backend.keepingResearchers) func theFifthWrongPasswordPausesOnlyThatAddressFromThatClientAndAnUnknownAddressAlike(_ backend: Backend) async throws {
        let store = try await backend.makeResearcherStore(clock)
        _ = try await store.addResearcher(email: "ana@example.org", role: .viewer)
        for email in ["Ana@Example.org", "nobody@example.org"] {
            for _ in 1...4 { #expect(try await store.recordFailedSignIn(email: email, client: "192.0.2.1", pauseAfter: 5, pauseFor: 900) == nil) }
            #expect(try await store.signInPause(email: email, client: "192.0.2.1") == nil)
            let until = try await store.recordFailedSignIn(email: email, client: "192.0.2.1", pauseAfter: 5, pauseFor: 900)
            #expect(until == clock.now.addingTimeInterval(900), "the fifth pauses \(email)")
            #expect(try await store.signInPause(email: email.lowercased(), client: "192.0.2.1") == until)
            #expect(try await store.signInPause(email: email, client: "198.51.100.7") == nil, "another client is not paused")
        }
        #expect(try await store.signInPause(email: "bo@example.org", client: "192.0.2.1") == nil, "another address from the client is not paused")
        clock.advance(by: 900)
        #expect(try await store.signInPause(email: "ana@example.org", client: "192.0.2.1") == nil, "a pause ends")

        // Wrong passwords further apart than a pause do not add up to one.
        for _ in 1...10 {
            #expect(try await store.recordFailedSignIn(email: "bo@example.org", client: "192.0.2.1", pauseAfter: 5, pauseFor: 900) == nil)
            clock.advance(by: 901)
        }
        await #expect(throws: ResearcherStoreError.self) { try await store.recordFailedSignIn(email: "a@example.org", client: "x", pauseAfter: 0, pauseFor: 900) }
    }

    @Test(arguments: Backend.keepingResearchers) func aSignInTellsOfTheWrongPasswordsSinceTheLastOneOnceAndRestartsItsOwnClientsCount(_ backend: Backend) async throws {
        let store = try await backend.makeResearcherStore(clock)
        let ana = try await store.addResearcher(email: "ana@example.org", role: .viewer)
        let first = clock.now
        for _ in 1...3 { try await store.recordFailedSignIn(email: "ana@example.org", client: "192.0.2.1", pauseAfter: 5, pauseFor: 900) }
        clock.advance(by: 60)
        for _ in 1...4 { try await store.recordFailedSignIn(email: "ana@example.org", client: "198.51.100.7", pauseAfter: 5, pauseFor: 900) }
        let last = clock.now
        try await store.recordFailedSignIn(email: "bo@example.org", client: "192.0.2.1", pauseAfter: 5, pauseFor: 900)
        clock.advance(by: 60)

        let session = try await store.createResearcherSession(researcherID: ana.id, lifetime: 600, client: "198.51.100.7")
        #expect(session.session.failedSignInsBefore == FailedSignIns(count: 7, first: first, last: last, clients: 2))
        #expect(try await store.researcherSession(token: session.token)?.failedSignInsBefore == session.session.failedSignInsBefore, "kept with the session")
        let again = try await store.createResearcherSession(researcherID: ana.id, lifetime: 600, client: "198.51.100.7")
        #expect(again.session.failedSignInsBefore == nil, "told once")

        // The signing-in client's count starts again; the other client's goes on toward its pause.
        for _ in 1...4 { #expect(try await store.recordFailedSignIn(email: "ana@example.org", client: "198.51.100.7", pauseAfter: 5, pauseFor: 900) == nil) }
        for _ in 1...1 { #expect(try await store.recordFailedSignIn(email: "ana@example.org", client: "192.0.2.1", pauseAfter: 5, pauseFor: 900) == nil) }
        #expect(try await store.recordFailedSignIn(email: "ana@example.org", client: "192.0.2.1", pauseAfter: 5, pauseFor: 900) != nil)

        // News waits for the researcher however old; an unknown address's tallies are forgotten once spent.
        clock.advance(by: 30 * 86_400)
        try await store.recordFailedSignIn(email: "carol@example.org", client: "203.0.113.9", pauseAfter: 5, pauseFor: 900)
        let late = try await store.createResearcherSession(researcherID: ana.id, lifetime: 600)
        #expect(late.session.failedSignInsBefore?.count == 6)
    }

    @Test(arguments: Backend.keepingResearchers) func sessionsEndOneAtATimeEverywhereAtOnceOrWithTheResearcher(_ backend: Backend) async throws {
        let store = try await backend.makeResearcherStore(clock)
        let ana = try await store.addResearcher(email: "ana@example.org", role: .admin)
        let bo = try await store.addResearcher(email: "bo@example.org", role: .viewer)
        let laptop = try await store.createResearcherSession(researcherID: ana.id, lifetime: 3600)
        let desktop = try await store.createResearcherSession(researcherID: ana.id, lifetime: 3600)
        let bos = try await store.createResearcherSession(researcherID: bo.id, lifetime: 3600)
        #expect(try await store.researcherSession(token: laptop.token) == laptop.session)
        #expect(try await store.researcherSession(token: "not-a-token") == nil)

        #expect(try await store.revokeResearcherSession(id: laptop.session.id, researcherID: bo.id) == false, "only one's own")
        #expect(try await store.revokeResearcherSession(id: laptop.session.id, researcherID: ana.id))
        #expect(try await store.researcherSession(token: laptop.token) == nil)
        #expect(try await store.researcherSession(token: desktop.token) != nil)

        let phone = try await store.createResearcherSession(researcherID: ana.id, lifetime: 3600)
        #expect(try await store.revokeResearcherSessions(researcherID: ana.id) == 2)
        #expect(try await store.researcherSession(token: desktop.token) == nil)
        #expect(try await store.researcherSession(token: phone.token) == nil)
        #expect(try await store.researcherSession(token: bos.token) != nil, "another researcher stays signed in")

        clock.advance(by: 3600)
        #expect(try await store.researcherSession(token: bos.token) == nil, "a session ends at its expiry")

        let again = try await store.createResearcherSession(researcherID: bo.id, lifetime: 3600)
        let link = try await store.createPasswordLink(researcherID: bo.id, lifetime: 3600)
        let removed = try await store.removeResearcher(id: bo.id)
        #expect(removed.removedAt == clock.now)
        #expect(try await store.researcherSession(token: again.token) == nil)
        #expect(try await store.researcher(passwordLinkToken: link.token) == nil)
        await #expect(throws: ResearcherStoreError.unknownResearcher(bo.id)) {
            _ = try await store.createResearcherSession(researcherID: bo.id, lifetime: 60)
        }
        #expect(try await store.researchers().count == 2, "a removed researcher stays on record")
    }

    @Test(arguments: Backend.keepingResearchers) func aLinkIsForAResearcherWhoIsThereAndRemovalEndsEvenExpiredSessions(_ backend: Backend) async throws {
        let store = try await backend.makeResearcherStore(clock)
        let nobody = UUID()
        await #expect(throws: ResearcherStoreError.unknownResearcher(nobody)) { _ = try await store.createPasswordLink(researcherID: nobody, lifetime: 60) }
        let ana = try await store.addResearcher(email: "ana@example.org", role: .viewer)
        let link = try await store.createPasswordLink(researcherID: ana.id, lifetime: 3600)
        #expect(try await store.setPassword(linkToken: link.token, passwordHash: "$2b$04$hash")?.id == ana.id)
        let removed = try await store.removeResearcher(id: ana.id)
        clock.advance(by: 10)
        #expect(try await store.removeResearcher(id: ana.id).removedAt == removed.removedAt, "the first removal's time stays")
        await #expect(throws: ResearcherStoreError.unknownResearcher(ana.id)) { _ = try await store.createPasswordLink(researcherID: ana.id, lifetime: 60) }
        await #expect(throws: ResearcherStoreError.emailTaken("ana@example.org")) { _ = try await store.addResearcher(email: "ana@example.org", role: .viewer) }
        #expect(try await store.revokeResearcherSessions(researcherID: ana.id) == 0)
    }
}
