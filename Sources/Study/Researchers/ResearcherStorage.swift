import Foundation

/// The few operations a database must offer for ``StorageBackedResearcherAccounts`` to keep the study team's accounts
/// in it: researchers, their password links and sessions, and the wrong passwords tried per address and client, as
/// rows stored and found in transactions.
///
/// Every rule of the accounts (an address taken once, one live link at a time, a new password ending every session,
/// pauses after wrong passwords and what a sign-in is told of them) is written once, in
/// ``StorageBackedResearcherAccounts``, on top of these primitives, as the study store's are over ``StudyStorage``.
/// The primitives are `async`, so that a network database fits them; a write runs atomically: when its body throws,
/// nothing of it is kept.
public protocol ResearcherStorage: Sendable {
    /// Runs `body` in a read transaction that sees one consistent state.
    func read<T: Sendable>(_ body: @escaping @Sendable (any ResearcherStorageReader) async throws -> T) async throws -> T
    /// Runs `body` in a write transaction; it is durable when this returns, and undone when `body` throws.
    func write<T: Sendable>(_ body: @escaping @Sendable (any ResearcherStorageWriter) async throws -> T) async throws -> T
}

/// Finding the accounts' rows inside a transaction. Nothing is checked here: whether a link is live or a session valid
/// is the accounts' rule.
public protocol ResearcherStorageReader {
    /// The researcher with this id, removed or not.
    func researcher(id: UUID) async throws -> Researcher?
    /// The researcher whose stored address is exactly `email` (already normalized), removed or not.
    func researcher(email: String) async throws -> Researcher?
    /// Every researcher, removed ones included, by the time they were added, then id.
    func researchers() async throws -> [Researcher]

    /// The password link whose token has this SHA-256 (hex), live or not.
    func passwordLink(tokenSHA256: String) async throws -> ResearcherPasswordLink?

    /// The researcher session whose token has this SHA-256 (hex), valid or not.
    func researcherSession(tokenSHA256: String) async throws -> ResearcherSession?

    /// The tally of wrong passwords tried for the address whose SHA-256 is `emailSHA256` from `client`.
    func signInFailureTally(emailSHA256: String, client: String) async throws -> SignInFailureTally?
    /// The tallies of wrong passwords tried for the address whose SHA-256 is `emailSHA256`, from every client.
    func signInFailureTallies(emailSHA256: String) async throws -> [SignInFailureTally]
}

/// Storing the accounts' rows inside a transaction. What a method refuses itself (a row whose key is taken) it throws;
/// every rule is the accounts'.
public protocol ResearcherStorageWriter: ResearcherStorageReader {
    /// Stores a new researcher.
    func insert(_ researcher: Researcher) async throws
    /// Stores the researcher's role, password hash, the lock-out of old files and removal; returns whether the
    /// researcher is stored. Their id, address and creation time never change.
    func update(_ researcher: Researcher) async throws -> Bool

    /// Stores a new password link.
    func insert(_ link: ResearcherPasswordLink) async throws
    /// Marks the link used at `date`.
    func usePasswordLink(tokenSHA256: String, at date: Date) async throws
    /// Deletes the researcher's links: every one, or only those not used (`unusedOnly`).
    func deletePasswordLinks(researcherID: UUID, unusedOnly: Bool) async throws

    /// Stores a new researcher session with the SHA-256 of its token.
    func insert(_ session: ResearcherSession, tokenSHA256: String) async throws
    /// Marks the researcher's session revoked at `date`, unless it was already (the first date stays); returns whether
    /// the researcher has it.
    func revokeResearcherSession(id: UUID, researcherID: UUID, at date: Date) async throws -> Bool
    /// Marks the researcher's sessions not revoked yet revoked at `date`: every one, or only those that expire after
    /// `date` (`unexpiredOnly`). Returns how many it marked.
    func revokeResearcherSessions(researcherID: UUID, at date: Date, unexpiredOnly: Bool) async throws -> Int

    /// Stores the tally of wrong passwords for the address whose SHA-256 is `emailSHA256` from `client`, replacing the
    /// stored one, with the researcher whose address it is (nil for none).
    func save(_ tally: SignInFailureTally, emailSHA256: String, client: String, researcherID: UUID?) async throws
    /// Deletes the tally of the address whose SHA-256 is `emailSHA256` from `client`.
    func deleteSignInFailureTally(emailSHA256: String, client: String) async throws
    /// Deletes every tally that says nothing any more at `now` (``SignInFailureTally/isSpent(at:pauseFor:isResearchers:)``,
    /// with `isResearchers` whether it was stored with a researcher): no pause past `now`, no wrong password within
    /// `pauseFor` seconds before it, and, for a researcher's address, nothing they have not been told of.
    func deleteSpentSignInFailureTallies(at now: Date, pauseFor: TimeInterval) async throws
    /// Marks every wrong password of the address whose SHA-256 is `emailSHA256` told (its tallies' unseen count 0).
    func markSignInFailuresSeen(emailSHA256: String) async throws
}
