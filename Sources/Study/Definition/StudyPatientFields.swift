import Foundation
import Research

/// Where a study finds what a FHIR Questionnaire's `%patient` says about the participant besides their identifier and
/// the name signed on the consent: the onboarding answers that give the birth date and gender (study file key
/// `patient`, each a reference `step` or `step.item` into the onboarding task).
///
/// ```yaml
/// patient:
///   birthDate: about.birthDate   # a date question
///   gender: about.gender         # a choice whose values are male, female, other, unknown
/// ```
public struct StudyPatientFields: Hashable, Sendable {
    /// The onboarding answer that gives the birth date (a date question); nil when the study does not ask it.
    public var birthDate: AnswerReference?
    /// The onboarding answer that gives the administrative gender (a choice with FHIR's codes); nil when not asked.
    public var gender: AnswerReference?

    /// Creates the fields; both default to none.
    public init(birthDate: AnswerReference? = nil, gender: AnswerReference? = nil) {
        self.birthDate = birthDate
        self.gender = gender
    }

    /// FHIR's administrative gender codes, the values a gender question's choices must have.
    public static let genderCodes: Set<String> = ["male", "female", "other", "unknown"]

    /// The participant's details from their identifier, their consent's first signature, and their onboarding result.
    public func details(patientID: String, signature: (givenName: String, familyName: String)?, onboarding: TaskResult?) -> ParticipantDetails {
        var details = ParticipantDetails(patientID: patientID, givenName: signature?.givenName, familyName: signature?.familyName)
        let context = onboarding.map { ConditionContext(current: $0.stepResults.filter { !$0.isPrevious && !$0.skipped }) }
        if let reference = birthDate, case .date(let day)? = context?.answer(reference), !day.includesTime {
            details.birthDate = ISO8601.dayString(from: day.date, in: day.timeZone)
        }
        if let reference = gender, case .choices(let selections)? = context?.answer(reference),
           case .string(let code)? = selections.first?.value, Self.genderCodes.contains(code) {
            details.gender = code
        }
        return details
    }
}
