import Foundation
import Testing
import WebPush

/// ``WebPushMessage`` carries the headers RFC 8030 and RFC 8292 ask for, with its time to live and topic checked; and
/// ``WebPushDelivery`` turns each answer of a push service into what the server does next.
@Suite("Push messages and their delivery")
struct WebPushMessageTests {
    static let now = VAPIDTests.now

    @Test func theMessageHasTheHeadersAndAnEncryptedBody() throws {
        let browser = TestBrowser()
        let key = VAPIDKey.generate()
        let message = try WebPushMessage(payload: Data(#"{"title":"Time for today's diary"}"#.utf8), for: try browser.subscription(),
                                         key: key, subject: "mailto:study-team@example.org", now: Self.now,
                                         timeToLive: 6 * 3600, urgency: .high, topic: "daily-diary", randomBytes: TestRandom.secure)
        #expect(message.endpoint.absoluteString == "https://fcm.googleapis.com/fcm/send/test-subscription")
        let headers = message.headers
        #expect(headers["Content-Encoding"] == "aes128gcm")
        #expect(headers["Content-Type"] == "application/octet-stream")
        #expect(headers["TTL"] == "21600")
        #expect(headers["Urgency"] == "high")
        #expect(headers["Topic"] == "daily-diary")
        let authorization = try #require(headers["Authorization"])
        #expect(authorization.hasPrefix("vapid t=") && authorization.hasSuffix(", k=\(key.publicKeyBase64URL)"))
        #expect(headers.count == 6)
        #expect(try browser.decrypt(message.body) == Data(#"{"title":"Time for today's diary"}"#.utf8))

        let plain = try WebPushMessage(payload: Data("x".utf8), for: try browser.subscription(), key: key,
                                       subject: "mailto:study-team@example.org", now: Self.now, timeToLive: 0,
                                       randomBytes: TestRandom.secure)
        #expect(plain.headers["Urgency"] == "normal" && plain.headers["Topic"] == nil && plain.headers["TTL"] == "0")
    }

    @Test func theUrgenciesAreRFC8030s() {
        #expect(WebPushMessage.Urgency.allCases.map(\.rawValue) == ["very-low", "low", "normal", "high"])
    }

    @Test func aTimeToLiveOrTopicOutOfRangeIsRefused() throws {
        let endpoint = try #require(URL(string: "https://fcm.googleapis.com/fcm/send/abc"))
        let token = try VAPIDToken(endpoint: endpoint, subject: "mailto:a@example.org", key: VAPIDKey.generate(), now: Self.now)
        let maximum = WebPushMessage.maximumTimeToLive
        _ = try WebPushMessage(endpoint: endpoint, body: Data(), token: token, timeToLive: maximum,
                               topic: String(repeating: "a", count: 32))
        #expect(throws: WebPushMessageError.timeToLiveOutOfRange(seconds: -1)) {
            try WebPushMessage(endpoint: endpoint, body: Data(), token: token, timeToLive: -1)
        }
        #expect(throws: WebPushMessageError.timeToLiveOutOfRange(seconds: maximum + 1)) {
            try WebPushMessage(endpoint: endpoint, body: Data(), token: token, timeToLive: maximum + 1)
        }
        for topic in ["", String(repeating: "a", count: 33), "daily diary", "daily.diary", "tägliches"] {
            #expect(throws: WebPushMessageError.topicNotValid(topic)) {
                try WebPushMessage(endpoint: endpoint, body: Data(), token: token, timeToLive: 60, topic: topic)
            }
        }
    }

    @Test(arguments: [
        (201, WebPushDelivery.delivered(status: 201)),
        (202, .delivered(status: 202)),
        (404, .subscriptionGone(status: 404)),
        (410, .subscriptionGone(status: 410)),
    ])
    func successAndGoneSubscriptionsAreToldApart(status: Int, delivery: WebPushDelivery) {
        #expect(WebPushDelivery(status: status, headers: [:], body: Data(), now: Self.now) == delivery)
        #expect(delivery.subscriptionIsGone == (status >= 400))
    }

    @Test(arguments: [301, 302, 307, 308, 400, 401, 403, 413])
    func redirectsAndClientErrorsArePermanent(status: Int) {
        let delivery = WebPushDelivery(status: status, headers: ["Location": "https://elsewhere.example/"],
                                       body: Data(#"{"reason":"BadJwtToken"}"#.utf8), now: Self.now)
        guard case .permanentFailure(status: status, let reason) = delivery else {
            Issue.record("\(status) gave \(delivery)")
            return
        }
        if status >= 400 { #expect(reason.contains("BadJwtToken")) } else { #expect(reason.contains("https://elsewhere.example/")) }
        if status == 413 { #expect(reason.contains("too large")) }
    }

    @Test func tooManyRequestsAndServerErrorsAreTemporaryUntilRetryAfter() {
        #expect(WebPushDelivery(status: 429, headers: ["retry-after": "120"], body: Data(), now: Self.now).retryAfter
            == Self.now.addingTimeInterval(120))
        #expect(WebPushDelivery(status: 503, headers: ["Retry-After": "Sun, 01 Mar 2026 09:30:00 GMT"], body: Data(), now: Self.now).retryAfter
            == Self.now.addingTimeInterval(90 * 60))
        let withoutDate = WebPushDelivery(status: 500, headers: [:], body: Data(), now: Self.now)
        guard case .temporaryFailure(status: 500, retryAfter: nil, _) = withoutDate else {
            Issue.record("500 gave \(withoutDate)")
            return
        }
        #expect(WebPushDelivery(status: 429, headers: ["Retry-After": "soon"], body: Data(), now: Self.now).retryAfter == nil)
        // More than a year is taken as a year.
        #expect(WebPushDelivery(status: 429, headers: ["Retry-After": "99999999999999999999"], body: Data(), now: Self.now).retryAfter
            == Self.now.addingTimeInterval(365 * 24 * 3600))
    }
}
