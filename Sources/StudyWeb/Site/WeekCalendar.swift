/// CareKit's calendar header: seven days, each a link to its page with a completion ring, and links to the weeks
/// before and after and back to today.
///
/// ```swift
/// let week = WeekCalendar(days: days, previousURL: "/?day=2026-11-15", nextURL: "/?day=2026-11-29", todayURL: nil)
/// ```
public struct WeekCalendar: Sendable {
    /// How much of a day's tasks that count toward adherence was done.
    public enum Ring: Sendable, Hashable {
        /// No task counted that day.
        case noTasks
        /// Tasks were in effect, with no event that day.
        case noEvents
        /// The share done, from 0 to 1.
        case progress(Double)
    }

    /// One day of the week.
    public struct Day: Sendable {
        /// The weekday, short ("Mon").
        public var weekday: String
        /// The day of the month ("23").
        public var number: String
        /// The full date for screen readers ("Monday, 23 November").
        public var fullDate: String
        /// The link to the day's page.
        public var url: String
        /// The day's ring.
        public var ring: Ring
        /// Whether it is the day shown below the week.
        public var isSelected: Bool
        /// Whether it is the participant's today.
        public var isToday: Bool
        /// Whether it is after today (its ring is dimmed).
        public var isFuture: Bool

        /// Creates a day; see the properties.
        public init(weekday: String, number: String, fullDate: String, url: String, ring: Ring, isSelected: Bool, isToday: Bool,
                    isFuture: Bool) {
            self.weekday = weekday
            self.number = number
            self.fullDate = fullDate
            self.url = url
            self.ring = ring
            self.isSelected = isSelected
            self.isToday = isToday
            self.isFuture = isFuture
        }
    }

    /// The seven days, from the participant's first weekday.
    public var days: [Day]
    /// The same weekday a week earlier.
    public var previousURL: String
    /// The same weekday a week later.
    public var nextURL: String
    /// Today's page, when the page shows another day; nil on today's.
    public var todayURL: String?

    /// Creates a week; see the properties.
    public init(days: [Day], previousURL: String, nextURL: String, todayURL: String?) {
        self.days = days
        self.previousURL = previousURL
        self.nextURL = nextURL
        self.todayURL = todayURL
    }
}
