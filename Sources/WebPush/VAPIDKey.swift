import Crypto
import Foundation

/// The server's VAPID key (RFC 8292): the ECDSA P-256 key that signs every push message's ``VAPIDToken``.
///
/// The browser is given the public half when the participant subscribes (``publicKeyBase64URL``, the
/// `applicationServerKey` of `pushManager.subscribe`), and push services then accept messages for that subscription only
/// when signed with this key. So a server makes one key, keeps it (``pemRepresentation``) and uses it for good: a new
/// key makes every existing subscription useless.
///
/// ```swift
/// let key = try VAPIDKey.generate(randomBytes: environment.randomBytes)
/// try key.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
/// // later
/// let key = try VAPIDKey(pemRepresentation: String(contentsOf: keyFile, encoding: .utf8))
/// ```
public struct VAPIDKey: Sendable {
    /// The signing key.
    public let privateKey: P256.Signing.PrivateKey

    /// The key `privateKey`.
    public init(privateKey: P256.Signing.PrivateKey) {
        self.privateKey = privateKey
    }

    /// The key in `pem`: a PKCS #8 `PRIVATE KEY` (as ``pemRepresentation`` writes) or a SEC 1 `EC PRIVATE KEY` (as
    /// `openssl ecparam -genkey -name prime256v1` writes).
    ///
    /// - Throws: ``VAPIDKeyError/notAP256PrivateKeyPEM`` when `pem` is not a P-256 private key.
    public init(pemRepresentation pem: String) throws(VAPIDKeyError) {
        do {
            privateKey = try P256.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw .notAP256PrivateKeyPEM
        }
    }

    /// A new key from swift-crypto's secure random source.
    public static func generate() -> VAPIDKey {
        VAPIDKey(privateKey: P256.Signing.PrivateKey())
    }

    /// A new key from `randomBytes`, which must be a cryptographically secure source (a test may give a seeded one).
    ///
    /// - Throws: ``VAPIDKeyError/randomBytesNotUsable`` when the source gives no valid P-256 scalar in several tries
    ///   (a source stuck on zeros or ones).
    public static func generate(randomBytes: (Int) -> [UInt8]) throws(VAPIDKeyError) -> VAPIDKey {
        guard let scalar = P256Scalar.random(from: randomBytes),
              let key = try? P256.Signing.PrivateKey(rawRepresentation: scalar)
        else { throw .randomBytesNotUsable }
        return VAPIDKey(privateKey: key)
    }

    /// The private key as PEM (PKCS #8, `-----BEGIN PRIVATE KEY-----`), for the server's key file.
    public var pemRepresentation: String { privateKey.pemRepresentation }

    /// The public key: the uncompressed P-256 point, 65 bytes starting with 0x04.
    public var publicKey: Data { privateKey.publicKey.x963Representation }

    /// ``publicKey`` in base64url without padding: the `applicationServerKey` the browser's `pushManager.subscribe`
    /// takes, and the `k` of the `Authorization: vapid` header.
    public var publicKeyBase64URL: String { Base64URL.encode(publicKey) }
}

/// Why a VAPID key could not be read or made.
public enum VAPIDKeyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The PEM text is not a P-256 private key.
    case notAP256PrivateKeyPEM
    /// The random source gave no valid P-256 private key.
    case randomBytesNotUsable

    /// The problem in a sentence.
    public var description: String {
        switch self {
        case .notAP256PrivateKeyPEM: "the VAPID key file is not a PEM P-256 private key"
        case .randomBytesNotUsable: "the random source gave no valid P-256 private key in several tries"
        }
    }
}

/// P-256 private keys drawn from an injected random source.
enum P256Scalar {
    /// 32 bytes from `randomBytes` that are a valid P-256 private key (from 1 to the group order less one), or nil when
    /// eight draws gave none. A fair source fails a draw with a probability of about 2⁻³², so eight failures mean a
    /// broken source.
    static func random(from randomBytes: (Int) -> [UInt8]) -> [UInt8]? {
        for _ in 0..<8 {
            let bytes = randomBytes(32)
            guard bytes.count == 32 else { return nil }
            if (try? P256.KeyAgreement.PrivateKey(rawRepresentation: bytes)) != nil { return bytes }
        }
        return nil
    }
}
