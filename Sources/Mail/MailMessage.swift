import Foundation

/// An email: a sender, recipients, a subject, a plain-text body and optionally an HTML one, rendered as an RFC 5322
/// message that any mail program reads (``rendered()``).
///
/// The message is 7-bit clean whatever its text: the bodies are UTF-8 in quoted-printable, non-ASCII header text
/// (the subject, the sender's name) is written as RFC 2047 encoded-words, and header lines are folded to fit 78
/// characters. With an HTML body the message is `multipart/alternative`, the plain text first.
///
/// Everything that varies from one message to the next is given, so a message renders the same bytes every time: the
/// date, the Message-ID and the MIME boundary, which ``init(from:to:subject:textBody:htmlBody:extraHeaders:date:using:)``
/// draws from the random number generator it is given.
/// ```swift
/// var random = SystemRandomNumberGenerator()
/// let message = try MailMessage(
///     from: MailMailbox(try MailAddress("reminders@study.example.org"), displayName: "Recover Study"),
///     to: [try MailAddress("participant@example.com")],
///     subject: "Your survey for today", textBody: "Hello,\nyour daily survey is ready.\n",
///     date: .now, using: &random)
/// let bytes = message.rendered()   // CRLF line ends, ready for SMTP's DATA
/// ```
public struct MailMessage: Hashable, Sendable {
    /// The sender, written in `From`; its address is also the envelope's sender (`MAIL FROM`).
    public let from: MailMailbox
    /// The recipients, written in `To` and each given to the server (`RCPT TO`); never empty.
    public let to: [MailAddress]
    /// The subject, in any script.
    public let subject: String
    /// The plain-text body, in any script; its line breaks may be LF, CRLF or CR.
    public let textBody: String
    /// The HTML body, shown instead of the plain text by the mail programs that can.
    public let htmlBody: String?
    /// Extra header fields, written in this order after the message's own.
    public let extraHeaders: [MailHeader]
    /// When the message was written (the `Date` field, in UTC).
    public let date: Date
    /// The message's unique id, `left@right` without angle brackets (written as `Message-ID: <left@right>`).
    public let messageID: String
    /// The MIME boundary between the plain-text and HTML parts (written only when there is an HTML body).
    public let boundary: String

    /// A message with all its parts given, or why it cannot be written.
    ///
    /// The subject and the sender's display name may hold any text but line breaks and control characters (tabs
    /// aside), which are refused: ``MailMessageError/lineBreakInHeader(field:)``.
    public init(
        from: MailMailbox, to: [MailAddress], subject: String, textBody: String, htmlBody: String? = nil,
        extraHeaders: [MailHeader] = [], date: Date, messageID: String, boundary: String
    ) throws(MailMessageError) {
        guard !to.isEmpty else { throw .noRecipients }
        try MailHeader.checkValue(subject, field: "Subject")
        if let displayName = from.displayName { try MailHeader.checkValue(displayName, field: "From") }
        try Self.checkMessageID(messageID)
        guard (1...70).contains(boundary.count), boundary.unicodeScalars.allSatisfy(Self.isBoundaryCharacter) else {
            throw .invalidBoundary(boundary)
        }
        if let htmlBody {
            let delimiter = "--" + boundary
            let lines = QuotedPrintable.encodedLines(textBody) + QuotedPrintable.encodedLines(htmlBody)
            guard !lines.contains(where: { $0.hasPrefix(delimiter) }) else { throw .boundaryOccursInBody(boundary) }
        }
        self.from = from
        self.to = to
        self.subject = subject
        self.textBody = textBody
        self.htmlBody = htmlBody
        self.extraHeaders = extraHeaders
        self.date = date
        self.messageID = messageID
        self.boundary = boundary
    }

    /// A message whose Message-ID (`<32 hex digits>@<the sender's domain>`) and MIME boundary (`=_<32 hex digits>`,
    /// which quoted-printable text can never contain) are drawn from `generator`: give it a seeded generator in
    /// tests, the system's (or another cryptographically secure one) in a server.
    public init(
        from: MailMailbox, to: [MailAddress], subject: String, textBody: String, htmlBody: String? = nil,
        extraHeaders: [MailHeader] = [], date: Date, using generator: inout some RandomNumberGenerator
    ) throws(MailMessageError) {
        let messageID = Self.randomHex(using: &generator) + "@" + from.address.domain.lowercased()
        let boundary = "=_" + Self.randomHex(using: &generator)
        try self.init(from: from, to: to, subject: subject, textBody: textBody, htmlBody: htmlBody, extraHeaders: extraHeaders,
                      date: date, messageID: messageID, boundary: boundary)
    }

    /// The message as it goes into SMTP's DATA: ASCII, every line ended by CRLF (none bare), none longer than 998
    /// characters, ending with CRLF.
    public func rendered() -> [UInt8] {
        var text = ""
        var date = HeaderField(name: "Date")
        date.append(" " + MailDate.string(from: self.date))
        text += date.text
        text += fromField.text
        var recipients = HeaderField(name: "To")
        for (index, address) in to.enumerated() {
            recipients.append(" " + address.description + (index < to.count - 1 ? "," : ""))
        }
        text += recipients.text
        text += subjectField.text
        text += "Message-ID: <\(messageID)>\r\n"
        text += "MIME-Version: 1.0\r\n"
        for header in extraHeaders { text += header.field.text }
        if let htmlBody {
            var contentType = HeaderField(name: "Content-Type")
            contentType.append(" multipart/alternative;")
            contentType.append(" boundary=\"\(boundary)\"")
            text += contentType.text + "\r\n"
            text += "--\(boundary)\r\n" + Self.part(textBody, type: "text/plain") + "\r\n"
            text += "--\(boundary)\r\n" + Self.part(htmlBody, type: "text/html") + "\r\n"
            text += "--\(boundary)--\r\n"
        } else {
            // A body that ends with a line break already ends the message with one.
            let part = Self.part(textBody, type: "text/plain")
            text += part.hasSuffix("\r\n") ? part : part + "\r\n"
        }
        return Array(text.utf8)
    }

    /// `From`: the display name as plain words when it is only atoms, quoted when it is other printable ASCII that
    /// fits a line, encoded-words otherwise; then the address.
    private var fromField: HeaderField {
        var field = HeaderField(name: "From")
        guard let name = from.displayName, !name.isEmpty else {
            field.append(" " + from.address.description)
            return field
        }
        let words = name.split(separator: " ", omittingEmptySubsequences: false)
        let isPrintableASCII = name.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) } && !name.contains("=?")
        if isPrintableASCII && words.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy(MailAddress.isAtext) }) {
            for word in words { field.append(" " + word) }
        } else if isPrintableASCII && name.count <= 60 {
            let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            field.append(" \"\(escaped)\"")
        } else {
            field.appendEncodedWords(name)
        }
        field.append(" <\(from.address)>")
        return field
    }

    /// `Subject`: as it is when it is printable ASCII that folds into short lines, encoded-words otherwise.
    private var subjectField: HeaderField {
        var field = HeaderField(name: "Subject")
        let isPlain = subject.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) } && !subject.contains("=?")
            && subject.split(separator: " ").allSatisfy { $0.count <= 60 }
        if subject.isEmpty {
            // "Subject:" alone.
        } else if isPlain {
            field.appendUnstructured(subject)
        } else {
            field.appendEncodedWords(subject)
        }
        return field
    }

    /// A text part: its two header fields, an empty line and the quoted-printable body, without a final line end.
    private static func part(_ body: String, type: String) -> String {
        "Content-Type: \(type); charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            + QuotedPrintable.encodedLines(body).joined(separator: "\r\n")
    }

    private static func checkMessageID(_ id: String) throws(MailMessageError) {
        let sides = id.split(separator: "@", omittingEmptySubsequences: false)
        guard sides.count == 2, id.utf8.count <= 900,
              sides.allSatisfy({ side in
                  side.unicodeScalars.allSatisfy { $0 == "." || MailAddress.isAtext($0) } && MailAddress.isDotAtom(String(side))
              })
        else { throw .invalidMessageID(id) }
    }

    /// RFC 2046's bchars, less the space (allowed inside, but not worth the trouble).
    private static func isBoundaryCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": true
        default: "'()+_,-./:=?".unicodeScalars.contains(scalar)
        }
    }

    /// 16 random bytes as 32 lower-case hex digits.
    private static func randomHex(using generator: inout some RandomNumberGenerator) -> String {
        let digits = Array("0123456789abcdef")
        var hex = ""
        for _ in 0..<2 {
            let value = generator.next()
            for shift in stride(from: 60, through: 0, by: -4) { hex.append(digits[Int(value >> UInt64(shift) & 0xF)]) }
        }
        return hex
    }
}
