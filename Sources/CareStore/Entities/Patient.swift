import Foundation

/// The person a care plan is for.
public struct Patient: VersionedEntity {
    /// The store keeps patients under ``EntityKind/patient``.
    public static let kind = EntityKind.patient
    /// The developer's identifier for the patient, the same in every version. Care plans are fetched by
    /// it through ``CareQuery/patientIDs``.
    public var id: String
    /// The patient's name. ``CareSortKey/title(ascending:)`` sorts patients by family name, then given name.
    public var name: PersonNameComponents
    /// The patient's sex as recorded; nil when not recorded.
    public var sex: Sex?
    /// The patient's date of birth, if known. The store keeps it as given and never interprets it.
    public var birthday: Date?
    /// Known allergies, as the care team writes them.
    public var allergies: [String]
    /// This version's identity, dates and bookkeeping fields. The store sets its UUID, dates and links
    /// when it saves the patient.
    public var version: VersionInfo
    /// A patient belongs to nothing.
    public var parentUUID: UUID? { nil }

    /// Creates a patient version in effect from `effectiveDate`.
    public init(id: String, name: PersonNameComponents, sex: Sex? = nil, birthday: Date? = nil, allergies: [String] = [],
                effectiveDate: Date, timeZone: TimeZone = .current, uuid: UUID = UUID()) {
        self.id = id
        self.name = name
        self.sex = sex
        self.birthday = birthday
        self.allergies = allergies
        self.version = VersionInfo(uuid: uuid, effectiveDate: effectiveDate, timeZone: timeZone)
    }

    /// A patient's sex as recorded.
    public enum Sex: Hashable, Sendable, Codable {
        /// Female or male, as recorded.
        case female, male
        /// Any other sex, with the words the care team recorded.
        case other(String)
    }
}

/// A plan of care for a patient: the tasks and contacts that belong to it.
public struct CarePlan: VersionedEntity {
    /// The store keeps care plans under ``EntityKind/carePlan``.
    public static let kind = EntityKind.carePlan
    /// The developer's identifier for the plan, the same in every version. Tasks and contacts are fetched
    /// by it through ``CareQuery/carePlanIDs``.
    public var id: String
    /// The plan's name as the patient sees it, such as "Knee rehabilitation". It is the key of
    /// ``CareSortKey/title(ascending:)``.
    public var title: String
    /// The UUID of the patient version the plan is for.
    public var patientUUID: UUID?
    /// This version's identity, dates and bookkeeping fields. The store sets its UUID, dates and links
    /// when it saves the plan.
    public var version: VersionInfo
    /// The patient.
    public var parentUUID: UUID? { patientUUID }

    /// Creates a care plan version in effect from `effectiveDate`.
    public init(id: String, title: String, patientUUID: UUID? = nil, effectiveDate: Date, timeZone: TimeZone = .current, uuid: UUID = UUID()) {
        self.id = id
        self.title = title
        self.patientUUID = patientUUID
        self.version = VersionInfo(uuid: uuid, effectiveDate: effectiveDate, timeZone: timeZone)
    }
}
