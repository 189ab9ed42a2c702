import CareStore
import Foundation
import ICalendar
import Study

/// A participant's calendar feed (RFC 5545): their events of the coming weeks as the care store computes them (all-day
/// events as dates, others at their local times in the participant's zone), a `VALARM` at each reminder they have on,
/// and links to the tasks.
///
/// The events of one schedule element of a task are one repeating `VEVENT` (its ``CalendarSeriesRule``) where the rule
/// says at least two of them exactly, and one `VEVENT` each otherwise. Exactness is checked, never assumed: the series
/// starts (`DTSTART`) at the element's first *plain* event in the window (on one of a weekly rule's weekdays, at a wall
/// time that names no earlier instant) and ends (`UNTIL`) at its last plain event; the rule is expanded between the two
/// on the participant's wall clock by the care store's RFC 5545 expansion; each occurrence of it that is not a plain
/// event (the same start and end) is excluded (`EXDATE`), and each event of the element that is not a plain occurrence
/// of it is written alone. A reader that expands the series and adds the single events has exactly the care store's
/// events.
///
/// A plain event has no outcome (a done event is written alone with `STATUS:CONFIRMED` and no alarms) and the series'
/// alarms, as triggers relative to its start: each reminder's due instants minus the start (an all-day event's start
/// is its day's midnight in the participant's zone), compared in seconds, since a relative trigger is an exact
/// duration. So the 09:00 alarm of an all-day event on a 23- or 25-hour day makes that day an exception, written alone
/// with its alarm at its instant, as a single event's alarms always are (so a 09:00 alarm stays at 09:00). Nor is an
/// event plain when the zone's offset changes between its start and its end or an alarm: readers that add durations on
/// the wall clock and those that add exact time would disagree. A rule that would put an occurrence into a
/// daylight-saving gap (a wall time that day does not have) makes no series at all, as readers differ on those.
///
/// A `UID` is stable across reads and days: `PARTICIPANT-TASK-eELEMENT@host` for a series (the element's index in the
/// task's schedule), `PARTICIPANT-TASK-OCCURRENCE@host` for a single event, so a calendar that reads the feed again
/// updates its events instead of adding them twice. A single event links to its occurrence
/// (``ReminderMessages/taskPath(taskID:occurrence:eventStart:timeZone:)``); a series, whose link cannot name one
/// occurrence (a survey's does), links to the participant's home page, `/`, which shows the day's card of the task.
///
/// A reminder of the daily page as a whole (`page: today`) has no alarm here: it depends on what is still open at its
/// time, which a calendar cannot know; the server sends it by mail and push.
struct CalendarFeedBuilder: Sendable {
    let study: StudyDefinition
    let messages: ReminderMessages

    /// How far ahead the feed reaches.
    static let weeksAhead = 8

    /// The window the feed lists for a participant in `timeZone` at `now`: from the start of their day for
    /// ``weeksAhead`` weeks.
    static func window(at now: Date, in timeZone: TimeZone) -> DateInterval {
        let calendar = ReminderPlanner.calendar(in: timeZone)
        let start = calendar.startOfDay(for: now)
        let end = calendar.date(byAdding: .weekOfYear, value: weeksAhead, to: start) ?? start.addingTimeInterval(Double(weeksAhead) * 7 * 86_400)
        return DateInterval(start: start, end: end)
    }

    /// The feed of `events` (the participant's, in `window`).
    func calendar(for participant: StudyParticipant, preferences: ReminderPreferences, events: [CareEvent], window: DateInterval,
                  now: Date, host: String) -> ICalendar {
        let localized = study.localized(participant.language)
        let strings = messages.strings(participant.language)
        let reminders = preferences.paused ? [] : localized.reminders.filter(preferences.isOn)
        let zone = participant.timeZone
        let entries: [Entry] = events.compactMap { event in
            guard let taskID = event.task.version.groupIdentifier, let task = localized.task(id: taskID) else { return nil }
            return Entry(event: event, taskID: taskID, task: task, reminders: reminders.filter { $0.taskID == taskID }, timeZone: zone)
        }

        // The series, each written where its first event would be.
        var seriesAt: [Int: ICalendarEvent] = [:]
        var inSeries = Set<Int>()
        let groups = Dictionary(grouping: entries.indices) { GroupKey(taskID: entries[$0].taskID, element: entries[$0].event.scheduleEvent.elementIndex) }
        for (key, indices) in groups {
            guard let series = series(of: indices.map { entries[$0] }, key: key, participant: participant, now: now, host: host) else { continue }
            seriesAt[indices[series.first]] = series.event
            inSeries.formUnion(series.covered.map { indices[$0] })
        }

        var items: [ICalendarEvent] = []
        for (index, entry) in entries.enumerated() {
            if let series = seriesAt[index] { items.append(series) }
            if !inSeries.contains(index) { items.append(single(entry, participant: participant, now: now, host: host)) }
        }
        return ICalendar(productIdentifier: "-//StudyKit//\(study.identifier)//EN",
                         name: strings.format(.calendarName, ["study": localized.name]), refreshInterval: .hours(6),
                         timeZoneCoverage: window, events: items)
    }

    // MARK: - Single events

    /// `entry` alone, with its alarms at their instants (none when it is done).
    private func single(_ entry: Entry, participant: StudyParticipant, now: Date, host: String) -> ICalendarEvent {
        let scheduled = entry.event.scheduleEvent
        let link = messages.configuration.link(messages.taskPath(taskID: entry.taskID, occurrence: scheduled.occurrence,
                                                                 eventStart: scheduled.start, timeZone: participant.timeZone))
        // A done event keeps its place in the calendar, without alarms.
        let alarms = entry.isDone ? [] : entry.dueDates.map { ICalendarAlarm(trigger: .at($0.date), message: $0.reminder.title) }
        return ICalendarEvent(uid: "\(participant.id)-\(entry.taskID)-\(scheduled.occurrence)@\(host)", timestamp: now, start: entry.start,
                              end: .time(entry.end), summary: entry.task.title, notes: notes(entry, link: link), url: URL(string: link),
                              status: entry.isDone ? .confirmed : nil, alarms: alarms)
    }

    /// The task's instructions, the element's text and the link, a paragraph each.
    private func notes(_ entry: Entry, link: String) -> String {
        [entry.task.instructions, entry.event.scheduleEvent.text, link].compactMap { $0 }.joined(separator: "\n\n")
    }

    // MARK: - Series

    /// The events of one task's schedule element.
    private struct GroupKey: Hashable {
        let taskID: String
        let element: Int
    }

    /// A series of a group's events: the event, the position of its first event in the group and the positions of
    /// every event it stands for.
    private struct Series {
        let event: ICalendarEvent
        let first: Int
        let covered: [Int]
    }

    /// The series of `group` (the events of one element of a task, in the feed's order), when its rule stands for at
    /// least two of them; nil otherwise (each is then written alone).
    private func series(of group: [Entry], key: GroupKey, participant: StudyParticipant, now: Date, host: String) -> Series? {
        let zone = participant.timeZone
        // Every event of the group comes from the same task version, so that the element index means one element.
        guard group.count >= 2, let task = group.first?.event.task, group.allSatisfy({ $0.event.task.version.uuid == task.version.uuid }),
              task.schedule.elements.indices.contains(key.element),
              let rule = CalendarSeriesRule(element: task.schedule.elements[key.element], timeZone: task.schedule.timeZone) else { return nil }
        guard let first = group.firstIndex(where: { $0.canBeInSeries && $0.startIsUnambiguous && rule.admitsStart(on: $0.weekday) }),
              let alarms = group[first].relativeAlarms else { return nil }
        let firstEntry = group[first]
        let isPlain = { (entry: Entry) in
            entry.canBeInSeries && entry.relativeAlarms == alarms && entry.length == firstEntry.length
        }
        guard let last = group.lastIndex(where: isPlain), last > first else { return nil }

        let starts = rule.starts(from: firstEntry.start, through: group[last].start, in: zone)
        // A rule whose wall time a daylight-saving gap moves on some day writes no series: readers differ on those.
        if case .zoned = firstEntry.start, starts.contains(where: { Entry.secondOfDay($0, in: zone) != Entry.secondOfDay(firstEntry.start, in: zone) }) {
            return nil
        }
        var plainByStart: [ICalendarTime: Int] = [:]
        for (position, entry) in group.enumerated() where isPlain(entry) && plainByStart[entry.start] == nil {
            plainByStart[entry.start] = position
        }
        var covered: [Int] = []
        var excluded: [ICalendarTime] = []
        for start in starts {
            if let position = plainByStart[start], group[position].end == firstEntry.end(ifStartingAt: start, in: zone) {
                covered.append(position)
            } else {
                excluded.append(start)
            }
        }
        guard covered.count >= 2, covered.first == first else { return nil }

        let link = messages.configuration.link("/")
        let event = ICalendarEvent(uid: "\(participant.id)-\(key.taskID)-e\(key.element)@\(host)", timestamp: now, start: firstEntry.start,
                                   end: .time(firstEntry.end), summary: firstEntry.task.title, notes: notes(firstEntry, link: link),
                                   url: URL(string: link), recurrence: rule.recurrence(until: group[last].start), excludedStarts: excluded,
                                   alarms: alarms.map { ICalendarAlarm(trigger: .relativeToStart(.seconds($0.seconds)), message: $0.message) })
        return Series(event: event, first: first, covered: covered)
    }
}

/// One event of the feed, as it is written alone.
private struct Entry {
    /// A reminder's alarm as a trigger relative to the event's start.
    struct RelativeAlarm: Hashable {
        let reminderID: String
        let message: String
        let seconds: Int
    }

    let event: CareEvent
    let taskID: String
    let task: StudyTaskDefinition
    /// `DTSTART`: a day for an all-day event, else the start in the participant's zone.
    let start: ICalendarTime
    /// `DTEND`, in the start's form.
    let end: ICalendarTime
    /// When each reminder on for the task goes off for the event, reminder by reminder.
    let dueDates: [(reminder: StudyReminder, date: Date)]
    /// The alarms as triggers relative to the start, in the order of ``dueDates``; nil when one cannot be (see
    /// ``CalendarFeedBuilder``).
    let relativeAlarms: [RelativeAlarm]?
    /// The start's weekday in the participant's zone.
    let weekday: Locale.Weekday
    /// Whether the zone's offset is the same at the start and the end, and both are whole seconds (as they are written).
    let hasPlainSpan: Bool
    /// Whether the wall time the start is written as names it and no earlier instant (not the second pass of a wall
    /// time that a change back to standard time repeats, which readers take as the first).
    let startIsUnambiguous: Bool

    init(event: CareEvent, taskID: String, task: StudyTaskDefinition, reminders: [StudyReminder], timeZone: TimeZone) {
        self.event = event
        self.taskID = taskID
        self.task = task
        let scheduled = event.scheduleEvent
        let elements = event.task.schedule.elements
        let allDay = elements.indices.contains(scheduled.elementIndex) && elements[scheduled.elementIndex].duration == .allDay
        let anchor: Date
        if allDay {
            let day = ICalendarDay(containing: scheduled.start, in: timeZone)
            start = .allDay(day)
            end = .allDay(ICalendarDay(containing: scheduled.end.addingTimeInterval(-1), in: timeZone).adding(days: 1))
            // A reader anchors an all-day event's relative alarms at the day's midnight.
            anchor = day.date(in: timeZone)
            hasPlainSpan = true
            startIsUnambiguous = true
        } else {
            start = .zoned(scheduled.start, in: timeZone)
            end = .zoned(scheduled.end, in: timeZone)
            anchor = scheduled.start
            hasPlainSpan = timeZone.secondsFromGMT(for: scheduled.start) == timeZone.secondsFromGMT(for: scheduled.end)
                && Self.isWholeSeconds(scheduled.start) && Self.isWholeSeconds(scheduled.end)
            startIsUnambiguous = Self.isFirstPass(scheduled.start, in: timeZone)
        }
        dueDates = reminders.flatMap { reminder in
            ReminderPlanner.dueDates(of: reminder.timing, eventStart: scheduled.start, eventEnd: scheduled.end, timeZone: timeZone)
                .map { (reminder: reminder, date: $0) }
        }
        let anchorOffset = timeZone.secondsFromGMT(for: anchor)
        let relative = dueDates.map { due -> RelativeAlarm? in
            let seconds = due.date.timeIntervalSince(anchor)
            guard seconds == seconds.rounded(), abs(seconds) < 1e9, timeZone.secondsFromGMT(for: due.date) == anchorOffset else { return nil }
            return RelativeAlarm(reminderID: due.reminder.id, message: due.reminder.title, seconds: Int(seconds))
        }
        relativeAlarms = relative.contains { $0 == nil } ? nil : relative.compactMap { $0 }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        weekday = Self.weekday(calendar.component(.weekday, from: scheduled.start))
    }

    /// Whether the event is done (has an outcome).
    var isDone: Bool { event.outcome != nil }

    /// Whether the event may be an occurrence of a series: not done, its span and alarms written alike by every reader.
    var canBeInSeries: Bool { !isDone && hasPlainSpan && relativeAlarms != nil }

    /// How long the event is as written: days for an all-day event, seconds otherwise.
    var length: Double {
        switch (start, end) {
        case (.allDay(let first), .allDay(let last)):
            Double(Self.days(from: first, to: last))
        default:
            (Self.instant(of: end) ?? .distantPast).timeIntervalSince(Self.instant(of: start) ?? .distantPast)
        }
    }

    /// The end a reader gives an occurrence of this event's series starting at `other`: as long as this event
    /// (in days for all-day events, in exact time otherwise, as RFC 5545 repeats a `DTEND`). Nil when the zone's
    /// offset changes within it, where readers differ.
    func end(ifStartingAt other: ICalendarTime, in timeZone: TimeZone) -> ICalendarTime? {
        switch other {
        case .allDay(let day):
            return .allDay(day.adding(days: Int(length)))
        case .zoned(let date, let zone):
            let later = date.addingTimeInterval(length)
            guard timeZone.secondsFromGMT(for: date) == timeZone.secondsFromGMT(for: later) else { return nil }
            return .zoned(later, in: zone)
        case .utc:
            return nil
        }
    }

    /// The wall clock's second of the day of a zoned time.
    static func secondOfDay(_ time: ICalendarTime, in timeZone: TimeZone) -> Int? {
        guard let date = instant(of: time) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
        return (parts.hour ?? 0) * 3600 + (parts.minute ?? 0) * 60 + (parts.second ?? 0)
    }

    /// The instant of a zoned or UTC time; nil for a day.
    private static func instant(of time: ICalendarTime) -> Date? {
        switch time {
        case .zoned(let date, _), .utc(let date): date
        case .allDay: nil
        }
    }

    /// The number of days from `first` to `last`.
    private static func days(from first: ICalendarDay, to last: ICalendarDay) -> Int {
        let utc = TimeZone(identifier: "UTC") ?? .gmt
        return Int((last.date(hour: 12, in: utc).timeIntervalSince(first.date(hour: 12, in: utc)) / 86_400).rounded())
    }

    private static func isWholeSeconds(_ date: Date) -> Bool {
        date.timeIntervalSince1970 == date.timeIntervalSince1970.rounded()
    }

    /// Whether no earlier instant shows the wall time `date` shows in `timeZone`.
    private static func isFirstPass(_ date: Date, in timeZone: TimeZone) -> Bool {
        let offset = timeZone.secondsFromGMT(for: date)
        for other in [timeZone.secondsFromGMT(for: date.addingTimeInterval(-86_400)), timeZone.secondsFromGMT(for: date.addingTimeInterval(86_400))]
        where other > offset {
            // The instant that shows the same wall time at the other offset, if the zone had it then.
            let twin = date.addingTimeInterval(Double(offset - other))
            if timeZone.secondsFromGMT(for: twin) == other { return false }
        }
        return true
    }

    /// The weekday of `Calendar`'s number (1 = Sunday).
    private static func weekday(_ number: Int) -> Locale.Weekday {
        [.sunday, .monday, .tuesday, .wednesday, .thursday, .friday, .saturday][(number - 1 + 7) % 7]
    }
}
