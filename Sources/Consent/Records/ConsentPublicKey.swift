import Crypto
import Foundation

/// An Ed25519 public key that verifies sealed consent records, printed as base64 of its 32 raw bytes with a
/// short fingerprint for people to compare: `base64 (fingerprint 1a2b3c4d5e6f7a8b)`.
public struct ConsentPublicKey: Hashable, Sendable, CustomStringConvertible {
    fileprivate let key: Curve25519.Signing.PublicKey

    init(key: Curve25519.Signing.PublicKey) {
        self.key = key
    }

    /// The key from base64 of its 32 raw bytes; throws ``ConsentKeyError/malformedPublicKey(_:)`` otherwise.
    public init(base64: String) throws {
        guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32,
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: data) else {
            throw ConsentKeyError.malformedPublicKey(base64)
        }
        self.key = key
    }

    /// The 32 raw bytes.
    public var rawRepresentation: Data { key.rawRepresentation }

    /// Base64 of the 32 raw bytes, as records carry it and `studykit consent key` prints it.
    public var base64: String { rawRepresentation.base64EncodedString() }

    /// The first 16 lowercase hex digits of the SHA-256 of the raw bytes: short enough to read aloud.
    public var fingerprint: String { String(ConsentRecord.sha256Hex(of: rawRepresentation).prefix(16)) }

    /// `base64 (fingerprint …)`.
    public var description: String { "\(base64) (fingerprint \(fingerprint))" }

    /// Whether `signature` is this key's Ed25519 signature of `data`.
    public func isValidSignature(_ signature: Data, for data: Data) -> Bool {
        key.isValidSignature(signature, for: data)
    }

    /// Keys are equal when their raw bytes are.
    public static func == (lhs: ConsentPublicKey, rhs: ConsentPublicKey) -> Bool {
        lhs.rawRepresentation == rhs.rawRepresentation
    }

    /// Hashes the raw bytes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawRepresentation)
    }
}
