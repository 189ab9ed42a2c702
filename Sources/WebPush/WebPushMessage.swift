import Foundation

/// One push message as the HTTP request that delivers it (RFC 8030 §5): a POST of the encrypted ``body`` to the
/// subscription's ``endpoint`` with ``headers``.
///
/// ```swift
/// let message = try WebPushMessage(payload: Data(#"{"title":"Time for today's diary"}"#.utf8), for: subscription,
///                                  key: vapidKey, subject: "mailto:study-team@example.org", now: environment.now(),
///                                  timeToLive: 6 * 60 * 60, urgency: .normal, topic: "daily-diary",
///                                  randomBytes: environment.randomBytes)
/// let delivery = await sender.send(message)
/// ```
public struct WebPushMessage: Sendable, Hashable {
    /// How soon the push service should wake the browser's device for the message (RFC 8030 §5.3): a device on battery
    /// may hold back messages of low urgency.
    public enum Urgency: String, Sendable, Hashable, CaseIterable {
        /// On power and Wi-Fi only.
        case veryLow = "very-low"
        /// On power or Wi-Fi.
        case low
        /// Unless the battery is low: the default.
        case normal
        /// Even on a low battery.
        case high
    }

    /// The longest time to live accepted, in seconds: four weeks, the most the big push services keep a message.
    public static let maximumTimeToLive = 28 * 24 * 60 * 60
    /// The longest topic, in characters (RFC 8030 §5.4).
    public static let maximumTopicLength = 32

    /// Where the message is POSTed: the subscription's endpoint.
    public let endpoint: URL
    /// The encrypted body (``WebPushEncryption``).
    public let body: Data
    /// How many seconds the push service keeps the message while the browser is unreachable (0: deliver now or never).
    public let timeToLive: Int
    /// How soon the device should be woken.
    public let urgency: Urgency
    /// A name under which a newer message replaces an undelivered older one (at most 32 base64url characters), or nil.
    public let topic: String?
    /// The `Authorization` header's value: `vapid t=…, k=…`.
    public let authorization: String

    /// A message of an already encrypted `body` for `endpoint`, authorised by `token`.
    ///
    /// - Throws: ``WebPushMessageError`` when the time to live is negative or above ``maximumTimeToLive``, or the topic is
    ///   empty, longer than 32 characters or has a character outside base64url's alphabet.
    public init(endpoint: URL, body: Data, token: VAPIDToken, timeToLive: Int, urgency: Urgency = .normal,
                topic: String? = nil) throws(WebPushMessageError) {
        guard (0...Self.maximumTimeToLive).contains(timeToLive) else { throw .timeToLiveOutOfRange(seconds: timeToLive) }
        if let topic {
            guard !topic.isEmpty, topic.utf8.count <= Self.maximumTopicLength, topic.utf8.allSatisfy(Base64URL.isInAlphabet) else {
                throw .topicNotValid(topic)
            }
        }
        self.endpoint = endpoint
        self.body = body
        self.timeToLive = timeToLive
        self.urgency = urgency
        self.topic = topic
        authorization = token.authorizationHeader
    }

    /// A message of `payload` for `subscription`: encrypted with a fresh sender key and salt from `randomBytes`, and
    /// authorised by a VAPID token signed with `key`, valid from `now` for `tokenLifetime` seconds.
    ///
    /// - Throws: ``WebPushEncryptionError``, ``VAPIDTokenError`` or ``WebPushMessageError``.
    public init(payload: Data, for subscription: PushSubscription, key: VAPIDKey, subject: String, now: Date,
                timeToLive: Int, urgency: Urgency = .normal, topic: String? = nil,
                tokenLifetime: TimeInterval = 12 * 60 * 60, randomBytes: (Int) -> [UInt8]) throws {
        let body = try WebPushEncryption.encrypt(payload: payload, for: subscription, randomBytes: randomBytes)
        let token = try VAPIDToken(endpoint: subscription.endpoint, subject: subject, key: key, now: now, lifetime: tokenLifetime)
        try self.init(endpoint: subscription.endpoint, body: body, token: token, timeToLive: timeToLive, urgency: urgency, topic: topic)
    }

    /// The request's headers: `Content-Encoding: aes128gcm`, `Content-Type: application/octet-stream`, `TTL`,
    /// `Urgency`, `Topic` when there is one, and `Authorization`. (`Content-Length` is the HTTP client's to set.)
    public var headers: [String: String] {
        var headers = [
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "TTL": String(timeToLive),
            "Urgency": urgency.rawValue,
            "Authorization": authorization,
        ]
        if let topic { headers["Topic"] = topic }
        return headers
    }
}

/// Why a push message could not be made.
public enum WebPushMessageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The time to live is negative or above ``WebPushMessage/maximumTimeToLive``.
    case timeToLiveOutOfRange(seconds: Int)
    /// The topic is empty, longer than 32 characters, or has a character outside base64url's alphabet.
    case topicNotValid(String)

    /// The problem in a sentence.
    public var description: String {
        switch self {
        case .timeToLiveOutOfRange(let seconds):
            "a push message's time to live must be from 0 to \(WebPushMessage.maximumTimeToLive) seconds, not \(seconds)"
        case .topicNotValid(let topic): "a push message's topic must be 1 to 32 base64url characters (A–Z a–z 0–9 - _), not \"\(topic)\""
        }
    }
}
