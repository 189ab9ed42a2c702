import Foundation

/// Someone the patient can reach: a care provider, family, a friend.
public struct Contact: VersionedEntity {
    /// The store keeps contacts under ``EntityKind/contact``.
    public static let kind = EntityKind.contact
    /// The developer's identifier for the contact, the same in every version. The store refuses to add a
    /// contact while another live contact has this id.
    public var id: String
    /// The contact's name. ``CareSortKey/title(ascending:)`` sorts contacts by family name, then given name.
    public var name: PersonNameComponents
    /// A job title, such as "Physiotherapist".
    public var title: String?
    /// What the contact does for the patient, such as "Leads your knee rehabilitation".
    public var role: String?
    /// The practice, hospital or company the contact works for, if any.
    public var organization: String?
    /// How the contact relates to the patient; nil when not recorded.
    public var category: Category?
    /// Where the contact can be visited or written to; nil when not recorded.
    public var address: PostalAddress?
    /// Email addresses, each with a label such as "work", in the order the app shows them.
    public var emailAddresses: [LabeledValue]
    /// Numbers for calls, each with a label such as "mobile". Numbers that take text messages go in
    /// ``messagingNumbers``.
    public var phoneNumbers: [LabeledValue]
    /// Numbers that take text messages.
    public var messagingNumbers: [LabeledValue]
    /// Any other way to reach the contact, such as a website or a pager, labelled by what it is.
    public var otherContactInfo: [LabeledValue]
    /// The UUID of the care plan version the contact belongs to.
    public var carePlanUUID: UUID?
    /// This version's identity, dates and bookkeeping fields. The store sets its UUID, dates and links
    /// when it saves the contact.
    public var version: VersionInfo
    /// The care plan.
    public var parentUUID: UUID? { carePlanUUID }

    /// Creates a contact version in effect from `effectiveDate`.
    public init(id: String, name: PersonNameComponents, carePlanUUID: UUID? = nil, title: String? = nil, role: String? = nil,
                organization: String? = nil, category: Category? = nil, address: PostalAddress? = nil,
                emailAddresses: [LabeledValue] = [], phoneNumbers: [LabeledValue] = [], messagingNumbers: [LabeledValue] = [],
                otherContactInfo: [LabeledValue] = [], effectiveDate: Date, timeZone: TimeZone = .current, uuid: UUID = UUID()) {
        self.id = id
        self.name = name
        self.carePlanUUID = carePlanUUID
        self.title = title
        self.role = role
        self.organization = organization
        self.category = category
        self.address = address
        self.emailAddresses = emailAddresses
        self.phoneNumbers = phoneNumbers
        self.messagingNumbers = messagingNumbers
        self.otherContactInfo = otherContactInfo
        self.version = VersionInfo(uuid: uuid, effectiveDate: effectiveDate, timeZone: timeZone)
    }

    /// How a contact relates to the patient.
    public enum Category: String, Hashable, Sendable, Codable {
        /// `careProvider` is someone who treats or looks after the patient professionally, such as a
        /// physician or therapist; `friend` and `family` are people close to the patient. The raw
        /// value is what the contact's stored JSON holds, so a case must not be renamed.
        case careProvider, friend, family
    }
}

/// A value with a label, such as ("work", "+49 30 1234567").
public struct LabeledValue: Hashable, Sendable, Codable {
    /// What the value is, such as "work" or "mobile". Free text, shown beside the value.
    public var label: String
    /// The address, number or other detail itself, as the user typed it. The store does not check its
    /// format.
    public var value: String
    /// Creates a labelled value.
    public init(label: String, value: String) {
        self.label = label
        self.value = value
    }
}

/// A postal address.
public struct PostalAddress: Hashable, Sendable, Codable {
    /// The street and house number, the part of the address below the name.
    public var street: String?
    /// The city or town.
    public var city: String?
    /// The state, province or region, where the address has one.
    public var state: String?
    /// The postal or ZIP code. It is text, so leading zeros and letters are kept.
    public var postalCode: String?
    /// The country, as a name or a code. The store does not check which.
    public var country: String?
    /// Creates an address.
    public init(street: String? = nil, city: String? = nil, state: String? = nil, postalCode: String? = nil, country: String? = nil) {
        self.street = street
        self.city = city
        self.state = state
        self.postalCode = postalCode
        self.country = country
    }
}
