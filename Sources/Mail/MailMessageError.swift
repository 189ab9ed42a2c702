/// Why a ``MailMessage`` or a ``MailHeader`` cannot be made.
public enum MailMessageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The message has no recipient.
    case noRecipients
    /// The value of the header field named here contains a CR or an LF, which would end the field early and let the
    /// rest of the value be read as another field (header injection).
    case lineBreakInHeader(field: String)
    /// The value of the header field named here contains a control character other than CR, LF and tab.
    case controlCharacterInHeader(field: String)
    /// The value of the extra header field named here is not ASCII; extra fields are written as given, so they must be.
    case nonASCIIHeaderValue(field: String)
    /// The name given is not a header field name: printable ASCII other than `:`, at least one character.
    case invalidHeaderName(String)
    /// The name given is a field the message writes itself (`From`, `To`, `Subject`, `Date`, `Message-ID`,
    /// `MIME-Version`, `Content-Type`, `Content-Transfer-Encoding`), so it cannot be an extra one.
    case reservedHeaderName(String)
    /// The header field named here would have a line longer than the 998 characters a mail line may have: its value
    /// has no whitespace to fold it at.
    case headerLineTooLong(field: String)
    /// The Message-ID given is not `left@right` with both sides RFC 5322 dot-atoms (written without angle brackets).
    case invalidMessageID(String)
    /// The MIME boundary given is not 1 to 70 of the characters RFC 2046 allows (letters, digits and `'()+_,-./:=?`).
    case invalidBoundary(String)
    /// A body of the message has a line that starts with `--` and the MIME boundary given, which would end its part.
    case boundaryOccursInBody(String)

    /// The problem, as a sentence for a person.
    public var description: String {
        switch self {
        case .noRecipients: "The message has no recipient."
        case .lineBreakInHeader(let field): "The \(field) header contains a line break."
        case .controlCharacterInHeader(let field): "The \(field) header contains a control character."
        case .nonASCIIHeaderValue(let field): "The \(field) header contains characters other than ASCII."
        case .invalidHeaderName(let name): "\"\(name)\" is not a valid header name."
        case .reservedHeaderName(let name): "The \(name) header is written by the message itself and cannot be added."
        case .headerLineTooLong(let field): "The \(field) header has a line longer than 998 characters."
        case .invalidMessageID(let id): "\"\(id)\" is not a valid Message-ID (left@right, without angle brackets)."
        case .invalidBoundary(let boundary): "\"\(boundary)\" is not a valid MIME boundary."
        case .boundaryOccursInBody(let boundary): "The MIME boundary \"\(boundary)\" occurs in a body of the message."
        }
    }
}
