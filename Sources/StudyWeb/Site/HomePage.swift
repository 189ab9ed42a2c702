/// The participant's home page ("Today"): the day, today's task cards, and a notice after something happened.
///
/// Until onboarding is complete (`onboardingRequired`), the page shows only the cards marked
/// ``TaskCard/isOnboarding``, under an explanation that the tasks appear once onboarding is done.
///
/// ```swift
/// let page = HomePage(dayTitle: "Sunday, 22 November", onboardingRequired: false, cards: [
///     TaskCard(title: "Knee pain", instructions: "Takes two minutes.", timeText: "08:00", state: .toDo,
///              action: .start(url: "/tasks/pain/start")),
/// ], notice: "Thank you — your consent is signed.")
/// ```
public struct HomePage: Sendable {
    /// Today's date as the participant reads it, formatted by the server in their language and time zone
    /// ("Sunday, 22 November").
    public var dayTitle: String
    /// Whether the onboarding gate is closed: only the onboarding card is shown.
    public var onboardingRequired: Bool
    /// Today's tasks in the order to show them.
    public var cards: [TaskCard]
    /// A short message about what just happened ("Thank you — your consent is signed."), announced politely; nil for none.
    public var notice: String?

    /// Creates a home page; see the properties for each part.
    public init(dayTitle: String, onboardingRequired: Bool, cards: [TaskCard], notice: String? = nil) {
        self.dayTitle = dayTitle
        self.onboardingRequired = onboardingRequired
        self.cards = cards
        self.notice = notice
    }
}
