import Crypto
import Foundation

/// The audit trail's secret key: 32 random bytes kept in the data folder's `keys/` (`keys/audit-trail-key`, owner-only),
/// never in the database. Every row's hash is keyed with it (``AuditTrail/hash(previousHash:of:key:)``), and so are the
/// digests of what participants gave (``AuditTrail/digest(of:key:)``): someone who has the database file but not the
/// key can neither write a row that verifies nor try values against a digest.
public struct AuditKey: Sendable {
    let symmetricKey: SymmetricKey

    /// The key of these 32 bytes; throws ``AuditKeyError`` for any other length.
    public init(rawRepresentation: Data) throws(AuditKeyError) {
        guard rawRepresentation.count == Self.byteCount else { throw AuditKeyError(byteCount: rawRepresentation.count) }
        symmetricKey = SymmetricKey(data: rawRepresentation)
    }

    /// How long a key is, in bytes.
    public static let byteCount = 32
    /// The key file's name in the data folder's `keys/`.
    public static let fileName = "audit-trail-key"
}

/// A key file that is not an audit trail key.
public struct AuditKeyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// How many bytes the file held.
    public var byteCount: Int

    public var description: String { "an audit trail key is \(AuditKey.byteCount) bytes, and this one is \(byteCount)" }
}
