import Foundation
import StudyKitEnvironment

/// The study team's accounts' rules, written once over a ``ResearcherStorage``: addresses normalized, checked and taken
/// once, a removed researcher's sessions and links ended, one live password link at a time that works once before it
/// expires, a new password ending every session, wrong passwords paused per address tried and client, and each
/// sign-in told of those tried since the one before. In memory, SQLite and PostgreSQL are backends of it (their
/// researcher storage types); each passes the same conformance suite.
///
/// ```swift
/// let accounts = StorageBackedResearcherAccounts(storage: InMemoryResearcherStorage(), environment: .live)
/// let ana = try await accounts.addResearcher(email: "ana@example.org", role: .investigator)
/// let link = try await accounts.createPasswordLink(researcherID: ana.id)
/// ```
public final class StorageBackedResearcherAccounts<Storage: ResearcherStorage>: ResearcherStore {
    /// Where the rows are kept.
    public let storage: Storage
    /// The clock, UUIDs and randomness of the accounts.
    public let environment: StudyKitEnvironment

    /// Accounts over `storage` using `environment`'s clock, UUIDs and randomness.
    public init(storage: Storage, environment: StudyKitEnvironment) {
        self.storage = storage
        self.environment = environment
    }

    // MARK: - Researchers

    /// Adds a researcher without a password, their address normalized (``Researcher/normalizedEmail(_:)``).
    public func addResearcher(email: String, role: ResearcherRole) async throws -> Researcher {
        if let problem = Researcher.problem(withEmail: email) { throw ResearcherStoreError.invalidEmail(problem) }
        let researcher = Researcher(id: environment.makeUUID(), email: Researcher.normalizedEmail(email), role: role, createdAt: environment.now())
        try await storage.write { rows in
            guard try await rows.researcher(email: researcher.email) == nil else { throw ResearcherStoreError.emailTaken(researcher.email) }
            try await rows.insert(researcher)
        }
        return researcher
    }

    /// Every researcher, removed ones included, by the time they were added.
    public func researchers() async throws -> [Researcher] {
        try await storage.read { rows in try await rows.researchers() }
    }

    /// The researcher with this id.
    public func researcher(id: UUID) async throws -> Researcher? {
        try await storage.read { rows in try await rows.researcher(id: id) }
    }

    /// The researcher with this address, in any case.
    public func researcher(email: String) async throws -> Researcher? {
        let email = Researcher.normalizedEmail(email)
        return try await storage.read { rows in try await rows.researcher(email: email) }
    }

    /// Changes a researcher's role.
    @discardableResult
    public func setRole(_ role: ResearcherRole, researcherID: UUID) async throws -> Researcher {
        try await storage.write { rows in
            try await Self.change(researcherID, rows) { $0.role = role }
        }
    }

    /// Removes a researcher (the first removal's time stays), ending their sessions and unused links.
    @discardableResult
    public func removeResearcher(id: UUID) async throws -> Researcher {
        let now = environment.now()
        return try await storage.write { rows in
            let removed = try await Self.change(id, rows) { $0.removedAt = $0.removedAt ?? now }
            try await Self.endSessionsAndLinks(of: id, at: now, rows)
            return removed
        }
    }

    // MARK: - Password links

    /// A one-time password link, replacing every earlier link of the researcher; refused for a researcher unknown or
    /// removed.
    public func createPasswordLink(researcherID: UUID, lifetime: TimeInterval) async throws -> IssuedPasswordLink {
        guard lifetime > 0 else { throw ResearcherStoreError.invalidSetting("a link's lifetime must be more than 0 seconds") }
        let now = environment.now()
        let token = StudySecrets.sessionToken(environment.randomBytes)
        let link = ResearcherPasswordLink(tokenSHA256: StudySecrets.tokenHash(token), researcherID: researcherID, createdAt: now,
                                          expiresAt: now.addingTimeInterval(lifetime))
        try await storage.write { rows in
            guard let researcher = try await rows.researcher(id: researcherID), researcher.removedAt == nil else {
                throw ResearcherStoreError.unknownResearcher(researcherID)
            }
            try await rows.deletePasswordLinks(researcherID: researcherID, unusedOnly: false)
            try await rows.insert(link)
        }
        return IssuedPasswordLink(researcherID: researcherID, token: token, expiresAt: link.expiresAt)
    }

    /// The researcher a live link is for: not used, not expired, not replaced, researcher not removed.
    public func researcher(passwordLinkToken token: String) async throws -> Researcher? {
        let hash = StudySecrets.tokenHash(token), now = environment.now()
        return try await storage.read { rows in try await Self.liveLinkResearcher(hash, at: now, rows) }
    }

    /// Uses up a live link and stores the password's hash; every session of the researcher and their other links end,
    /// and a lock-out left by a file from before study store migration v5 is lifted.
    public func setPassword(linkToken token: String, passwordHash: String) async throws -> Researcher? {
        let hash = StudySecrets.tokenHash(token), now = environment.now()
        return try await storage.write { rows in
            guard let researcher = try await Self.liveLinkResearcher(hash, at: now, rows) else { return nil }
            try await rows.usePasswordLink(tokenSHA256: hash, at: now)
            try await Self.endSessionsAndLinks(of: researcher.id, at: now, rows)
            return try await Self.change(researcher.id, rows) { researcher in
                researcher.passwordHash = passwordHash
                researcher.failedSignIns = 0
                researcher.lockedUntil = nil
            }
        }
    }

    // MARK: - Wrong passwords

    /// Counts a wrong password for `email` from `client`, pausing the two together at the `pauseAfter`th; tallies that
    /// say nothing any more are forgotten first (one holding news for a researcher waits for them).
    @discardableResult
    public func recordFailedSignIn(email: String, client: String, pauseAfter: Int, pauseFor: TimeInterval) async throws -> Date? {
        guard pauseAfter > 0, pauseFor > 0 else { throw ResearcherStoreError.invalidSetting("a pause needs a positive count and duration") }
        let now = environment.now()
        let email = Researcher.normalizedEmail(email)
        let account = StudySecrets.tokenHash(email)
        return try await storage.write { rows in
            try await rows.deleteSpentSignInFailureTallies(at: now, pauseFor: pauseFor)
            let researcherID = try await rows.researcher(email: email)?.id
            var tally = try await rows.signInFailureTally(emailSHA256: account, client: client) ?? SignInFailureTally()
            let paused = tally.recordFailure(at: now, pauseAfter: pauseAfter, pauseFor: pauseFor)
            try await rows.save(tally, emailSHA256: account, client: client, researcherID: researcherID)
            return paused
        }
    }

    /// Until when signing in as `email` from `client` is paused.
    public func signInPause(email: String, client: String) async throws -> Date? {
        let account = StudySecrets.tokenHash(Researcher.normalizedEmail(email)), now = environment.now()
        let tally = try await storage.read { rows in try await rows.signInFailureTally(emailSHA256: account, client: client) }
        return tally.flatMap { $0.isPaused(at: now) ? $0.pausedUntil : nil }
    }

    // MARK: - Sessions

    /// Signs the researcher in, handing them the wrong passwords tried for their address since their last sign-in; from
    /// then on those are told, and `client`'s own tally for the address is forgotten.
    public func createResearcherSession(researcherID: UUID, lifetime: TimeInterval, client: String?) async throws -> IssuedResearcherSession {
        guard lifetime > 0 else { throw ResearcherStoreError.invalidSetting("a session's lifetime must be more than 0 seconds") }
        let now = environment.now()
        let token = StudySecrets.sessionToken(environment.randomBytes)
        let id = environment.makeUUID(), expiresAt = now.addingTimeInterval(lifetime)
        let session = try await storage.write { rows in
            guard let researcher = try await rows.researcher(id: researcherID), researcher.removedAt == nil else {
                throw ResearcherStoreError.unknownResearcher(researcherID)
            }
            let account = StudySecrets.tokenHash(researcher.email)
            let failures = SignInFailureTally.unseen(in: try await rows.signInFailureTallies(emailSHA256: account))
            try await rows.markSignInFailuresSeen(emailSHA256: account)
            if let client { try await rows.deleteSignInFailureTally(emailSHA256: account, client: client) }
            let session = ResearcherSession(id: id, researcherID: researcherID, createdAt: now, expiresAt: expiresAt, failedSignInsBefore: failures)
            try await rows.insert(session, tokenSHA256: StudySecrets.tokenHash(token))
            return session
        }
        return IssuedResearcherSession(session: session, token: token)
    }

    /// The valid session of this token (neither revoked nor expired), of a researcher not removed.
    public func researcherSession(token: String) async throws -> ResearcherSession? {
        let hash = StudySecrets.tokenHash(token), now = environment.now()
        return try await storage.read { rows in
            guard let session = try await rows.researcherSession(tokenSHA256: hash), session.isValid(at: now),
                  let researcher = try await rows.researcher(id: session.researcherID), researcher.removedAt == nil else { return nil }
            return session
        }
    }

    /// Signs one session out (a revoked one keeps its first revocation time).
    @discardableResult
    public func revokeResearcherSession(id: UUID, researcherID: UUID) async throws -> Bool {
        let now = environment.now()
        return try await storage.write { rows in try await rows.revokeResearcherSession(id: id, researcherID: researcherID, at: now) }
    }

    /// Signs the researcher out everywhere; returns how many sessions were valid.
    @discardableResult
    public func revokeResearcherSessions(researcherID: UUID) async throws -> Int {
        let now = environment.now()
        return try await storage.write { rows in try await rows.revokeResearcherSessions(researcherID: researcherID, at: now, unexpiredOnly: true) }
    }

    // MARK: - Rules shared by several methods

    /// The researcher of the link whose token has the SHA-256 `hash`, when it is live at `now`.
    private static func liveLinkResearcher(_ hash: String, at now: Date, _ rows: any ResearcherStorageReader) async throws -> Researcher? {
        guard let link = try await rows.passwordLink(tokenSHA256: hash), link.usedAt == nil, now < link.expiresAt,
              let researcher = try await rows.researcher(id: link.researcherID), researcher.removedAt == nil else { return nil }
        return researcher
    }

    /// Ends every session of the researcher not revoked yet and deletes their unused links.
    private static func endSessionsAndLinks(of id: UUID, at now: Date, _ rows: any ResearcherStorageWriter) async throws {
        _ = try await rows.revokeResearcherSessions(researcherID: id, at: now, unexpiredOnly: false)
        try await rows.deletePasswordLinks(researcherID: id, unusedOnly: true)
    }

    /// Changes the stored researcher with `body`; throws ``ResearcherStoreError/unknownResearcher(_:)``.
    private static func change(_ id: UUID, _ rows: any ResearcherStorageWriter, _ body: (inout Researcher) -> Void) async throws -> Researcher {
        guard var researcher = try await rows.researcher(id: id) else { throw ResearcherStoreError.unknownResearcher(id) }
        body(&researcher)
        guard try await rows.update(researcher) else { throw ResearcherStoreError.unknownResearcher(id) }
        return researcher
    }
}
