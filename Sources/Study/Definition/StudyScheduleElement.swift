import CareStore
import Foundation

/// One part of a study task's schedule, written relative to the participant's enrolment: day 0 is the day the
/// participant enrolled (in their time zone), day 1 the day after.
///
/// ```yaml
/// schedule:
///   - daily: {at: "08:00", from: 1, for: {weeks: 6}}
///   - daily: {at: "19:00", every: 2}
///   - weekly: {on: [monday], at: "09:00", from: 1, until: 84}
///   - once: {day: 14, at: "10:00"}
///     duration: 30
/// ```
///
/// ``StudyEnrolment`` turns it into a concrete ``ScheduleElement`` in the participant's time zone.
public struct StudyScheduleElement: Hashable, Sendable {
    /// How the element repeats.
    public enum Repetition: Hashable, Sendable {
        /// Every day.
        case daily
        /// Every week on these weekdays (Monday first, no repeats).
        case weekly([Locale.Weekday])
        /// One event, on ``StudyScheduleElement/firstDay``.
        case once
    }

    /// How the element repeats.
    public var repetition: Repetition
    /// The hour of each event on the participant's wall clock, 0–23.
    public var hour: Int
    /// The minute of each event, 0–59.
    public var minute: Int
    /// The first study day that may have an event (0 is the enrolment day).
    public var firstDay: Int
    /// The last study day that may have an event (inclusive); nil for no end.
    public var lastDay: Int?
    /// How long each event lasts.
    public var duration: ScheduleDuration
    /// Text shown with each event, such as "after breakfast".
    public var text: String?
    /// What each event expects as its outcome.
    public var targetValues: [OutcomeValue]
    /// For a daily element, the days from one event to the next (`every: 2` is every other day); 1 otherwise.
    public var everyDays: Int

    /// Creates an element; see the properties.
    public init(repetition: Repetition, hour: Int, minute: Int, firstDay: Int, lastDay: Int? = nil,
                duration: ScheduleDuration = .oneHour, text: String? = nil, targetValues: [OutcomeValue] = [], everyDays: Int = 1) {
        self.repetition = repetition
        self.hour = hour
        self.minute = minute
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.duration = duration
        self.text = text
        self.targetValues = targetValues
        self.everyDays = everyDays
    }

    /// The weekday names `study.yaml` accepts, in the order of ``Locale/Weekday`` from Monday.
    public static let weekdayNames: [(name: String, weekday: Locale.Weekday)] = [
        ("monday", .monday), ("tuesday", .tuesday), ("wednesday", .wednesday), ("thursday", .thursday),
        ("friday", .friday), ("saturday", .saturday), ("sunday", .sunday),
    ]
}
