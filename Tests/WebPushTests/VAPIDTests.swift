import Crypto
import Foundation
import Testing
import WebPush

/// ``VAPIDKey`` is made from the injected random source, kept as PEM and read back; ``VAPIDToken`` is an ES256 JWT with
/// the endpoint's origin, an expiry from the injected clock at most 24 hours ahead and a contact, whose raw r‖s
/// signature swift-crypto verifies with the key's public half.
@Suite("VAPID keys and tokens")
struct VAPIDTests {
    /// 1 March 2026, 08:00:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_772_352_000)

    @Test func aKeyIsWrittenAsPEMAndReadBack() throws {
        let key = VAPIDKey.generate()
        let pem = key.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let read = try VAPIDKey(pemRepresentation: pem)
        #expect(read.publicKey == key.publicKey)
        #expect(read.privateKey.rawRepresentation == key.privateKey.rawRepresentation)
        #expect(throws: VAPIDKeyError.notAP256PrivateKeyPEM) { try VAPIDKey(pemRepresentation: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----") }
        let ed25519 = Curve25519.Signing.PrivateKey().rawRepresentation.base64EncodedString()
        #expect(throws: VAPIDKeyError.notAP256PrivateKeyPEM) { try VAPIDKey(pemRepresentation: ed25519) }
    }

    @Test func theBrowserIsGivenTheUncompressedPublicPointInBase64URL() throws {
        let key = VAPIDKey.generate()
        #expect(key.publicKeyBase64URL.count == 87 && !key.publicKeyBase64URL.contains("="))
        let point = TestBase64URL.decode(key.publicKeyBase64URL)
        #expect(point.count == 65 && point.first == 0x04)
        #expect(point == key.privateKey.publicKey.x963Representation)
    }

    @Test func aKeyComesFromTheInjectedRandomSource() throws {
        let first = try VAPIDKey.generate(randomBytes: TestRandom.Seeded(seed: "vapid").bytes)
        let again = try VAPIDKey.generate(randomBytes: TestRandom.Seeded(seed: "vapid").bytes)
        let other = try VAPIDKey.generate(randomBytes: TestRandom.Seeded(seed: "another").bytes)
        #expect(first.publicKey == again.publicKey && first.publicKey != other.publicKey)
        // 32 bytes of 0xFF are above the group order, and zero is no key: a source stuck on either is refused.
        #expect(throws: VAPIDKeyError.randomBytesNotUsable) { try VAPIDKey.generate { [UInt8](repeating: 0xFF, count: $0) } }
        #expect(throws: VAPIDKeyError.randomBytesNotUsable) { try VAPIDKey.generate { [UInt8](repeating: 0, count: $0) } }
        // One unusable draw is drawn again.
        var draws = 0
        let key = try VAPIDKey.generate { count in
            draws += 1
            return draws == 1 ? [UInt8](repeating: 0xFF, count: count) : TestRandom.Seeded(seed: "vapid").bytes(count)
        }
        #expect(draws == 2 && key.publicKey == first.publicKey)
    }

    /// The token's three parts, decoded.
    struct DecodedToken {
        var header: [String: String]
        var claims: [String: Any]
        var signingInput: Data
        var signature: Data

        init(_ jwt: String) throws {
            let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            try #require(parts.count == 3)
            #expect(parts.allSatisfy { !$0.contains("=") && !$0.contains("+") && !$0.contains("/") })
            header = try #require(try JSONSerialization.jsonObject(with: TestBase64URL.decode(parts[0])) as? [String: String])
            claims = try #require(try JSONSerialization.jsonObject(with: TestBase64URL.decode(parts[1])) as? [String: Any])
            signingInput = Data((parts[0] + "." + parts[1]).utf8)
            signature = TestBase64URL.decode(parts[2])
        }
    }

    @Test func theTokenIsAnES256JWTForTheEndpointsOrigin() throws {
        let key = VAPIDKey.generate()
        let endpoint = try #require(URL(string: "https://fcm.googleapis.com/fcm/send/dXo2tD4Y6pU:APA91bH-example"))
        let token = try VAPIDToken(endpoint: endpoint, subject: "mailto:study-team@example.org", key: key, now: Self.now)
        let decoded = try DecodedToken(token.jwt)
        #expect(decoded.header == ["typ": "JWT", "alg": "ES256"])
        #expect(decoded.claims["aud"] as? String == "https://fcm.googleapis.com")
        #expect(decoded.claims["exp"] as? Int == 1_772_352_000 + 12 * 3600)
        #expect(decoded.claims["sub"] as? String == "mailto:study-team@example.org")
        #expect(decoded.claims.count == 3)
        #expect(token.audience == "https://fcm.googleapis.com")
        #expect(token.expiration == Self.now.addingTimeInterval(12 * 3600))

        // ES256: r and s, 32 bytes each, which the public key verifies over header.claims.
        #expect(decoded.signature.count == 64)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: decoded.signature)
        #expect(key.privateKey.publicKey.isValidSignature(signature, for: decoded.signingInput))
        #expect(!VAPIDKey.generate().privateKey.publicKey.isValidSignature(signature, for: decoded.signingInput))

        #expect(token.authorizationHeader == "vapid t=\(token.jwt), k=\(key.publicKeyBase64URL)")
    }

    @Test(arguments: [
        ("https://fcm.googleapis.com/fcm/send/abc", "https://fcm.googleapis.com"),
        ("https://Web.Push.Apple.com:443/QGuQ", "https://web.push.apple.com"),
        ("http://127.0.0.1:8123/push/abc", "http://127.0.0.1:8123"),
        ("http://[::1]:8123/push/abc", "http://[::1]:8123"),
        ("https://push.example.org:8443/a?b=c#d", "https://push.example.org:8443"),
    ])
    func theAudienceIsTheOriginWithAPortOnlyWhenNotTheDefault(endpoint: String, audience: String) throws {
        let token = try VAPIDToken(endpoint: try #require(URL(string: endpoint)), subject: "https://study.example.org/contact",
                                   key: VAPIDKey.generate(), now: Self.now)
        #expect(token.audience == audience)
        #expect(try DecodedToken(token.jwt).claims["aud"] as? String == audience)
    }

    @Test func theExpiryComesFromTheInjectedClockAndIsAtMost24HoursAhead() throws {
        let key = VAPIDKey.generate()
        let endpoint = try #require(URL(string: "https://fcm.googleapis.com/fcm/send/abc"))
        let now = Self.now.addingTimeInterval(0.75)
        let day = try VAPIDToken(endpoint: endpoint, subject: "mailto:a@example.org", key: key, now: now, lifetime: 24 * 3600)
        #expect(try DecodedToken(day.jwt).claims["exp"] as? Int == 1_772_352_000 + 24 * 3600)
        #expect(throws: VAPIDTokenError.lifetimeOutOfRange(seconds: 24 * 3600 + 1)) {
            try VAPIDToken(endpoint: endpoint, subject: "mailto:a@example.org", key: key, now: now, lifetime: 24 * 3600 + 1)
        }
        #expect(throws: VAPIDTokenError.lifetimeOutOfRange(seconds: 0)) {
            try VAPIDToken(endpoint: endpoint, subject: "mailto:a@example.org", key: key, now: now, lifetime: 0)
        }
    }

    @Test(arguments: ["", "study-team@example.org", "mailto:", "mailto:study-team", "mailto:@example.org",
                      "mailto:study team@example.org", "http://study.example.org/contact", "https://", "study.example.org"])
    func aSubjectThatIsNoContactIsRefused(subject: String) throws {
        let endpoint = try #require(URL(string: "https://fcm.googleapis.com/fcm/send/abc"))
        #expect(throws: VAPIDTokenError.subjectNotAContact(subject)) {
            try VAPIDToken(endpoint: endpoint, subject: subject, key: VAPIDKey.generate(), now: Self.now)
        }
    }
}
