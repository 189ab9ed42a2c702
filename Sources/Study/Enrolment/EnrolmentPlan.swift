import CareStore
import Foundation

/// The care-store entities of one participant's enrolment: a patient, a care plan, the onboarding task, one care
/// task per study task and the study's contacts. Made by ``StudyEnrolment/plan(participantID:enrolledAt:timeZone:)``;
/// ``StudyEnrolment/enrol(participantID:enrolledAt:timeZone:into:)`` adds them to a care store and returns the stored
/// versions.
public struct EnrolmentPlan: Hashable, Sendable {
    /// The participant's patient.
    public var patient: Patient
    /// The participant's care plan, for ``patient``.
    public var carePlan: CarePlan
    /// The onboarding task: every day, all day, from the enrolment day, until it has an outcome.
    public var onboardingTask: CareTask
    /// One care task per study task, in the study's order.
    public var tasks: [CareTask]
    /// The study's contacts on the participant's care plan.
    public var contacts: [Contact]

    /// Creates a plan from its parts.
    public init(patient: Patient, carePlan: CarePlan, onboardingTask: CareTask, tasks: [CareTask], contacts: [Contact]) {
        self.patient = patient
        self.carePlan = carePlan
        self.onboardingTask = onboardingTask
        self.tasks = tasks
        self.contacts = contacts
    }

    /// The onboarding task, then the study tasks.
    public var allTasks: [CareTask] { [onboardingTask] + tasks }
}
