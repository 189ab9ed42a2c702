/// The study team's contacts, as CareKit's contact views show them: each with their name, title and role, and links
/// that call, message, email or open the address on a map. The list shows every contact; a contact's own page
/// (``isDetail``) shows one with their organization and address.
///
/// ```swift
/// let page = ContactsPage(contacts: [ContactsPage.Contact(name: "Jamie Lee", title: "Physiotherapist", role: nil,
///     organization: nil, url: "/contacts/physio", addressLines: [],
///     links: [ContactsPage.Link(kind: .call, href: "tel:+15550100", detail: "work")])], isDetail: false)
/// ```
public struct ContactsPage: Sendable {
    /// What a contact link does; its button says so in the participant's language.
    public enum LinkKind: Sendable {
        /// A `tel:` link.
        case call
        /// An `sms:` link.
        case message
        /// A `mailto:` link.
        case email
        /// A map of the address.
        case map
    }

    /// One way to reach a contact.
    public struct Link: Sendable {
        /// What the link does.
        public var kind: LinkKind
        /// The URL (`tel:+15550100`).
        public var href: String
        /// The number's or address's label ("work"), or the address itself; shown beside the button.
        public var detail: String

        /// Creates a link.
        public init(kind: LinkKind, href: String, detail: String) {
            self.kind = kind
            self.href = href
            self.detail = detail
        }
    }

    /// One contact.
    public struct Contact: Sendable {
        /// The name, formatted for the participant's language.
        public var name: String
        /// A job title.
        public var title: String?
        /// What they do for the participant.
        public var role: String?
        /// Their clinic or university.
        public var organization: String?
        /// Their own page.
        public var url: String
        /// The postal address, one line each; empty for none.
        public var addressLines: [String]
        /// Ways to reach them, in order.
        public var links: [Link]

        /// Creates a contact; see the properties.
        public init(name: String, title: String?, role: String?, organization: String?, url: String, addressLines: [String], links: [Link]) {
            self.name = name
            self.title = title
            self.role = role
            self.organization = organization
            self.url = url
            self.addressLines = addressLines
            self.links = links
        }
    }

    /// The contacts to show.
    public var contacts: [Contact]
    /// Whether this is one contact's page (titled with their name, with a link back to the list).
    public var isDetail: Bool

    /// Creates a contacts page.
    public init(contacts: [Contact], isDetail: Bool) {
        self.contacts = contacts
        self.isDetail = isDetail
    }
}
