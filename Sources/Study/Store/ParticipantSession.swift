import Foundation

/// A signed-in browser of a participant, as the store keeps it: the cookie's token is never stored, only its SHA-256.
public struct ParticipantSession: Hashable, Sendable, Identifiable {
    /// Identifies the session (for listing and revoking it; not a secret).
    public var id: UUID
    /// The participant signed in.
    public var participantID: String
    /// When the session was made.
    public var createdAt: Date
    /// When the session was last used to find the participant, to ``lastSeenResolution``.
    public var lastSeenAt: Date
    /// From when the token no longer signs anyone in.
    public var expiresAt: Date
    /// When the session was revoked (signed out); nil while valid.
    public var revokedAt: Date?

    /// Creates a session record.
    public init(id: UUID, participantID: String, createdAt: Date, lastSeenAt: Date, expiresAt: Date, revokedAt: Date? = nil) {
        self.id = id
        self.participantID = participantID
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }

    /// How stale ``lastSeenAt`` may get before a lookup writes it again: a page view then costs a read, not a durable
    /// write, while the last-seen time stays right to five minutes.
    public static let lastSeenResolution: TimeInterval = 300

    /// Whether the session signs its participant in at `date`.
    public func isValid(at date: Date) -> Bool { revokedAt == nil && date < expiresAt }
}

/// A new session with its token: the only time the token is known in the clear. Put it in the HttpOnly cookie.
public struct IssuedSession: Hashable, Sendable {
    /// The session as stored.
    public var session: ParticipantSession
    /// The token (43 characters of base64url: 256 random bits).
    public var token: String

    /// Pairs a stored session with its token.
    public init(session: ParticipantSession, token: String) {
        self.session = session
        self.token = token
    }
}

/// A one-time code that signs a participant in on a second device, shown on their settings page.
public struct IssuedSignInCode: Hashable, Sendable {
    /// The participant the code signs in.
    public var participantID: String
    /// The code to show, as `XXXX-XXXX` (Crockford base32, 40 random bits).
    public var code: String
    /// From when the code no longer works.
    public var expiresAt: Date

    /// Creates an issued code.
    public init(participantID: String, code: String, expiresAt: Date) {
        self.participantID = participantID
        self.code = code
        self.expiresAt = expiresAt
    }
}
