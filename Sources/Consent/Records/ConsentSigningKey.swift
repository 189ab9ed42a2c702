import Crypto
import Foundation

/// The server's Ed25519 private key that seals consent records. Kept by ``ConsentKeyStore``; only its
/// ``publicKey`` ever leaves the server.
public struct ConsentSigningKey: Sendable {
    private let privateKey: Curve25519.Signing.PrivateKey

    /// A new random key pair from the system's secure random source.
    public static func generate() -> ConsentSigningKey {
        ConsentSigningKey(privateKey: Curve25519.Signing.PrivateKey())
    }

    /// The key from its 32-byte raw form (the seed, as stored in the key file).
    public init(rawRepresentation: Data) throws {
        privateKey = try Curve25519.Signing.PrivateKey(rawRepresentation: rawRepresentation)
    }

    private init(privateKey: Curve25519.Signing.PrivateKey) {
        self.privateKey = privateKey
    }

    /// The 32-byte raw form, for the key file.
    public var rawRepresentation: Data { privateKey.rawRepresentation }

    /// The public half, which verifies seals.
    public var publicKey: ConsentPublicKey { ConsentPublicKey(key: privateKey.publicKey) }

    /// The Ed25519 signature (64 bytes) of `data`.
    public func signature(for data: Data) throws -> Data {
        try privateKey.signature(for: data)
    }
}
