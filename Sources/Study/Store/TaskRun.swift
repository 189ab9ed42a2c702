import Foundation
import Research

/// One run of a task (the onboarding, or a task's survey) by one participant, as the web runner saves it after every
/// answer: where the run is (the task session's restoration data) while it goes on, and its result once it is done.
public struct TaskRun: Hashable, Sendable, Identifiable {
    /// The run's UUID: the task session's ``Research/TaskSession/taskRunUUID``.
    public var id: UUID
    /// The participant taking the task.
    public var participantID: String
    /// The study task id (`onboarding`, or a task of the study).
    public var taskID: String
    /// The occurrence index of the event the run is for; nil when it is for no particular event.
    public var occurrence: Int?
    /// Whether the run goes on, completed or was discarded. A completed or discarded run is final.
    public var state: TaskRunState
    /// Where the run is, to resume it: required while in progress.
    public var restorationData: TaskRestorationData?
    /// The task result: required once completed.
    public var result: TaskResult?
    /// When the run was first saved; set by the store.
    public var createdAt: Date?
    /// When the run was last saved; set by the store.
    public var updatedAt: Date?

    /// Creates a run record for saving with ``StudyStore/saveRun(_:)``.
    public init(id: UUID, participantID: String, taskID: String, occurrence: Int? = nil, state: TaskRunState,
                restorationData: TaskRestorationData? = nil, result: TaskResult? = nil) {
        self.id = id
        self.participantID = participantID
        self.taskID = taskID
        self.occurrence = occurrence
        self.state = state
        self.restorationData = restorationData
        self.result = result
        self.createdAt = nil
        self.updatedAt = nil
    }
}

/// Where a task run stands.
public enum TaskRunState: String, Hashable, Sendable, CaseIterable {
    /// The participant may resume it.
    case inProgress
    /// Finished with a result; final.
    case completed
    /// Abandoned by the participant; final.
    case discarded
    /// Completed, then taken back by the participant from its card: the result is kept, the outcome it left is
    /// removed; final.
    case withdrawn
}

/// A task run without its restoration data and result: which task and event it is for, where it stands, and when
/// it was saved. What a page needs to offer "Continue" or to find the run to resume, read without decoding any run.
public struct TaskRunSummary: Hashable, Sendable, Identifiable {
    /// The run's UUID.
    public var id: UUID
    /// The participant taking the task.
    public var participantID: String
    /// The study task id.
    public var taskID: String
    /// The occurrence index of the event the run is for; nil when it is for no particular event.
    public var occurrence: Int?
    /// Where the run stands.
    public var state: TaskRunState
    /// When the run was first saved.
    public var createdAt: Date?
    /// When the run was last saved.
    public var updatedAt: Date?

    /// Creates a summary; see the properties.
    public init(id: UUID, participantID: String, taskID: String, occurrence: Int?, state: TaskRunState, createdAt: Date?, updatedAt: Date?) {
        self.id = id
        self.participantID = participantID
        self.taskID = taskID
        self.occurrence = occurrence
        self.state = state
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The summary of `run`.
    public init(_ run: TaskRun) {
        self.init(id: run.id, participantID: run.participantID, taskID: run.taskID, occurrence: run.occurrence, state: run.state,
                  createdAt: run.createdAt, updatedAt: run.updatedAt)
    }
}
