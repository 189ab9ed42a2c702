import CareStore
import Foundation
import ICalendar
import Study

/// A participant's calendar feed (RFC 5545): each of their events of the coming weeks, as the care store computes
/// them, one `VEVENT` each (all-day events as dates, others at their local times in the participant's zone), with a
/// `VALARM` at each reminder they have on (an absolute instant, so a 09:00 alarm stays at 09:00 on a 23- or 25-hour
/// day) and a link to the task. A `UID` is the participant's task and occurrence, so a calendar that reads the feed
/// again updates its events instead of adding them twice.
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
        var items: [ICalendarEvent] = []
        for event in events {
            guard let taskID = event.task.version.groupIdentifier, let task = localized.task(id: taskID) else { continue }
            let scheduled = event.scheduleEvent
            let element = event.task.schedule.elements.indices.contains(scheduled.elementIndex)
                ? event.task.schedule.elements[scheduled.elementIndex] : nil
            let allDay = element?.duration == .allDay
            let start: ICalendarTime = allDay ? .allDay(ICalendarDay(containing: scheduled.start, in: participant.timeZone))
                : .zoned(scheduled.start, in: participant.timeZone)
            let end: ICalendarEvent.End = allDay
                ? .time(.allDay(ICalendarDay(containing: scheduled.end.addingTimeInterval(-1), in: participant.timeZone).adding(days: 1)))
                : .time(.zoned(scheduled.end, in: participant.timeZone))
            let link = messages.configuration.link(messages.taskPath(taskID: taskID, occurrence: scheduled.occurrence,
                                                                     eventStart: scheduled.start, timeZone: participant.timeZone))
            // A done event keeps its place in the calendar, without alarms.
            let alarms = event.outcome != nil ? [] : reminders.filter { $0.taskID == taskID }.flatMap { reminder in
                ReminderPlanner.dueDates(of: reminder.timing, eventStart: scheduled.start, eventEnd: scheduled.end, timeZone: participant.timeZone)
                    .map { ICalendarAlarm(trigger: .at($0), message: reminder.title) }
            }
            let notes = [task.instructions, scheduled.text, link].compactMap { $0 }.joined(separator: "\n\n")
            items.append(ICalendarEvent(uid: "\(participant.id)-\(taskID)-\(scheduled.occurrence)@\(host)", timestamp: now, start: start,
                                        end: end, summary: task.title, notes: notes, url: URL(string: link),
                                        status: event.outcome != nil ? .confirmed : nil, alarms: alarms))
        }
        return ICalendar(productIdentifier: "-//StudyKit//\(study.identifier)//EN",
                         name: strings.format(.calendarName, ["study": localized.name]), refreshInterval: .hours(6),
                         timeZoneCoverage: window, events: items)
    }
}
