import CareStore
import Foundation

/// One reminder due now for one participant's event: what ``ReminderPlanner`` decides from the care store.
public struct DueReminder: Hashable, Sendable {
    /// The participant.
    public var participantID: String
    /// The study's reminder.
    public var reminderID: String
    /// The study task of the event.
    public var taskID: String
    /// The event's occurrence index in its task's schedule.
    public var occurrence: Int
    /// When the event opened (for a reminder of the daily page, the start of the participant's day).
    public var eventStart: Date
    /// When the event closes (for a reminder of the daily page, the end of the participant's day).
    public var eventEnd: Date
    /// When the reminder fell due (it may be sent later: after quiet hours, or after the server was down).
    public var dueDate: Date
    /// The participant's local day of ``dueDate`` (`2027-03-28`): a reminder at a time of day is due once a day of
    /// an event that spans several.
    public var localDay: String
    /// For a reminder of the daily page, the study tasks with an event still open without an outcome, in the study's
    /// order (its ``taskID`` is empty and its ``occurrence`` 0); empty for a reminder of one task's event.
    public var openTaskIDs: [String]

    /// Creates a due reminder; see the properties.
    public init(participantID: String, reminderID: String, taskID: String, occurrence: Int, eventStart: Date, eventEnd: Date,
                dueDate: Date, localDay: String, openTaskIDs: [String] = []) {
        self.participantID = participantID
        self.reminderID = reminderID
        self.taskID = taskID
        self.occurrence = occurrence
        self.eventStart = eventStart
        self.eventEnd = eventEnd
        self.dueDate = dueDate
        self.localDay = localDay
        self.openTaskIDs = openTaskIDs
    }

    /// Whether it reminds of the daily page as a whole.
    public var isForDailyPage: Bool { taskID.isEmpty }

    /// What makes this reminder one: participant, task, occurrence, reminder and (for a time of day) the local day. (A
    /// reminder of the daily page has no task and occurrence: it is one per local day.)
    /// Each channel sends it at most once under this key (the outbox's, with the channel).
    public var key: String {
        "\(participantID)/\(taskID)/\(occurrence)/\(reminderID)/\(localDay)"
    }
}

/// Decides which of a study's reminders are due for a participant at an instant, from their events as the care store
/// gives them: a reminder is due when its task's event is open (started, not yet closed), has no outcome, the
/// reminder's time has come (on the event's local day, in the participant's zone, so 09:00 is 09:00 on a 23- or
/// 25-hour day), the participant has it on and has not paused reminders, and it is not their quiet hours. A reminder
/// whose time fell in quiet hours is due when they end, if its event is still open then. A reminder of the daily page
/// is due at its time of day (that day's only) when some event of a task that counts towards adherence, open by then,
/// is still open without an outcome; one that falls in quiet hours is not sent (its day is over when they end). The
/// planner keeps nothing: the outbox (``ReminderDelivery``) says what was sent.
///
/// ```swift
/// let planner = ReminderPlanner(study: study)
/// let due = planner.due(at: now, participantID: "p1", timeZone: berlin, preferences: prefs, events: openEvents)
/// ```
public struct ReminderPlanner: Sendable {
    /// The study whose reminders are planned.
    public let study: StudyDefinition
    private let remindersByTask: [String: [StudyReminder]]
    /// The reminders of the daily page as a whole.
    private let pageReminders: [StudyReminder]
    /// The tasks whose open events a reminder of the daily page counts, in the study's order: those that count
    /// towards adherence.
    private let dailyPageTaskIDs: [String]

    /// A planner for `study`'s reminders.
    public init(study: StudyDefinition) {
        self.study = study
        var byTask: [String: [StudyReminder]] = [:]
        for reminder in study.reminders {
            if let task = reminder.taskID { byTask[task, default: []].append(reminder) }
        }
        remindersByTask = byTask
        pageReminders = study.reminders.filter(\.isForDailyPage)
        dailyPageTaskIDs = study.tasks.filter { $0.impactsAdherence && $0.id != StudyTaskDefinition.onboardingID }.map(\.id)
    }

    /// The study tasks that have reminders (all that count towards adherence when the daily page has one): the
    /// care-store group identifiers whose events the planner needs.
    public var remindedTaskIDs: Set<String> {
        Set(remindersByTask.keys).union(pageReminders.isEmpty ? [] : dailyPageTaskIDs)
    }

    /// The reminders due at `now` for one participant, from their events open at `now` (others are ignored).
    ///
    /// - Parameters:
    ///   - events: The participant's care events that overlap `now` (of any task; those without reminders are skipped).
    ///   - lastSent: When each reminder (by id) was last sent to them, for `notMoreOftenThan`.
    public func due(at now: Date, participantID: String, timeZone: TimeZone, preferences: ReminderPreferences,
                    events: [CareEvent], lastSent: [String: Date] = [:]) -> [DueReminder] {
        var clock = LocalClock(now: now, timeZone: timeZone)
        return due(participantID: participantID, preferences: preferences, events: events, lastSent: lastSent, clock: &clock)
    }

    /// ``due(at:participantID:timeZone:preferences:events:lastSent:)`` on the wall clock of `clock`, whose calendar
    /// answers it keeps for the next participant in the same zone.
    func due(participantID: String, preferences: ReminderPreferences, events: [CareEvent], lastSent: [String: Date],
             clock: inout LocalClock) -> [DueReminder] {
        guard mayBeDue(preferences: preferences, clock: clock) else { return [] }
        let now = clock.now
        var due: [DueReminder] = []
        // When each task's earliest event open now without an outcome opened, for the daily page's reminders.
        var openSince: [String: Date] = [:]
        for event in events {
            let start = event.scheduleEvent.start, end = event.scheduleEvent.end
            guard event.outcome == nil, start <= now, now < end, let taskID = event.task.version.groupIdentifier else { continue }
            if !pageReminders.isEmpty { openSince[taskID] = min(start, openSince[taskID] ?? start) }
            guard let reminders = remindersByTask[taskID] else { continue }
            for reminder in reminders where preferences.isOn(reminder) {
                guard let dueDate = clock.latestDueDate(of: reminder.timing, eventStart: start, eventEnd: end) else { continue }
                if let interval = reminder.minimumInterval, let last = lastSent[reminder.id], now.timeIntervalSince(last) < Double(interval) { continue }
                due.append(DueReminder(participantID: participantID, reminderID: reminder.id, taskID: taskID,
                                       occurrence: event.scheduleEvent.occurrence, eventStart: start, eventEnd: end, dueDate: dueDate,
                                       localDay: clock.dayText(dueDate)))
            }
        }
        for reminder in pageReminders where preferences.isOn(reminder) && !openSince.isEmpty {
            guard case .timeOfDay(let minutes) = reminder.timing, let dueDate = clock.todaysTime(minuteOfDay: minutes), dueDate <= now,
                  let day = clock.today else { continue }
            if let interval = reminder.minimumInterval, let last = lastSent[reminder.id], now.timeIntervalSince(last) < Double(interval) { continue }
            // The tasks open by the reminder's time and still open now.
            let open = dailyPageTaskIDs.filter { openSince[$0].map { $0 <= dueDate } ?? false }
            guard !open.isEmpty else { continue }
            due.append(DueReminder(participantID: participantID, reminderID: reminder.id, taskID: "", occurrence: 0, eventStart: day.start,
                                   eventEnd: day.end, dueDate: dueDate, localDay: clock.dayText(dueDate), openTaskIDs: open))
        }
        return due
    }

    /// Whether anything can be due for a participant with `preferences` at `clock`'s instant: reminders not paused,
    /// not their quiet hours. (Which reminders are on is asked per task: ``remindedTaskIDs(on:)``.)
    func mayBeDue(preferences: ReminderPreferences, clock: LocalClock) -> Bool {
        !preferences.paused && !preferences.effectiveQuietHours(in: study).contains(minuteOfDay: clock.minuteOfDay)
    }

    /// The study tasks that have a reminder `preferences` turn on: the only ones whose events can be due.
    func remindedTaskIDs(on preferences: ReminderPreferences) -> [String] {
        let tasks = remindersByTask.compactMap { task, reminders in reminders.contains(where: preferences.isOn) ? task : nil }
        guard pageReminders.contains(where: preferences.isOn) else { return tasks }
        return Array(Set(tasks).union(dailyPageTaskIDs))
    }

    /// The wall clock of one instant in one zone, as the planner reads it: the calendar, the minute of the day, and
    /// the local days of today and yesterday, made once; each time of day on those days and each day's text are
    /// worked out once and kept, so that the participants of one zone share them (the calendar's answers are the
    /// costly part of deciding).
    struct LocalClock {
        /// The instant.
        let now: Date
        /// The Gregorian calendar in the zone (``ReminderPlanner/calendar(in:)``).
        let calendar: Calendar
        /// The minute of the local day of ``now``.
        let minuteOfDay: Int
        /// The starts of the local day of ``now`` and of the day before (nil if the calendar has none).
        private let days: [Date]
        /// The instant of each minute of the day on each of ``days``, as worked out so far.
        private var timesOfDay: [Int: [Date?]] = [:]
        /// The `YYYY-MM-DD` of each instant's local day, as worked out so far (the participants of a zone share due dates).
        private var dayTexts: [Date: String] = [:]

        /// The wall clock of `now` in `timeZone`.
        init(now: Date, timeZone: TimeZone) {
            self.now = now
            calendar = ReminderPlanner.calendar(in: timeZone)
            minuteOfDay = ReminderPlanner.minuteOfDay(now, calendar: calendar)
            let today = calendar.startOfDay(for: now)
            days = [today, calendar.date(byAdding: .day, value: -1, to: today)].compactMap { $0 }
        }

        /// ``ReminderPlanner/latestDueDate(of:eventStart:eventEnd:notAfter:calendar:)`` at ``now``.
        mutating func latestDueDate(of timing: StudyReminder.Timing, eventStart: Date, eventEnd: Date) -> Date? {
            guard case .timeOfDay(let minutes) = timing else {
                return ReminderPlanner.latestDueDate(of: timing, eventStart: eventStart, eventEnd: eventEnd, notAfter: now, calendar: calendar)
            }
            // Today's time, else yesterday's (an event open across midnight), each inside the event.
            for date in times(minuteOfDay: minutes) {
                if let date, date <= now, date >= eventStart, date < eventEnd { return date }
            }
            return nil
        }

        /// The local day of ``now``, from its start to the next day's; nil if the calendar has none.
        var today: DateInterval? {
            guard let start = days.first, let end = calendar.date(byAdding: .day, value: 1, to: start), end > start else { return nil }
            return DateInterval(start: start, end: end)
        }

        /// `minutes` after midnight on the local day of ``now`` (the first time after a gap that skips it).
        mutating func todaysTime(minuteOfDay minutes: Int) -> Date? {
            times(minuteOfDay: minutes).first ?? nil
        }

        /// `minutes` after midnight on each of ``days``, worked out once.
        private mutating func times(minuteOfDay minutes: Int) -> [Date?] {
            if let known = timesOfDay[minutes] { return known }
            let calendar = calendar
            let dates = days.map { ReminderPlanner.date(minuteOfDay: minutes, onDayStarting: $0, calendar: calendar) }
            timesOfDay[minutes] = dates
            return dates
        }

        /// ``ReminderPlanner/dayText(_:calendar:)``: `YYYY-MM-DD` of the local day of `date`.
        mutating func dayText(_ date: Date) -> String {
            if let text = dayTexts[date] { return text }
            let text = ReminderPlanner.dayText(date, calendar: calendar)
            dayTexts[date] = text
            return text
        }
    }

    /// Every instant `reminder` falls due for an event from `eventStart` to `eventEnd` in `timeZone`: one for a delay
    /// or a lead, one per local day the event is open at that time for a time of day. Used by the calendar feed's alarms.
    public static func dueDates(of timing: StudyReminder.Timing, eventStart: Date, eventEnd: Date, timeZone: TimeZone) -> [Date] {
        let calendar = calendar(in: timeZone)
        switch timing {
        case .afterStart(let seconds):
            let date = eventStart.addingTimeInterval(Double(seconds))
            return date < eventEnd ? [date] : []
        case .beforeEnd(let seconds):
            let date = eventEnd.addingTimeInterval(-Double(seconds))
            return date >= eventStart ? [date] : []
        case .timeOfDay(let minutes):
            var dates: [Date] = []
            var day = calendar.startOfDay(for: eventStart)
            while day < eventEnd {
                if let date = Self.date(minuteOfDay: minutes, onDayStarting: day, calendar: calendar), date >= eventStart, date < eventEnd {
                    dates.append(date)
                }
                guard let next = calendar.date(byAdding: .day, value: 1, to: day) else { break }
                day = next
            }
            return dates
        }
    }

    /// The latest instant at or before `now` that the reminder fell due for the event; nil when none has yet.
    static func latestDueDate(of timing: StudyReminder.Timing, eventStart: Date, eventEnd: Date, notAfter now: Date, calendar: Calendar) -> Date? {
        switch timing {
        case .afterStart(let seconds):
            let date = eventStart.addingTimeInterval(Double(seconds))
            return date <= now && date < eventEnd ? date : nil
        case .beforeEnd(let seconds):
            let date = eventEnd.addingTimeInterval(-Double(seconds))
            return date <= now && date >= eventStart ? date : nil
        case .timeOfDay(let minutes):
            // Today's time, else yesterday's (an event open across midnight), each inside the event.
            let today = calendar.startOfDay(for: now)
            for day in [today, calendar.date(byAdding: .day, value: -1, to: today)].compactMap({ $0 }) {
                if let date = date(minuteOfDay: minutes, onDayStarting: day, calendar: calendar),
                   date <= now, date >= eventStart, date < eventEnd { return date }
            }
            return nil
        }
    }

    /// `minutes` after midnight of the local day that starts at `day`, as the wall clock reads it: on a day whose
    /// clocks skip that time (02:30 in Berlin on the spring change), the first time after the gap.
    static func date(minuteOfDay minutes: Int, onDayStarting day: Date, calendar: Calendar) -> Date? {
        calendar.date(bySettingHour: minutes / 60, minute: minutes % 60, second: 0, of: day, matchingPolicy: .nextTime,
                      repeatedTimePolicy: .first, direction: .forward)
    }

    /// The minute of the local day of `date`.
    static func minuteOfDay(_ date: Date, calendar: Calendar) -> Int {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }

    /// `YYYY-MM-DD` of the local day of `date`.
    static func dayText(_ date: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// A Gregorian calendar in `zone` (never the process's), as the planner computes with it.
    public static func calendar(in zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        calendar.locale = Locale(identifier: "en_US_POSIX")
        return calendar
    }
}
