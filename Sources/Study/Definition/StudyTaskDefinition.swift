import CareStore
import Foundation

/// One task of the study's care plan as `study.yaml` defines it: what the participant sees on the task's card, the
/// survey the card starts (if any), how a finished survey becomes outcome values, and when the task happens.
public struct StudyTaskDefinition: Hashable, Sendable, Identifiable {
    /// The task's identifier in the study (`exercises`, `pain`); unique, and never `onboarding`.
    public var id: String
    /// The card's title.
    public var title: String
    /// What to do and how, shown on the card.
    public var instructions: String?
    /// Whether the task counts toward the daily completion rings.
    public var impactsAdherence: Bool
    /// The survey's file, relative to the study folder; nil for a checklist task without a survey.
    public var surveyFile: String?
    /// Which survey answers become outcome values; empty for the default, a boolean `completed` value.
    public var outcome: [StudyOutcomeMapping]
    /// When the task happens, relative to enrolment.
    public var schedule: [StudyScheduleElement]

    /// Creates a task definition; see the properties.
    public init(id: String, title: String, instructions: String? = nil, impactsAdherence: Bool = true, surveyFile: String? = nil,
                outcome: [StudyOutcomeMapping] = [], schedule: [StudyScheduleElement]) {
        self.id = id
        self.title = title
        self.instructions = instructions
        self.impactsAdherence = impactsAdherence
        self.surveyFile = surveyFile
        self.outcome = outcome
        self.schedule = schedule
    }

    /// The identifier of the onboarding task every study has; no study task may take it.
    public static let onboardingID = "onboarding"

    /// The outcome value a task without an outcome mapping records when its event is done.
    public static let completedValue = OutcomeValue(.boolean(true), kind: "completed")
}
