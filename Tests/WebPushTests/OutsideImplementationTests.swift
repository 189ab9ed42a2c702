import Crypto
import Foundation
import Testing
import WebPush

/// What implementations nobody here wrote make of the module's output: `http_ece` (Mozilla's, in Python) decrypts the
/// bodies, and PyJWT verifies the VAPID tokens with the key's public half, run by the project's virtual environment.
enum OutsideImplementation {
    /// Reads a job from standard input (a body to decrypt, a token to verify, or both) and writes what it found.
    static let script = #"""
    import base64, json, sys
    import http_ece, jwt
    from cryptography.hazmat.primitives.asymmetric import ec

    def b64(text):
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

    job = json.load(sys.stdin)
    answer = {}
    if "body" in job:
        key = ec.derive_private_key(int.from_bytes(b64(job["private_key"]), "big"), ec.SECP256R1())
        plaintext = http_ece.decrypt(b64(job["body"]), private_key=key, auth_secret=b64(job["auth"]), version="aes128gcm")
        answer["plaintext"] = base64.b64encode(plaintext).decode()
    if "jwt" in job:
        public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64(job["public_key"]))
        answer["header"] = jwt.get_unverified_header(job["jwt"])
        answer["claims"] = jwt.decode(job["jwt"], key=public_key, algorithms=["ES256"], audience=job["audience"],
                                      options={"require": ["aud", "exp", "sub"]})
        try:
            jwt.decode(job["jwt"], key=public_key, algorithms=["ES256"], audience="https://elsewhere.example")
            answer["other_audience_refused"] = False
        except jwt.InvalidAudienceError:
            answer["other_audience_refused"] = True
        other_key = ec.generate_private_key(ec.SECP256R1()).public_key()
        try:
            jwt.decode(job["jwt"], key=other_key, algorithms=["ES256"], audience=job["audience"])
            answer["other_key_refused"] = False
        except jwt.InvalidSignatureError:
            answer["other_key_refused"] = True
    json.dump(answer, sys.stdout)
    """#

    /// What the script answered, or nil (with an issue recorded) when the virtual environment is missing.
    static func run(_ job: [String: String]) async throws -> [String: Any]? {
        guard let python = ProjectPython.executable() else { return nil }
        let run = try await ProjectPython.run(python, script: script, input: try JSONSerialization.data(withJSONObject: job))
        guard run.status == 0 else {
            Issue.record("the Python cross-check failed (\(run.status)): \(run.errors)")
            return nil
        }
        return try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
    }

    /// The payload http_ece reads from `body`, decrypting as `browser`.
    static func decrypt(_ body: Data, as browser: TestBrowser) async throws -> Data? {
        let answer = try await run([
            "body": TestBase64URL.encode(body),
            "private_key": TestBase64URL.encode(browser.privateKey.rawRepresentation),
            "auth": TestBase64URL.encode(browser.authSecret),
        ])
        return (answer?["plaintext"] as? String).flatMap { Data(base64Encoded: $0) }
    }
}

/// The module's bodies and tokens cross-checked with `http_ece` and PyJWT (``OutsideImplementation``).
@Suite("Cross-check with http_ece and PyJWT")
struct OutsideImplementationTests {
    @Test(arguments: [0, 1, 300, WebPushEncryption.maximumPayloadSize])
    func httpECEDecryptsWhatWasEncrypted(payloadSize: Int) async throws {
        let browser = TestBrowser()
        let payload = payloadSize == 300 ? Data(String(repeating: "Grüße, 東京 ✓ ", count: 15).utf8.prefix(300)) : Data(TestRandom.secure(payloadSize))
        let body = try WebPushEncryption.encrypt(payload: payload, for: try browser.subscription(), randomBytes: TestRandom.secure)
        let decrypted = try await OutsideImplementation.decrypt(body, as: browser)
        #expect(decrypted == payload)
    }

    @Test func pyJWTVerifiesTheVAPIDToken() async throws {
        let key = VAPIDKey.generate()
        let endpoint = try #require(URL(string: "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk-example"))
        // PyJWT checks the expiry against the real clock, so the token is made at the real time.
        let now = Date()
        let token = try VAPIDToken(endpoint: endpoint, subject: "mailto:study-team@example.org", key: key, now: now)
        let answer = try #require(try await OutsideImplementation.run([
            "jwt": token.jwt, "public_key": key.publicKeyBase64URL, "audience": "https://updates.push.services.mozilla.com",
        ]))
        #expect(answer["header"] as? [String: String] == ["typ": "JWT", "alg": "ES256"])
        let claims = try #require(answer["claims"] as? [String: Any])
        #expect(claims["aud"] as? String == "https://updates.push.services.mozilla.com")
        #expect(claims["sub"] as? String == "mailto:study-team@example.org")
        #expect(claims["exp"] as? Int == Int(now.timeIntervalSince1970 + 12 * 3600))
        #expect(answer["other_audience_refused"] as? Bool == true)
        #expect(answer["other_key_refused"] as? Bool == true)
    }

    @Test func httpECEDecryptsAndPyJWTVerifiesAWholeMessage() async throws {
        let browser = TestBrowser()
        let key = try VAPIDKey.generate(randomBytes: TestRandom.secure)
        let payload = Data(#"{"title":"Time for today's diary","url":"/today"}"#.utf8)
        let message = try WebPushMessage(payload: payload, for: try browser.subscription(), key: key, subject: "https://study.example.org/contact",
                                         now: Date(), timeToLive: 3600, randomBytes: TestRandom.secure)
        let authorization = try #require(message.headers["Authorization"])
        let jwt = try #require(authorization.split(separator: " ").first { $0.hasPrefix("t=") }).dropFirst(2).dropLast()
        let answer = try #require(try await OutsideImplementation.run([
            "body": TestBase64URL.encode(message.body),
            "private_key": TestBase64URL.encode(browser.privateKey.rawRepresentation),
            "auth": TestBase64URL.encode(browser.authSecret),
            "jwt": String(jwt), "public_key": key.publicKeyBase64URL, "audience": "https://fcm.googleapis.com",
        ]))
        #expect((answer["plaintext"] as? String).flatMap { Data(base64Encoded: $0) } == payload)
        #expect((answer["claims"] as? [String: Any])?["sub"] as? String == "https://study.example.org/contact")
    }
}
