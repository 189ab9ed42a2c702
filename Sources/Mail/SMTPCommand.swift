/// A step of the SMTP conversation: the one an ``SMTPError`` happened in.
public enum SMTPCommand: Hashable, Sendable, CustomStringConvertible {
    /// Opening the connection (and, with implicit TLS, its handshake).
    case connect
    /// Waiting for the server's greeting.
    case greeting
    /// `EHLO`, saying who the client is and reading what the server offers.
    case ehlo
    /// `STARTTLS` and the TLS handshake that follows it.
    case startTLS
    /// `AUTH`, signing in.
    case auth
    /// `MAIL FROM`, giving the envelope's sender.
    case mailFrom
    /// `RCPT TO`, giving the recipient named here.
    case rcptTo(MailAddress)
    /// `DATA`, asking to send the message.
    case data
    /// Sending the message itself, up to the server's reply to its final `.`.
    case messageContent
    /// `RSET`, clearing a failed transaction.
    case reset
    /// `QUIT`, ending the conversation.
    case quit

    /// The command as SMTP writes it, e.g. `RCPT TO:<participant@example.com>`.
    public var description: String {
        switch self {
        case .connect: "connecting"
        case .greeting: "the server's greeting"
        case .ehlo: "EHLO"
        case .startTLS: "STARTTLS"
        case .auth: "AUTH"
        case .mailFrom: "MAIL FROM"
        case .rcptTo(let address): "RCPT TO:<\(address)>"
        case .data: "DATA"
        case .messageContent: "the message content"
        case .reset: "RSET"
        case .quit: "QUIT"
        }
    }
}
