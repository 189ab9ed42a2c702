import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Submits mail to an SMTP server (RFC 5321, with STARTTLS, RFC 3207, and AUTH PLAIN or LOGIN, RFC 4954) over
/// SwiftNIO.
///
/// ```swift
/// let client = SMTPClient(configuration: SMTPConfiguration(host: "smtp.example.org", credentials: credentials))
/// try await client.send(message)                       // one connection for one message
/// try await client.withSession { session in            // one connection for many
///     for message in reminders { try await session.send(message) }
/// }
/// ```
///
/// Each connection says EHLO, upgrades to TLS (and says EHLO again) unless TLS was there from the start or the
/// configuration is plain, signs in if credentials are configured, and ends with QUIT. No reply is awaited longer than
/// ``SMTPConfiguration/commandTimeout``. Failures are ``SMTPError``s, which tell whether sending again later may work.
public struct SMTPClient: Sendable {
    /// Where and how mail is submitted.
    public let configuration: SMTPConfiguration
    private let eventLoopGroup: any EventLoopGroup

    /// A client for `configuration`, whose connections run on `eventLoopGroup`.
    public init(configuration: SMTPConfiguration, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.configuration = configuration
        self.eventLoopGroup = eventLoopGroup
    }

    /// Sends `message` over a connection of its own.
    public func send(_ message: MailMessage) async throws(SMTPError) {
        let session = try await openSession()
        do throws(SMTPError) {
            try await session.send(message)
        } catch {
            await session.close()
            throw error
        }
        await session.close()
    }

    /// Opens a connection, gives its session to `body` to send messages over, and closes it (with QUIT) when `body`
    /// returns or throws. Throws an ``SMTPError`` when the connection cannot be opened, or what `body` throws.
    public func withSession<Value>(
        isolation: isolated (any Actor)? = #isolation, _ body: (SMTPSession) async throws -> Value
    ) async throws -> Value {
        let session = try await openSession()
        let value: Value
        do {
            value = try await body(session)
        } catch {
            await session.close()
            throw error
        }
        await session.close()
        return value
    }

    /// A connection greeted, upgraded to TLS as configured, and signed in.
    private func openSession() async throws(SMTPError) -> SMTPSession {
        try configuration.validate()
        let tls = configuration.security == .plain ? nil : try makeTLSContext()
        // SNI and the certificate's check take a host name; for an IP address NIOSSL checks the certificate's IP.
        let serverHostname = (try? SocketAddress(ipAddress: configuration.host, port: 0)) == nil ? configuration.host : nil
        let connection = try await SMTPConnection.open(
            configuration, implicitTLS: configuration.security == .implicitTLS ? tls : nil, serverHostname: serverHostname,
            group: eventLoopGroup)
        do throws(SMTPError) {
            try await connection.command(nil, as: .greeting, expecting: 2)
            var capabilities = try await ehlo(connection)
            if configuration.security == .startTLS, let tls {
                guard capabilities.keywords.contains("STARTTLS") else { throw SMTPError(kind: .startTLSUnavailable, command: .startTLS) }
                try await connection.command("STARTTLS", as: .startTLS, expecting: 2)
                try await connection.startTLS(tls, serverHostname: serverHostname)
                do throws(SMTPError) {
                    capabilities = try await ehlo(connection)
                } catch where error.kind == .tlsFailed {
                    // The handshake runs before the second EHLO is written: its failure is STARTTLS's.
                    throw SMTPError(kind: .tlsFailed, command: .startTLS, detail: error.detail)
                }
            }
            if let credentials = configuration.credentials {
                try await authenticate(credentials, offered: capabilities.authMechanisms, on: connection)
            }
        } catch {
            await connection.close()
            throw error
        }
        return SMTPSession(connection: connection)
    }

    private func ehlo(_ connection: SMTPConnection) async throws(SMTPError) -> SMTPCapabilities {
        SMTPCapabilities(ehloReply: try await connection.command("EHLO \(configuration.clientHostname)", as: .ehlo, expecting: 2))
    }

    /// AUTH PLAIN if the server offers it, else AUTH LOGIN.
    private func authenticate(
        _ credentials: SMTPCredentials, offered mechanisms: Set<String>, on connection: SMTPConnection
    ) async throws(SMTPError) {
        func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
        if mechanisms.contains("PLAIN") {
            try await connection.command("AUTH PLAIN " + base64("\0\(credentials.username)\0\(credentials.password)"),
                                         as: .auth, expecting: 2)
        } else if mechanisms.contains("LOGIN") {
            try await connection.command("AUTH LOGIN", as: .auth, expecting: 3)
            try await connection.command(base64(credentials.username), as: .auth, expecting: 3)
            try await connection.command(base64(credentials.password), as: .auth, expecting: 2)
        } else {
            let offered = mechanisms.isEmpty ? "no AUTH mechanism" : "AUTH " + mechanisms.sorted().joined(separator: " ")
            throw SMTPError(kind: .authenticationUnavailable, command: .auth, detail: "the server offers \(offered)")
        }
    }

    private func makeTLSContext() throws(SMTPError) -> NIOSSLContext {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        switch configuration.trustRoots {
        case .systemDefault: tls.trustRoots = .default
        case .certificateAuthorityFile(let path): tls.trustRoots = .file(path)
        }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw SMTPError(kind: .invalidConfiguration, command: .connect, detail: "the TLS settings cannot be used: \(error)")
        }
    }
}
