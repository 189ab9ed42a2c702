import Research

/// Why a posted step form was refused as a whole: it does not fit the run (a stale or tampered post) or asks
/// for something the step does not offer. The server answers these with a 4xx and changes nothing; answers
/// that fail validation are not errors of this kind but per-question messages in ``StepSubmissionResult``.
public enum StepSubmissionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A field every step form carries (`_step`, `action`) is missing or empty.
    case missingField(String)
    /// The `action` value is none of next, back, skip, done, end, clear or `edit:STEP`.
    case unknownAction(String)
    /// The form belongs to another step than the run's current one (posted, current): a second tab, the browser's
    /// back button, or a tampered form.
    case staleStep(posted: String, current: String)
    /// The run has already ended.
    case finished(FinishReason)
    /// The post has a field the step's form does not have.
    case unknownField(String)
    /// The post repeats a field that takes a single value.
    case repeatedField(String)
    /// A field's value is not one the form could have sent (field, what is wrong).
    case malformedField(String, String)
    /// The session refused the action (Skip on a required step, Back on the first step, End where the step
    /// offers no early termination, Edit of a step not on the path).
    case refused(TaskSessionError)

    /// Says what was wrong and where, in English, for logs and the 4xx page.
    public var description: String {
        switch self {
        case .missingField(let name): "the form has no '\(name)' field"
        case .unknownAction(let action): "'\(action)' is not an action of a step form (next, back, skip, done, end, clear, edit:STEP)"
        case .staleStep(let posted, let current): "the form is for step '\(posted)', but the run is on step '\(current)'; reload the page"
        case .finished(let reason): "the run has already ended (\(reason.rawValue))"
        case .unknownField(let name): "the form of this step has no field '\(name)'"
        case .repeatedField(let name): "the field '\(name)' takes one value but was sent several"
        case .malformedField(let name, let problem): "the field '\(name)' \(problem)"
        case .refused(let error): error.description
        }
    }
}
