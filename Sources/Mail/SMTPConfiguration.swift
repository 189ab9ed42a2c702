/// Where and how an ``SMTPClient`` submits mail.
///
/// ```swift
/// let configuration = SMTPConfiguration(
///     host: "smtp.example.org",   // port 587, STARTTLS
///     credentials: SMTPCredentials(username: "reminders", password: secret),
///     clientHostname: "study.example.org")
/// ```
public struct SMTPConfiguration: Hashable, Sendable {
    /// How the connection is protected.
    public enum Security: Hashable, Sendable {
        /// Plain TCP upgraded with STARTTLS before anything else is sent: message submission on port 587 (RFC 6409).
        /// A server that does not offer STARTTLS is refused, never talked to in the clear.
        case startTLS
        /// TLS from the first byte: submission over TLS on port 465 (RFC 8314).
        case implicitTLS
        /// No TLS at all, allowed only for a server on this machine (`127.0.0.1`, `::1` or `localhost`): a local relay,
        /// or a test.
        case plain

        /// The usual port: 587, 465, or 25 for plain.
        public var defaultPort: Int {
            switch self {
            case .startTLS: 587
            case .implicitTLS: 465
            case .plain: 25
            }
        }
    }

    /// Which certificate authorities the server's certificate must chain to.
    public enum TrustRoots: Hashable, Sendable {
        /// The system's trusted authorities.
        case systemDefault
        /// The authorities of a PEM file at this path alone: a private CA, as in tests.
        case certificateAuthorityFile(String)
    }

    /// The server's host name or IP address; also the name its certificate must be for.
    public var host: String
    /// The server's port.
    public var port: Int
    /// How the connection is protected.
    public var security: Security
    /// The user name and password to sign in with, if the server wants them. They are sent only over TLS, unless
    /// `security` is ``Security/plain`` (a server on this machine).
    public var credentials: SMTPCredentials?
    /// The name the client gives itself in EHLO: the sending machine's fully qualified domain name, which some servers
    /// check.
    public var clientHostname: String
    /// How long opening the connection may take.
    public var connectTimeout: Duration
    /// How long the server may take to reply to each command (and to greet, and to accept the message).
    public var commandTimeout: Duration
    /// Which certificate authorities the server's certificate must chain to.
    public var trustRoots: TrustRoots

    /// A configuration for `host`, on `security`'s usual port unless `port` is given.
    public init(
        host: String, port: Int? = nil, security: Security = .startTLS, credentials: SMTPCredentials? = nil,
        clientHostname: String = "localhost", connectTimeout: Duration = .seconds(15), commandTimeout: Duration = .seconds(60),
        trustRoots: TrustRoots = .systemDefault
    ) {
        self.host = host
        self.port = port ?? security.defaultPort
        self.security = security
        self.credentials = credentials
        self.clientHostname = clientHostname
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.trustRoots = trustRoots
    }

    /// The hosts plain SMTP may be used with.
    static let loopbackHosts: Set<String> = ["127.0.0.1", "::1", "localhost"]

    /// Refuses what cannot be used: plain SMTP to another machine, a port out of range, an EHLO name that is not one
    /// word of printable ASCII.
    func validate() throws(SMTPError) {
        if security == .plain && !Self.loopbackHosts.contains(host.lowercased()) {
            throw SMTPError(kind: .invalidConfiguration, command: .connect,
                            detail: "plain SMTP is allowed only to 127.0.0.1, ::1 or localhost, not \(host)")
        }
        guard (1...65535).contains(port) else {
            throw SMTPError(kind: .invalidConfiguration, command: .connect, detail: "port \(port) is out of range")
        }
        guard !clientHostname.isEmpty, clientHostname.unicodeScalars.allSatisfy({ (33...126).contains($0.value) }) else {
            throw SMTPError(kind: .invalidConfiguration, command: .ehlo, detail: "the EHLO name must be one word of printable ASCII")
        }
    }
}
