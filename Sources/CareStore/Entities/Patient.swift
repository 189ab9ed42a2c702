import Foundation

/// The person a care plan is for.
public struct Patient: VersionedEntity {
    public static let kind = EntityKind.patient
    public var id: String
    public var name: PersonNameComponents
    public var sex: Sex?
    public var birthday: Date?
    /// Known allergies, as the care team writes them.
    public var allergies: [String]
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
        case female, male
        case other(String)
    }
}

/// A plan of care for a patient: the tasks and contacts that belong to it.
public struct CarePlan: VersionedEntity {
    public static let kind = EntityKind.carePlan
    public var id: String
    public var title: String
    /// The UUID of the patient version the plan is for.
    public var patientUUID: UUID?
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
