import Foundation

/// The study team's accounts: researchers, the one-time links that set their passwords, the wrong passwords tried
/// per address and client, and their sessions. Passwords never reach the store: the server hashes them (bcrypt) and hands over
/// the hash; links and session tokens are kept as SHA-256 digests (``StudySecrets``).
///
/// ```swift
/// let ana = try await store.addResearcher(email: "ana@example.org", role: .investigator)
/// let link = try await store.createPasswordLink(researcherID: ana.id)   // …/console/password/link.token
/// _ = try await store.setPassword(linkToken: link.token, passwordHash: Bcrypt.hash(password))
/// let issued = try await store.createResearcherSession(researcherID: ana.id, lifetime: 12 * 3600)
/// let signedIn = try await store.researcherSession(token: issued.token)
/// ```
public protocol ResearcherStore: Sendable {
    /// Adds a researcher without a password. Throws ``ResearcherStoreError/emailTaken(_:)`` when someone (even one
    /// removed) has the address, and ``ResearcherStoreError/invalidEmail(_:)`` for one that is not an address.
    func addResearcher(email: String, role: ResearcherRole) async throws -> Researcher
    /// Every researcher, removed ones included, by the time they were added.
    func researchers() async throws -> [Researcher]
    /// The researcher with this id; nil when none has it.
    func researcher(id: UUID) async throws -> Researcher?
    /// The researcher with this address, in any case; nil when none has it.
    func researcher(email: String) async throws -> Researcher?
    /// Changes a researcher's role; throws ``ResearcherStoreError/unknownResearcher(_:)``.
    @discardableResult
    func setRole(_ role: ResearcherRole, researcherID: UUID) async throws -> Researcher
    /// Removes a researcher: they can no longer sign in, their sessions and links end at once; their past actions
    /// stay attributed to them.
    @discardableResult
    func removeResearcher(id: UUID) async throws -> Researcher

    /// A one-time link that sets the researcher's password within `lifetime` seconds, replacing their earlier links.
    func createPasswordLink(researcherID: UUID, lifetime: TimeInterval) async throws -> IssuedPasswordLink
    /// The researcher a live link is for (not used, not expired, not replaced, researcher not removed); nil otherwise.
    func researcher(passwordLinkToken token: String) async throws -> Researcher?
    /// Uses up a live link and stores the password's hash; every session of the researcher ends (and a lock-out left
    /// by a file from before study store migration v5 is lifted). Nil when the link is not live.
    func setPassword(linkToken token: String, passwordHash: String) async throws -> Researcher?

    /// Counts a wrong password tried for `email` (a researcher's address or not: both are counted alike) from the
    /// client address `client`. Counts are kept per address tried and client address together, so that a stranger
    /// guessing from one place cannot keep the researcher out from another: at the `pauseAfter`th wrong password
    /// within `pauseFor` seconds of the one before, signing in as `email` from `client` is paused for `pauseFor`
    /// seconds and the count starts again. Returns until when it is paused, when this wrong password paused it.
    ///
    /// The address tried is kept only as its SHA-256, never in the clear (someone may type a password into it).
    @discardableResult
    func recordFailedSignIn(email: String, client: String, pauseAfter: Int, pauseFor: TimeInterval) async throws -> Date?
    /// Until when signing in as `email` from `client` is paused after wrong passwords; nil when it is not.
    func signInPause(email: String, client: String) async throws -> Date?
    /// Signs the researcher in from `client` (nil when unknown): a session of `lifetime` seconds, which carries the
    /// wrong passwords tried for their address since their previous sign-in (``ResearcherSession/failedSignInsBefore``);
    /// from then on those are no longer news, and `client`'s own count for their address starts again.
    func createResearcherSession(researcherID: UUID, lifetime: TimeInterval, client: String?) async throws -> IssuedResearcherSession
    /// The valid session of this token, of a researcher not removed; nil otherwise.
    func researcherSession(token: String) async throws -> ResearcherSession?
    /// Signs one session out; false when the researcher has no such session.
    @discardableResult
    func revokeResearcherSession(id: UUID, researcherID: UUID) async throws -> Bool
    /// Signs the researcher out everywhere: every session of theirs ends. Returns how many were valid.
    @discardableResult
    func revokeResearcherSessions(researcherID: UUID) async throws -> Int
}

extension ResearcherStore {
    /// Signs the researcher in from a client address not known (the command line, tests).
    public func createResearcherSession(researcherID: UUID, lifetime: TimeInterval) async throws -> IssuedResearcherSession {
        try await createResearcherSession(researcherID: researcherID, lifetime: lifetime, client: nil)
    }
}

/// Why a researcher store refused a request.
public enum ResearcherStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Someone already has this address.
    case emailTaken(String)
    /// Not an email address; the text says what is wrong.
    case invalidEmail(String)
    /// No researcher has this id.
    case unknownResearcher(UUID)
    /// A lifetime or pause setting that is not positive.
    case invalidSetting(String)

    /// What went wrong, in plain English.
    public var description: String {
        switch self {
        case .emailTaken(let email): "a researcher with the address \(email) already exists"
        case .invalidEmail(let problem): problem
        case .unknownResearcher(let id): "no researcher has the id \(id.uuidString)"
        case .invalidSetting(let problem): problem
        }
    }
}

extension ResearcherStore {
    /// A one-time link that sets the researcher's password within ``IssuedPasswordLink/lifetime``, replacing their
    /// earlier links: the link every caller hands out.
    public func createPasswordLink(researcherID: UUID) async throws -> IssuedPasswordLink {
        try await createPasswordLink(researcherID: researcherID, lifetime: IssuedPasswordLink.lifetime)
    }
}
