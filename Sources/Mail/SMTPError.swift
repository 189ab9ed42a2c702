import Foundation
import NIOCore
import NIOSSL

/// Why a message was not sent: what went wrong, in which step of the conversation, the server's reply if it gave
/// one, and whether trying again later may succeed (``isTemporary``).
public struct SMTPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The server refused the command with a 4xx (for now) or 5xx (for good) reply.
        case rejected
        /// The server answered with a reply the command does not expect (a 2xx where a 3xx was due, say).
        case unexpectedReply
        /// The server sent something that is not an SMTP reply, or sent data before the TLS handshake it had just
        /// agreed to (which could be an attacker's injection, so it is never read).
        case malformedReply
        /// No connection could be opened: the name did not resolve, or the server refused the connection.
        case connectionFailed
        /// The connection was closed or reset during the conversation.
        case connectionClosed
        /// Connecting, or the server's reply to a command, took longer than the configured timeout.
        case timedOut
        /// The TLS handshake failed: most often a certificate that is not trusted or not for this host.
        case tlsFailed
        /// The server does not offer STARTTLS, which the configuration requires.
        case startTLSUnavailable
        /// Credentials are configured but the server offers neither AUTH PLAIN nor AUTH LOGIN.
        case authenticationUnavailable
        /// The configuration cannot be used: plain SMTP to a host other than the loopback, an invalid EHLO name, a
        /// CA file that cannot be read.
        case invalidConfiguration
        /// The task sending the message was cancelled.
        case cancelled
    }

    /// What went wrong.
    public let kind: Kind
    /// The step of the conversation that failed.
    public let command: SMTPCommand
    /// The server's reply, when the failure is the server's answer.
    public let reply: SMTPReply?
    /// More about the failure (the underlying network or TLS error), for the logs.
    public let detail: String?

    /// An error of `kind` in `command`.
    public init(kind: Kind, command: SMTPCommand, reply: SMTPReply? = nil, detail: String? = nil) {
        self.kind = kind
        self.command = command
        self.reply = reply
        self.detail = detail
    }

    /// The server's reply code, if it replied.
    public var replyCode: Int? { reply?.code }

    /// The text of the server's reply, if it replied.
    public var replyText: String? { reply?.text }

    /// Whether sending again later may succeed: a 4xx reply, a connection that failed, closed or timed out, a
    /// cancelled task. A 5xx reply (an unknown recipient, a refused password), a bad certificate, a server without
    /// STARTTLS or a wrong configuration will fail again the same way.
    public var isTemporary: Bool {
        switch kind {
        case .rejected: (400..<500).contains(reply?.code ?? 0)
        case .connectionFailed, .connectionClosed, .timedOut, .cancelled: true
        case .unexpectedReply, .malformedReply, .tlsFailed, .startTLSUnavailable, .authenticationUnavailable, .invalidConfiguration:
            false
        }
    }

    /// The failure as a sentence, with the server's reply.
    public var description: String {
        var text = switch kind {
        case .rejected: command == .greeting ? "The mail server turned the connection away" : "The mail server refused \(command)"
        case .unexpectedReply: "The mail server gave an unexpected reply to \(command)"
        case .malformedReply: "The mail server's reply to \(command) is not valid SMTP"
        case .connectionFailed: "Could not connect to the mail server"
        case .connectionClosed: "The connection to the mail server closed during \(command)"
        case .timedOut:
            switch command {
            case .connect: "Connecting to the mail server timed out"
            case .greeting: "The mail server did not greet in time"
            default: "The mail server did not reply to \(command) in time"
            }
        case .tlsFailed: "The TLS handshake with the mail server failed"
        case .startTLSUnavailable: "The mail server does not offer STARTTLS"
        case .authenticationUnavailable: "The mail server offers neither AUTH PLAIN nor AUTH LOGIN"
        case .invalidConfiguration: "The mail configuration cannot be used"
        case .cancelled: "Sending was cancelled during \(command)"
        }
        if let reply { text += ": \(reply.code) \(reply.lines.joined(separator: " "))" }
        if let detail { text += " (\(detail))" }
        return text + (isTemporary ? " [temporary]" : " [permanent]")
    }
}

extension SMTPError {
    /// The error an underlying failure in `command` is: network and TLS errors sorted into their kinds.
    init(_ error: any Error, during command: SMTPCommand) {
        switch error {
        case let error as SMTPError:
            self = error
        case let failure as SMTPConnectionFailure:
            switch failure {
            case .timedOut: self.init(kind: .timedOut, command: command)
            case .closed: self.init(kind: .connectionClosed, command: command)
            case .dataBeforeTLS:
                self.init(kind: .malformedReply, command: command, detail: "the server sent data before the TLS handshake")
            case .malformed(let reason): self.init(kind: .malformedReply, command: command, detail: reason)
            }
        case NIOSSLError.uncleanShutdown:
            self.init(kind: .connectionClosed, command: command, detail: "\(error)")
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            self.init(kind: .tlsFailed, command: command, detail: "\(error)")
        case ChannelError.connectTimeout:
            self.init(kind: .timedOut, command: .connect)
        case ChannelError.ioOnClosedChannel, ChannelError.eof, ChannelError.alreadyClosed, ChannelError.outputClosed:
            self.init(kind: .connectionClosed, command: command)
        case is CancellationError:
            self.init(kind: .cancelled, command: command)
        default:
            self.init(kind: command == .connect ? .connectionFailed : .connectionClosed, command: command, detail: "\(error)")
        }
    }
}

/// How the connection failed, as its reply handler tells it.
enum SMTPConnectionFailure: Error {
    /// No reply came within the command timeout.
    case timedOut
    /// The connection closed.
    case closed
    /// Bytes arrived between the server's consent to STARTTLS and the handshake.
    case dataBeforeTLS
    /// The server's bytes are not an SMTP reply.
    case malformed(String)
}
