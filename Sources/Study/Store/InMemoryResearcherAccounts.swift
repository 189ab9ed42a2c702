import Foundation
import StudyKitEnvironment

/// The study team's accounts in memory, for tests and previews: the same rules as the SQLite store's, without a file.
/// ``InMemoryStudyStorage`` keeps one beside the study data, so that the in-memory study store is a `ResearcherStore`.
public actor InMemoryResearcherAccounts: ResearcherStore {
    let environment: StudyKitEnvironment
    var researchersByID: [UUID: Researcher] = [:]
    var researcherSessionsByHash: [String: ResearcherSession] = [:]
    var passwordLinks: [String: (researcherID: UUID, expiresAt: Date, used: Bool)] = [:]
    /// Wrong passwords per SHA-256 of the address tried, then per client address.
    var signInFailures: [String: [String: SignInFailureTally]] = [:]

    /// No accounts, with `environment`'s clock, UUIDs and randomness.
    public init(environment: StudyKitEnvironment) {
        self.environment = environment
    }

    /// Adds a researcher without a password.
    public func addResearcher(email: String, role: ResearcherRole) throws -> Researcher {
        if let problem = Researcher.problem(withEmail: email) { throw ResearcherStoreError.invalidEmail(problem) }
        let email = Researcher.normalizedEmail(email)
        guard !researchersByID.values.contains(where: { $0.email == email }) else { throw ResearcherStoreError.emailTaken(email) }
        let researcher = Researcher(id: environment.makeUUID(), email: email, role: role, createdAt: environment.now())
        researchersByID[researcher.id] = researcher
        return researcher
    }

    /// Every researcher, by the time they were added.
    public func researchers() -> [Researcher] {
        researchersByID.values.sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    }

    /// The researcher with this id.
    public func researcher(id: UUID) -> Researcher? { researchersByID[id] }

    /// The researcher with this address.
    public func researcher(email: String) -> Researcher? {
        let email = Researcher.normalizedEmail(email)
        return researchersByID.values.first { $0.email == email }
    }

    /// Changes a researcher's role.
    @discardableResult
    public func setRole(_ role: ResearcherRole, researcherID: UUID) throws -> Researcher {
        try change(researcherID) { $0.role = role }
    }

    /// Removes a researcher, ending their sessions and links.
    @discardableResult
    public func removeResearcher(id: UUID) throws -> Researcher {
        let now = environment.now()
        let removed = try change(id) { researcher in researcher.removedAt = researcher.removedAt ?? now }
        endSessionsAndLinks(of: id, at: now)
        return removed
    }

    /// A one-time password link, replacing the researcher's earlier ones.
    public func createPasswordLink(researcherID: UUID, lifetime: TimeInterval) throws -> IssuedPasswordLink {
        guard lifetime > 0 else { throw ResearcherStoreError.invalidSetting("a link's lifetime must be more than 0 seconds") }
        guard researchersByID[researcherID]?.removedAt == nil else { throw ResearcherStoreError.unknownResearcher(researcherID) }
        passwordLinks = passwordLinks.filter { $0.value.researcherID != researcherID }
        let token = StudySecrets.sessionToken(environment.randomBytes)
        let expiresAt = environment.now().addingTimeInterval(lifetime)
        passwordLinks[StudySecrets.tokenHash(token)] = (researcherID, expiresAt, false)
        return IssuedPasswordLink(researcherID: researcherID, token: token, expiresAt: expiresAt)
    }

    /// The researcher a live link is for.
    public func researcher(passwordLinkToken token: String) -> Researcher? {
        guard let link = passwordLinks[StudySecrets.tokenHash(token)], !link.used, environment.now() < link.expiresAt,
              let researcher = researchersByID[link.researcherID], researcher.removedAt == nil else { return nil }
        return researcher
    }

    /// Uses up a live link and stores the password's hash.
    public func setPassword(linkToken token: String, passwordHash: String) throws -> Researcher? {
        guard let researcher = researcher(passwordLinkToken: token) else { return nil }
        passwordLinks[StudySecrets.tokenHash(token)]?.used = true
        endSessionsAndLinks(of: researcher.id, at: environment.now())
        return try change(researcher.id) { researcher in
            researcher.passwordHash = passwordHash
        }
    }

    /// Counts a wrong password for `email` from `client`, pausing the two together at the `pauseAfter`th.
    @discardableResult
    public func recordFailedSignIn(email: String, client: String, pauseAfter: Int, pauseFor: TimeInterval) throws -> Date? {
        guard pauseAfter > 0, pauseFor > 0 else { throw ResearcherStoreError.invalidSetting("a pause needs a positive count and duration") }
        let now = environment.now()
        let account = StudySecrets.tokenHash(Researcher.normalizedEmail(email))
        let researchers = Set(researchersByID.values.map { StudySecrets.tokenHash($0.email) })
        for (tried, tallies) in signInFailures {
            signInFailures[tried] = tallies.filter { !$0.value.isSpent(at: now, pauseFor: pauseFor, isResearchers: researchers.contains(tried)) }
        }
        var tally = signInFailures[account]?[client] ?? SignInFailureTally()
        let paused = tally.recordFailure(at: now, pauseAfter: pauseAfter, pauseFor: pauseFor)
        signInFailures[account, default: [:]][client] = tally
        return paused
    }

    /// Until when signing in as `email` from `client` is paused.
    public func signInPause(email: String, client: String) -> Date? {
        let tally = signInFailures[StudySecrets.tokenHash(Researcher.normalizedEmail(email))]?[client]
        return tally.flatMap { $0.isPaused(at: environment.now()) ? $0.pausedUntil : nil }
    }

    /// Signs the researcher in, handing them the wrong passwords tried for their address since their last sign-in.
    public func createResearcherSession(researcherID: UUID, lifetime: TimeInterval, client: String?) throws -> IssuedResearcherSession {
        guard lifetime > 0 else { throw ResearcherStoreError.invalidSetting("a session's lifetime must be more than 0 seconds") }
        guard let researcher = researchersByID[researcherID], researcher.removedAt == nil else { throw ResearcherStoreError.unknownResearcher(researcherID) }
        let now = environment.now()
        let account = StudySecrets.tokenHash(researcher.email)
        let failures = SignInFailureTally.unseen(in: Array((signInFailures[account] ?? [:]).values))
        if var tallies = signInFailures[account] {
            for client in tallies.keys {
                tallies[client]?.unseen = 0
                tallies[client]?.firstUnseenAt = nil
            }
            if let client { tallies[client] = nil }
            signInFailures[account] = tallies.isEmpty ? nil : tallies
        }
        let token = StudySecrets.sessionToken(environment.randomBytes)
        let session = ResearcherSession(id: environment.makeUUID(), researcherID: researcherID, createdAt: now,
                                        expiresAt: now.addingTimeInterval(lifetime), failedSignInsBefore: failures)
        researcherSessionsByHash[StudySecrets.tokenHash(token)] = session
        return IssuedResearcherSession(session: session, token: token)
    }

    /// The valid session of this token.
    public func researcherSession(token: String) -> ResearcherSession? {
        guard let session = researcherSessionsByHash[StudySecrets.tokenHash(token)], session.isValid(at: environment.now()),
              researchersByID[session.researcherID]?.removedAt == nil else { return nil }
        return session
    }

    /// Signs one session out.
    @discardableResult
    public func revokeResearcherSession(id: UUID, researcherID: UUID) -> Bool {
        guard let (hash, session) = researcherSessionsByHash.first(where: { $0.value.id == id && $0.value.researcherID == researcherID }) else {
            return false
        }
        if session.revokedAt == nil { researcherSessionsByHash[hash]?.revokedAt = environment.now() }
        return true
    }

    /// Signs the researcher out everywhere.
    @discardableResult
    public func revokeResearcherSessions(researcherID: UUID) -> Int {
        endSessionsAndLinks(of: researcherID, at: environment.now(), links: false)
    }

    @discardableResult
    private func endSessionsAndLinks(of researcherID: UUID, at now: Date, links: Bool = true) -> Int {
        var ended = 0
        for (hash, session) in researcherSessionsByHash where session.researcherID == researcherID && session.isValid(at: now) {
            researcherSessionsByHash[hash]?.revokedAt = now
            ended += 1
        }
        if links { passwordLinks = passwordLinks.filter { $0.value.researcherID != researcherID } }
        return ended
    }

    private func change(_ id: UUID, _ body: (inout Researcher) -> Void) throws -> Researcher {
        guard var researcher = researchersByID[id] else { throw ResearcherStoreError.unknownResearcher(id) }
        body(&researcher)
        researchersByID[id] = researcher
        return researcher
    }
}
