import Foundation

/// A person enrolled in the study: who they are to the care store, where they live (their time zone anchors their
/// schedule) and which language they read.
public struct StudyParticipant: Hashable, Sendable, Identifiable {
    /// The participant's identifier, made by the store at enrolment; it never holds `/`.
    public var id: String
    /// The id of the participant's ``CareStore/Patient`` (see ``StudyCareIdentifiers``).
    public var patientID: String
    /// The participant's time zone: their schedule's days and times are on its wall clock.
    public var timeZone: TimeZone
    /// The language the participant reads (one of the study's languages).
    public var language: String
    /// When the participant enrolled.
    public var enrolledAt: Date
    /// The invitation the participant enrolled with; nil for open enrolment.
    public var invitationID: UUID?

    /// Creates a participant record; ``StudyStore/enrol(invitationCode:timeZone:language:)`` makes new ones.
    public init(id: String, patientID: String, timeZone: TimeZone, language: String, enrolledAt: Date, invitationID: UUID?) {
        self.id = id
        self.patientID = patientID
        self.timeZone = timeZone
        self.language = language
        self.enrolledAt = enrolledAt
        self.invitationID = invitationID
    }
}
