import Foundation

/// An RFC 5545 recurrence rule (`RRULE`), such as `FREQ=WEEKLY;BYDAY=MO,WE,FR` or `FREQ=MONTHLY;BYDAY=-1FR;COUNT=6`,
/// for schedule elements that a fixed calendar interval cannot express.
///
/// ```swift
/// let rule = try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=1MO")
/// rule.description  // "FREQ=MONTHLY;BYDAY=1MO"
/// ```
///
/// A rule is expanded from its element's start (the `DTSTART`), in the schedule's time zone, as RFC 5545 says:
/// the start is always the first occurrence and counts toward `COUNT` even when it does not match the `BY…` parts;
/// times of day come from the start unless `BYHOUR`, `BYMINUTE` or `BYSECOND` say otherwise; dates that do not
/// exist (February 30, or the 31st in a 30-day month) are skipped. A time of day that a daylight-saving change skips
/// is moved forward by the length of the gap, as `Calendar` does for interval elements.
///
/// Supported parts: `FREQ`, `INTERVAL`, `COUNT`, `UNTIL`, `BYMONTH`, `BYYEARDAY`, `BYMONTHDAY`, `BYDAY`, `BYHOUR`,
/// `BYMINUTE`, `BYSECOND`, `BYSETPOS` and `WKST`. `BYWEEKNO` is not supported. The lists are kept sorted and without
/// duplicates (numbers counted from the start first, then those counted from the end), so that two rules that mean
/// the same thing compare equal and print the same.
public struct RecurrenceRule: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How often the rule repeats: the length of one period, which the `BY…` parts expand or limit.
    public enum Frequency: String, Hashable, Sendable, CaseIterable {
        /// Every second (in real time).
        case secondly = "SECONDLY"
        /// Every minute (in real time).
        case minutely = "MINUTELY"
        /// Every hour, in real time: across a daylight-saving change the wall-clock time jumps with the clock.
        case hourly = "HOURLY"
        /// Every day, at the same wall-clock time.
        case daily = "DAILY"
        /// Every week; weeks begin on the rule's ``RecurrenceRule/weekStart``.
        case weekly = "WEEKLY"
        /// Every month; a day the month lacks (the 31st in April) is skipped, as RFC 5545 says.
        case monthly = "MONTHLY"
        /// Every year; February 29 happens only in leap years.
        case yearly = "YEARLY"
    }

    /// One entry of `BYDAY`: a weekday, and for monthly and yearly rules optionally which one of the month or year
    /// (`1MO` the first Monday, `-1FR` the last Friday).
    public struct WeekdayEntry: Hashable, Sendable, Comparable {
        /// The n-th weekday of the month (or of the year) counting from 1, or from the end when negative; nil for every one.
        public var ordinal: Int?
        /// The day of the week.
        public var weekday: Locale.Weekday

        /// Creates an entry: every `weekday`, or only the `ordinal`-th one of the period.
        public init(_ weekday: Locale.Weekday, ordinal: Int? = nil) {
            self.ordinal = ordinal
            self.weekday = weekday
        }

        /// Orders by weekday from Monday, then plain weekday before ordinals, then ordinals ascending.
        public static func < (lhs: Self, rhs: Self) -> Bool {
            let left = RecurrenceRule.mondayBasedIndex(lhs.weekday), right = RecurrenceRule.mondayBasedIndex(rhs.weekday)
            if left != right { return left < right }
            return (lhs.ordinal ?? Int.min) < (rhs.ordinal ?? Int.min)
        }
    }

    /// When `UNTIL` ends a rule. The last occurrence is the last one at or before this moment.
    public enum Until: Hashable, Sendable {
        /// A date (`UNTIL=20260501`): occurrences on that day, in the schedule's time zone, still happen.
        case date(year: Int, month: Int, day: Int)
        /// A floating date and time (`UNTIL=20260501T090000`), read on the wall clock of the schedule's time zone.
        case localDateTime(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)
        /// A moment in UTC (`UNTIL=20260501T070000Z`).
        case utc(Date)
    }

    /// How the rule ends: never, after a number of occurrences, or at a moment.
    public enum End: Hashable, Sendable {
        /// The rule repeats forever (or until its element's `end`).
        case never
        /// `COUNT`: the rule has this many occurrences, the element's start included.
        case count(Int)
        /// `UNTIL`: the rule has the occurrences at or before this moment.
        case until(Until)
    }

    /// `FREQ`: the length of one period.
    public var frequency: Frequency
    /// `INTERVAL`: the rule happens every `interval`-th period (1 = every period).
    public var interval: Int
    /// `COUNT` or `UNTIL`.
    public var end: End
    /// `BYMONTH`: months 1–12.
    public var byMonth: [Int]
    /// `BYYEARDAY`: days of the year, 1–366 or -366–-1 from the end.
    public var byYearDay: [Int]
    /// `BYMONTHDAY`: days of the month, 1–31 or -31–-1 from the end (`-1` is the last day).
    public var byMonthDay: [Int]
    /// `BYDAY`: weekdays, with ordinals in monthly and yearly rules.
    public var byDay: [WeekdayEntry]
    /// `BYHOUR`: hours 0–23 on the wall clock of the schedule's time zone.
    public var byHour: [Int]
    /// `BYMINUTE`: minutes 0–59.
    public var byMinute: [Int]
    /// `BYSECOND`: seconds 0–59.
    public var bySecond: [Int]
    /// `BYSETPOS`: which of each period's occurrences to keep, 1-based, negative from the end (`-1` the last).
    public var bySetPosition: [Int]
    /// `WKST`: the day weeks start on, for weekly rules with an interval; Monday unless the rule says otherwise.
    public var weekStart: Locale.Weekday

    /// Creates a rule from its parts; lists are sorted and duplicates dropped. Check it with ``problems``.
    public init(frequency: Frequency, interval: Int = 1, end: End = .never, byMonth: [Int] = [], byYearDay: [Int] = [],
                byMonthDay: [Int] = [], byDay: [WeekdayEntry] = [], byHour: [Int] = [], byMinute: [Int] = [],
                bySecond: [Int] = [], bySetPosition: [Int] = [], weekStart: Locale.Weekday = .monday) {
        self.frequency = frequency
        self.interval = interval
        self.end = end
        self.byMonth = Self.canonical(byMonth)
        self.byYearDay = Self.canonical(byYearDay)
        self.byMonthDay = Self.canonical(byMonthDay)
        self.byDay = Array(Set(byDay)).sorted()
        self.byHour = Self.canonical(byHour)
        self.byMinute = Self.canonical(byMinute)
        self.bySecond = Self.canonical(bySecond)
        self.bySetPosition = Self.canonical(bySetPosition)
        self.weekStart = weekStart
    }

    /// Parses an `RRULE` value such as `FREQ=DAILY;COUNT=10` (an `RRULE:` prefix is allowed, case does not matter),
    /// and checks it: an unknown part, a value out of range or parts that cannot go together throw an error naming
    /// the part, like `BYDAY: 'XX' is not a weekday`.
    public init(parsing text: String) throws(RecurrenceRuleError) {
        self = try RecurrenceRuleParser.parse(text)
    }

    /// The canonical `RRULE` value: parts in the order FREQ, INTERVAL (when not 1), COUNT or UNTIL, BYMONTH, BYYEARDAY,
    /// BYMONTHDAY, BYDAY, BYHOUR, BYMINUTE, BYSECOND, BYSETPOS, WKST (when not Monday).
    public var description: String {
        var parts = ["FREQ=\(frequency.rawValue)"]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        switch end {
        case .never: break
        case .count(let count): parts.append("COUNT=\(count)")
        case .until(let until): parts.append("UNTIL=\(Self.format(until))")
        }
        func list(_ name: String, _ values: [Int]) {
            if !values.isEmpty { parts.append("\(name)=" + Self.canonical(values).map(String.init).joined(separator: ",")) }
        }
        list("BYMONTH", byMonth)
        list("BYYEARDAY", byYearDay)
        list("BYMONTHDAY", byMonthDay)
        if !byDay.isEmpty {
            parts.append("BYDAY=" + Array(Set(byDay)).sorted().map { entry in
                (entry.ordinal.map(String.init) ?? "") + Self.code(of: entry.weekday)
            }.joined(separator: ","))
        }
        list("BYHOUR", byHour)
        list("BYMINUTE", byMinute)
        list("BYSECOND", bySecond)
        list("BYSETPOS", bySetPosition)
        if weekStart != .monday { parts.append("WKST=\(Self.code(of: weekStart))") }
        return parts.joined(separator: ";")
    }

    /// Everything wrong with a rule built in code (a parsed rule has none): values out of range and parts that
    /// cannot go together. Each message names its part, like `INTERVAL: must be at least 1 (0)`.
    public var problems: [RecurrenceRuleError] {
        RecurrenceRuleParser.problems(in: self)
    }

    /// Reads the rule from its `RRULE` string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try RecurrenceRule(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Writes the rule as its canonical `RRULE` string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    // MARK: - Helpers

    /// Sorted without duplicates: counted from the start ascending, then counted from the end (`1,15,-1,-2`).
    static func canonical(_ values: [Int]) -> [Int] {
        Array(Set(values)).sorted { ($0 < 0 ? 1 : 0, abs($0)) < ($1 < 0 ? 1 : 0, abs($1)) }
    }

    /// The two-letter RFC 5545 code of a weekday.
    static func code(of weekday: Locale.Weekday) -> String {
        switch weekday {
        case .monday: "MO"
        case .tuesday: "TU"
        case .wednesday: "WE"
        case .thursday: "TH"
        case .friday: "FR"
        case .saturday: "SA"
        case .sunday: "SU"
        @unknown default: "MO"
        }
    }

    static let weekdaysByCode: [String: Locale.Weekday] = [
        "MO": .monday, "TU": .tuesday, "WE": .wednesday, "TH": .thursday, "FR": .friday, "SA": .saturday, "SU": .sunday,
    ]

    /// 0 = Monday … 6 = Sunday.
    static func mondayBasedIndex(_ weekday: Locale.Weekday) -> Int {
        (calendarWeekday(weekday) + 5) % 7
    }

    /// 1 = Sunday … 7 = Saturday, as `Calendar` numbers weekdays.
    static func calendarWeekday(_ weekday: Locale.Weekday) -> Int {
        switch weekday {
        case .sunday: 1
        case .monday: 2
        case .tuesday: 3
        case .wednesday: 4
        case .thursday: 5
        case .friday: 6
        case .saturday: 7
        @unknown default: 2
        }
    }

    static func format(_ until: Until) -> String {
        switch until {
        case .date(let year, let month, let day):
            return String(format: "%04d%02d%02d", year, month, day)
        case .localDateTime(let year, let month, let day, let hour, let minute, let second):
            return String(format: "%04d%02d%02dT%02d%02d%02d", year, month, day, hour, minute, second)
        case .utc(let date):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .gmt
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0,
                          c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
        }
    }
}

/// What is wrong with a recurrence rule: the part (`BYDAY`) and the problem (`'XX' is not a weekday`).
public struct RecurrenceRuleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rule part at fault, such as `BYDAY`; nil when the fault is not in one part.
    public var part: String?
    /// What is wrong, in plain English.
    public var message: String

    /// Creates an error about `part` (nil for the whole rule).
    public init(part: String?, message: String) {
        self.part = part
        self.message = message
    }

    /// `PART: message`, or only the message.
    public var description: String { part.map { "\($0): \(message)" } ?? message }
}

/// Reads and checks `RRULE` text.
enum RecurrenceRuleParser {
    static func parse(_ text: String) throws(RecurrenceRuleError) -> RecurrenceRule {
        var body = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if body.uppercased().hasPrefix("RRULE:") { body = String(body.dropFirst(6)) }
        guard !body.isEmpty else { throw RecurrenceRuleError(part: nil, message: "the rule is empty; it needs at least FREQ, like FREQ=DAILY") }

        var values: [String: String] = [:]
        for piece in body.split(separator: ";", omittingEmptySubsequences: false) {
            if piece.isEmpty { continue }
            guard let equals = piece.firstIndex(of: "=") else {
                throw RecurrenceRuleError(part: nil, message: "'\(piece)' is not a NAME=VALUE part")
            }
            let name = piece[..<equals].trimmingCharacters(in: .whitespaces).uppercased()
            let value = piece[piece.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard known.contains(name) else {
                if name == "BYWEEKNO" { throw RecurrenceRuleError(part: name, message: "is not supported") }
                throw RecurrenceRuleError(part: nil, message: "'\(name)' is not a recurrence rule part")
            }
            guard values[name] == nil else { throw RecurrenceRuleError(part: name, message: "is given twice") }
            guard !value.isEmpty else { throw RecurrenceRuleError(part: name, message: "has no value") }
            values[name] = value
        }

        guard let frequencyText = values["FREQ"] else {
            throw RecurrenceRuleError(part: "FREQ", message: "is missing; a rule needs FREQ, like FREQ=DAILY")
        }
        guard let frequency = RecurrenceRule.Frequency(rawValue: frequencyText.uppercased()) else {
            throw RecurrenceRuleError(part: "FREQ", message: "'\(frequencyText)' is not a frequency (SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY)")
        }
        var interval = 1
        if let text = values["INTERVAL"] { interval = try integer(text, part: "INTERVAL", in: 1...Int(Int32.max), what: "a whole number of at least 1") }

        if values["COUNT"] != nil && values["UNTIL"] != nil {
            throw RecurrenceRuleError(part: "COUNT", message: "COUNT and UNTIL cannot be used together")
        }
        var end = RecurrenceRule.End.never
        if let text = values["COUNT"] { end = .count(try integer(text, part: "COUNT", in: 1...Int(Int32.max), what: "a whole number of at least 1")) }
        if let text = values["UNTIL"] { end = .until(try until(text)) }

        func list(_ name: String, _ range: ClosedRange<Int>, allowNegative: Bool, what: String) throws(RecurrenceRuleError) -> [Int] {
            guard let text = values[name] else { return [] }
            var result: [Int] = []
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                let trimmed = item.trimmingCharacters(in: .whitespaces)
                guard let number = Int(trimmed.hasPrefix("+") ? String(trimmed.dropFirst()) : trimmed),
                      range.contains(number) || (allowNegative && range.contains(-number)) else {
                    throw RecurrenceRuleError(part: name, message: "'\(trimmed)' is not \(what)")
                }
                result.append(number)
            }
            return result
        }
        let byMonth = try list("BYMONTH", 1...12, allowNegative: false, what: "a month (1 to 12)")
        let byYearDay = try list("BYYEARDAY", 1...366, allowNegative: true, what: "a day of the year (1 to 366 or -366 to -1)")
        let byMonthDay = try list("BYMONTHDAY", 1...31, allowNegative: true, what: "a day of the month (1 to 31 or -31 to -1)")
        let byHour = try list("BYHOUR", 0...23, allowNegative: false, what: "an hour (0 to 23)")
        let byMinute = try list("BYMINUTE", 0...59, allowNegative: false, what: "a minute (0 to 59)")
        let bySecond = try list("BYSECOND", 0...59, allowNegative: false, what: "a second (0 to 59)")
        let bySetPosition = try list("BYSETPOS", 1...366, allowNegative: true, what: "a position (1 to 366 or -366 to -1)")

        var byDay: [RecurrenceRule.WeekdayEntry] = []
        if let text = values["BYDAY"] {
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                byDay.append(try weekdayEntry(item.trimmingCharacters(in: .whitespaces)))
            }
        }
        var weekStart = Locale.Weekday.monday
        if let text = values["WKST"] {
            guard let weekday = RecurrenceRule.weekdaysByCode[text.uppercased()] else {
                throw RecurrenceRuleError(part: "WKST", message: "'\(text)' is not a weekday (MO, TU, WE, TH, FR, SA or SU)")
            }
            weekStart = weekday
        }
        let rule = RecurrenceRule(frequency: frequency, interval: interval, end: end, byMonth: byMonth, byYearDay: byYearDay,
                                  byMonthDay: byMonthDay, byDay: byDay, byHour: byHour, byMinute: byMinute, bySecond: bySecond,
                                  bySetPosition: bySetPosition, weekStart: weekStart)
        if let problem = combinationProblems(in: rule).first { throw problem }
        return rule
    }

    private static let known: Set<String> = [
        "FREQ", "INTERVAL", "COUNT", "UNTIL", "BYMONTH", "BYYEARDAY", "BYMONTHDAY", "BYDAY", "BYHOUR", "BYMINUTE",
        "BYSECOND", "BYSETPOS", "WKST",
    ]

    private static func integer(_ text: String, part: String, in range: ClosedRange<Int>, what: String) throws(RecurrenceRuleError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw RecurrenceRuleError(part: part, message: "'\(text)' is not \(what)")
        }
        return value
    }

    private static func weekdayEntry(_ text: String) throws(RecurrenceRuleError) -> RecurrenceRule.WeekdayEntry {
        let code = String(text.suffix(2)).uppercased()
        let prefix = String(text.dropLast(min(2, text.count)))
        guard text.count >= 2, let weekday = RecurrenceRule.weekdaysByCode[code] else {
            throw RecurrenceRuleError(part: "BYDAY", message: "'\(text)' is not a weekday")
        }
        guard !prefix.isEmpty else { return RecurrenceRule.WeekdayEntry(weekday) }
        let digits = prefix.hasPrefix("+") ? String(prefix.dropFirst()) : prefix
        guard let ordinal = Int(digits), ordinal != 0, (1...53).contains(abs(ordinal)) else {
            throw RecurrenceRuleError(part: "BYDAY", message: "'\(text)': '\(prefix)' is not an ordinal (1 to 53 or -53 to -1)")
        }
        return RecurrenceRule.WeekdayEntry(weekday, ordinal: ordinal)
    }

    private static func until(_ text: String) throws(RecurrenceRuleError) -> RecurrenceRule.Until {
        let fail = RecurrenceRuleError(part: "UNTIL", message: "'\(text)' is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, with Z for UTC)")
        let characters = Array(text.uppercased())
        func number(_ range: Range<Int>) -> Int? {
            let slice = characters[range]
            guard slice.allSatisfy(\.isASCII), slice.allSatisfy(\.isNumber) else { return nil }
            return Int(String(slice))
        }
        guard characters.count == 8 || characters.count == 15 || characters.count == 16,
              let year = number(0..<4), let month = number(4..<6), let day = number(6..<8) else { throw fail }
        guard (1...12).contains(month), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day) else {
            throw RecurrenceRuleError(part: "UNTIL", message: "'\(text)' is not a valid date")
        }
        if characters.count == 8 { return .date(year: year, month: month, day: day) }
        guard characters[8] == "T", let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15) else { throw fail }
        guard hour < 24, minute < 60, second < 60 else {
            throw RecurrenceRuleError(part: "UNTIL", message: "'\(text)' is not a valid time of day")
        }
        if characters.count == 15 { return .localDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second) }
        guard characters[15] == "Z" else { throw fail }
        let seconds = Double(CivilDate.dayNumber(year: year, month: month, day: day)) * 86_400 + Double(hour * 3600 + minute * 60 + second)
        return .utc(Date(timeIntervalSince1970: seconds))
    }

    /// Parts that cannot go together, per RFC 5545's table of which parts each frequency allows.
    static func combinationProblems(in rule: RecurrenceRule) -> [RecurrenceRuleError] {
        var problems: [RecurrenceRuleError] = []
        let frequency = rule.frequency
        if !rule.byDay.filter({ $0.ordinal != nil }).isEmpty && frequency != .monthly && frequency != .yearly {
            problems.append(RecurrenceRuleError(part: "BYDAY", message: "ordinals like '1MO' need FREQ=MONTHLY or FREQ=YEARLY"))
        }
        if frequency == .monthly, let entry = rule.byDay.first(where: { ($0.ordinal.map(abs) ?? 0) > 5 }) {
            problems.append(RecurrenceRuleError(part: "BYDAY", message: "'\(entry.ordinal!)\(RecurrenceRule.code(of: entry.weekday))': a month has at most 5 of each weekday"))
        }
        if frequency == .weekly && !rule.byMonthDay.isEmpty {
            problems.append(RecurrenceRuleError(part: "BYMONTHDAY", message: "cannot be used with FREQ=WEEKLY"))
        }
        if [.daily, .weekly, .monthly].contains(frequency) && !rule.byYearDay.isEmpty {
            problems.append(RecurrenceRuleError(part: "BYYEARDAY", message: "cannot be used with FREQ=\(frequency.rawValue)"))
        }
        if !rule.bySetPosition.isEmpty && rule.byMonth.isEmpty && rule.byYearDay.isEmpty && rule.byMonthDay.isEmpty
            && rule.byDay.isEmpty && rule.byHour.isEmpty && rule.byMinute.isEmpty && rule.bySecond.isEmpty {
            problems.append(RecurrenceRuleError(part: "BYSETPOS", message: "needs another BY… part to choose from"))
        }
        if !rule.byMonth.isEmpty && !rule.byMonthDay.isEmpty
            && !rule.byMonth.contains(where: { month in rule.byMonthDay.contains { abs($0) <= CivilDate.daysInMonth(year: 2000, month: month) } }) {
            problems.append(RecurrenceRuleError(part: "BYMONTHDAY", message: "none of these days exists in the months of BYMONTH, so the rule never repeats"))
        }
        return problems
    }

    /// Every problem of a rule built in code: ranges, then combinations.
    static func problems(in rule: RecurrenceRule) -> [RecurrenceRuleError] {
        var problems: [RecurrenceRuleError] = []
        func check(_ name: String, _ values: [Int], _ range: ClosedRange<Int>, negative: Bool, what: String) {
            if let bad = values.first(where: { !(range.contains($0) || (negative && range.contains(-$0))) }) {
                problems.append(RecurrenceRuleError(part: name, message: "'\(bad)' is not \(what)"))
            }
        }
        if rule.interval < 1 { problems.append(RecurrenceRuleError(part: "INTERVAL", message: "must be at least 1 (\(rule.interval))")) }
        if case .count(let count) = rule.end, count < 1 {
            problems.append(RecurrenceRuleError(part: "COUNT", message: "must be at least 1 (\(count))"))
        }
        if case .until(let until) = rule.end {
            switch until {
            case .date(let year, let month, let day), .localDateTime(let year, let month, let day, _, _, _):
                if !(1...12).contains(month) || !(1...CivilDate.daysInMonth(year: year, month: month)).contains(day) {
                    problems.append(RecurrenceRuleError(part: "UNTIL", message: "is not a valid date"))
                }
                if case .localDateTime(_, _, _, let hour, let minute, let second) = until,
                   !(0..<24).contains(hour) || !(0..<60).contains(minute) || !(0..<60).contains(second) {
                    problems.append(RecurrenceRuleError(part: "UNTIL", message: "is not a valid time of day"))
                }
            case .utc: break
            }
        }
        check("BYMONTH", rule.byMonth, 1...12, negative: false, what: "a month (1 to 12)")
        check("BYYEARDAY", rule.byYearDay, 1...366, negative: true, what: "a day of the year (1 to 366 or -366 to -1)")
        check("BYMONTHDAY", rule.byMonthDay, 1...31, negative: true, what: "a day of the month (1 to 31 or -31 to -1)")
        check("BYHOUR", rule.byHour, 0...23, negative: false, what: "an hour (0 to 23)")
        check("BYMINUTE", rule.byMinute, 0...59, negative: false, what: "a minute (0 to 59)")
        check("BYSECOND", rule.bySecond, 0...59, negative: false, what: "a second (0 to 59)")
        check("BYSETPOS", rule.bySetPosition, 1...366, negative: true, what: "a position (1 to 366 or -366 to -1)")
        if let bad = rule.byDay.first(where: { $0.ordinal.map { $0 == 0 || abs($0) > 53 } ?? false }) {
            problems.append(RecurrenceRuleError(part: "BYDAY", message: "'\(bad.ordinal!)' is not an ordinal (1 to 53 or -53 to -1)"))
        }
        return problems + combinationProblems(in: rule)
    }
}
