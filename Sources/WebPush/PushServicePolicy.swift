import Foundation

/// Which push endpoints the server will ever contact.
///
/// A subscription's endpoint comes from the participant's browser, so anyone can hand the server any URL and have it
/// POST there. The policy is the guard: only `https` endpoints on the hosts of known push services, on the default
/// port, pass ``check(_:)``; IP addresses, other hosts and other ports are refused. A test adds the origin of its local
/// server (`http://127.0.0.1:PORT`) to ``allowedOrigins``, which is the only way such an endpoint passes.
///
/// ```swift
/// try PushServicePolicy.browsers.check(subscription.endpoint)
/// ```
public struct PushServicePolicy: Sendable, Hashable {
    /// A host name that endpoints may have.
    public enum Host: Hashable, Sendable, CustomStringConvertible {
        /// This host name exactly, such as `fcm.googleapis.com`.
        case exact(String)
        /// Any host name ending in this suffix, which starts with a dot: `.notify.windows.com` allows
        /// `wns2-par02p.notify.windows.com` but neither `notify.windows.com` nor `evilnotify.windows.com`.
        case suffix(String)

        /// Whether `host` (lowercase, without a trailing dot) is this one.
        func matches(_ host: String) -> Bool {
            switch self {
            case .exact(let name): host == name.lowercased()
            case .suffix(let suffix):
                suffix.hasPrefix(".") && host.count > suffix.count && host.hasSuffix(suffix.lowercased())
            }
        }

        /// The host as written in a list: the name, or `*` and the suffix.
        public var description: String {
            switch self {
            case .exact(let name): name
            case .suffix(let suffix): "*\(suffix)"
            }
        }
    }

    /// The push services of the big browsers: Google's Firebase Cloud Messaging (Chrome, Edge on Android, Opera,
    /// Samsung Internet and other Chromium browsers), Mozilla's autopush (Firefox), Apple's (Safari; Apple asks servers
    /// to allow `*.push.apple.com`) and Microsoft's Windows Push Notification Services (Edge on Windows).
    public static let browserPushServices: [Host] = [
        .exact("fcm.googleapis.com"),
        .exact("updates.push.services.mozilla.com"),
        .suffix(".push.apple.com"),
        .suffix(".notify.windows.com"),
    ]

    /// The policy of a server in production: ``browserPushServices``, https on port 443 only.
    public static let browsers = PushServicePolicy()

    /// The hosts that `https` endpoints on the default port may have.
    public var allowedHosts: [Host]

    /// Origins allowed as they are, whatever their scheme, host (IP addresses included) and port, such as
    /// `http://127.0.0.1:8123` for a test's local server: an endpoint passes when its scheme, host and port are exactly
    /// those of one of these (a missing port being the scheme's default).
    public var allowedOrigins: [String]

    /// A policy allowing `allowedHosts` over https on the default port, and `allowedOrigins` as they are.
    public init(allowedHosts: [Host] = PushServicePolicy.browserPushServices, allowedOrigins: [String] = []) {
        self.allowedHosts = allowedHosts
        self.allowedOrigins = allowedOrigins
    }

    /// Checks that the server may POST to `endpoint`.
    ///
    /// - Throws: ``PushServicePolicyError`` when the endpoint is not an absolute URL with a host, has a user name or
    ///   password, is an IP address, is not `https`, has a port other than 443, or has a host not in ``allowedHosts``,
    ///   unless its origin is one of ``allowedOrigins``.
    public func check(_ endpoint: URL) throws(PushServicePolicyError) {
        guard let origin = Origin(endpoint) else { throw .notAnAbsoluteURL }
        if allowedOrigins.contains(where: { Origin(string: $0) == origin }) { return }
        guard !origin.hasUserInfo else { throw .hasUserInfo }
        guard !origin.isIPAddress else { throw .ipAddress(host: origin.host) }
        guard origin.scheme == "https" else { throw .notHTTPS(scheme: origin.scheme) }
        guard origin.port == 443 else { throw .portNotAllowed(origin.port) }
        guard origin.hasPlainHostName, allowedHosts.contains(where: { $0.matches(origin.host) }) else {
            throw .hostNotAllowed(host: origin.host)
        }
    }

    /// An endpoint's scheme, host and port as ``check(_:)`` compares them.
    struct Origin: Hashable {
        /// Lowercase.
        var scheme: String
        /// Lowercase, as written in the URL (percent escapes kept), without an IPv6 literal's brackets.
        var host: String
        /// The port given, or the scheme's default.
        var port: Int
        var hasUserInfo: Bool
        var isIPv6: Bool

        init?(string: String) {
            guard let url = URL(string: string) else { return nil }
            self.init(url)
        }

        init?(_ url: URL) {
            guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: false), let scheme = parts.scheme?.lowercased(),
                  var host = parts.percentEncodedHost?.lowercased(), !host.isEmpty
            else { return nil }
            isIPv6 = host.hasPrefix("[") || host.contains(":")
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard let port = parts.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil) else { return nil }
            self.scheme = scheme
            self.host = host
            self.port = port
            hasUserInfo = parts.percentEncodedUser != nil || parts.percentEncodedPassword != nil
        }

        /// Whether the host is an IP address, or what a resolver may read as one: IPv6, or a last label that is a
        /// number (`127.0.0.1`, but also `127.1`, `2130706433` and `0x7f.1`, which some resolvers read as 127.0.0.1).
        var isIPAddress: Bool {
            if isIPv6 { return true }
            let last = host.split(separator: ".", omittingEmptySubsequences: true).last.map(String.init) ?? host
            if !last.isEmpty, last.allSatisfy(\.isASCIIDigit) { return true }
            if last.hasPrefix("0x"), last.dropFirst(2).allSatisfy(\.isHexDigit) { return true }
            return false
        }

        /// Whether the host is made of letters, digits, hyphens and dots only, with no empty label and no trailing dot:
        /// no percent escapes or other characters that a resolver could read otherwise than the list does.
        var hasPlainHostName: Bool {
            host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
                !label.isEmpty && label.allSatisfy { $0.isASCIIDigit || ("a"..."z").contains($0) || $0 == "-" }
            }
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// Why ``PushServicePolicy`` refused an endpoint.
public enum PushServicePolicyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The endpoint is not an absolute URL with a host.
    case notAnAbsoluteURL
    /// The endpoint has a user name or password.
    case hasUserInfo
    /// The endpoint's host is an IP address (v4 or v6, loopback, private or public), not a push service's name.
    case ipAddress(host: String)
    /// The endpoint's scheme is not `https`.
    case notHTTPS(scheme: String)
    /// The endpoint's port is not 443.
    case portNotAllowed(Int)
    /// The endpoint's host is not one of the allowed push services.
    case hostNotAllowed(host: String)

    /// The refusal in a sentence, for logs and the study team.
    public var description: String {
        switch self {
        case .notAnAbsoluteURL: "the push endpoint is not an absolute URL with a host"
        case .hasUserInfo: "the push endpoint must not have a user name or password"
        case .ipAddress(let host): "the push endpoint's host \(host) is an IP address, not a push service"
        case .notHTTPS(let scheme): "the push endpoint must use https, not \(scheme)"
        case .portNotAllowed(let port): "the push endpoint's port \(port) is not allowed (only 443)"
        case .hostNotAllowed(let host): "the push endpoint's host \(host) is not an allowed push service"
        }
    }
}
