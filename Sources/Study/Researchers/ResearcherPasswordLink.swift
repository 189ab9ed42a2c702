import Foundation

/// A one-time link that sets a researcher's password, as ``ResearcherStorage`` keeps it: only its token's SHA-256,
/// the researcher, its lifetime and when it was used. Whether it is live is
/// ``StorageBackedResearcherAccounts``'s rule.
public struct ResearcherPasswordLink: Hashable, Sendable {
    /// The SHA-256 (hex) of the link's token (``StudySecrets/tokenHash(_:)``).
    public var tokenSHA256: String
    /// The researcher whose password it sets.
    public var researcherID: UUID
    /// When it was made.
    public var createdAt: Date
    /// From when it no longer works.
    public var expiresAt: Date
    /// When it set the password; nil until then.
    public var usedAt: Date?

    /// Creates a stored link; see the properties for each part.
    public init(tokenSHA256: String, researcherID: UUID, createdAt: Date, expiresAt: Date, usedAt: Date? = nil) {
        self.tokenSHA256 = tokenSHA256
        self.researcherID = researcherID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}
