/// One task on the daily page: its title and instructions, when it is due, its state, and the card's controls,
/// as CareKit's task views offer them.
public struct TaskCard: Sendable {
    /// Where the task stands on the day; shown as a text badge, not by colour alone.
    public enum State: Sendable {
        /// Completed ("Done").
        case done
        /// Due and not yet done ("To do").
        case toDo
        /// Its time has passed without it being done ("Missed").
        case missed
        /// Not due yet ("Later").
        case upcoming
        /// Nothing to judge: a log, which is never missed.
        case none
    }

    /// A form that posts to `action` with the CSRF token and these hidden `fields`.
    public struct Post: Sendable {
        /// Where the form posts.
        public var action: String
        /// Hidden fields, posted as given.
        public var fields: [String: String]

        /// Creates a form target.
        public init(action: String, fields: [String: String] = [:]) {
            self.action = action
            self.fields = fields
        }
    }

    /// One event's control on a grid or checklist card.
    public struct EventControl: Sendable {
        /// The event's time or text ("08:00", "after breakfast").
        public var label: String
        /// Whether it is done.
        public var isDone: Bool
        /// What pressing it does (record when not done, undo when done); nil when it cannot be changed now.
        public var post: Post?

        /// Creates an event control.
        public init(label: String, isDone: Bool, post: Post?) {
            self.label = label
            self.isDone = isDone
            self.post = post
        }
    }

    /// One logged time on a button log card.
    public struct LogEntry: Sendable {
        /// The time, formatted ("14:05").
        public var timeText: String
        /// Deletes it; nil when the day is closed.
        public var delete: Post?

        /// Creates a log entry.
        public init(timeText: String, delete: Post?) {
            self.timeText = timeText
            self.delete = delete
        }
    }

    /// A number field that adds an entry (numeric progress and labelled value cards).
    public struct ValueEntry: Sendable {
        /// Where the number posts, in the field `value`.
        public var post: Post
        /// The units shown after the field.
        public var units: String?
        /// The smallest and largest number accepted.
        public var minimum: Double, maximum: Double

        /// Creates a value entry.
        public init(post: Post, units: String?, minimum: Double, maximum: Double) {
            self.post = post
            self.units = units
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    /// What the card shows under its title, by kind.
    public enum Body: Sendable {
        /// A link (a GET) that starts a survey or the onboarding ("Begin"), or continues one ("Continue").
        case start(url: String, resumes: Bool)
        /// A survey done, with when ("Completed at 19:04"), and the page that asks before taking it back (nil when the
        /// day is closed).
        case completed(timeText: String, undoURL: String?)
        /// One button that records the event, or shows it done and undoes it (simple; instructions shows the
        /// instructions in full above it).
        case toggle(isDone: Bool, post: Post?)
        /// One button per event, labelled with its time.
        case grid([EventControl])
        /// One row per event with its text or time.
        case checklist([EventControl])
        /// A Log button and the logged times.
        case log(post: Post?, entries: [LogEntry])
        /// The day's total against its goal (numeric progress), or the total and units (labelled value, `goal` nil).
        case value(totalText: String?, goalText: String?, fraction: Double?, entry: ValueEntry?, clear: Post?)
        /// Nothing to do (an upcoming survey).
        case none
    }

    /// The task's title.
    public var title: String
    /// The task's instructions; nil for none.
    public var instructions: String?
    /// When the task is due, formatted by the server ("08:00", "Any time today").
    public var timeText: String
    /// Where the task stands.
    public var state: State
    /// The card's controls.
    public var body: Body
    /// Whether this is the onboarding task: the only card shown while ``HomePage/onboardingRequired`` is set.
    public var isOnboarding: Bool

    /// Creates a task card; see the properties for each part.
    public init(title: String, instructions: String?, timeText: String, state: State, body: Body, isOnboarding: Bool = false) {
        self.title = title
        self.instructions = instructions
        self.timeText = timeText
        self.state = state
        self.body = body
        self.isOnboarding = isOnboarding
    }
}
