import Foundation

/// A signed-in browser of a researcher. Kept apart from participants' sessions: a participant's cookie never opens
/// the console, nor a researcher's a participant's pages. Only the token's SHA-256 is stored.
public struct ResearcherSession: Hashable, Sendable, Identifiable {
    /// Identifies the session (not a secret).
    public var id: UUID
    /// The researcher signed in.
    public var researcherID: UUID
    /// When they signed in.
    public var createdAt: Date
    /// From when the token no longer signs anyone in.
    public var expiresAt: Date
    /// When the session was signed out; nil while valid.
    public var revokedAt: Date?
    /// The wrong passwords tried for the researcher's address between their previous sign-in and this one; nil for
    /// none.
    public var failedSignInsBefore: FailedSignIns?

    /// Creates a session record.
    public init(id: UUID, researcherID: UUID, createdAt: Date, expiresAt: Date, revokedAt: Date? = nil, failedSignInsBefore: FailedSignIns? = nil) {
        self.id = id
        self.researcherID = researcherID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.failedSignInsBefore = failedSignInsBefore
    }

    /// Whether the session signs its researcher in at `date`.
    public func isValid(at date: Date) -> Bool { revokedAt == nil && date < expiresAt }
}

/// A new researcher session with its token, known in the clear only now: put it in the console's HttpOnly cookie.
public struct IssuedResearcherSession: Hashable, Sendable {
    /// The session as stored.
    public var session: ResearcherSession
    /// The token (256 random bits, base64url).
    public var token: String

    /// Pairs a stored session with its token.
    public init(session: ResearcherSession, token: String) {
        self.session = session
        self.token = token
    }
}

/// A one-time link for a researcher to set their password: printed by `studykit researcher add`, or shown to the
/// admin who added them in the console. Only its SHA-256 is stored; a newer link replaces it.
public struct IssuedPasswordLink: Hashable, Sendable {
    /// The researcher the link is for.
    public var researcherID: UUID
    /// The token that goes in the link's path (256 random bits, base64url).
    public var token: String
    /// From when the link no longer works.
    public var expiresAt: Date

    /// How long a password link works, wherever it is made (the console, `studykit researcher`): seven days.
    public static let lifetime: TimeInterval = 7 * 86_400
    /// ``lifetime`` in whole days, as the texts that hand a link out say it.
    public static var lifetimeInDays: Int { Int(lifetime / 86_400) }

    /// Creates an issued link.
    public init(researcherID: UUID, token: String, expiresAt: Date) {
        self.researcherID = researcherID
        self.token = token
        self.expiresAt = expiresAt
    }
}
