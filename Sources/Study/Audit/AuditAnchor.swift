import Consent
import Foundation

/// Where the audit trail ended when it was last anchored: the last row's sequence and hash, signed with the server's
/// Ed25519 key (the consent signing key, whose public key `studykit consent key` prints), kept outside the database
/// (`DATA/study.audit-anchor.json` beside `DATA/study.sqlite`) and replaced after every commit that appends to the trail.
///
/// The database cannot prove its own tail: with the file alone, rows cut off the end leave a chain that still holds.
/// The anchor can: a trail that stops before the anchor's row, or whose row there hashes otherwise, was cut or
/// rewritten (``AuditChainCheck/finish()``). Anyone with the public key can check that the anchor is the server's.
///
/// ```json
/// {"sequence": 834, "hash": "9f86…", "keyedFromSequence": 1, "writtenAt": "2026-11-28T09:30:00.000Z",
///  "publicKey": "base64…", "signature": "base64…"}
/// ```
public struct AuditAnchor: Hashable, Sendable, Codable {
    /// The last row of the trail when the anchor was written; 0 for an empty trail.
    public var sequence: Int64
    /// That row's hash; empty for an empty trail.
    public var hash: String
    /// The first row hashed with the trail's key: earlier rows were written before StudyKit keyed its trail.
    public var keyedFromSequence: Int64
    /// When the anchor was written, as ``ConsentTimestamp`` writes it.
    public var writtenAt: String
    /// The signing key's public key, base64 of its 32 bytes.
    public var publicKey: String
    /// The Ed25519 signature of ``signedBytes``, base64.
    public var signature: String

    /// An anchor of the row `sequence` with `hash`, signed now with `key`.
    public static func signed(sequence: Int64, hash: String, keyedFromSequence: Int64, at date: Date, key: ConsentSigningKey) throws -> AuditAnchor {
        var anchor = AuditAnchor(sequence: sequence, hash: hash, keyedFromSequence: keyedFromSequence, writtenAt: ConsentTimestamp.string(from: date),
                                 publicKey: key.publicKey.base64, signature: "")
        anchor.signature = try key.signature(for: anchor.signedBytes).base64EncodedString()
        return anchor
    }

    /// What the signature covers: a fixed label and each field on its own line.
    public var signedBytes: Data {
        Data("studykit audit anchor v1\n\(sequence)\n\(hash)\n\(keyedFromSequence)\n\(writtenAt)\n".utf8)
    }

    /// What is wrong with the anchor as one `expected` signed (nil when it holds): a signature by another key, or none
    /// that verifies.
    public func problem(expecting expected: ConsentPublicKey) -> String? {
        guard publicKey == expected.base64 else {
            return "it is signed by another key (\(publicKey.prefix(12))…) than this server's (\(expected.base64.prefix(12))…)"
        }
        guard let signature = Data(base64Encoded: signature), expected.isValidSignature(signature, for: signedBytes) else {
            return "its signature does not verify: it was changed after it was written"
        }
        return nil
    }

    /// The anchor as its file holds it: one line of JSON, keys sorted.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// The anchor in `data`; throws ``AuditAnchorError`` naming what is wrong.
    public init(jsonData data: Data) throws {
        do {
            self = try JSONDecoder().decode(AuditAnchor.self, from: data)
        } catch DecodingError.keyNotFound(let key, _) {
            throw AuditAnchorError.unreadable(reason: "it has no \(key.stringValue)")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            throw AuditAnchorError.unreadable(reason: "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is not what an anchor holds there")
        } catch {
            throw AuditAnchorError.unreadable(reason: "it is not JSON (cut short, or written by something else)")
        }
    }

    private init(sequence: Int64, hash: String, keyedFromSequence: Int64, writtenAt: String, publicKey: String, signature: String) {
        self.sequence = sequence
        self.hash = hash
        self.keyedFromSequence = keyedFromSequence
        self.writtenAt = writtenAt
        self.publicKey = publicKey
        self.signature = signature
    }

    /// The name of the anchor file of the database file `databaseName`, beside it: `study.audit-anchor.json` for
    /// `study.sqlite`.
    public static func fileName(forDatabase databaseName: String) -> String {
        let stem = databaseName.split(separator: ".", omittingEmptySubsequences: false).first.map(String.init) ?? databaseName
        return (stem.isEmpty ? databaseName : stem) + ".audit-anchor.json"
    }
}

/// Why an audit trail's anchor cannot be used.
public enum AuditAnchorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file is not an anchor.
    case unreadable(reason: String)

    public var description: String {
        switch self {
        case .unreadable(let reason): "it is not an audit anchor: \(reason)"
        }
    }
}
