import Foundation

/// An invitation to enrol, as the store keeps it: the code itself is never stored, only its SHA-256.
public struct Invitation: Hashable, Sendable, Identifiable {
    /// Identifies the invitation.
    public var id: UUID
    /// Lowercase hex SHA-256 of the normalized code (see ``StudySecrets/normalizeCode(_:)``).
    public var codeSHA256: String
    /// A note for the study team, such as a clinic or a batch; never shown to participants.
    public var label: String?
    /// When the invitation was made.
    public var createdAt: Date
    /// From when the code no longer enrols anyone; nil for never.
    public var expiresAt: Date?
    /// When the code was used; nil while unused. An invitation enrols one participant.
    public var usedAt: Date?
    /// The participant who enrolled with it.
    public var usedBy: String?
    /// When the study team revoked it (a link sent to the wrong address); nil while not revoked.
    public var revokedAt: Date?

    /// Creates an invitation record.
    public init(id: UUID, codeSHA256: String, label: String?, createdAt: Date, expiresAt: Date?, usedAt: Date? = nil, usedBy: String? = nil,
                revokedAt: Date? = nil) {
        self.id = id
        self.codeSHA256 = codeSHA256
        self.label = label
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
        self.usedBy = usedBy
        self.revokedAt = revokedAt
    }

    /// Whether the code can still enrol someone at `date`.
    public func isUsable(at date: Date) -> Bool {
        usedAt == nil && revokedAt == nil && (expiresAt.map { date < $0 } ?? true)
    }
}

/// A new invitation with its code: the only time the code is known in the clear. Put it in the invitation link.
public struct IssuedInvitation: Hashable, Sendable {
    /// The invitation as stored.
    public var invitation: Invitation
    /// The code to hand to the participant (26 characters of Crockford base32).
    public var code: String

    /// Pairs a stored invitation with its code.
    public init(invitation: Invitation, code: String) {
        self.invitation = invitation
        self.code = code
    }
}
