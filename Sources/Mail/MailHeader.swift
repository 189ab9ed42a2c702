/// A header field that a ``MailMessage`` carries besides the ones it writes itself, written in the order given, e.g.
/// RFC 8058's one-click unsubscription:
/// ```swift
/// let headers = [try MailHeader.listUnsubscribe("https://study.example.org/unsubscribe/7QH4"), .listUnsubscribeOneClick]
/// ```
///
/// The value is written as given, folded at its whitespace, so it must be ASCII without line breaks or other control
/// characters (tabs are allowed).
public struct MailHeader: Hashable, Sendable {
    /// The field's name, e.g. `List-Unsubscribe`.
    public let name: String
    /// The field's value, as written after `name: `.
    public let value: String

    /// The fields the message writes itself, in lower case.
    static let reservedNames: Set<String> = ["date", "from", "to", "subject", "message-id", "mime-version", "content-type",
                                             "content-transfer-encoding"]

    /// The field `name: value`, or why it cannot be written; a CR or LF in `value` is refused
    /// (``MailMessageError/lineBreakInHeader(field:)``).
    public init(_ name: String, _ value: String) throws(MailMessageError) {
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ (33...126).contains($0.value) && $0 != ":" }) else {
            throw .invalidHeaderName(name)
        }
        guard !Self.reservedNames.contains(name.lowercased()) else { throw .reservedHeaderName(name) }
        try Self.checkValue(value, field: name)
        guard value.unicodeScalars.allSatisfy(\.isASCII) else { throw .nonASCIIHeaderValue(field: name) }
        self.name = name
        self.value = value
        guard field.longestLineLength <= 998 else { throw .headerLineTooLong(field: name) }
    }

    /// `List-Unsubscribe: <url>` (RFC 2369): where a participant's mail program can unsubscribe them.
    public static func listUnsubscribe(_ url: String) throws(MailMessageError) -> MailHeader {
        try MailHeader("List-Unsubscribe", "<\(url)>")
    }

    /// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058): the `List-Unsubscribe` URL unsubscribes with a
    /// single POST, without a page to confirm on.
    public static let listUnsubscribeOneClick = MailHeader(checkedName: "List-Unsubscribe-Post", value: "List-Unsubscribe=One-Click")

    private init(checkedName: String, value: String) {
        self.name = checkedName
        self.value = value
    }

    /// The field folded, as the message writes it.
    var field: HeaderField {
        var field = HeaderField(name: name)
        field.appendUnstructured(value)
        return field
    }

    /// Refuses line breaks and other control characters but tab in a value a caller gave for the field `field`.
    static func checkValue(_ value: String, field: String) throws(MailMessageError) {
        for scalar in value.unicodeScalars where scalar.properties.generalCategory == .control && scalar != "\t" {
            throw scalar == "\r" || scalar == "\n" ? .lineBreakInHeader(field: field) : .controlCharacterInHeader(field: field)
        }
        // U+2028 and U+2029 are line breaks to some readers, though not controls.
        if value.unicodeScalars.contains(where: { $0 == "\u{2028}" || $0 == "\u{2029}" }) {
            throw .lineBreakInHeader(field: field)
        }
    }
}
