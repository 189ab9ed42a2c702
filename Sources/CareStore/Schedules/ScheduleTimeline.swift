import Foundation

/// The events of one schedule element by index, for the length of one query: event k's start and end, how many
/// events start before a moment, and which is the first to end after one.
///
/// Interval elements, time-based rules without `BY…` parts and periodic rules (see
/// ``RuleExpansion/periodicPattern()``) compute event k directly, so these questions cost a few calendar
/// computations wherever the moment is: an estimate from the average spacing, corrected by galloping and bisection.
/// Other rules are listed from the start, and the list is kept for the rest of the query.
final class ElementTimeline {
    let elementIndex: Int
    let element: ScheduleElement
    private let clock: ZoneClock
    private let source: Source
    private let countLimit: Int
    private let expansion: RuleExpansion?
    /// Average seconds between events, for estimates.
    let spacing: Double
    private let isAllDay: Bool
    private let eventSeconds: Double

    private enum Source {
        case once
        case absolute(step: Double)
        /// Whole days (or weeks) on the wall clock: event k is k × `days` local days after the start, same time.
        case days(Int, start: LocalStart)
        /// Whole months (or years): event k is in the month k × `months` after the start's, on the start's day
        /// clamped to that month's length, same time.
        case months(Int, start: LocalStart)
        case calendar(Calendar, [(Calendar.Component, Int)])
        case periodic(PeriodicPattern)
        case enumerated
    }

    private var iterator: RuleIterator?
    private var cache: [Date] = []
    private var exhausted = false

    /// `calendar` is asked only for intervals that mix calendar units (months and days, days and hours…).
    init(elementIndex: Int, element: ScheduleElement, clock: ZoneClock, calendar: () -> Calendar) {
        self.elementIndex = elementIndex
        self.element = element
        self.clock = clock
        switch element.duration {
        case .allDay:
            isAllDay = true
            eventSeconds = 86_400
        case .seconds(let seconds):
            isAllDay = false
            eventSeconds = seconds
        }
        var source = Source.once
        var spacing = 86_400.0
        var countLimit = 1
        var expansion: RuleExpansion?
        switch element.repetition {
        case .once:
            break
        case .interval(let interval):
            let parts = DateComponents.scheduleIntervalKeys.compactMap { key -> (Calendar.Component, Int)? in
                guard let value = interval.value(for: key.component), value != 0 else { return nil }
                return (key.component, value)
            }
            let seconds = parts.reduce(0.0) { total, part in total + Double(part.1) * Self.averageSeconds(part.0) }
            // An interval that does not move forward would repeat the start forever: the element happens once.
            // (Intervals of one kind of unit move forward exactly when their total is positive.)
            let units = Set(parts.map(\.0))
            let days = parts.reduce(0) { $0 + $1.1 * ($1.0 == .day ? 1 : $1.0 == .weekOfYear ? 7 : 0) }
            let months = parts.reduce(0) { $0 + $1.1 * ($1.0 == .month ? 1 : $1.0 == .year ? 12 : 0) }
            if seconds > 0 {
                if units.isSubset(of: [.hour, .minute, .second]) {
                    source = .absolute(step: seconds)
                } else if units.isSubset(of: [.day, .weekOfYear]), days > 0 {
                    source = .days(days, start: LocalStart(element.start, clock: clock))
                } else if units.count == 1, units.isSubset(of: [.month, .year]), months > 0 {
                    // (Months and years together stay with Calendar, which adds the years first and clamps the day
                    // in between: Feb 29 + 1 year 1 month is Mar 28.)
                    source = .months(months, start: LocalStart(element.start, clock: clock))
                } else if let next = calendar().date(byAdding: interval, to: element.start), next > element.start {
                    source = .calendar(calendar(), parts)
                }
                if case .once = source {} else {
                    spacing = seconds
                    countLimit = Int.max
                }
            }
        case .rule(let rule):
            let ruleExpansion = RuleExpansion(rule: rule, start: element.start, clock: clock, stop: element.end)
            expansion = ruleExpansion
            countLimit = ruleExpansion.countLimit
            if let step = ruleExpansion.absoluteStep {
                source = .absolute(step: step)
                spacing = step
            } else if let pattern = ruleExpansion.periodicPattern() {
                source = .periodic(pattern)
                spacing = pattern.spacing
            } else {
                source = .enumerated
                iterator = RuleIterator(ruleExpansion)
                spacing = Self.averageSeconds(rule.frequency) * Double(rule.interval)
            }
        }
        self.source = source
        self.spacing = spacing
        self.countLimit = countLimit
        self.expansion = expansion
    }

    private static func averageSeconds(_ component: Calendar.Component) -> Double {
        switch component {
        case .year: 365.2425 * 86_400
        case .month: 30.436875 * 86_400
        case .weekOfYear, .weekOfMonth: 7 * 86_400
        case .day: 86_400
        case .hour: 3600
        case .minute: 60
        default: 1
        }
    }

    private static func averageSeconds(_ frequency: RecurrenceRule.Frequency) -> Double {
        switch frequency {
        case .yearly: averageSeconds(.year)
        case .monthly: averageSeconds(.month)
        case .weekly: averageSeconds(.weekOfYear)
        case .daily: averageSeconds(.day)
        case .hourly: averageSeconds(.hour)
        case .minutely: averageSeconds(.minute)
        case .secondly: 1
        }
    }

    /// Whether the element's events can be found by index without listing the earlier ones.
    var isArithmetic: Bool {
        if case .enumerated = source { return false }
        return true
    }

    // MARK: - Event k

    /// When event `k` begins by the element's own arithmetic (before widening to a whole day); nil when the element
    /// has no event `k` (past COUNT, UNTIL or the element's end).
    func rawStart(_ k: Int) -> Date? {
        guard k >= 0, k < countLimit else { return nil }
        let date: Date?
        switch source {
        case .once:
            date = k == 0 ? element.start : nil
        case .absolute(let step):
            date = element.start.addingTimeInterval(Double(k) * step)
        case .days(let days, let start):
            let (offset, overflow) = days.multipliedReportingOverflow(by: k)
            if overflow || abs(offset) > 100_000_000 { return nil }
            date = k == 0 ? element.start : clock.instant(localSeconds: Double(start.day + offset) * 86_400 + start.secondOfDay)
        case .months(let months, let start):
            let (offset, overflow) = months.multipliedReportingOverflow(by: k)
            if overflow || abs(offset) > 1_000_000 { return nil }
            if k == 0 {
                date = element.start
            } else {
                let (year, month) = CivilDate.yearAndMonth(ofMonthIndex: start.monthIndex + offset)
                let day = CivilDate.dayNumber(year: year, month: month, day: min(start.dayOfMonth, CivilDate.daysInMonth(year: year, month: month)))
                date = clock.instant(localSeconds: Double(day) * 86_400 + start.secondOfDay)
            }
        case .calendar(let calendar, let parts):
            if k == 0 {
                date = element.start
            } else {
                var components = DateComponents()
                for (component, value) in parts {
                    let (product, overflow) = value.multipliedReportingOverflow(by: k)
                    if overflow { return nil }
                    components.setValue(product, for: component)
                }
                date = calendar.date(byAdding: components, to: element.start)
            }
        case .periodic(let pattern):
            date = pattern.start(at: k)
        case .enumerated:
            while cache.count <= k && !exhausted {
                if let next = iterator?.next() { cache.append(next) } else { exhausted = true }
            }
            date = k < cache.count ? cache[k] : nil
        }
        guard let date else { return nil }
        if let end = element.end, date >= end { return nil }
        if k > 0, let expansion, !expansion.isWithinUntil(date) { return nil }
        return date
    }

    /// When event `k` starts (all-day events: the start of their day); nil when there is no event `k`.
    func eventStart(_ k: Int) -> Date? {
        guard let raw = rawStart(k) else { return nil }
        return isAllDay ? clock.startOfDay(clock.dayNumber(of: raw)) : raw
    }

    /// Start and end of event `k`.
    func eventSpan(_ k: Int) -> (start: Date, end: Date)? {
        guard let raw = rawStart(k) else { return nil }
        if isAllDay {
            let day = clock.dayNumber(of: raw)
            return (clock.startOfDay(day), clock.startOfDay(day + 1))
        }
        return (raw, raw.addingTimeInterval(eventSeconds))
    }

    /// Event `k` as a schedule event with occurrence index `occurrence`.
    func event(_ k: Int, occurrence: Int) -> ScheduleEvent? {
        eventSpan(k).map { event(k, span: $0, occurrence: occurrence) }
    }

    /// Event `k`, whose span is known, as a schedule event.
    func event(_ k: Int, span: (start: Date, end: Date), occurrence: Int) -> ScheduleEvent {
        ScheduleEvent(occurrence: occurrence, start: span.start, end: span.end, elementIndex: elementIndex,
                      text: element.text, targetValues: element.targetValues)
    }

    /// An element's start on the wall clock of its zone, taken apart once for day and month arithmetic.
    struct LocalStart {
        /// The local day number.
        let day: Int
        /// Seconds since local midnight, with any fraction.
        let secondOfDay: Double
        /// The local month, counted from year 0 (``CivilDate/monthIndex(year:month:)``).
        let monthIndex: Int
        /// The local day of the month, 1–31.
        let dayOfMonth: Int

        init(_ date: Date, clock: ZoneClock) {
            let local = clock.localSeconds(of: date)
            day = Int((local / 86_400).rounded(.down))
            secondOfDay = local - Double(day) * 86_400
            let (year, month, dayOfMonth) = CivilDate.components(ofDay: day)
            monthIndex = CivilDate.monthIndex(year: year, month: month)
            self.dayOfMonth = dayOfMonth
        }
    }

    // MARK: - Counting

    /// How many events start before `date`.
    func count(before date: Date) -> Int {
        firstIndex(estimate: estimate(for: date)) { k in self.eventStart(k).map { $0 < date } ?? false }
    }

    /// How many events start at or before `date`.
    func count(atOrBefore date: Date) -> Int {
        count(before: Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.nextUp))
    }

    /// The index of the first event that ends after `date` (it may not exist: check ``eventStart(_:)``).
    func firstIndex(endingAfter date: Date) -> Int {
        let lead = isAllDay ? 86_400 : eventSeconds
        return firstIndex(estimate: estimate(for: date.addingTimeInterval(-lead))) { k in
            self.eventSpan(k).map { $0.end <= date } ?? false
        }
    }

    private func estimate(for date: Date) -> Int {
        let elapsed = date.timeIntervalSince(element.start) / spacing
        guard elapsed > 0 else { return 0 }
        return Int(min(elapsed, 1e12))
    }

    /// The smallest k ≥ 0 for which `isBefore(k)` is false, where `isBefore` is true up to some index and false
    /// from there on. Starts at `estimate` and gallops toward the answer, then bisects: O(log error) probes.
    private func firstIndex(estimate: Int, _ isBefore: (Int) -> Bool) -> Int {
        if case .enumerated = source {
            // Listing from the start: the list grows no further than 64 events past the answer.
            var low = -1, high = 0, step = 1
            while isBefore(high) {
                low = high
                high += step
                step = min(step * 2, 64)
            }
            return bisect(low: low, high: high, isBefore)
        }
        var k = max(0, estimate)
        if isBefore(k) {
            var low = k, step = 1
            var high = k + step
            while isBefore(high) {
                low = high
                step *= 2
                high = k + step
            }
            return bisect(low: low, high: high, isBefore)
        }
        guard k > 0 else { return 0 }
        var high = k, step = 1
        k -= 1
        while k >= 0 && !isBefore(k) {
            high = k
            step *= 2
            k = high - step
        }
        return bisect(low: max(k, -1), high: high, isBefore)
    }

    /// Bisects between `low` (isBefore true, or -1) and `high` (isBefore false).
    private func bisect(low: Int, high: Int, _ isBefore: (Int) -> Bool) -> Int {
        var low = low, high = high
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if isBefore(middle) { low = middle } else { high = middle }
        }
        return high
    }
}
