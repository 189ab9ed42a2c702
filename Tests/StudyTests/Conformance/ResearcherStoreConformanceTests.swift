import Foundation
import Study
import Testing

/// What every ``ResearcherStore`` must do, on every backend of the study store conformance suite.
@Suite("Researcher store conformance (every backend)")
struct ResearcherStoreConformanceTests {
    let clock = TestClock(Date(timeIntervalSince1970: 1_772_700_000)) // 2026-03-05T08:40:00Z

    @Test(arguments: Backend.allCases) func aResearcherIsFoundByTheirAddressInAnyCaseAndAnAddressIsTakenOnce(_ backend: Backend) async throws {
        let store = try backend.makeResearcherStore(clock)
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

    @Test(arguments: Backend.allCases) func aPasswordLinkWorksOnceBeforeItExpiresAndOnlyTheNewestDoes(_ backend: Backend) async throws {
        let store = try backend.makeResearcherStore(clock)
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

    @Test(arguments: Backend.allCases) func theFifthWrongPasswordLocksTheResearcherOutAndASignInClearsTheCount(_ backend: Backend) async throws {
        let store = try backend.makeResearcherStore(clock)
        let ana = try await store.addResearcher(email: "ana@example.org", role: .viewer)
        for count in 1...4 {
            let after = try await store.recordFailedSignIn(researcherID: ana.id, lockAfter: 5, lockFor: 900)
            #expect(after.failedSignIns == count && after.lockedUntil == nil && !after.isLocked(at: clock.now))
        }
        _ = try await store.createResearcherSession(researcherID: ana.id, lifetime: 600)
        #expect(try await store.researcher(id: ana.id)?.failedSignIns == 0, "signing in starts the count again")
        for _ in 1...4 { try await store.recordFailedSignIn(researcherID: ana.id, lockAfter: 5, lockFor: 900) }
        let locked = try await store.recordFailedSignIn(researcherID: ana.id, lockAfter: 5, lockFor: 900)
        #expect(locked.lockedUntil == clock.now.addingTimeInterval(900) && locked.failedSignIns == 0)
        #expect(locked.isLocked(at: clock.now.addingTimeInterval(899)) && !locked.isLocked(at: clock.now.addingTimeInterval(900)))

        let link = try await store.createPasswordLink(researcherID: ana.id, lifetime: 600)
        #expect(try await store.setPassword(linkToken: link.token, passwordHash: "$2b$04$new")?.lockedUntil == nil, "a new password lifts a lock-out")
    }

    @Test(arguments: Backend.allCases) func sessionsEndOneAtATimeEverywhereAtOnceOrWithTheResearcher(_ backend: Backend) async throws {
        let store = try backend.makeResearcherStore(clock)
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
}
