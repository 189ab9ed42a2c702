import Crypto
import Foundation
import Testing
import WebPush

/// ``PushSubscription`` reads the browser's `PushSubscription.toJSON()` and writes it back, and refuses, naming the
/// field, every endpoint and key it must not take.
@Suite("Push subscriptions")
struct PushSubscriptionTests {
    static let p256dh = WebPushEncryptionTests.RFC8291Example.userAgentPublicKey
    static let auth = WebPushEncryptionTests.RFC8291Example.authSecret
    static let endpoint = "https://fcm.googleapis.com/fcm/send/dXo2tD4Y6pU:APA91bH-example"

    @Test func theBrowsersJSONIsReadWithOrWithoutPadding() throws {
        let json = #"""
        {"endpoint": "https://fcm.googleapis.com/fcm/send/dXo2tD4Y6pU:APA91bH-example", "expirationTime": null,
         "keys": {"p256dh": "\#(Self.p256dh)=", "auth": "\#(Self.auth)=="}}
        """#
        let subscription = try PushSubscription(json: Data(json.utf8))
        #expect(subscription.endpoint.absoluteString == Self.endpoint)
        #expect(subscription.userAgentPublicKey == TestBase64URL.decode(Self.p256dh))
        #expect(subscription.authSecret == TestBase64URL.decode(Self.auth))
        #expect(subscription.p256dh == Self.p256dh && subscription.auth == Self.auth)
    }

    @Test func itIsWrittenBackInTheBrowsersShape() throws {
        let subscription = try PushSubscription(endpoint: Self.endpoint, p256dh: Self.p256dh, auth: Self.auth)
        let json = try JSONEncoder().encode(subscription)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["endpoint"] as? String == Self.endpoint)
        #expect(object["keys"] as? [String: String] == ["p256dh": Self.p256dh, "auth": Self.auth])
        #expect(try PushSubscription(json: json) == subscription)
        #expect(try JSONDecoder().decode(PushSubscription.self, from: json) == subscription)
        #expect(try PushSubscription(endpoint: subscription.endpoint, userAgentPublicKey: subscription.userAgentPublicKey,
                                     authSecret: subscription.authSecret) == subscription)
    }

    /// The browser's public key with the last byte of y changed: still 65 bytes with 0x04, but off the curve.
    static var pointOffTheCurve: String {
        var bytes = TestBase64URL.decode(p256dh)
        bytes[64] ^= 0x01
        return TestBase64URL.encode(bytes)
    }

    static let refusals: [(endpoint: String, p256dh: String, auth: String, error: PushSubscriptionError)] = [
        (endpoint, "BCVxsr7N*eNgVRqvHtD0zTZsEc6", auth, .notBase64URL(.p256dh)),
        (endpoint, p256dh, "BTBZMqHH6r4Tts7J/aSIgg", .notBase64URL(.auth)),
        (endpoint, p256dh, "BTBZMqHH6r4Tts7J_aSIgg===", .notBase64URL(.auth)),
        (endpoint, pointOffTheCurve, auth, .publicKeyNotOnCurve),
        (endpoint, TestBase64URL.encode(Data([0x03]) + TestBase64URL.decode(p256dh).dropFirst()), auth, .publicKeyNotUncompressed),
        (endpoint, TestBase64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.compressedRepresentation), auth,
         .wrongLength(.p256dh, bytes: 33, expected: 65)),
        (endpoint, p256dh, TestBase64URL.encode(Data(count: 15)), .wrongLength(.auth, bytes: 15, expected: 16)),
        ("http://fcm.googleapis.com/fcm/send/abc", p256dh, auth, .endpointNotHTTPS(scheme: "http")),
        ("ftp://fcm.googleapis.com/fcm/send/abc", p256dh, auth, .endpointNotHTTPS(scheme: "ftp")),
        ("https://participant@fcm.googleapis.com/fcm/send/abc", p256dh, auth, .endpointHasUserInfo),
        ("https://:secret@fcm.googleapis.com/fcm/send/abc", p256dh, auth, .endpointHasUserInfo),
        ("/fcm/send/abc", p256dh, auth, .endpointNotAnAbsoluteURL),
        ("https:///fcm/send/abc", p256dh, auth, .endpointHasNoHost),
    ]

    @Test(arguments: refusals)
    func aWrongPartIsRefusedNamingIt(endpoint: String, p256dh: String, auth: String, error: PushSubscriptionError) {
        #expect(throws: error) { try PushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth) }
    }

    @Test func anEndpointOfThreeKilobytesIsRefused() throws {
        let longest = "https://fcm.googleapis.com/" + String(repeating: "a", count: PushSubscription.maximumEndpointLength - 27)
        #expect(try PushSubscription(endpoint: longest, p256dh: Self.p256dh, auth: Self.auth).endpoint.absoluteString.count == 2048)
        let endpoint = "https://fcm.googleapis.com/" + String(repeating: "a", count: 3000)
        #expect(throws: PushSubscriptionError.endpointTooLong(bytes: 3027)) {
            try PushSubscription(endpoint: endpoint, p256dh: Self.p256dh, auth: Self.auth)
        }
    }

    @Test func anHTTPEndpointIsTakenOnlyWhenInsecureEndpointsAreAllowed() throws {
        let subscription = try PushSubscription(endpoint: "http://127.0.0.1:8123/push/a", p256dh: Self.p256dh, auth: Self.auth,
                                                allowInsecureEndpoints: true)
        #expect(subscription.endpoint.absoluteString == "http://127.0.0.1:8123/push/a")
        let json = try JSONEncoder().encode(subscription)
        #expect(throws: PushSubscriptionError.endpointNotHTTPS(scheme: "http")) { try PushSubscription(json: json) }
        #expect(try PushSubscription(json: json, allowInsecureEndpoints: true) == subscription)
        let decoder = JSONDecoder()
        decoder.userInfo[PushSubscription.allowInsecureEndpointsKey] = true
        #expect(try decoder.decode(PushSubscription.self, from: json) == subscription)
    }

    @Test(arguments: [
        ("[1, 2]", PushSubscriptionError.notAJSONObject),
        ("{\"endpoint\": ", .notAJSONObject),
        (#"{"keys": {"p256dh": "\#(p256dh)", "auth": "\#(auth)"}}"#, .missing(.endpoint)),
        (#"{"endpoint": null, "keys": {"p256dh": "\#(p256dh)", "auth": "\#(auth)"}}"#, .missing(.endpoint)),
        (#"{"endpoint": 42, "keys": {"p256dh": "\#(p256dh)", "auth": "\#(auth)"}}"#, .notAString(.endpoint)),
        (#"{"endpoint": "\#(endpoint)"}"#, .missing(.p256dh)),
        (#"{"endpoint": "\#(endpoint)", "keys": "none"}"#, .keysNotAnObject),
        (#"{"endpoint": "\#(endpoint)", "keys": {"p256dh": "\#(p256dh)"}}"#, .missing(.auth)),
        (#"{"endpoint": "\#(endpoint)", "keys": {"p256dh": "\#(p256dh)", "auth": 16}}"#, .notAString(.auth)),
    ])
    func aWrongJSONIsRefusedNamingTheField(json: String, error: PushSubscriptionError) {
        #expect(throws: error) { try PushSubscription(json: Data(json.utf8)) }
    }

    @Test func everyErrorSaysWhichFieldWasWrong() {
        #expect(PushSubscriptionError.wrongLength(.auth, bytes: 15, expected: 16).description
            == "the push subscription's keys.auth has 15 bytes, not 16")
        #expect(PushSubscriptionError.publicKeyNotOnCurve.description.contains("keys.p256dh"))
        #expect(PushSubscriptionError.endpointNotHTTPS(scheme: "http").description.contains("endpoint"))
    }
}
