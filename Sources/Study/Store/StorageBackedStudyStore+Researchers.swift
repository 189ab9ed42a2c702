import Foundation

/// The study team's accounts of a storage that keeps them beside the study's data: the store answers for them, so one
/// object serves the console as it serves the participants.
extension StorageBackedStudyStore: ResearcherStore where Storage: ResearcherAccountsKeeping {
    private var accounts: StorageBackedResearcherAccounts<Storage.Researchers> { storage.researcherAccounts }

    public func addResearcher(email: String, role: ResearcherRole) async throws -> Researcher {
        try await accounts.addResearcher(email: email, role: role)
    }

    public func researchers() async throws -> [Researcher] { try await accounts.researchers() }

    public func researcher(id: UUID) async throws -> Researcher? { try await accounts.researcher(id: id) }

    public func researcher(email: String) async throws -> Researcher? { try await accounts.researcher(email: email) }

    @discardableResult
    public func setRole(_ role: ResearcherRole, researcherID: UUID) async throws -> Researcher {
        try await accounts.setRole(role, researcherID: researcherID)
    }

    @discardableResult
    public func removeResearcher(id: UUID) async throws -> Researcher { try await accounts.removeResearcher(id: id) }

    public func createPasswordLink(researcherID: UUID, lifetime: TimeInterval) async throws -> IssuedPasswordLink {
        try await accounts.createPasswordLink(researcherID: researcherID, lifetime: lifetime)
    }

    public func researcher(passwordLinkToken token: String) async throws -> Researcher? {
        try await accounts.researcher(passwordLinkToken: token)
    }

    public func setPassword(linkToken token: String, passwordHash: String) async throws -> Researcher? {
        try await accounts.setPassword(linkToken: token, passwordHash: passwordHash)
    }

    @discardableResult
    public func recordFailedSignIn(email: String, client: String, pauseAfter: Int, pauseFor: TimeInterval) async throws -> Date? {
        try await accounts.recordFailedSignIn(email: email, client: client, pauseAfter: pauseAfter, pauseFor: pauseFor)
    }

    public func signInPause(email: String, client: String) async throws -> Date? {
        try await accounts.signInPause(email: email, client: client)
    }

    public func createResearcherSession(researcherID: UUID, lifetime: TimeInterval, client: String?) async throws -> IssuedResearcherSession {
        try await accounts.createResearcherSession(researcherID: researcherID, lifetime: lifetime, client: client)
    }

    public func researcherSession(token: String) async throws -> ResearcherSession? { try await accounts.researcherSession(token: token) }

    @discardableResult
    public func revokeResearcherSession(id: UUID, researcherID: UUID) async throws -> Bool {
        try await accounts.revokeResearcherSession(id: id, researcherID: researcherID)
    }

    @discardableResult
    public func revokeResearcherSessions(researcherID: UUID) async throws -> Int {
        try await accounts.revokeResearcherSessions(researcherID: researcherID)
    }
}
