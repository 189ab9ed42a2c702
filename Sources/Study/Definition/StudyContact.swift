import CareStore
import Foundation

/// Someone on the study team the participant can reach, as `study.yaml` lists them; every participant's care plan
/// gets a ``Contact`` made from it.
public struct StudyContact: Hashable, Sendable, Identifiable {
    /// The contact's identifier in the study; unique.
    public var id: String
    /// The contact's name.
    public var name: PersonNameComponents
    /// A job title, such as "Physiotherapist".
    public var title: String?
    /// What the contact does for the participant.
    public var role: String?
    /// The clinic or university.
    public var organization: String?
    /// How the contact relates to the participant.
    public var category: Contact.Category?
    /// Numbers for calls, each with a label.
    public var phoneNumbers: [LabeledValue]
    /// Email addresses, each with a label.
    public var emailAddresses: [LabeledValue]
    /// Numbers that take text messages, each with a label.
    public var messagingNumbers: [LabeledValue]
    /// Where the contact can be visited or written to.
    public var address: PostalAddress?

    /// Creates a contact; see the properties.
    public init(id: String, name: PersonNameComponents, title: String? = nil, role: String? = nil, organization: String? = nil,
                category: Contact.Category? = nil, phoneNumbers: [LabeledValue] = [], emailAddresses: [LabeledValue] = [],
                messagingNumbers: [LabeledValue] = [], address: PostalAddress? = nil) {
        self.id = id
        self.name = name
        self.title = title
        self.role = role
        self.organization = organization
        self.category = category
        self.phoneNumbers = phoneNumbers
        self.emailAddresses = emailAddresses
        self.messagingNumbers = messagingNumbers
        self.address = address
    }
}
