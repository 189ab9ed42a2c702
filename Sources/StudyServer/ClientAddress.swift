import Foundation
import NIOCore

/// The address a request comes from, as far as the server can trust it: the connection's peer, or, when that peer is
/// a proxy the server was told to trust (`studykit serve --trusted-proxy`), the address that proxy saw in
/// `X-Forwarded-For`.
///
/// `X-Forwarded-For` lists the addresses each proxy saw, the client first; anyone may send one. So it is read from the
/// right, past the trusted proxies only: the first address that is not a trusted proxy is the client. A header from an
/// untrusted peer is ignored.
enum ClientAddress {
    /// The client's address for `peer` (the connection's remote address; nil in tests without a socket) and the
    /// request's `X-Forwarded-For` header, trusting the header only from `trustedProxies` (IP addresses as text).
    static func resolve(peer: SocketAddress?, forwardedFor: String?, trustedProxies: Set<String>) -> String {
        guard let peerAddress = peer?.ipAddress else { return "unknown" }
        guard trustedProxies.contains(peerAddress), let forwardedFor else { return peerAddress }
        // At most the last 16 hops are looked at: a longer chain is forged anyway.
        let hops = forwardedFor.split(separator: ",", omittingEmptySubsequences: true).suffix(16)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() where !trustedProxies.contains(hop) {
            return hop.isEmpty || hop.count > 64 ? peerAddress : hop
        }
        return peerAddress
    }
}
