/// What a participant does to an event from its card (the web page's forms, or the same call of the REST API). Which
/// actions a card offers is ``StudyCardKind/actions``: the daily page offers those and no others, and the workflow
/// refuses any other as ``StudyRefusal/noSuchTask(_:)``.
public enum StudyCardAction: String, Hashable, Sendable, CaseIterable {
    /// Record the event as done (``ParticipantWorkflow/record(taskID:occurrence:for:)``).
    case record
    /// Remove what was recorded for the event (``ParticipantWorkflow/removeOutcome(taskID:occurrence:for:)``).
    case removeOutcome
    /// Add the time now to the event's log (``ParticipantWorkflow/log(taskID:occurrence:for:)``).
    case log
    /// Delete one logged time (``ParticipantWorkflow/deleteLogEntry(taskID:occurrence:loggedAt:for:)``).
    case deleteLogEntry
    /// Add an entered number (``ParticipantWorkflow/enter(_:taskID:occurrence:for:)``).
    case enterValue
    /// Begin or continue the event's survey or active task (``ParticipantWorkflow/startRun(taskID:occurrence:for:)``).
    case startRun
    /// Take back the event's completed survey (``ParticipantWorkflow/withdrawSurvey(taskID:occurrence:for:)``).
    case withdrawSurvey
}
