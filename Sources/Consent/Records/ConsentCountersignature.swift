import Foundation

/// What a countersignature record adds: the consent record it countersigns, bound by the hash of that record's seal
/// so the countersignature cannot be moved to another consent.
///
/// JSON: `{"originalRecordID": "…", "originalSealSHA256": "9f86…"}`.
public struct ConsentCountersignature: Hashable, Sendable, Codable {
    /// The ``ConsentRecord/id`` of the consent record countersigned.
    public var originalRecordID: UUID
    /// ``SealedConsentRecord/sealSHA256()`` of the countersigned record.
    public var originalSealSHA256: String

    /// Creates a countersignature link.
    public init(originalRecordID: UUID, originalSealSHA256: String) {
        self.originalRecordID = originalRecordID
        self.originalSealSHA256 = originalSealSHA256
    }
}
