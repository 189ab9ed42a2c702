import Foundation

/// When a task happens: one or more elements (each a start, an optional end and a way to repeat) in a time zone.
///
/// ```swift
/// let berlin = TimeZone(identifier: "Europe/Berlin")!
/// let schedule = Schedule.dailyAt(hour: 8, minute: 0, start: enrolment, timeZone: berlin)
/// let today = schedule.events(overlapping: DateInterval(start: midnight, duration: 86_400))
/// let first = schedule.event(occurrence: 0)
/// ```
///
/// Events are computed, never stored. Event k of an interval element starts at the element's start plus k times
/// its interval, computed by the calendar in ``timeZone`` from the start each time (so 08:00 stays 08:00 across
/// daylight saving, and monthly on the 31st gives Jan 31, Feb 28, Mar 31, Apr 30 without drifting). An event's
/// ``ScheduleEvent/occurrence`` is its rank in the whole schedule, which is how an outcome names its event.
///
/// JSON, for study authors (dates are ISO 8601 with an offset):
///
/// ```json
/// {"timeZone": "Europe/Berlin", "elements": [
///   {"start": "2026-03-28T08:00:00+01:00", "end": "2026-05-01T00:00:00+02:00", "interval": {"days": 1},
///    "duration": {"hours": 1}, "text": "after breakfast"},
///   {"start": "2026-03-30T00:00:00+02:00", "rrule": "FREQ=WEEKLY;BYDAY=MO,WE,FR", "duration": "allDay"}]}
/// ```
///
/// Read files with ``load(_:)``, which reports every problem with its JSON path.
public struct Schedule: Hashable, Sendable, Codable {
    /// The elements; an event's ``ScheduleEvent/elementIndex`` is a position in this array, and events that start
    /// at the same moment are ordered by it.
    public var elements: [ScheduleElement]
    /// The zone the calendar arithmetic happens in: "08:00 every day" means 08:00 on this zone's wall clock.
    public var timeZone: TimeZone

    /// Creates a schedule of several elements (a composite schedule) in a time zone.
    public init(elements: [ScheduleElement], timeZone: TimeZone) {
        self.elements = elements
        self.timeZone = timeZone
    }

    /// Creates a schedule of one element.
    public init(_ element: ScheduleElement, timeZone: TimeZone) {
        self.init(elements: [element], timeZone: timeZone)
    }

    /// Joins the elements of several schedules into one, in order, computed in `timeZone` (the first schedule's
    /// zone when nil).
    public init(composing schedules: [Schedule], timeZone: TimeZone? = nil) {
        self.init(elements: schedules.flatMap(\.elements), timeZone: timeZone ?? schedules.first?.timeZone ?? .gmt)
    }

    // MARK: - Helpers

    /// One event at `date`.
    public static func once(at date: Date, duration: ScheduleDuration = .oneHour, text: String? = nil,
                            targetValues: [OutcomeValue] = [], timeZone: TimeZone) -> Schedule {
        Schedule(ScheduleElement(start: date, duration: duration, text: text, targetValues: targetValues), timeZone: timeZone)
    }

    /// Every day at `hour`:`minute` on the wall clock of `timeZone`, from the day of `start` (even if that day's
    /// time has passed, as in CareKit) until `end` (exclusive; nil for no end).
    public static func dailyAt(hour: Int, minute: Int = 0, start: Date, end: Date? = nil, duration: ScheduleDuration = .oneHour,
                               text: String? = nil, targetValues: [OutcomeValue] = [], timeZone: TimeZone) -> Schedule {
        let clock = ZoneClock(timeZone)
        let first = clock.instant(localSeconds: Double(clock.dayNumber(of: start)) * 86_400 + Double(hour * 3600 + minute * 60))
        return Schedule(ScheduleElement(start: first, end: end, interval: DateComponents(day: 1), duration: duration,
                                        text: text, targetValues: targetValues), timeZone: timeZone)
    }

    /// Every week on each of `weekdays` at `hour`:`minute` in `timeZone`, from the day of `start` until `end`
    /// (exclusive; nil for no end): one element per weekday, repeating weekly, ordered by their first event.
    public static func weeklyAt(weekdays: [Locale.Weekday], hour: Int, minute: Int = 0, start: Date, end: Date? = nil,
                                duration: ScheduleDuration = .oneHour, text: String? = nil, targetValues: [OutcomeValue] = [],
                                timeZone: TimeZone) -> Schedule {
        let clock = ZoneClock(timeZone)
        let startDay = clock.dayNumber(of: start)
        let startWeekday = CivilDate.weekday(ofDay: startDay)
        let days = Set(weekdays.map(RecurrenceRule.calendarWeekday)).map { weekday in
            startDay + (weekday - startWeekday + 7) % 7
        }.sorted()
        let elements = days.map { day in
            ScheduleElement(start: clock.instant(localSeconds: Double(day) * 86_400 + Double(hour * 3600 + minute * 60)), end: end,
                            interval: DateComponents(weekOfYear: 1), duration: duration, text: text, targetValues: targetValues)
        }
        return Schedule(elements: elements, timeZone: timeZone)
    }

    // MARK: - Events

    /// The events that overlap `interval`, sorted by start and then element index: those that start inside it and
    /// those that started before it and are still running (an event overlaps when it starts before the interval's
    /// end and ends after its start; for an interval of length zero at t, when it starts at or before t and ends
    /// after t).
    ///
    /// Cost: interval elements, rules without `BY…` parts and rules whose periods all yield the same occurrences
    /// (DAILY with only `BYHOUR`/`BYMINUTE`/`BYSECOND`/`BYSETPOS`, WEEKLY with plain `BYDAY` too, MONTHLY on a day up
    /// to the 28th, YEARLY not on February 29) cost in proportion to the events in the interval plus a few calendar
    /// computations, however long ago the schedule started; occurrence indices are counted by the same arithmetic.
    /// Other recurrence rules (with `BYMONTHDAY`, `BYMONTH`, ordinal `BYDAY` and the like) are listed from the
    /// element's start, so they cost in proportion to the events from the start to the interval's end; a rule with
    /// COUNT is bounded by it.
    public func events(overlapping interval: DateInterval) -> [ScheduleEvent] {
        let timelines = makeTimelines()
        let isInstant = interval.duration == 0
        if timelines.count == 1 {
            let timeline = timelines[0]
            var events: [ScheduleEvent] = []
            var k = timeline.firstIndex(endingAfter: interval.start)
            while let span = timeline.eventSpan(k), span.start < interval.end || (isInstant && span.start == interval.start) {
                events.append(timeline.event(k, span: span, occurrence: k))
                k += 1
            }
            return events
        }
        var found: [(start: Date, end: Date, element: Int, k: Int)] = []
        for timeline in timelines {
            var k = timeline.firstIndex(endingAfter: interval.start)
            while let span = timeline.eventSpan(k), span.start < interval.end || (isInstant && span.start == interval.start) {
                found.append((span.start, span.end, timeline.elementIndex, k))
                k += 1
            }
        }
        found.sort { ($0.start, $0.element, $0.k) < ($1.start, $1.element, $1.k) }

        var events: [ScheduleEvent] = []
        events.reserveCapacity(found.count)
        var base: Int?
        var rank = 0
        for item in found {
            let occurrence: Int
            if item.start >= interval.start {
                if base == nil { base = timelines.reduce(0) { $0 + $1.count(before: interval.start) } }
                occurrence = base! + rank
                rank += 1
            } else {
                occurrence = Self.occurrence(of: item.k, in: timelines[item.element], startingAt: item.start, among: timelines)
            }
            events.append(timelines[item.element].event(item.k, span: (item.start, item.end), occurrence: occurrence))
        }
        return events
    }

    /// The events that overlap the time from `start` to `end` (exclusive); see ``events(overlapping:)``.
    /// Empty when `end` is before `start`.
    public func events(from start: Date, to end: Date) -> [ScheduleEvent] {
        guard end >= start else { return [] }
        return events(overlapping: DateInterval(start: start, end: end))
    }

    /// The event with occurrence index `occurrence` (0 is the schedule's first event); nil when the schedule has
    /// no such event.
    ///
    /// Cost: for one element, that of computing one event; for several, a search over time that counts each
    /// element's events by arithmetic (a few dozen calendar computations), except that recurrence rules listed from
    /// the start (see ``events(overlapping:)``) are listed up to the event.
    public func event(occurrence: Int) -> ScheduleEvent? {
        guard occurrence >= 0, !elements.isEmpty else { return nil }
        return event(occurrence: occurrence, in: makeTimelines())
    }

    /// The events with these occurrence indices, by index; indices the schedule does not have are left out.
    ///
    /// The same as asking ``event(occurrence:)`` for each, with the element timelines built once: what a store
    /// checking a batch of outcomes against one task's schedule needs.
    public func events(occurrences: some Collection<Int>) -> [Int: ScheduleEvent] {
        guard !elements.isEmpty, !occurrences.isEmpty else { return [:] }
        let timelines = makeTimelines()
        var found: [Int: ScheduleEvent] = [:]
        for occurrence in Set(occurrences) where occurrence >= 0 {
            found[occurrence] = event(occurrence: occurrence, in: timelines)
        }
        return found
    }

    /// ``event(occurrence:)`` over timelines already built.
    private func event(occurrence: Int, in timelines: [ElementTimeline]) -> ScheduleEvent? {
        if timelines.count == 1 { return timelines[0].event(occurrence, occurrence: occurrence) }

        let firstStarts = timelines.compactMap { $0.eventStart(0) }
        guard let earliest = firstStarts.min() else { return nil }
        func countThrough(_ date: Date) -> Int { timelines.reduce(0) { $0 + $1.count(atOrBefore: date) } }

        // Bracket the event between `low` (at most `occurrence` events so far) and `high` (more than that).
        let rate = timelines.reduce(0.0) { $0 + ($1.eventStart(0) == nil ? 0 : 1 / $1.spacing) }
        var span = max(1, (Double(occurrence) + 1) / max(rate, 1e-12))
        var high = earliest.addingTimeInterval(span)
        var highCount = countThrough(high)
        while highCount <= occurrence {
            if timelines.allSatisfy({ $0.eventStart($0.count(atOrBefore: high)) == nil }) { return nil }
            span *= 2
            guard span < 1e12 else { return nil }
            high = earliest.addingTimeInterval(span)
            highCount = countThrough(high)
        }
        var low = earliest.addingTimeInterval(-1)
        var lowCount = 0
        while highCount - lowCount > 4 * timelines.count && high.timeIntervalSince(low) > 1e-3 {
            let middle = low.addingTimeInterval(high.timeIntervalSince(low) / 2)
            let middleCount = countThrough(middle)
            if middleCount > occurrence { (high, highCount) = (middle, middleCount) } else { (low, lowCount) = (middle, middleCount) }
        }
        // List the few events in (low, high] in schedule order; they are occurrences lowCount, lowCount + 1, …
        var found: [(start: Date, element: Int, k: Int)] = []
        for timeline in timelines {
            var k = timeline.count(atOrBefore: low)
            while let start = timeline.eventStart(k), start <= high {
                found.append((start, timeline.elementIndex, k))
                k += 1
            }
        }
        found.sort { ($0.start, $0.element, $0.k) < ($1.start, $1.element, $1.k) }
        let position = occurrence - lowCount
        guard found.indices.contains(position) else { return nil }
        let item = found[position]
        return timelines[item.element].event(item.k, occurrence: occurrence)
    }

    /// One timeline per element, sharing a calendar and zone clock.
    func makeTimelines() -> [ElementTimeline] {
        let clock = ZoneClock(timeZone)
        var calendar: Calendar?
        func sharedCalendar() -> Calendar {
            if let calendar { return calendar }
            var made = Calendar(identifier: .gregorian)
            made.timeZone = timeZone
            calendar = made
            return made
        }
        return elements.enumerated().map {
            ElementTimeline(elementIndex: $0.offset, element: $0.element, clock: clock, calendar: sharedCalendar)
        }
    }

    /// The occurrence index of event `k` of `timeline`, which starts at `start`: the events of every element that
    /// start before it, plus those at the same moment from elements with a lower index, plus earlier events of its
    /// own element at that moment.
    static func occurrence(of k: Int, in timeline: ElementTimeline, startingAt start: Date, among timelines: [ElementTimeline]) -> Int {
        var total = 0
        for other in timelines {
            if other.elementIndex < timeline.elementIndex {
                total += other.count(atOrBefore: start)
            } else if other.elementIndex == timeline.elementIndex {
                total += k
            } else {
                total += other.count(before: start)
            }
        }
        return total
    }
}
