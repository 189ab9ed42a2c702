import CareStore
import Foundation
import Study
import StudyWeb

/// Turns a participant's ``DayFeed`` and ``WeekStrip`` into the daily page's ``HomePage``: the week's rings with their
/// links, and each task's card with the forms its kind offers, every date in the participant's language and zone.
struct DailyPageBuilder {
    let participant: StudyParticipant
    let calendar: Calendar
    let strings: WebStrings
    /// The chosen day as the `day` query parameter writes it (`2026-11-23`).
    let dayParameter: String
    /// The study's cards that are not tasks, shown on today's page.
    let contentCards: [ContentCard]
    private let locale: Locale
    /// Dates and times in the participant's language and zone, each formatted once.
    private let dates: DateTexts

    init(participant: StudyParticipant, calendar: Calendar, strings: WebStrings, dayParameter: String, contentCards: [ContentCard],
         dates: DateTexts) {
        self.participant = participant
        self.calendar = calendar
        self.strings = strings
        self.dayParameter = dayParameter
        self.contentCards = contentCards
        self.dates = dates
        locale = Locale(identifier: participant.language)
    }

    /// The page of `feed`'s day with `week` above it.
    func page(_ feed: DayFeed, week: WeekStrip?, notice: String?) -> HomePage {
        let dayTitle = dates.text(feed.day.start, .completeDate, calendar: calendar)
        switch feed.onboarding {
        case .required(let resumes):
            let card = TaskCard(title: strings[.onboardingCardTitle], instructions: nil, timeText: strings[.allDay], state: .toDo,
                                body: .start(url: "/onboarding", resumes: resumes), isOnboarding: true)
            return HomePage(dayTitle: dayTitle, isToday: feed.isToday, onboardingRequired: true, cards: [card], notice: notice)
        case .completed:
            let cards = feed.cards.flatMap { card in card.kind.opensRun ? card.events.map { surveyCard(card, $0, feed) } : [taskCard(card, feed)] }
            return HomePage(dayTitle: dayTitle, isToday: feed.isToday, week: week.map { calendarView($0, feed: feed) }, onboardingRequired: false,
                            cards: cards, notice: notice, contentCards: feed.isToday ? contentCards : [])
        }
    }

    /// A tip, featured article or links card as the page shows it.
    static func contentCard(_ card: StudyFeedCard) -> ContentCard {
        let body: ContentCard.Body = switch card.content {
        case .tip(let text): .tip(text)
        case .featured: .featured(url: "/articles/" + URLPath.encoded(card.id))
        case .links(let links): .links(links.map(ReachLinks.link))
        }
        return ContentCard(title: card.title, imageURL: card.image.map(AssetController.imageURL), body: body)
    }

    // MARK: - The week

    private func calendarView(_ week: WeekStrip, feed: DayFeed) -> WeekCalendar {
        // The weekdays, numbers, full dates and links depend only on the day chosen, the language and the zone: they
        // are made once (DateTexts); only the rings and the marks of today and the future are the page's own.
        let texts = dates.week(days: week.days.map(\.day.start), chosen: feed.day.start, calendar: calendar)
        let days = zip(week.days, texts.days).map { day, text in
            let ring: WeekCalendar.Ring = switch day.ring {
            case .noTasks: .noTasks
            case .noEvents: .noEvents
            default: .progress(day.ring.fractionCompleted ?? 0)
            }
            return WeekCalendar.Day(weekday: text.weekday, number: text.number, fullDate: text.fullDate, url: "/?day=" + text.parameter,
                                    ring: ring, isSelected: day.day == feed.day, isToday: day.isToday, isFuture: day.isFuture)
        }
        return WeekCalendar(days: days, previousURL: "/?day=" + texts.previousWeek, nextURL: "/?day=" + texts.nextWeek,
                            todayURL: feed.isToday ? nil : "/")
    }

    // MARK: - Cards

    private func surveyCard(_ card: DayFeed.Card, _ event: DayFeed.Event, _ feed: DayFeed) -> TaskCard {
        let body: TaskCard.Body = if event.outcome != nil {
            .completed(timeText: time(event.completedAt ?? event.start),
                       undoURL: event.isOpen && card.kind.allows(.withdrawSurvey) ? eventPath(card, event, .withdrawSurvey) + "?day=" + dayParameter : nil)
        } else if event.isOpen && card.kind.allows(.startRun) {
            .start(url: eventPath(card, event, .startRun), resumes: event.resumes)
        } else {
            .none
        }
        return TaskCard(title: card.title, instructions: card.instructions, timeText: timeText([event], feed), state: state([event], feed),
                        body: body)
    }

    private func taskCard(_ card: DayFeed.Card, _ feed: DayFeed) -> TaskCard {
        let open = card.events.filter(\.isOpen)
        // Where a log or a number goes: the open event under way now, else the last open one.
        let target = open.last { $0.start <= feed.now && $0.end > feed.now } ?? open.last
        let body: TaskCard.Body
        switch card.kind {
        case .simple, .instructions, .survey, .activeTask:
            let event = open.first { !$0.isDone } ?? open.last ?? card.events[0]
            body = .toggle(isDone: event.isDone, post: event.isOpen ? toggle(card, event) : nil)
        case .grid, .checklist:
            let controls = card.events.map { event in
                let time = event.isAllDay ? allDayText(feed) : time(event.start)
                let label = card.kind == .checklist ? event.text.map { "\(time) · \($0)" } ?? time : time
                return TaskCard.EventControl(label: label, isDone: event.isDone, post: event.isOpen ? toggle(card, event) : nil)
            }
            body = card.kind == .grid ? .grid(controls) : .checklist(controls)
        case .buttonLog:
            var logged: [(event: DayFeed.Event, at: Date)] = []
            for event in card.events {
                for value in event.values where value.kind == StudyTaskDefinition.loggedKind {
                    if let at = value.createdDate { logged.append((event, at)) }
                }
            }
            let entries = logged.sorted { $0.at < $1.at }.map { entry -> TaskCard.LogEntry in
                let milliseconds = Int64((entry.at.timeIntervalSince1970 * 1000).rounded())
                return TaskCard.LogEntry(timeText: time(entry.at),
                                         delete: entry.event.isOpen ? post(card, entry.event, .deleteLogEntry, field: ("at", String(milliseconds))) : nil)
            }
            body = .log(post: target.flatMap { post(card, $0, .log) }, entries: entries)
        case .numericProgress, .labeledValue:
            let units = card.valueEntry?.units
            let hasValues = card.events.contains { !$0.values.isEmpty }
            let goal = card.kind == .numericProgress ? card.goal : nil
            let cleared = card.events.last { $0.outcome != nil && $0.isOpen }
            body = .value(totalText: hasValues || goal != nil ? quantity(card.total, units) : nil, goalText: goal.map { quantity($0, units) },
                          fraction: goal.map { $0 > 0 ? card.total / $0 : 1 },
                          entry: target.flatMap { event in
                              card.valueEntry.flatMap { entry in
                                  post(card, event, .enterValue).map { post in
                                      TaskCard.ValueEntry(post: post, units: entry.units, minimum: entry.minimum, maximum: entry.maximum)
                                  }
                              }
                          },
                          clear: cleared.flatMap { post(card, $0, .removeOutcome) })
        }
        return TaskCard(title: card.title, instructions: card.instructions, timeText: timeText(card.events, feed),
                        state: card.kind == .buttonLog ? .none : state(card.events, feed), body: body)
    }

    /// Records the event when it is not done, undoes it when it is.
    private func toggle(_ card: DayFeed.Card, _ event: DayFeed.Event) -> TaskCard.Post? {
        post(card, event, event.outcome == nil ? .record : .removeOutcome)
    }

    /// A post of `action` on the event, naming the day it came from, and `field` when given; nil when the card's kind
    /// does not allow the action (``StudyCardKind/actions``, which the workflow holds to as well).
    private func post(_ card: DayFeed.Card, _ event: DayFeed.Event, _ action: StudyCardAction,
                      field: (name: String, value: String)? = nil) -> TaskCard.Post? {
        guard card.kind.allows(action) else { return nil }
        var fields = ["day": dayParameter]
        if let field { fields[field.name] = field.value }
        return TaskCard.Post(action: eventPath(card, event, action), fields: fields)
    }

    /// The path of `action` on the event (``TodayController/path(of:task:occurrence:)``).
    private func eventPath(_ card: DayFeed.Card, _ event: DayFeed.Event, _ action: StudyCardAction) -> String {
        TodayController.path(of: action, task: card.taskID, occurrence: event.occurrence)
    }

    /// A card's badge: done when every event is; to do while one can be done now; later while one has not started;
    /// missed otherwise.
    private func state(_ events: [DayFeed.Event], _ feed: DayFeed) -> TaskCard.State {
        let states = events.map { $0.state(at: feed.now) }
        if states.allSatisfy({ $0 == .done }) { return .done }
        if zip(events, states).contains(where: { $1 == .toDo && $0.isOpen }) { return .toDo }
        if states.contains(.upcoming) { return .upcoming }
        return .missed
    }

    private func timeText(_ events: [DayFeed.Event], _ feed: DayFeed) -> String {
        if events.allSatisfy(\.isAllDay) { return allDayText(feed) }
        let times = events.filter { !$0.isAllDay }.map(\.start)
        guard let first = times.min(), let last = times.max(), first != last else { return time(times.first ?? feed.day.start) }
        return "\(time(first)) – \(time(last))"
    }

    /// A time of day: `9:04 PM`.
    private func time(_ date: Date) -> String { dates.text(date, .time, calendar: calendar) }

    private func allDayText(_ feed: DayFeed) -> String { strings[feed.isToday ? .allDay : .anyTime] }

    private func quantity(_ number: Double, _ units: String?) -> String {
        let text = number.formatted(.number.locale(locale).precision(.fractionLength(0...2)))
        return units.map { "\(text) \($0)" } ?? text
    }

    // MARK: - Days in URLs

    /// The `day` parameter of the day containing `date` in `calendar`: `2026-11-23`.
    static func parameter(of date: Date, in calendar: Calendar) -> String {
        parameter(of: calendar.dateComponents([.year, .month, .day], from: date))
    }

    /// The `day` parameter of a day's year, month and day: `2026-11-23`.
    static func parameter(of parts: DateComponents) -> String {
        func digits(_ number: Int?, _ count: Int) -> String {
            let text = String(number ?? 0)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        return digits(parts.year, 4) + "-" + digits(parts.month, 2) + "-" + digits(parts.day, 2)
    }

    /// The daily page of the day containing `date`.
    static func url(of date: Date, in calendar: Calendar) -> String { "/?day=" + parameter(of: date, in: calendar) }

    /// The years a `day` parameter may name.
    static let years = 1900...2200

    /// Noon of the day a `day` parameter names in `calendar` (noon exists on every day, whatever daylight saving
    /// does at midnight); anything but a real date `YYYY-MM-DD` within ``years`` is refused (400) saying so.
    static func date(ofParameter text: some StringProtocol, in calendar: Calendar) throws(StudyServerError) -> Date {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), years.contains(year),
              case let components = DateComponents(year: year, month: month, day: day, hour: 12),
              components.isValidDate(in: calendar), let date = calendar.date(from: components) else {
            throw .malformed("'day' must be a date written YYYY-MM-DD between the years \(years.lowerBound) and \(years.upperBound).")
        }
        return date
    }
}
