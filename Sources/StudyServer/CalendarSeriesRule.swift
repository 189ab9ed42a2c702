import CareStore
import Foundation
import ICalendar

/// The `RRULE` that a schedule element's events may follow in a calendar feed: every day, week or month with an
/// interval, as ``ICalendarRecurrence`` writes it.
///
/// ```swift
/// let element = ScheduleElement(start: monday, interval: DateComponents(weekOfYear: 1), duration: .allDay)
/// CalendarSeriesRule(element: element, timeZone: berlin)   // FREQ=WEEKLY, on the start's weekday
/// ```
///
/// It is a candidate: ``CalendarFeedBuilder`` expands it with ``starts(from:through:in:)`` and writes as a series only
/// the events it finds among those occurrences.
struct CalendarSeriesRule: Hashable, Sendable {
    /// How often the rule repeats.
    enum Frequency: Hashable, Sendable {
        /// `FREQ=DAILY`.
        case daily
        /// `FREQ=WEEKLY`, on these weekdays (`BYDAY`), or on the start's weekday when there are none.
        case weekly(on: [Locale.Weekday])
        /// `FREQ=MONTHLY`, on the start's day of the month.
        case monthly
    }

    /// How often the rule repeats.
    var frequency: Frequency
    /// Every how many days, weeks or months (`INTERVAL`), at least 1.
    var interval: Int

    /// A rule of `frequency` every `interval` periods.
    init(frequency: Frequency, interval: Int = 1) {
        self.frequency = frequency
        self.interval = max(1, interval)
    }

    /// The rule of `element`, of a schedule in `timeZone`; nil when no daily, weekly or monthly rule says how it
    /// repeats. An interval maps when exactly one of its components is not zero, days, weeks (`weekOfYear`) or months
    /// (months only when the start is on one of the first 28 days of its month: the care store moves a later day to the
    /// end of a shorter month, which no `RRULE` does). A recurrence rule maps when it is daily, weekly or monthly with
    /// no `BY…` part other than a weekly rule's plain weekdays (with weeks from Monday, the default `WKST`, when its
    /// interval is above 1); its `COUNT` or `UNTIL` do not matter, as a series ends at its last event.
    init?(element: ScheduleElement, timeZone: TimeZone) {
        if let components = element.interval {
            let units: [Calendar.Component] = [.era, .year, .quarter, .month, .weekOfYear, .weekOfMonth, .weekday, .weekdayOrdinal,
                                               .yearForWeekOfYear, .day, .hour, .minute, .second, .nanosecond]
            let set = units.compactMap { unit in components.value(for: unit).flatMap { $0 == 0 ? nil : (unit: unit, value: $0) } }
            guard set.count == 1, let only = set.first, only.value > 0 else { return nil }
            switch only.unit {
            case .day:
                self.init(frequency: .daily, interval: only.value)
            case .weekOfYear:
                self.init(frequency: .weekly(on: []), interval: only.value)
            case .month:
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = timeZone
                guard calendar.component(.day, from: element.start) <= 28 else { return nil }
                self.init(frequency: .monthly, interval: only.value)
            default:
                return nil
            }
        } else if let rule = element.recurrenceRule {
            guard rule.byMonth.isEmpty, rule.byYearDay.isEmpty, rule.byMonthDay.isEmpty, rule.byHour.isEmpty, rule.byMinute.isEmpty,
                  rule.bySecond.isEmpty, rule.bySetPosition.isEmpty, rule.interval >= 1 else { return nil }
            switch rule.frequency {
            case .daily where rule.byDay.isEmpty:
                self.init(frequency: .daily, interval: rule.interval)
            case .weekly where rule.byDay.allSatisfy { $0.ordinal == nil } && (rule.interval == 1 || rule.weekStart == .monday):
                self.init(frequency: .weekly(on: rule.byDay.map(\.weekday)), interval: rule.interval)
            case .monthly where rule.byDay.isEmpty:
                self.init(frequency: .monthly, interval: rule.interval)
            default:
                return nil
            }
        } else {
            return nil
        }
    }

    /// Whether a series may start on `weekday`: for a weekly rule with weekdays, only on one of them (RFC 5545 counts
    /// a `DTSTART` as the first occurrence even when it is not, and readers differ on it); any day otherwise.
    func admitsStart(on weekday: Locale.Weekday) -> Bool {
        guard case .weekly(let weekdays) = frequency, !weekdays.isEmpty else { return true }
        return weekdays.contains(weekday)
    }

    /// The `RRULE` of a series whose last occurrence starts at `last`.
    func recurrence(until last: ICalendarTime) -> ICalendarRecurrence {
        let frequency: ICalendarRecurrence.Frequency
        switch self.frequency {
        case .daily: frequency = .daily
        case .weekly(let weekdays): frequency = .weekly(on: weekdays.map(Self.calendarWeekday))
        case .monthly: frequency = .monthly
        }
        return ICalendarRecurrence(frequency: frequency, interval: interval, end: .until(last))
    }

    /// The starts of the occurrences of a series that starts at `start` and ends with the last occurrence at or before
    /// `last`, in the form they are written in (`start`'s): RFC 5545's expansion on the wall clock of `timeZone`, which
    /// is the care store's expansion of the same rule (``RecurrenceRule``) in a one-element schedule. Nothing for a start
    /// in UTC, which a feed does not write.
    func starts(from start: ICalendarTime, through last: ICalendarTime, in timeZone: TimeZone) -> [ICalendarTime] {
        switch (start, last) {
        case (.zoned(let first, _), .zoned(let final, _)):
            let element = ScheduleElement(start: first, recurrenceRule: recurrenceRule(until: .utc(final)))
            return Schedule(element, timeZone: timeZone).events(from: first, to: final.addingTimeInterval(1))
                .map { .zoned($0.start, in: timeZone) }
        case (.allDay(let first), .allDay(let final)):
            let element = ScheduleElement(start: first.date(in: timeZone),
                                          recurrenceRule: recurrenceRule(until: .date(year: final.year, month: final.month, day: final.day)),
                                          duration: .allDay)
            return Schedule(element, timeZone: timeZone).events(from: first.date(in: timeZone), to: final.adding(days: 1).date(in: timeZone))
                .map { .allDay(ICalendarDay(containing: $0.start, in: timeZone)) }
        default:
            return []
        }
    }

    /// The rule as the care store's ``RecurrenceRule``, ending at `until`.
    private func recurrenceRule(until: RecurrenceRule.Until) -> RecurrenceRule {
        switch frequency {
        case .daily:
            RecurrenceRule(frequency: .daily, interval: interval, end: .until(until))
        case .weekly(let weekdays):
            RecurrenceRule(frequency: .weekly, interval: interval, end: .until(until), byDay: weekdays.map { RecurrenceRule.WeekdayEntry($0) })
        case .monthly:
            RecurrenceRule(frequency: .monthly, interval: interval, end: .until(until))
        }
    }

    /// The `BYDAY` name of a weekday.
    private static func calendarWeekday(_ weekday: Locale.Weekday) -> ICalendarRecurrence.Weekday {
        switch weekday {
        case .monday: .monday
        case .tuesday: .tuesday
        case .wednesday: .wednesday
        case .thursday: .thursday
        case .friday: .friday
        case .saturday: .saturday
        case .sunday: .sunday
        @unknown default: .monday
        }
    }
}
