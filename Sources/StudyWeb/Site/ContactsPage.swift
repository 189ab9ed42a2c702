/// The study team's contacts, as CareKit's contact views show them: each with their name, title and role, and links
/// that call, message, email or open the address on a map. The list shows every contact; a contact's own page
/// (``isDetail``) shows one with their organization and address.
///
/// ```swift
/// let page = ContactsPage(contacts: [ContactsPage.Contact(name: "Jamie Lee", title: "Physiotherapist", role: nil,
///     organization: nil, url: "/contacts/physio", addressLines: [],
///     links: [ReachLink(kind: .call, href: "tel:+15550100", detail: "work")])], isDetail: false)
/// ```
public struct ContactsPage: Sendable {
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
        public var links: [ReachLink]

        /// Creates a contact; see the properties.
        public init(name: String, title: String?, role: String?, organization: String?, url: String, addressLines: [String], links: [ReachLink]) {
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
