/// The participant's daily page: a week of completion rings, the chosen day's task cards, and a notice after
/// something happened.
///
/// Until onboarding is complete (`onboardingRequired`), the page shows only the cards marked
/// ``TaskCard/isOnboarding``, under an explanation that the tasks appear once onboarding is done, and no week.
///
/// ```swift
/// let page = HomePage(dayTitle: "Sunday, 22 November", isToday: true, week: week, onboardingRequired: false, cards: [
///     TaskCard(title: "Knee pain", instructions: "Takes two minutes.", timeText: "Any time today", state: .toDo,
///              body: .start(url: "/tasks/pain/3", resumes: false)),
/// ])
/// ```
public struct HomePage: Sendable {
    /// The chosen day as the participant reads it, formatted by the server in their language and time zone
    /// ("Sunday, 22 November").
    public var dayTitle: String
    /// Whether the chosen day is the participant's today: the heading says "Today".
    public var isToday: Bool
    /// The week around the chosen day; nil behind the onboarding gate.
    public var week: WeekCalendar?
    /// Whether the onboarding gate is closed: only the onboarding card is shown.
    public var onboardingRequired: Bool
    /// The day's tasks in the order to show them.
    public var cards: [TaskCard]
    /// Cards that are not tasks (a tip, a featured article, links), after the task cards; empty on days but today.
    public var contentCards: [ContentCard]
    /// A short message about what just happened ("Thank you — your consent is signed."), announced politely; nil for none.
    public var notice: String?

    /// Creates a home page; see the properties for each part.
    public init(dayTitle: String, isToday: Bool = true, week: WeekCalendar? = nil, onboardingRequired: Bool, cards: [TaskCard],
                notice: String? = nil, contentCards: [ContentCard] = []) {
        self.dayTitle = dayTitle
        self.isToday = isToday
        self.week = week
        self.onboardingRequired = onboardingRequired
        self.cards = cards
        self.notice = notice
        self.contentCards = contentCards
    }
}
