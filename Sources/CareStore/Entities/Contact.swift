import Foundation

/// Someone the patient can reach: a care provider, family, a friend.
public struct Contact: VersionedEntity {
    public static let kind = EntityKind.contact
    public var id: String
    public var name: PersonNameComponents
    /// A job title, such as "Physiotherapist".
    public var title: String?
    /// What the contact does for the patient, such as "Leads your knee rehabilitation".
    public var role: String?
    public var organization: String?
    public var category: Category?
    public var address: PostalAddress?
    public var emailAddresses: [LabeledValue]
    public var phoneNumbers: [LabeledValue]
    /// Numbers that take text messages.
    public var messagingNumbers: [LabeledValue]
    public var otherContactInfo: [LabeledValue]
    /// The UUID of the care plan version the contact belongs to.
    public var carePlanUUID: UUID?
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
        case careProvider, friend, family
    }
}

/// A value with a label, such as ("work", "+49 30 1234567").
public struct LabeledValue: Hashable, Sendable, Codable {
    public var label: String
    public var value: String
    /// Creates a labelled value.
    public init(label: String, value: String) {
        self.label = label
        self.value = value
    }
}

/// A postal address.
public struct PostalAddress: Hashable, Sendable, Codable {
    public var street: String?
    public var city: String?
    public var state: String?
    public var postalCode: String?
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
