import Foundation

/// What a study knows about the participant running a task, for expressions that pre-fill answers from it (a FHIR
/// Questionnaire's `initialExpression` reading `%patient`). Each part is nil when the study does not collect it.
public struct ParticipantDetails: Hashable, Sendable {
    /// The participant's identifier in the study's FHIR data (`Patient.id`).
    public var patientID: String
    /// Given names, as signed on the consent.
    public var givenName: String?
    /// Family name, as signed on the consent.
    public var familyName: String?
    /// Date of birth, as a calendar day `YYYY-MM-DD`.
    public var birthDate: String?
    /// Administrative gender as FHIR codes it: `male`, `female`, `other` or `unknown`.
    public var gender: String?

    /// Creates the details; see the properties for each part.
    public init(patientID: String, givenName: String? = nil, familyName: String? = nil, birthDate: String? = nil, gender: String? = nil) {
        self.patientID = patientID
        self.givenName = givenName
        self.familyName = familyName
        self.birthDate = birthDate
        self.gender = gender
    }
}
