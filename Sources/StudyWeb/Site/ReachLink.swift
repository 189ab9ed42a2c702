/// A link that reaches someone or something outside the app: a web page, a call, a text message, an email, a map.
/// A contact's button says what it does ("Call"); a links card's says its label.
public struct ReachLink: Sendable {
    /// What the link does.
    public enum Kind: Sendable {
        /// An `http` or `https` page.
        case website
        /// A `tel:` link.
        case call
        /// An `sms:` link.
        case message
        /// A `mailto:` link.
        case email
        /// A map of an address.
        case map
    }

    /// What the link does.
    public var kind: Kind
    /// The URL (`tel:+15550100`).
    public var href: String
    /// The number's or address's label ("work: +1 555 0100"), or the link's own label on a links card.
    public var detail: String

    /// Creates a link.
    public init(kind: Kind, href: String, detail: String) {
        self.kind = kind
        self.href = href
        self.detail = detail
    }
}
