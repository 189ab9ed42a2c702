/// One task on the home page: its title and instructions, when it is due, its state, and what the participant
/// can do with it.
public struct TaskCard: Sendable {
    /// Where the task stands today; shown as a text badge, not by colour alone.
    public enum State: Sendable {
        /// Completed ("Done").
        case done
        /// Due and not yet done ("To do").
        case toDo
        /// Its time has passed without it being done ("Missed").
        case missed
        /// Not due yet ("Later").
        case upcoming
    }

    /// What the card's button does.
    public enum Action: Sendable {
        /// A link (a GET) that starts a survey, or continues one left midway when ``TaskCard/resumes`` is set:
        /// "Start" or "Continue".
        case start(url: String)
        /// A small form that posts to `formAction` with the CSRF token and these hidden `fields`, for a task
        /// without a survey: "Mark as done".
        case checkOff(formAction: String, fields: [String: String])
        /// No button (a task already done, missed, or not yet due).
        case none
    }

    /// The task's title.
    public var title: String
    /// The task's instructions; nil for none.
    public var instructions: String?
    /// When the task is due, formatted by the server ("08:00", "Any time today").
    public var timeText: String
    /// Where the task stands today.
    public var state: State
    /// What the card's button does.
    public var action: Action
    /// Whether a ``Action/start(url:)`` link continues a survey already begun: its button reads "Continue".
    public var resumes: Bool
    /// Whether this is the onboarding task: the only card shown while ``HomePage/onboardingRequired`` is set.
    public var isOnboarding: Bool

    /// Creates a task card; see the properties for each part.
    public init(title: String, instructions: String?, timeText: String, state: State, action: Action,
                resumes: Bool = false, isOnboarding: Bool = false) {
        self.title = title
        self.instructions = instructions
        self.timeText = timeText
        self.state = state
        self.action = action
        self.resumes = resumes
        self.isOnboarding = isOnboarding
    }
}
