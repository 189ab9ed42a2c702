import Foundation

/// The lifecycle status of a QuestionnaireResponse (FHIR R4 `QuestionnaireResponseStatus`).
///
/// A finished task run is ``completed``; a run saved to be continued later is ``inProgress``.
public enum FHIRQuestionnaireResponseStatus: String, Hashable, Sendable, CaseIterable {
    /// `in-progress`: answers are still being gathered (a saved, unfinished run).
    case inProgress = "in-progress"
    /// `completed`: the answers are complete.
    case completed
    /// `amended`: the answers were changed after being completed.
    case amended
    /// `entered-in-error`: the response was made in error and should be ignored.
    case enteredInError = "entered-in-error"
    /// `stopped`: the run was ended before it was complete and will not be continued.
    case stopped
}
