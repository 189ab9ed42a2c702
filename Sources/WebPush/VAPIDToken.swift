import Crypto
import Foundation

/// A VAPID token (RFC 8292): the signed JSON Web Token that tells a push service which application server sends a
/// message, and the `Authorization` header that carries it.
///
/// The token is an ES256 JWT whose claims are `aud`, the endpoint's origin (`https://fcm.googleapis.com`); `exp`, when
/// it stops being valid (at most 24 hours ahead, RFC 8292 §2); and `sub`, a `mailto:` or `https:` contact for the push
/// service's operators.
///
/// ```swift
/// let token = try VAPIDToken(endpoint: subscription.endpoint, subject: "mailto:study-team@example.org",
///                            key: key, now: environment.now())
/// request.setValue(token.authorizationHeader, forHTTPHeaderField: "Authorization")
/// ```
public struct VAPIDToken: Sendable, Hashable {
    /// The longest lifetime RFC 8292 allows: 24 hours.
    public static let maximumLifetime: TimeInterval = 24 * 60 * 60

    /// The `aud` claim: the endpoint's origin, `scheme://host[:port]`.
    public let audience: String
    /// The `exp` claim: when the token stops being valid (whole seconds).
    public let expiration: Date
    /// The `sub` claim: the contact URI.
    public let subject: String
    /// The signed token, `header.claims.signature`, each part base64url without padding.
    public let jwt: String
    /// The signing key's public key in base64url without padding (the `k` of the header).
    public let publicKeyBase64URL: String

    /// A token for messages to `endpoint`, signed with `key`, valid from `now` for `lifetime` seconds.
    ///
    /// - Parameters:
    ///   - endpoint: the subscription's endpoint; only its origin goes into the token.
    ///   - subject: a `mailto:` address or an `https:` URL where the push service's operators can reach the study team.
    ///   - key: the server's VAPID key.
    ///   - now: the current time, from the injected clock.
    ///   - lifetime: how long the token stays valid; more than 0 and at most ``maximumLifetime``. Twelve hours, the
    ///     default, leaves room for a push service's clock being ahead of the server's.
    /// - Throws: ``VAPIDTokenError``.
    public init(endpoint: URL, subject: String, key: VAPIDKey, now: Date, lifetime: TimeInterval = 12 * 60 * 60) throws(VAPIDTokenError) {
        guard lifetime > 0, lifetime <= Self.maximumLifetime else { throw .lifetimeOutOfRange(seconds: lifetime) }
        guard Self.isContact(subject) else { throw .subjectNotAContact(subject) }
        guard let audience = Self.origin(of: endpoint) else { throw .endpointHasNoOrigin }
        let expiration = Int((now.timeIntervalSince1970 + lifetime).rounded(.down))

        let header = #"{"typ":"JWT","alg":"ES256"}"#
        let claims = Claims(aud: audience, exp: expiration, sub: subject)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let claimsJSON: Data
        do {
            claimsJSON = try encoder.encode(claims)
        } catch {
            // Three strings and an integer always encode.
            preconditionFailure("VAPID claims did not encode: \(error)")
        }
        let signingInput = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(claimsJSON)
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try key.privateKey.signature(for: Data(signingInput.utf8))
        } catch {
            throw .signingFailed
        }

        self.audience = audience
        self.expiration = Date(timeIntervalSince1970: TimeInterval(expiration))
        self.subject = subject
        // ES256 (RFC 7518 §3.4): the signature is r and s, 32 bytes each, not DER.
        jwt = signingInput + "." + Base64URL.encode(signature.rawRepresentation)
        publicKeyBase64URL = key.publicKeyBase64URL
    }

    /// The `Authorization` header's value: `vapid t=<jwt>, k=<public key>` (RFC 8292 §3).
    public var authorizationHeader: String { "vapid t=\(jwt), k=\(publicKeyBase64URL)" }

    private struct Claims: Encodable {
        var aud: String
        var exp: Int
        var sub: String
    }

    /// `endpoint`'s origin: lowercase scheme and host, and the port when it is not the scheme's default.
    static func origin(of endpoint: URL) -> String? {
        guard let parts = URLComponents(url: endpoint, resolvingAgainstBaseURL: false), let scheme = parts.scheme?.lowercased(),
              let host = parts.percentEncodedHost?.lowercased(), !host.isEmpty
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let port = parts.port, port != defaultPort else { return "\(scheme)://\(bracketed)" }
        return "\(scheme)://\(bracketed):\(port)"
    }

    /// Whether `subject` is a `mailto:` URI with an address or an `https:` URL with a host.
    static func isContact(_ subject: String) -> Bool {
        guard !subject.contains(where: { $0.isWhitespace }) else { return false }
        if subject.lowercased().hasPrefix("mailto:") {
            let address = subject.dropFirst("mailto:".count)
            guard let at = address.firstIndex(of: "@") else { return false }
            return at != address.startIndex && address.index(after: at) != address.endIndex
        }
        guard let parts = URLComponents(string: subject), parts.scheme?.lowercased() == "https",
              let host = parts.percentEncodedHost, !host.isEmpty
        else { return false }
        return true
    }
}

/// Why a VAPID token could not be made.
public enum VAPIDTokenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The lifetime is not more than 0 and at most 24 hours.
    case lifetimeOutOfRange(seconds: TimeInterval)
    /// The subject is neither a `mailto:` address nor an `https:` URL.
    case subjectNotAContact(String)
    /// The endpoint has no scheme or host to make the audience of.
    case endpointHasNoOrigin
    /// swift-crypto could not sign.
    case signingFailed

    /// The problem in a sentence.
    public var description: String {
        switch self {
        case .lifetimeOutOfRange(let seconds):
            "a VAPID token's lifetime must be more than 0 and at most 24 hours (86400 seconds), not \(seconds) seconds"
        case .subjectNotAContact(let subject): "a VAPID token's subject must be a mailto: address or an https: URL, not \"\(subject)\""
        case .endpointHasNoOrigin: "the push endpoint has no scheme and host to address a VAPID token to"
        case .signingFailed: "the VAPID token could not be signed"
        }
    }
}
