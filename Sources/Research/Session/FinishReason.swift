import Foundation

/// Why a task session ended, as ResearchKit's task view controller reports it.
public enum FinishReason: String, Hashable, Sendable, Codable {
    /// The participant reached the end of the task.
    case completed
    /// The participant saved to continue later; the session produced restoration data.
    case saved
    /// The participant cancelled and the answers were thrown away.
    case discarded
    /// Something went wrong and the run cannot continue.
    case failed
    /// A step's early-termination button ended the task.
    case earlyTermination
}

/// Where the participant is in the task: "Step x of y".
public struct TaskProgress: Hashable, Sendable {
    /// The current step's position, counting from 1.
    public var current: Int
    /// How many steps the count includes.
    public var total: Int
}

/// Something a task session refused to do, with the reason.
public enum TaskSessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The task has no steps.
    case emptyTask(String)
    /// The run has ended; nothing more can be done with it.
    case finished(FinishReason)
    /// The answer did not pass its format's validation.
    case invalidAnswer(item: String, AnswerValidationError)
    /// The current step has no question with this identifier.
    case unknownItem(String)
    /// Required questions are unanswered (or a required signature missing).
    case missingAnswers([String])
    /// The step cannot be skipped because it is not optional.
    case notOptional(String)
    /// There is no earlier step to go back to.
    case cannotGoBack
    /// The current step does not offer this action.
    case notAllowed(String)
    /// The restoration data belongs to another task, or does not fit this one.
    case restorationMismatch(String)
    /// Navigation rules and skip rules pass over steps in a cycle with no step left to show.
    case navigationCycle(String)
    /// Writing a file for the run failed.
    case fileWriteFailed(String)

    /// Whether the failure is the system's rather than the participant's: a file that could not be stored. A
    /// server answers these with its own error, not a refusal.
    public var isServerFault: Bool {
        switch self {
        case .fileWriteFailed: true
        default: false
        }
    }

    /// A short English explanation, for logs and error messages.
    public var description: String {
        switch self {
        case .emptyTask(let task): "task '\(task)' has no steps"
        case .finished(let reason): "the run has ended (\(reason.rawValue))"
        case .invalidAnswer(let item, let error): "\(item): \(error.message)"
        case .unknownItem(let item): "this step has no question '\(item)'"
        case .missingAnswers(let items): "answer the required question\(items.count == 1 ? "" : "s") first: \(items.joined(separator: ", "))"
        case .notOptional(let step): "step '\(step)' is required and cannot be skipped"
        case .cannotGoBack: "there is no earlier step to go back to"
        case .notAllowed(let reason): reason
        case .restorationMismatch(let reason): reason
        case .navigationCycle(let step): "the skip and navigation rules after step '\(step)' pass over steps in a cycle"
        case .fileWriteFailed(let reason): reason
        }
    }
}
