/// Why a builder could not make a FHIR resource. Each case says what was given and what FHIR R4 needs instead.
public enum FHIRExportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An id that is not a FHIR id (1 to 64 of `A–Z a–z 0–9 - .`).
    case invalidID(String, resourceType: String)
    /// JSON that is not a resource with a `resourceType` and an `id`.
    case invalidResource(String)
    /// A schedule element that a FHIR `Timing` cannot express, with the reason.
    case inexpressibleTiming(String)
    /// An outcome value that no R4 `Observation.value[x]` can carry (binary data, a number that is not finite).
    case unsupportedValue(String)
    /// A consent record that cannot be exported as it is (such as a withdrawal handed to the Consent builder).
    case unsupportedRecord(String)

    /// The problem in a sentence.
    public var description: String {
        switch self {
        case .invalidID(let id, let type):
            "'\(id)' cannot be the id of a \(type): FHIR ids are 1 to 64 letters, digits, '-' and '.'"
        case .invalidResource(let reason):
            "not a FHIR resource: \(reason)"
        case .inexpressibleTiming(let reason):
            "a FHIR Timing cannot express this schedule: \(reason)"
        case .unsupportedValue(let reason):
            "no FHIR R4 Observation value fits: \(reason)"
        case .unsupportedRecord(let reason):
            "the consent record cannot be exported: \(reason)"
        }
    }
}
