import Foundation
import Research

/// A QuestionnaireResponse read back by ``FHIRQuestionnaireResponseReader``: the task result its answers
/// make, and the response's own status, subject and author, which a task result has no place for.
public struct FHIRReadQuestionnaireResponse: Hashable, Sendable {
    /// The answers as a result of the Questionnaire's task: one step result per step with answers, in task order.
    public var result: TaskResult
    /// The response's `status`; an `in-progress` response is a run to be continued.
    public var status: FHIRQuestionnaireResponseStatus
    /// The response's `subject`, when it has one.
    public var subject: FHIRReference?
    /// The response's `author`, when it has one.
    public var author: FHIRReference?
    /// The files of `valueAttachment` answers that carry their `data`, by the ``FileAnswer/fileName`` their answer
    /// gives, for the caller to store in the run's output folder.
    public var files: [String: Data] = [:]

    /// Creates a read response; see the properties for each part.
    public init(result: TaskResult, status: FHIRQuestionnaireResponseStatus, subject: FHIRReference? = nil,
                author: FHIRReference? = nil) {
        self.result = result
        self.status = status
        self.subject = subject
        self.author = author
    }
}
