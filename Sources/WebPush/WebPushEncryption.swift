import Crypto
import Foundation

/// Push message encryption (RFC 8291) in the `aes128gcm` content coding (RFC 8188): only the participant's browser can
/// read a message, not the push service that carries it.
///
/// The body is a header (the salt, the record size, and the sender's public key as the key id) and one record: the
/// payload and the padding delimiter 0x02, sealed with AES-128-GCM. The key and nonce come from HKDF-SHA-256 over the
/// ECDH secret of a sender key and the browser's key, mixed with the subscription's authentication secret (RFC 8291
/// §3.4). Each message must have its own sender key and salt: ``encrypt(payload:for:recordSize:randomBytes:)`` makes
/// them.
///
/// ```swift
/// let body = try WebPushEncryption.encrypt(payload: Data(json.utf8), for: subscription,
///                                          randomBytes: environment.randomBytes)
/// ```
public enum WebPushEncryption {
    /// The largest body push services accept, in bytes (RFC 8030 §7.2 asks them to accept at least 4096; the big
    /// services accept no more).
    public static let maximumBodySize = 4096
    /// The size of the `aes128gcm` header written here: salt (16), record size (4), key id length (1) and the sender's
    /// public key (65).
    public static let headerSize = 86
    /// What a record adds to the payload: the padding delimiter (1) and the AES-GCM tag (16).
    public static let recordOverhead = 17
    /// The largest payload that fits one record of the default size in a body of ``maximumBodySize``: 3993 bytes.
    public static let maximumPayloadSize = maximumBodySize - headerSize - recordOverhead

    /// `payload` encrypted for `subscription` with a fresh sender key and salt from `randomBytes` (which must be a
    /// cryptographically secure source; a test may give a seeded one).
    ///
    /// - Throws: ``WebPushEncryptionError``.
    public static func encrypt(payload: Data, for subscription: PushSubscription, recordSize: Int = 4096,
                               randomBytes: (Int) -> [UInt8]) throws(WebPushEncryptionError) -> Data {
        guard let scalar = P256Scalar.random(from: randomBytes),
              let senderKey = try? P256.KeyAgreement.PrivateKey(rawRepresentation: scalar)
        else { throw .randomBytesNotUsable }
        return try encrypt(payload: payload, for: subscription, senderKey: senderKey, salt: Data(randomBytes(16)), recordSize: recordSize)
    }

    /// `payload` encrypted for `subscription` with `senderKey` and `salt`: the body of the push message.
    ///
    /// Both `senderKey` and `salt` must be new for every message; this form, which takes them, exists for test vectors.
    ///
    /// - Parameters:
    ///   - senderKey: the application server's ephemeral ECDH key (`as_private` of RFC 8291).
    ///   - salt: 16 random bytes.
    ///   - recordSize: the `rs` of the header; the payload with its delimiter and tag must fit one record of this size.
    /// - Throws: ``WebPushEncryptionError`` when the salt is not 16 bytes, the record size is below 18 or above
    ///   2³² − 1, or the payload does not fit one record or a body of ``maximumBodySize``.
    public static func encrypt(payload: Data, for subscription: PushSubscription, senderKey: P256.KeyAgreement.PrivateKey,
                               salt: Data, recordSize: Int = 4096) throws(WebPushEncryptionError) -> Data {
        guard salt.count == 16 else { throw .saltNotSixteenBytes(bytes: salt.count) }
        guard recordSize >= recordOverhead + 1, recordSize <= Int(UInt32.max) else { throw .recordSizeOutOfRange(recordSize) }
        let maximum = min(recordSize - recordOverhead, maximumPayloadSize)
        guard payload.count <= maximum else { throw .payloadTooLarge(bytes: payload.count, maximum: maximum) }

        let userAgentKey = subscription.userAgentKey
        let senderPublicKey = senderKey.publicKey.x963Representation
        let sharedSecret: SharedSecret
        do {
            sharedSecret = try senderKey.sharedSecretFromKeyAgreement(with: userAgentKey)
        } catch {
            throw .keyAgreementFailed
        }
        // RFC 8291 §3.3–3.4: IKM = HKDF(salt: auth_secret, IKM: ecdh_secret, info: "WebPush: info\0" || ua_public ||
        // as_public, L: 32).
        let keyInfo = Data("WebPush: info\0".utf8) + subscription.userAgentPublicKey + senderPublicKey
        let inputKeyMaterial = sharedSecret.hkdfDerivedSymmetricKey(using: SHA256.self, salt: subscription.authSecret,
                                                                    sharedInfo: keyInfo, outputByteCount: 32)
        // RFC 8188 §2.2–2.3: CEK = HKDF(salt, IKM, "Content-Encoding: aes128gcm\0", 16), NONCE = HKDF(salt, IKM,
        // "Content-Encoding: nonce\0", 12), the nonce of the first (and only) record, whose sequence number is 0.
        let contentKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: inputKeyMaterial, salt: salt,
                                                info: Data("Content-Encoding: aes128gcm\0".utf8), outputByteCount: 16)
        let nonceBytes = HKDF<SHA256>.deriveKey(inputKeyMaterial: inputKeyMaterial, salt: salt,
                                                info: Data("Content-Encoding: nonce\0".utf8), outputByteCount: 12)
            .withUnsafeBytes { Data($0) }

        // The last record's padding delimiter is 2, and no padding follows it.
        var plaintext = payload
        plaintext.append(0x02)
        let sealed: AES.GCM.SealedBox
        do {
            sealed = try AES.GCM.seal(plaintext, using: contentKey, nonce: AES.GCM.Nonce(data: nonceBytes))
        } catch {
            throw .sealingFailed
        }

        var body = Data(capacity: headerSize + plaintext.count + 16)
        body.append(salt)
        withUnsafeBytes(of: UInt32(recordSize).bigEndian) { body.append(contentsOf: $0) }
        body.append(UInt8(senderPublicKey.count))
        body.append(senderPublicKey)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }
}

/// Why a push message could not be encrypted.
public enum WebPushEncryptionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The payload does not fit one record, or the body would be larger than push services accept.
    case payloadTooLarge(bytes: Int, maximum: Int)
    /// The salt is not 16 bytes.
    case saltNotSixteenBytes(bytes: Int)
    /// The record size is below 18 or does not fit 32 bits.
    case recordSizeOutOfRange(Int)
    /// The random source gave no valid sender key.
    case randomBytesNotUsable
    /// swift-crypto could not agree on a secret with the browser's key.
    case keyAgreementFailed
    /// swift-crypto could not seal the record.
    case sealingFailed

    /// The problem in a sentence.
    public var description: String {
        switch self {
        case .payloadTooLarge(let bytes, let maximum): "the push message's payload has \(bytes) bytes, more than the \(maximum) that fit"
        case .saltNotSixteenBytes(let bytes): "the encryption salt has \(bytes) bytes, not 16"
        case .recordSizeOutOfRange(let size): "the record size \(size) is not between 18 and 4294967295"
        case .randomBytesNotUsable: "the random source gave no valid P-256 sender key in several tries"
        case .keyAgreementFailed: "no ECDH secret could be agreed with the subscription's public key"
        case .sealingFailed: "the push message could not be sealed with AES-128-GCM"
        }
    }
}
