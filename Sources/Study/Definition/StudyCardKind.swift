import Foundation

/// How a task's card looks and what it records, as CareKit's task views do.
///
/// In `study.yaml`: `card: checklist`. A task that names none gets ``defaultKind(for:eventsThatDay:)``: its survey's
/// card, a button log when it does not count toward adherence, a simple card for a day with one event, else a grid.
public enum StudyCardKind: String, Hashable, Sendable, CaseIterable {
    /// One button: tapping records the event as done, tapping again removes it.
    case simple
    /// The task's instructions in full and a "Mark as completed" button.
    case instructions
    /// One button per event of the day, labelled with its time.
    case grid
    /// One row per event of the day with its text or time, each ticked on its own.
    case checklist
    /// A Log button that adds the time of each press; each logged time can be deleted.
    case buttonLog
    /// A number entered by the participant, summed, against the day's goal.
    case numericProgress
    /// The day's summed value and its units, or "incomplete".
    case labeledValue
    /// Begin opens the task's survey for the event; done, it shows when it was completed.
    case survey
    /// The survey card for an active task: Begin opens the test for the event; done, it shows when it was taken.
    case activeTask

    /// Whether the card records a number the participant enters (the task's `value` says which).
    public var entersValue: Bool { self == .numericProgress || self == .labeledValue }

    /// Whether the card opens a task run for each event (a survey or an active task) rather than recording on the card.
    public var opensRun: Bool { self == .survey || self == .activeTask }

    /// What the card lets the participant do to its events: the one list the daily page offers and the workflow
    /// accepts. A simple card and a grid (a simple card on a day with more events) allow the same.
    public var actions: Set<StudyCardAction> {
        switch self {
        case .simple, .instructions, .grid, .checklist: [.record, .removeOutcome]
        case .buttonLog: [.log, .deleteLogEntry]
        case .numericProgress, .labeledValue: [.enterValue, .removeOutcome]
        case .survey, .activeTask: [.startRun, .withdrawSurvey]
        }
    }

    /// Whether the card lets the participant do `action` (``actions``).
    public func allows(_ action: StudyCardAction) -> Bool { actions.contains(action) }

    /// CareKit's choice when the study names no card: the survey card for a task with a survey, a button log for a
    /// task that does not impact adherence, a simple card when the day has one event, a grid otherwise.
    public static func defaultKind(for task: StudyTaskDefinition, eventsThatDay: Int) -> StudyCardKind {
        if task.activeTask != nil { return .activeTask }
        if task.surveyFile != nil { return .survey }
        if !task.impactsAdherence { return .buttonLog }
        return eventsThatDay == 1 ? .simple : .grid
    }
}

/// The number a ``StudyCardKind/numericProgress`` or ``StudyCardKind/labeledValue`` card asks for, and the limits the
/// server checks it against.
///
/// In `study.yaml`: `value: {kind: water, units: ml, minimum: 0, maximum: 2000}`.
public struct StudyValueEntry: Hashable, Sendable {
    /// The outcome value's kind, such as `water`.
    public var kind: String
    /// Its units, shown beside the number; nil for none.
    public var units: String?
    /// The smallest number one entry may be.
    public var minimum: Double
    /// The largest number one entry may be.
    public var maximum: Double

    /// Creates an entry of `kind` in `units` between `minimum` and `maximum`.
    public init(kind: String, units: String? = nil, minimum: Double = 0, maximum: Double = 1_000_000) {
        self.kind = kind
        self.units = units
        self.minimum = minimum
        self.maximum = maximum
    }
}
