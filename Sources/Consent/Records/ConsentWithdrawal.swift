import Foundation

/// What a withdrawal record adds: the consent record it withdraws, bound by the hash of that record's seal
/// so the link cannot be moved to another record, and when and why.
///
/// JSON: `{"originalRecordID": "…", "originalSealSHA256": "9f86…", "withdrawnAt": "2026-05-01T09:30:00.000Z",
/// "reason": "moved abroad"}`.
public struct ConsentWithdrawal: Hashable, Sendable, Codable {
    /// The ``ConsentRecord/id`` of the consent record withdrawn.
    public var originalRecordID: UUID
    /// ``SealedConsentRecord/sealSHA256()`` of the withdrawn record: lowercase hex SHA-256 of its whole
    /// sealed canonical JSON (record, public key and signature).
    public var originalSealSHA256: String
    /// When the participant withdrew, kept to whole milliseconds.
    public var withdrawnAt: Date
    /// The reason the participant gave, if any.
    public var reason: String?

    /// Creates a withdrawal link; `withdrawnAt` is rounded to the millisecond.
    public init(originalRecordID: UUID, originalSealSHA256: String, withdrawnAt: Date, reason: String?) {
        self.originalRecordID = originalRecordID
        self.originalSealSHA256 = originalSealSHA256
        self.withdrawnAt = ConsentTimestamp.milliseconds(withdrawnAt)
        self.reason = reason
    }

    private enum CodingKeys: String, CodingKey { case originalRecordID, originalSealSHA256, withdrawnAt, reason }

    /// Reads a withdrawal; `withdrawnAt` must be written as ``ConsentTimestamp`` writes it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        originalRecordID = try container.decode(UUID.self, forKey: .originalRecordID)
        originalSealSHA256 = try container.decode(String.self, forKey: .originalSealSHA256)
        withdrawnAt = try ConsentTimestamp.decode(from: container, forKey: .withdrawnAt)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
    }

    /// Writes the withdrawal with its time as a ``ConsentTimestamp`` string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(originalRecordID, forKey: .originalRecordID)
        try container.encode(originalSealSHA256, forKey: .originalSealSHA256)
        try container.encode(ConsentTimestamp.string(from: withdrawnAt), forKey: .withdrawnAt)
        try container.encodeIfPresent(reason, forKey: .reason)
    }
}
