import Foundation
import JSONDiagnostics

/// A ``ConsentRecord`` with the server's Ed25519 signature over its ``CanonicalJSON`` and the public key
/// that made it. Anyone holding the record can check it with ``ConsentRecordVerifier``.
///
/// JSON: `{"algorithm": "Ed25519", "publicKey": "<base64>", "record": {…}, "signature": "<base64>"}`,
/// written canonically by ``jsonData()`` and read by ``init(jsonData:)``.
public struct SealedConsentRecord: Hashable, Sendable, Codable {
    /// The algorithm named in every seal.
    public static let ed25519 = "Ed25519"

    /// The record sealed.
    public var record: ConsentRecord
    /// Always ``ed25519``; named so that a later algorithm cannot be mistaken for this one.
    public var algorithm: String
    /// Base64 of the 32-byte Ed25519 public key whose private key signed.
    public var publicKey: String
    /// Base64 of the 64-byte Ed25519 signature of `CanonicalJSON.bytes(of: record)`.
    public var signature: String

    /// A sealed record from its parts, as read from storage; ``ConsentRecorder/seal(_:)`` makes new ones.
    public init(record: ConsentRecord, algorithm: String = SealedConsentRecord.ed25519, publicKey: String, signature: String) {
        self.record = record
        self.algorithm = algorithm
        self.publicKey = publicKey
        self.signature = signature
    }

    /// Reads a sealed record from its JSON file's bytes, strictly, so that it means the same to every reader: a key
    /// given twice at any depth, anything after the record, and any key or value form the record format does not
    /// write are refused (see README, "Consent records"). The error says where the JSON is wrong.
    public init(jsonData data: Data) throws {
        let tree: JSONTree
        do {
            tree = try JSONTree(data: data)
        } catch {
            throw ConsentRecordError.malformedJSON(error.description)
        }
        do {
            self = try JSONDecoder().decode(SealedConsentRecord.self, from: data)
        } catch let error as DecodingError {
            throw ConsentRecordError.malformedJSON(Self.describe(error, in: data))
        }
        let problems = ConsentRecordFormat.problems(in: tree, expected: try CanonicalJSON.value(of: self))
        if !problems.isEmpty { throw ConsentRecordError.malformedJSON(problems.joined(separator: "; ")) }
    }

    /// The sealed record as canonical JSON, the form to store and hand out.
    public func jsonData() throws -> Data { try CanonicalJSON.bytes(of: self) }

    /// Lowercase hex SHA-256 of ``jsonData()``: what a withdrawal record binds itself to.
    public func sealSHA256() throws -> String { ConsentRecord.sha256Hex(of: try jsonData()) }

    private static func describe(_ error: DecodingError, in data: Data) -> String {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            "malformed JSON: \(JSONDiagnostics.describeSyntaxError(in: data))"
        case .dataCorrupted(let context):
            "\(JSONDiagnostics.path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            "\(JSONDiagnostics.path(context.codingPath + [key])): missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            "\(JSONDiagnostics.path(context.codingPath)): expected \(type)"
        @unknown default:
            "\(error)"
        }
    }
}
