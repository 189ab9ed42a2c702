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
    /// The active task the card opens, by its name in the catalogue (`twoFingerTapping`); nil for a task without one.
    public var activeTask: String?
    /// Which survey answers become outcome values; empty for the default, a boolean `completed` value.
    public var outcome: [StudyOutcomeMapping]
    /// When the task happens, relative to enrolment.
    public var schedule: [StudyScheduleElement]
    /// What the task's outcome value means in a standard terminology, for a task that records one kind of value (a
    /// checklist's `completed`, or a survey with one outcome entry); a task with several outcome entries codes each
    /// entry instead (``StudyOutcomeMapping/code``). Exports write coded values as observations.
    public var code: StudyCoding?
    /// The card the task is shown on; nil for CareKit's default (``StudyCardKind/defaultKind(for:eventsThatDay:)``).
    public var card: StudyCardKind?
    /// Whether events of past days may still be recorded or undone (off by default: a day's events close with it).
    public var allowsLateEntry: Bool
    /// The number a numeric progress or labelled value card asks for; nil for other cards.
    public var valueEntry: StudyValueEntry?

    /// Creates a task definition; see the properties.
    public init(id: String, title: String, instructions: String? = nil, impactsAdherence: Bool = true, surveyFile: String? = nil,
                outcome: [StudyOutcomeMapping] = [], schedule: [StudyScheduleElement], code: StudyCoding? = nil,
                card: StudyCardKind? = nil, allowsLateEntry: Bool = false, valueEntry: StudyValueEntry? = nil, activeTask: String? = nil) {
        self.id = id
        self.title = title
        self.instructions = instructions
        self.impactsAdherence = impactsAdherence
        self.surveyFile = surveyFile
        self.activeTask = activeTask
        self.outcome = outcome
        self.schedule = schedule
        self.code = code
        self.card = card
        self.allowsLateEntry = allowsLateEntry
        self.valueEntry = valueEntry
    }

    /// The card this task is shown on for a day with `eventsThatDay` events: the study's choice, else CareKit's default.
    public func cardKind(eventsThatDay: Int) -> StudyCardKind {
        card ?? StudyCardKind.defaultKind(for: self, eventsThatDay: eventsThatDay)
    }

    /// The coding of the outcome values of `kind` this task records: the code of the outcome entry that makes them,
    /// else the task's own ``code`` when the task records one kind of value; nil when the study codes none.
    ///
    /// ```swift
    /// study.task(id: "pain")?.coding(forValueKind: "pain")   // LOINC 72514-3
    /// ```
    public func coding(forValueKind kind: String?) -> StudyCoding? {
        guard !outcome.isEmpty else { return kind == Self.completedValue.kind ? code : nil }
        guard let mapping = outcome.first(where: { ($0.kind ?? $0.question) == kind }) else { return nil }
        return mapping.code ?? (outcome.count == 1 ? code : nil)
    }

    /// The identifier of the onboarding task every study has; no study task may take it.
    public static let onboardingID = "onboarding"

    /// The outcome value a task without an outcome mapping records when its event is done.
    public static let completedValue = OutcomeValue(.boolean(true), kind: "completed")
    /// The kind of the values a button log card records, one per press, each with the time in its created date.
    public static let loggedKind = "logged"
}
