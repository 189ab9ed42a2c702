import Foundation

/// A recurrence rule bound to its element's start (`DTSTART`) and the schedule's time zone, with everything its
/// expansion needs worked out once.
///
/// Date-based rules (DAILY to YEARLY) are expanded on the wall clock: each period yields candidate days (from the
/// `BY…` day parts) times candidate times of day (`BYHOUR` × `BYMINUTE` × `BYSECOND`, defaulting to the start's),
/// `BYSETPOS` picks among them, and each is turned into an instant in the zone. Time-based rules (SECONDLY to
/// HOURLY) step through real time, so "every hour" means every 60 minutes across a daylight-saving change.
struct RuleExpansion {
    let rule: RecurrenceRule
    let clock: ZoneClock
    let start: Date
    /// The element's end: no occurrence starts at or after it.
    let stop: Date?

    let startLocal: Double
    let startDay: Int
    let startYear: Int, startMonth: Int, startDayOfMonth: Int, startWeekday: Int
    /// Whole seconds into the start's local day.
    let startSecond: Int
    /// The start's fraction of a second, carried to every occurrence.
    let fraction: Double
    /// The latest instant UNTIL allows, and whether that instant itself is allowed.
    let untilLimit: Date?
    let untilInclusive: Bool

    /// Weekdays of `BYDAY` (1 = Sunday) with their ordinals.
    private let byDay: [(weekday: Int, ordinal: Int?)]
    private let byMonthSet: Set<Int>
    /// Seconds into the day of each occurrence of a date-based rule, ascending.
    let timesOfDay: [Int]
    /// The day that starts the week holding the start (per `WKST`).
    let weekOrigin: Int

    init(rule: RecurrenceRule, start: Date, clock: ZoneClock, stop: Date?) {
        self.rule = rule
        self.clock = clock
        self.start = start
        self.stop = stop
        startLocal = clock.localSeconds(of: start)
        startDay = Int((startLocal / 86_400).rounded(.down))
        let secondsIntoDay = startLocal - Double(startDay) * 86_400
        startSecond = min(86_399, Int(secondsIntoDay.rounded(.down)))
        fraction = secondsIntoDay - Double(startSecond)
        (startYear, startMonth, startDayOfMonth) = CivilDate.components(ofDay: startDay)
        startWeekday = CivilDate.weekday(ofDay: startDay)
        byDay = rule.byDay.map { (RecurrenceRule.calendarWeekday($0.weekday), $0.ordinal) }
        byMonthSet = Set(rule.byMonth)
        let hours = rule.byHour.isEmpty ? [startSecond / 3600] : rule.byHour
        let minutes = rule.byMinute.isEmpty ? [startSecond / 60 % 60] : rule.byMinute
        let seconds = rule.bySecond.isEmpty ? [startSecond % 60] : rule.bySecond
        timesOfDay = hours.flatMap { hour in minutes.flatMap { minute in seconds.map { hour * 3600 + minute * 60 + $0 } } }.sorted()
        let weekStart = RecurrenceRule.calendarWeekday(rule.weekStart)
        weekOrigin = startDay - (startWeekday - weekStart + 7) % 7

        switch rule.end {
        case .never, .count:
            untilLimit = nil
            untilInclusive = true
        case .until(.utc(let date)):
            untilLimit = date
            untilInclusive = true
        case .until(.localDateTime(let year, let month, let day, let hour, let minute, let second)):
            let local = Double(CivilDate.dayNumber(year: year, month: month, day: day)) * 86_400 + Double(hour * 3600 + minute * 60 + second)
            untilLimit = clock.instant(localSeconds: local)
            untilInclusive = true
        case .until(.date(let year, let month, let day)):
            untilLimit = clock.startOfDay(CivilDate.dayNumber(year: year, month: month, day: day) + 1)
            untilInclusive = false
        }
    }

    /// COUNT, or no limit.
    var countLimit: Int {
        if case .count(let count) = rule.end { return count }
        return Int.max
    }

    /// Whether an occurrence at `date` is allowed by UNTIL.
    func isWithinUntil(_ date: Date) -> Bool {
        guard let untilLimit else { return true }
        return untilInclusive ? date <= untilLimit : date < untilLimit
    }

    var isTimeBased: Bool { [.secondly, .minutely, .hourly].contains(rule.frequency) }

    private var hasDayParts: Bool {
        !rule.byMonth.isEmpty || !rule.byYearDay.isEmpty || !rule.byMonthDay.isEmpty || !rule.byDay.isEmpty
    }

    /// The step between occurrences of a time-based rule without `BY…` parts, which is plain arithmetic.
    var absoluteStep: Double? {
        guard isTimeBased, !hasDayParts, rule.byHour.isEmpty, rule.byMinute.isEmpty, rule.bySecond.isEmpty,
              rule.bySetPosition.isEmpty else { return nil }
        return Double(unitSeconds * rule.interval)
    }

    private var unitSeconds: Int {
        switch rule.frequency {
        case .hourly: 3600
        case .minutely: 60
        default: 1
        }
    }

    // MARK: - Day matching

    /// Whether a day passes the `BY…` day parts; ordinals of `BYDAY` count within the month or the year.
    private func dayMatches(_ day: Int, year: Int, month: Int, dayOfMonth: Int, monthScope: Bool) -> Bool {
        if !byMonthSet.isEmpty && !byMonthSet.contains(month) { return false }
        let daysInMonth = CivilDate.daysInMonth(year: year, month: month)
        if !rule.byMonthDay.isEmpty
            && !rule.byMonthDay.contains(where: { $0 > 0 ? $0 == dayOfMonth : daysInMonth + 1 + $0 == dayOfMonth }) {
            return false
        }
        let needsYearDay = !rule.byYearDay.isEmpty || (!monthScope && byDay.contains { $0.ordinal != nil })
        let yearDay = needsYearDay ? day - CivilDate.dayNumber(year: year, month: 1, day: 1) + 1 : 0
        let daysInYear = needsYearDay ? CivilDate.daysInYear(year) : 0
        if !rule.byYearDay.isEmpty && !rule.byYearDay.contains(where: { $0 > 0 ? $0 == yearDay : daysInYear + 1 + $0 == yearDay }) {
            return false
        }
        if !byDay.isEmpty {
            let weekday = CivilDate.weekday(ofDay: day)
            let matched = byDay.contains { entry in
                guard entry.weekday == weekday else { return false }
                guard let ordinal = entry.ordinal else { return true }
                let (position, length) = monthScope ? (dayOfMonth, daysInMonth) : (yearDay, daysInYear)
                return ordinal > 0 ? (position - 1) / 7 + 1 == ordinal : (length - position) / 7 + 1 == -ordinal
            }
            if !matched { return false }
        }
        return true
    }

    /// The candidate days of period `p` of a date-based rule, ascending.
    func days(inPeriod p: Int) -> [Int] {
        switch rule.frequency {
        case .yearly:
            let year = startYear + p * rule.interval
            if rule.byMonthDay.isEmpty && rule.byYearDay.isEmpty && rule.byDay.isEmpty {
                let months = rule.byMonth.isEmpty ? [startMonth] : rule.byMonth
                return months.compactMap { month in
                    startDayOfMonth <= CivilDate.daysInMonth(year: year, month: month)
                        ? CivilDate.dayNumber(year: year, month: month, day: startDayOfMonth) : nil
                }
            }
            let monthScope = !rule.byMonth.isEmpty
            var result: [Int] = []
            for month in rule.byMonth.isEmpty ? Array(1...12) : rule.byMonth {
                let first = CivilDate.dayNumber(year: year, month: month, day: 1)
                for dayOfMonth in 1...CivilDate.daysInMonth(year: year, month: month)
                where dayMatches(first + dayOfMonth - 1, year: year, month: month, dayOfMonth: dayOfMonth, monthScope: monthScope) {
                    result.append(first + dayOfMonth - 1)
                }
            }
            return result
        case .monthly:
            let (year, month) = CivilDate.yearAndMonth(ofMonthIndex: CivilDate.monthIndex(year: startYear, month: startMonth) + p * rule.interval)
            if !byMonthSet.isEmpty && !byMonthSet.contains(month) { return [] }
            let length = CivilDate.daysInMonth(year: year, month: month)
            if rule.byMonthDay.isEmpty && rule.byDay.isEmpty {
                return startDayOfMonth <= length ? [CivilDate.dayNumber(year: year, month: month, day: startDayOfMonth)] : []
            }
            let first = CivilDate.dayNumber(year: year, month: month, day: 1)
            return (1...length).compactMap { dayOfMonth in
                dayMatches(first + dayOfMonth - 1, year: year, month: month, dayOfMonth: dayOfMonth, monthScope: true)
                    ? first + dayOfMonth - 1 : nil
            }
        case .weekly:
            let first = weekOrigin + p * 7 * rule.interval
            return (first..<first + 7).filter { day in
                let weekday = CivilDate.weekday(ofDay: day)
                guard byDay.isEmpty ? weekday == startWeekday : byDay.contains(where: { $0.weekday == weekday }) else { return false }
                return byMonthSet.isEmpty || byMonthSet.contains(CivilDate.components(ofDay: day).month)
            }
        case .daily:
            let day = startDay + p * rule.interval
            let (year, month, dayOfMonth) = CivilDate.components(ofDay: day)
            return dayMatches(day, year: year, month: month, dayOfMonth: dayOfMonth, monthScope: true) ? [day] : []
        case .hourly, .minutely, .secondly:
            return []
        }
    }

    /// The first day of period `p` of a date-based rule (no candidate of the period is earlier).
    func firstDay(ofPeriod p: Int) -> Int {
        switch rule.frequency {
        case .yearly: CivilDate.dayNumber(year: startYear + p * rule.interval, month: 1, day: 1)
        case .monthly:
            CivilDate.dayNumber(ofMonthIndex: CivilDate.monthIndex(year: startYear, month: startMonth) + p * rule.interval, day: 1)
        case .weekly: weekOrigin + p * 7 * rule.interval
        default: startDay + p * rule.interval
        }
    }

    /// Keeps the `BYSETPOS` positions of a period's sorted candidates.
    func selectPositions<T>(_ candidates: [T]) -> [T] {
        guard !rule.bySetPosition.isEmpty, !candidates.isEmpty else { return candidates }
        let count = candidates.count
        let indices = Set(rule.bySetPosition.compactMap { position -> Int? in
            let index = position > 0 ? position - 1 : count + position
            return (0..<count).contains(index) ? index : nil
        })
        return indices.sorted().map { candidates[$0] }
    }

    /// Wall-clock candidates (local seconds) of period `p` of a date-based rule, after `BYSETPOS`.
    func localCandidates(inPeriod p: Int) -> [Double] {
        let days = days(inPeriod: p)
        var candidates: [Double] = []
        candidates.reserveCapacity(days.count * timesOfDay.count)
        for day in days {
            for time in timesOfDay { candidates.append(Double(day) * 86_400 + Double(time) + fraction) }
        }
        return selectPositions(candidates)
    }

    // MARK: - Time-based rules

    /// The instant that starts period 0 of a time-based rule (the start's hour, minute or second).
    var timeBasedOrigin: Double {
        let alignment: Int
        switch rule.frequency {
        case .hourly: alignment = startSecond % 3600
        case .minutely: alignment = startSecond % 60
        default: alignment = 0
        }
        return start.timeIntervalSince1970 - fraction - Double(alignment)
    }

    /// Seconds after the period's start of each candidate of a time-based rule.
    var timeBasedOffsets: [Int] {
        let seconds = rule.bySecond.isEmpty ? [startSecond % 60] : rule.bySecond
        switch rule.frequency {
        case .hourly:
            let minutes = rule.byMinute.isEmpty ? [startSecond / 60 % 60] : rule.byMinute
            return minutes.flatMap { minute in seconds.map { minute * 60 + $0 } }.sorted()
        case .minutely: return seconds.sorted()
        default: return [0]
        }
    }

    /// Whether a local day passes the day parts (for time-based rules, where they only limit).
    func dayPasses(_ day: Int) -> Bool {
        let (year, month, dayOfMonth) = CivilDate.components(ofDay: day)
        return dayMatches(day, year: year, month: month, dayOfMonth: dayOfMonth, monthScope: true)
    }

    /// Whether a local time of day passes the limiting time parts of a time-based rule.
    func timePasses(secondOfDay: Int) -> Bool {
        if !rule.byHour.isEmpty && !rule.byHour.contains(secondOfDay / 3600) { return false }
        if rule.frequency != .hourly && !rule.byMinute.isEmpty && !rule.byMinute.contains(secondOfDay / 60 % 60) { return false }
        if rule.frequency == .secondly && !rule.bySecond.isEmpty && !rule.bySecond.contains(secondOfDay % 60) { return false }
        return true
    }

    // MARK: - Fast path

    /// The rule as a fixed pattern per period, when every period yields the same occurrences: DAILY without day
    /// parts, WEEKLY with at most plain `BYDAY`, MONTHLY on a day up to the 28th and YEARLY not on February 29
    /// without day parts; each optionally with `BYHOUR`, `BYMINUTE`, `BYSECOND` and `BYSETPOS`. Nil otherwise.
    func periodicPattern() -> PeriodicPattern? {
        let dayOffsets: [Int]
        let unit: PeriodicPattern.Unit
        switch rule.frequency {
        case .daily:
            guard !hasDayParts else { return nil }
            dayOffsets = [0]
            unit = .days(step: rule.interval, origin: startDay)
        case .weekly:
            guard rule.byMonth.isEmpty, rule.byMonthDay.isEmpty, rule.byYearDay.isEmpty,
                  rule.byDay.allSatisfy({ $0.ordinal == nil }) else { return nil }
            let weekdays = byDay.isEmpty ? [startWeekday] : byDay.map(\.weekday)
            let weekStart = RecurrenceRule.calendarWeekday(rule.weekStart)
            dayOffsets = Set(weekdays.map { ($0 - weekStart + 7) % 7 }).sorted()
            unit = .days(step: 7 * rule.interval, origin: weekOrigin)
        case .monthly:
            guard !hasDayParts, startDayOfMonth <= 28 else { return nil }
            dayOffsets = [0]
            unit = .months(step: rule.interval, origin: CivilDate.monthIndex(year: startYear, month: startMonth), day: startDayOfMonth)
        case .yearly:
            guard !hasDayParts, !(startMonth == 2 && startDayOfMonth == 29) else { return nil }
            dayOffsets = [0]
            unit = .months(step: 12 * rule.interval, origin: CivilDate.monthIndex(year: startYear, month: startMonth), day: startDayOfMonth)
        default:
            return nil
        }
        let candidates = selectPositions(dayOffsets.flatMap { offset in timesOfDay.map { offset * 86_400 + $0 } })
        return PeriodicPattern(unit: unit, candidates: candidates, fraction: fraction, startLocal: startLocal, start: start, clock: clock)
    }
}

/// A rule whose every period yields the same occurrences, so that occurrence i is found by arithmetic.
struct PeriodicPattern {
    enum Unit {
        case days(step: Int, origin: Int)
        case months(step: Int, origin: Int, day: Int)
    }

    let unit: Unit
    /// Seconds after the start of the period's first day, ascending.
    let candidates: [Int]
    let fraction: Double
    let start: Date
    let clock: ZoneClock
    /// Candidates of period 0 before the start.
    let skipped: Int
    /// 1 when the start is not one of the pattern's occurrences (it comes first anyway), else 0.
    let lead: Int

    init(unit: Unit, candidates: [Int], fraction: Double, startLocal: Double, start: Date, clock: ZoneClock) {
        self.unit = unit
        self.candidates = candidates
        self.fraction = fraction
        self.start = start
        self.clock = clock
        let base = Self.periodStart(unit, 0)
        let locals = candidates.map { base + Double($0) + fraction }
        skipped = locals.filter { $0 < startLocal }.count
        lead = locals.contains(startLocal) ? 0 : 1
    }

    private static func periodStart(_ unit: Unit, _ period: Int) -> Double {
        switch unit {
        case .days(let step, let origin):
            return Double(origin + period * step) * 86_400
        case .months(let step, let origin, let day):
            let (year, month) = CivilDate.yearAndMonth(ofMonthIndex: origin + period * step)
            return Double(CivilDate.dayNumber(year: year, month: month, day: day)) * 86_400
        }
    }

    /// Average seconds between occurrences.
    var spacing: Double {
        let period: Double
        switch unit {
        case .days(let step, _): period = Double(step) * 86_400
        case .months(let step, _, _): period = Double(step) * 30.436875 * 86_400
        }
        return period / Double(max(1, candidates.count))
    }

    /// Occurrence `index` (the start is occurrence 0), before COUNT, UNTIL and the element's end are applied.
    func start(at index: Int) -> Date? {
        if index == 0 && lead == 1 { return start }
        guard !candidates.isEmpty else { return nil }
        let position = index - lead + skipped
        let period = position / candidates.count
        let local = Self.periodStart(unit, period) + Double(candidates[position % candidates.count]) + fraction
        return clock.instant(localSeconds: local)
    }
}

/// Lists a rule's occurrences in order from its start, period by period: the way for rules that are not periodic.
struct RuleIterator {
    let expansion: RuleExpansion
    private var period = 0
    private var buffer: [Date] = []
    private var position = 0
    private var produced = 0
    private var finished = false
    /// Local seconds (date-based) or instant (time-based) of the last occurrence, to give up on rules that stop
    /// producing occurrences (such as February 30).
    private var lastProgress: Double
    private let timeOrigin: Double
    private let timeOffsets: [Int]
    private let timeStep: Double

    /// How far past the last occurrence to look for the next before deciding there is none: 400 years.
    static let giveUpSeconds = 400 * 365.2425 * 86_400

    init(_ expansion: RuleExpansion) {
        self.expansion = expansion
        lastProgress = expansion.isTimeBased ? expansion.start.timeIntervalSince1970 : expansion.startLocal
        timeOrigin = expansion.timeBasedOrigin
        timeOffsets = expansion.timeBasedOffsets
        timeStep = Double(expansion.rule.interval * (expansion.rule.frequency == .hourly ? 3600 : expansion.rule.frequency == .minutely ? 60 : 1))
    }

    mutating func next() -> Date? {
        guard !finished else { return nil }
        if produced == 0 {
            produced = 1
            return expansion.start
        }
        guard produced < expansion.countLimit else { finished = true; return nil }
        while position == buffer.count {
            guard fill() else { finished = true; return nil }
        }
        let date = buffer[position]
        position += 1
        guard expansion.isWithinUntil(date), expansion.stop.map({ date < $0 }) ?? true else { finished = true; return nil }
        produced += 1
        return date
    }

    /// Loads the next non-empty period into the buffer; false when the rule has ended.
    private mutating func fill() -> Bool {
        buffer.removeAll(keepingCapacity: true)
        position = 0
        while buffer.isEmpty {
            if expansion.isTimeBased {
                guard fillTimeBased() else { return false }
            } else {
                let firstDay = expansion.firstDay(ofPeriod: period)
                let periodStart = expansion.clock.startOfDay(firstDay)
                if let limit = expansion.untilLimit, periodStart > limit { return false }
                if let stop = expansion.stop, periodStart >= stop { return false }
                if Double(firstDay) * 86_400 - lastProgress > Self.giveUpSeconds { return false }
                for local in expansion.localCandidates(inPeriod: period) where local > expansion.startLocal {
                    buffer.append(expansion.clock.instant(localSeconds: local))
                }
                period += 1
                if let last = buffer.last { lastProgress = expansion.clock.localSeconds(of: last) }
            }
        }
        return true
    }

    private mutating func fillTimeBased() -> Bool {
        let base = timeOrigin + Double(period) * timeStep
        let baseDate = Date(timeIntervalSince1970: base)
        if let limit = expansion.untilLimit, baseDate > limit { return false }
        if let stop = expansion.stop, baseDate >= stop { return false }
        if base - lastProgress > Self.giveUpSeconds { return false }
        let clock = expansion.clock
        let local = clock.localSeconds(of: baseDate)
        let day = Int((local / 86_400).rounded(.down))
        if !expansion.dayPasses(day) {
            jump(to: clock.startOfDay(day + 1).timeIntervalSince1970)
            return true
        }
        let rule = expansion.rule
        if rule.frequency != .hourly && !rule.byHour.isEmpty {
            let secondOfDay = Int((local - Double(day) * 86_400).rounded(.down))
            if !rule.byHour.contains(secondOfDay / 3600) {
                jump(to: base + Double(3600 - secondOfDay % 3600))
                return true
            }
        }
        var candidates: [Date] = []
        for offset in timeOffsets {
            let date = Date(timeIntervalSince1970: base + Double(offset) + expansion.fraction)
            let candidateLocal = clock.localSeconds(of: date)
            let candidateDay = Int((candidateLocal / 86_400).rounded(.down))
            let secondOfDay = Int((candidateLocal - Double(candidateDay) * 86_400).rounded(.down))
            if (candidateDay == day || expansion.dayPasses(candidateDay)) && expansion.timePasses(secondOfDay: secondOfDay) {
                candidates.append(date)
            }
        }
        for date in expansion.selectPositions(candidates) where date > expansion.start { buffer.append(date) }
        period += 1
        if let last = buffer.last { lastProgress = last.timeIntervalSince1970 }
        return true
    }

    /// Moves to the first period that starts at or after `instant`.
    private mutating func jump(to instant: Double) {
        let target = Int(((instant - timeOrigin) / timeStep).rounded(.up))
        period = max(period + 1, target)
    }
}
