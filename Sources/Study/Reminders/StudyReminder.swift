import Foundation

/// A reminder the study sends a participant about one task's events, or about their daily page as a whole, as
/// `study.yaml`'s `reminders` defines it: when (a time of day in the participant's zone on the event's day, a delay
/// after the event opens, or a lead before it closes), how often at most, and what it says (translated like every other
/// text of the study).
///
/// ```yaml
/// reminders:
///   - id: painCheck
///     task: pain
///     at: "09:00"                    # on the event's day, in the participant's time zone
///     title: Time for your pain check
///     text: One question about your knee; it takes ten seconds.
///   - id: moodCheck
///     task: mood
///     after: {hours: 1}              # or before: {hours: 3} (before the event closes)
///     notMoreOftenThan: {hours: 20}
///     title: The mood check is open
///     text: Nine questions about the last two weeks.
///   - id: evening
///     page: today                    # the daily page as a whole: at a time of day only
///     at: "20:00"
///     title: Anything left for today?
///     text: A few of today's tasks are still open.
/// quietHours: {from: "21:00", to: "08:00"}
/// ```
///
/// A reminder is sent for an event only while the event is open and has no outcome; a reminder of the daily page only
/// when, at its time that day, some event of a task that counts towards adherence is open without an outcome (it names
/// them, and links to the page). See ``ReminderPlanner``.
public struct StudyReminder: Hashable, Sendable, Identifiable {
    /// When, relative to an event, the reminder is due.
    public enum Timing: Hashable, Sendable {
        /// At a time of day (minutes after local midnight) in the participant's zone, on the day the event starts;
        /// for an event of several days, on each of its days while it is open.
        case timeOfDay(minutes: Int)
        /// This many seconds after the event opens.
        case afterStart(seconds: Int)
        /// This many seconds before the event closes.
        case beforeEnd(seconds: Int)

        /// Whether it is a time of day (the only timing of a reminder of the daily page).
        public var isTimeOfDay: Bool {
            if case .timeOfDay = self { return true }
            return false
        }
    }

    /// The reminder's identifier in the study; unique.
    public var id: String
    /// The study task whose events it reminds of; nil for a reminder of the daily page as a whole (`page: today`),
    /// whose timing is a time of day.
    public var taskID: String?
    /// When it is due.
    public var timing: Timing
    /// The shortest time between two of this reminder to one participant, in seconds; nil for no limit beyond one
    /// per event.
    public var minimumInterval: Int?
    /// Whether a new participant has it on before choosing (off unless the study says so: a participant turns it on).
    public var onByDefault: Bool
    /// The title: a notification's title and a mail's subject.
    public var title: String
    /// What it says, under the title; the task's title and a link to it follow.
    public var text: String

    /// Creates a reminder; see the properties.
    public init(id: String, taskID: String?, timing: Timing, minimumInterval: Int? = nil, onByDefault: Bool = false,
                title: String, text: String) {
        self.id = id
        self.taskID = taskID
        self.timing = timing
        self.minimumInterval = minimumInterval
        self.onByDefault = onByDefault
        self.title = title
        self.text = text
    }

    /// Whether it reminds of the daily page as a whole rather than of one task's events.
    public var isForDailyPage: Bool { taskID == nil }
}

/// The hours of the day in which a participant is sent nothing, in their own zone: from ``from`` to ``to`` (minutes
/// after local midnight), across midnight when ``to`` is earlier. A reminder that falls inside waits for their end,
/// if its event is still open then.
public struct QuietHours: Hashable, Sendable, Codable {
    /// When they begin, in minutes after local midnight.
    public var from: Int
    /// When they end, in minutes after local midnight.
    public var to: Int

    /// Quiet hours from `from` to `to` (minutes after local midnight).
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    /// The default: from 21:00 to 08:00.
    public static let standard = QuietHours(from: 21 * 60, to: 8 * 60)

    /// Whether `minute` (of the local day) is quiet.
    public func contains(minuteOfDay minute: Int) -> Bool {
        if from == to { return false }
        return from < to ? (minute >= from && minute < to) : (minute >= from || minute < to)
    }

    /// `HH:MM` of a minute of the day.
    public static func text(minuteOfDay minute: Int) -> String {
        String(format: "%02d:%02d", minute / 60, minute % 60)
    }

    /// The minute of the day of `HH:MM` (00:00 to 23:59); nil for anything else.
    public static func minuteOfDay(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60 else { return nil }
        return hour * 60 + minute
    }
}
