import Foundation

/// Why a finished task could not become an outcome.
public enum StudyOutcomeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The study has no task with this id.
    case unknownTask(String)
    /// The task has no survey, so a survey result cannot belong to it.
    case noSurvey(task: String)
    /// The result is of another task than the task's survey.
    case resultOfAnotherTask(task: String, expected: String, found: String)
    /// The participant has no care task for this study task (not enrolled, or enrolled in another study).
    case noCareTask(participant: String, task: String)
    /// The task has no event at this time.
    case noEvent(task: String, at: Date)

    /// What went wrong, in plain English.
    public var description: String {
        switch self {
        case .unknownTask(let id): "the study has no task '\(id)'"
        case .noSurvey(let task): "task '\(task)' has no survey; record its completion instead"
        case .resultOfAnotherTask(let task, let expected, let found):
            "the result is of task '\(found)', but task '\(task)' runs the survey '\(expected)'"
        case .noCareTask(let participant, let task): "participant '\(participant)' has no care task for '\(task)'; enrol them first"
        case .noEvent(let task, let date): "task '\(task)' has no event at \(date.formatted(Date.ISO8601FormatStyle()))"
        }
    }
}
