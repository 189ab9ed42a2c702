import Crypto
import Foundation
import Testing
import WebPush

/// ``WebPushEncryption`` writes RFC 8291's example byte for byte, a browser's decryption (written here from the RFCs)
/// reads what it writes, every message gets its own sender key and salt, and payloads that do not fit are refused.
@Suite("Push message encryption")
struct WebPushEncryptionTests {
    /// RFC 8291 Appendix A, every value as the RFC prints it (base64url).
    enum RFC8291Example {
        static let plaintext = "When I grow up, I want to be a watermelon"
        static let applicationServerPrivateKey = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        static let applicationServerPublicKey = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
        static let userAgentPrivateKey = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
        static let userAgentPublicKey = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
        static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
        static let encryptedBody = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    }

    @Test func theRFC8291ExampleIsWrittenByteForByte() throws {
        let senderKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: TestBase64URL.decode(RFC8291Example.applicationServerPrivateKey))
        #expect(TestBase64URL.encode(senderKey.publicKey.x963Representation) == RFC8291Example.applicationServerPublicKey)
        let subscription = try PushSubscription(endpoint: "https://updates.push.services.mozilla.com/wpush/v2/example",
                                                p256dh: RFC8291Example.userAgentPublicKey, auth: RFC8291Example.authSecret)
        let body = try WebPushEncryption.encrypt(payload: Data(RFC8291Example.plaintext.utf8), for: subscription, senderKey: senderKey,
                                                 salt: TestBase64URL.decode(RFC8291Example.salt), recordSize: 4096)
        #expect(body == TestBase64URL.decode(RFC8291Example.encryptedBody))
        #expect(TestBase64URL.encode(body) == RFC8291Example.encryptedBody)
        // The header: salt, rs = 4096, idlen = 65, keyid = the sender's public key.
        #expect(body.prefix(16) == TestBase64URL.decode(RFC8291Example.salt))
        #expect([UInt8](body[16..<21]) == [0x00, 0x00, 0x10, 0x00, 65])
        #expect(body[21..<86] == TestBase64URL.decode(RFC8291Example.applicationServerPublicKey))
    }

    @Test func theTestsDecryptionReadsTheRFC8291Example() throws {
        // Checks the decryption the other tests rely on against the RFC, not against the module.
        let browser = TestBrowser(privateKey: try P256.KeyAgreement.PrivateKey(rawRepresentation: TestBase64URL.decode(RFC8291Example.userAgentPrivateKey)),
                                  authSecret: TestBase64URL.decode(RFC8291Example.authSecret))
        #expect(TestBase64URL.encode(browser.privateKey.publicKey.x963Representation) == RFC8291Example.userAgentPublicKey)
        let payload = try browser.decrypt(TestBase64URL.decode(RFC8291Example.encryptedBody))
        #expect(String(decoding: payload, as: UTF8.self) == RFC8291Example.plaintext)
    }

    @Test(arguments: [0, 1, 41, 1000, WebPushEncryption.maximumPayloadSize])
    func aFreshSubscriptionDecryptsWhatWasEncryptedForIt(payloadSize: Int) throws {
        let browser = TestBrowser()
        let payload = Data(TestRandom.secure(payloadSize))
        let body = try WebPushEncryption.encrypt(payload: payload, for: try browser.subscription(), randomBytes: TestRandom.secure)
        #expect(body.count == WebPushEncryption.headerSize + payloadSize + WebPushEncryption.recordOverhead)
        #expect(try browser.decrypt(body) == payload)
    }

    @Test func everyMessageHasItsOwnSenderKeyAndSalt() throws {
        let browser = TestBrowser()
        let subscription = try browser.subscription()
        let random = TestRandom.Seeded(seed: "two messages")
        let payload = Data("Time for today's diary".utf8)
        let first = try WebPushEncryption.encrypt(payload: payload, for: subscription, randomBytes: random.bytes)
        let second = try WebPushEncryption.encrypt(payload: payload, for: subscription, randomBytes: random.bytes)
        #expect(first.prefix(16) != second.prefix(16), "salt")
        #expect(first[21..<86] != second[21..<86], "sender key")
        #expect(try browser.decrypt(first) == payload)
        #expect(try browser.decrypt(second) == payload)
        // The same random bytes give the same body: the sender key and salt come from the injected source only.
        let again = TestRandom.Seeded(seed: "two messages")
        #expect(try WebPushEncryption.encrypt(payload: payload, for: subscription, randomBytes: again.bytes) == first)
    }

    @Test func aPayloadThatDoesNotFitIsRefused() throws {
        let subscription = try TestBrowser().subscription()
        let senderKey = P256.KeyAgreement.PrivateKey()
        let salt = Data(TestRandom.secure(16))
        // The default record: the body may not pass 4096 bytes, so 4096 - 86 - 17 = 3993 bytes of payload.
        let largest = try WebPushEncryption.encrypt(payload: Data(count: 3993), for: subscription, senderKey: senderKey, salt: salt)
        #expect(largest.count == 4096)
        #expect(throws: WebPushEncryptionError.payloadTooLarge(bytes: 3994, maximum: 3993)) {
            try WebPushEncryption.encrypt(payload: Data(count: 3994), for: subscription, senderKey: senderKey, salt: salt)
        }
        // A smaller record: payload + delimiter + tag must fit it.
        _ = try WebPushEncryption.encrypt(payload: Data(count: 83), for: subscription, senderKey: senderKey, salt: salt, recordSize: 100)
        #expect(throws: WebPushEncryptionError.payloadTooLarge(bytes: 84, maximum: 83)) {
            try WebPushEncryption.encrypt(payload: Data(count: 84), for: subscription, senderKey: senderKey, salt: salt, recordSize: 100)
        }
    }

    @Test func aWrongSaltOrRecordSizeOrRandomSourceIsRefused() throws {
        let subscription = try TestBrowser().subscription()
        let senderKey = P256.KeyAgreement.PrivateKey()
        #expect(throws: WebPushEncryptionError.saltNotSixteenBytes(bytes: 15)) {
            try WebPushEncryption.encrypt(payload: Data(), for: subscription, senderKey: senderKey, salt: Data(count: 15))
        }
        #expect(throws: WebPushEncryptionError.recordSizeOutOfRange(17)) {
            try WebPushEncryption.encrypt(payload: Data(), for: subscription, senderKey: senderKey, salt: Data(count: 16), recordSize: 17)
        }
        // All zeros is no P-256 private key, however often it is drawn.
        #expect(throws: WebPushEncryptionError.randomBytesNotUsable) {
            try WebPushEncryption.encrypt(payload: Data(), for: subscription) { [UInt8](repeating: 0, count: $0) }
        }
    }
}
