import Crypto
import Foundation

/// Where and for whom a push message goes: what a participant's browser hands over when it subscribes, in the shape of
/// the Push API's `PushSubscription.toJSON()`.
///
/// ```json
/// {"endpoint": "https://fcm.googleapis.com/fcm/send/dXo…", "expirationTime": null,
///  "keys": {"p256dh": "BCVxsr7N_eNgVRqvHtD0zTZs…", "auth": "BTBZMqHH6r4Tts7J_aSIgg"}}
/// ```
///
/// Every initialiser checks what it is given, so a value of this type always has an `https` endpoint (or `http` where
/// insecure endpoints were allowed), a public key on the P-256 curve and a 16-byte authentication secret. Whether the
/// server may contact the endpoint is a separate question, answered by ``PushServicePolicy``.
///
/// ```swift
/// let subscription = try PushSubscription(json: requestBody)
/// ```
public struct PushSubscription: Codable, Sendable, Hashable {
    /// The push service's URL for this subscription: the message is POSTed there.
    public let endpoint: URL
    /// The browser's P-256 public key for message encryption (`keys.p256dh`): the uncompressed point, 65 bytes
    /// starting with 0x04.
    public let userAgentPublicKey: Data
    /// The browser's authentication secret (`keys.auth`): 16 bytes.
    public let authSecret: Data

    /// The longest endpoint accepted, in bytes of UTF-8 (characters, for the ASCII of a URL). Browsers' endpoints are a few
    /// hundred characters long.
    public static let maximumEndpointLength = 2048

    /// The key of a decoder's `userInfo` that, set to `true`, lets ``init(from:)`` accept `http` endpoints, as
    /// `allowInsecureEndpoints` does for the other initialisers. For tests against a local HTTP server only.
    public static let allowInsecureEndpointsKey = CodingUserInfoKey(rawValue: "WebPush.PushSubscription.allowInsecureEndpoints")!

    /// A field of the subscription's JSON, named as in it.
    public enum Field: String, Hashable, Sendable, CustomStringConvertible {
        /// The push service's URL.
        case endpoint
        /// The browser's public key.
        case p256dh = "keys.p256dh"
        /// The browser's authentication secret.
        case auth = "keys.auth"

        /// The field's name in the JSON, such as `keys.auth`.
        public var description: String { rawValue }
    }

    /// The subscription in `json`, the browser's `PushSubscription.toJSON()` (other members, such as
    /// `expirationTime`, are ignored).
    ///
    /// - Parameter allowInsecureEndpoints: accept an `http` endpoint too; for tests against a local server only.
    /// - Throws: ``PushSubscriptionError``, naming the field and what was wrong with it.
    public init(json: Data, allowInsecureEndpoints: Bool = false) throws(PushSubscriptionError) {
        let decoder = JSONDecoder()
        decoder.userInfo[Self.allowInsecureEndpointsKey] = allowInsecureEndpoints
        do {
            self = try decoder.decode(PushSubscription.self, from: json)
        } catch let error as PushSubscriptionError {
            throw error
        } catch {
            throw .notAJSONObject
        }
    }

    /// A subscription from its three parts as the browser writes them: the endpoint URL, and the two keys in base64url
    /// (padding tolerated).
    ///
    /// - Parameter allowInsecureEndpoints: accept an `http` endpoint too; for tests against a local server only.
    /// - Throws: ``PushSubscriptionError``, naming the field and what was wrong with it.
    public init(endpoint: String, p256dh: String, auth: String, allowInsecureEndpoints: Bool = false) throws(PushSubscriptionError) {
        let url = try Self.checkedEndpoint(endpoint, allowInsecureEndpoints: allowInsecureEndpoints)
        guard let publicKey = Base64URL.decode(p256dh) else { throw .notBase64URL(.p256dh) }
        guard let secret = Base64URL.decode(auth) else { throw .notBase64URL(.auth) }
        try self.init(checkedEndpoint: url, userAgentPublicKey: publicKey, authSecret: secret)
    }

    /// A subscription from its parts as bytes, as a server may have stored them.
    ///
    /// - Parameter allowInsecureEndpoints: accept an `http` endpoint too; for tests against a local server only.
    /// - Throws: ``PushSubscriptionError``, naming the field and what was wrong with it.
    public init(endpoint: URL, userAgentPublicKey: Data, authSecret: Data, allowInsecureEndpoints: Bool = false) throws(PushSubscriptionError) {
        let url = try Self.checkedEndpoint(endpoint.absoluteString, allowInsecureEndpoints: allowInsecureEndpoints)
        try self.init(checkedEndpoint: url, userAgentPublicKey: userAgentPublicKey, authSecret: authSecret)
    }

    private init(checkedEndpoint: URL, userAgentPublicKey: Data, authSecret: Data) throws(PushSubscriptionError) {
        guard userAgentPublicKey.count == 65 else { throw .wrongLength(.p256dh, bytes: userAgentPublicKey.count, expected: 65) }
        guard userAgentPublicKey.first == 0x04 else { throw .publicKeyNotUncompressed }
        guard (try? P256.KeyAgreement.PublicKey(x963Representation: userAgentPublicKey)) != nil else { throw .publicKeyNotOnCurve }
        guard authSecret.count == 16 else { throw .wrongLength(.auth, bytes: authSecret.count, expected: 16) }
        endpoint = checkedEndpoint
        self.userAgentPublicKey = Data(userAgentPublicKey)
        self.authSecret = Data(authSecret)
    }

    /// ``userAgentPublicKey`` in base64url without padding, as in the JSON's `keys.p256dh`.
    public var p256dh: String { Base64URL.encode(userAgentPublicKey) }

    /// ``authSecret`` in base64url without padding, as in the JSON's `keys.auth`.
    public var auth: String { Base64URL.encode(authSecret) }

    /// The browser's public key as swift-crypto's key-agreement key (checked to be on the curve when the subscription
    /// was made).
    var userAgentKey: P256.KeyAgreement.PublicKey {
        // Cannot fail: every initialiser checked this.
        try! P256.KeyAgreement.PublicKey(x963Representation: userAgentPublicKey)
    }

    private static func checkedEndpoint(_ text: String, allowInsecureEndpoints: Bool) throws(PushSubscriptionError) -> URL {
        guard text.utf8.count <= maximumEndpointLength else { throw .endpointTooLong(bytes: text.utf8.count) }
        guard let url = URL(string: text), let parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = parts.scheme?.lowercased()
        else { throw .endpointNotAnAbsoluteURL }
        guard scheme == "https" || (scheme == "http" && allowInsecureEndpoints) else { throw .endpointNotHTTPS(scheme: scheme) }
        guard parts.user == nil, parts.password == nil else { throw .endpointHasUserInfo }
        guard let host = parts.percentEncodedHost, !host.isEmpty else { throw .endpointHasNoHost }
        return url
    }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey {
        case endpoint, keys
    }

    private enum KeyCodingKeys: String, CodingKey {
        case p256dh, auth
    }

    /// Reads the browser's `PushSubscription.toJSON()` shape, checking it as ``init(json:allowInsecureEndpoints:)``
    /// does and throwing a ``PushSubscriptionError``; `http` endpoints are accepted only when the decoder's `userInfo`
    /// has ``allowInsecureEndpointsKey`` set to `true`.
    public init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else { throw PushSubscriptionError.notAJSONObject }
        let endpoint = try Self.text(.endpoint, in: container, key: .endpoint)
        guard container.contains(.keys) else { throw PushSubscriptionError.missing(.p256dh) }
        guard let keys = try? container.nestedContainer(keyedBy: KeyCodingKeys.self, forKey: .keys) else {
            throw PushSubscriptionError.keysNotAnObject
        }
        let p256dh = try Self.text(.p256dh, in: keys, key: .p256dh)
        let auth = try Self.text(.auth, in: keys, key: .auth)
        let allowInsecure = decoder.userInfo[Self.allowInsecureEndpointsKey] as? Bool ?? false
        try self.init(endpoint: endpoint, p256dh: p256dh, auth: auth, allowInsecureEndpoints: allowInsecure)
    }

    /// Writes the browser's `PushSubscription.toJSON()` shape (without `expirationTime`), the keys in base64url without
    /// padding.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(endpoint.absoluteString, forKey: .endpoint)
        var keys = container.nestedContainer(keyedBy: KeyCodingKeys.self, forKey: .keys)
        try keys.encode(p256dh, forKey: .p256dh)
        try keys.encode(auth, forKey: .auth)
    }

    private static func text<Key: CodingKey>(_ field: Field, in container: KeyedDecodingContainer<Key>, key: Key) throws(PushSubscriptionError) -> String {
        guard container.contains(key), (try? container.decodeNil(forKey: key)) == false else { throw .missing(field) }
        guard let text = try? container.decode(String.self, forKey: key) else { throw .notAString(field) }
        return text
    }
}

/// Why a push subscription was refused: each case names the field and what was wrong with it.
public enum PushSubscriptionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The subscription is not a JSON object.
    case notAJSONObject
    /// The subscription's `keys` member is not a JSON object.
    case keysNotAnObject
    /// A field is missing (or null).
    case missing(PushSubscription.Field)
    /// A field is not a string.
    case notAString(PushSubscription.Field)
    /// The endpoint is longer than ``PushSubscription/maximumEndpointLength``.
    case endpointTooLong(bytes: Int)
    /// The endpoint is not an absolute URL.
    case endpointNotAnAbsoluteURL
    /// The endpoint's scheme is not `https` (nor `http` where insecure endpoints were allowed).
    case endpointNotHTTPS(scheme: String)
    /// The endpoint has a user name or password.
    case endpointHasUserInfo
    /// The endpoint has no host.
    case endpointHasNoHost
    /// A key is not base64url.
    case notBase64URL(PushSubscription.Field)
    /// A key has the wrong number of bytes.
    case wrongLength(PushSubscription.Field, bytes: Int, expected: Int)
    /// The public key is not an uncompressed point (its first byte is not 0x04).
    case publicKeyNotUncompressed
    /// The public key's point is not on the P-256 curve.
    case publicKeyNotOnCurve

    /// The refusal in a sentence, naming the field.
    public var description: String {
        switch self {
        case .notAJSONObject: "the push subscription is not a JSON object"
        case .keysNotAnObject: "the push subscription's keys are not a JSON object"
        case .missing(let field): "the push subscription has no \(field)"
        case .notAString(let field): "the push subscription's \(field) is not a string"
        case .endpointTooLong(let bytes):
            "the push subscription's endpoint has \(bytes) bytes, more than the \(PushSubscription.maximumEndpointLength) allowed"
        case .endpointNotAnAbsoluteURL: "the push subscription's endpoint is not an absolute URL"
        case .endpointNotHTTPS(let scheme): "the push subscription's endpoint must use https, not \(scheme)"
        case .endpointHasUserInfo: "the push subscription's endpoint must not have a user name or password"
        case .endpointHasNoHost: "the push subscription's endpoint has no host"
        case .notBase64URL(let field): "the push subscription's \(field) is not base64url"
        case .wrongLength(let field, let bytes, let expected): "the push subscription's \(field) has \(bytes) bytes, not \(expected)"
        case .publicKeyNotUncompressed: "the push subscription's keys.p256dh is not an uncompressed P-256 point (it must start with 0x04)"
        case .publicKeyNotOnCurve: "the push subscription's keys.p256dh is not a point on the P-256 curve"
        }
    }
}
