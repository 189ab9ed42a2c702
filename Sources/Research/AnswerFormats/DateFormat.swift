import Foundation

/// A day (`date`) or a day and time (`dateTime`) between optional bounds.
///
/// In JSON the bounds and default are ISO 8601: `"2026-01-31"` for a date format, with offset for a date-time format.
public struct DateFormat: Hashable, Sendable, Codable {
    /// Earliest accepted answer, inclusive; nil for no lower bound. For a date format only the day it falls on
    /// in UTC counts.
    public var minimum: Date?
    /// Latest accepted answer, inclusive; nil for no upper bound. Must be later than ``minimum``
    /// (on a later UTC day, for a date format).
    public var maximum: Date?
    /// The date the picker starts at; nil for none. Must not lie before ``minimum`` or after ``maximum``.
    public var defaultValue: Date?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a date format; see the properties for each setting's rules.
    public init(minimum: Date? = nil, maximum: Date? = nil, defaultValue: Date? = nil, dontKnow: DontKnowOption? = nil) {
        self.minimum = minimum
        self.maximum = maximum
        self.defaultValue = defaultValue
        self.dontKnow = dontKnow
    }
    private enum CodingKeys: String, CodingKey { case minimum, maximum, defaultValue, dontKnow }
    /// Reads the format; each date is an ISO 8601 day (`2026-01-31`, read as the start of that day in UTC)
    /// or a date-time with an offset.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func date(_ key: CodingKeys) throws -> Date? {
            guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
            if let value = ISO8601.date(from: text) { return value }
            if let day = ISO8601.day(from: text) {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = .gmt
                let components = DateComponents(year: day.year, month: day.month, day: day.day)
                if components.isValidDate(in: calendar), let value = calendar.date(from: components) { return value }
            }
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "'\(text)' is not an ISO 8601 date (YYYY-MM-DD) or date-time with offset")
        }
        minimum = try date(.minimum)
        maximum = try date(.maximum)
        defaultValue = try date(.defaultValue)
        dontKnow = try c.decodeIfPresent(DontKnowOption.self, forKey: .dontKnow)
    }
    /// Writes the dates as ISO 8601 date-times in UTC; an ``AnswerFormat/date(_:)`` format writes them as days instead.
    public func encode(to encoder: any Encoder) throws {
        try encode(to: encoder, daysOnly: false)
    }

    /// Writes the bounds as days (`"2026-01-31"`, the UTC day the decoder reads them as) for a date format,
    /// or as date-times for a date-time format.
    func encode(to encoder: any Encoder, daysOnly: Bool) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let write: (Date) -> String = { daysOnly ? ISO8601.dayString(from: $0, in: .gmt) : ISO8601.string(from: $0) }
        try c.encodeIfPresent(minimum.map(write), forKey: .minimum)
        try c.encodeIfPresent(maximum.map(write), forKey: .maximum)
        try c.encodeIfPresent(defaultValue.map(write), forKey: .defaultValue)
        try c.encodeIfPresent(dontKnow, forKey: .dontKnow)
    }
}

/// The rules of a ``DateFormat`` as a date (`includesTime` false: a calendar day) or a date-time question.
struct DateFormatRules: AnswerFormatRules {
    static let jsonKeys: Set<String> = ["minimum", "maximum", "defaultValue", "dontKnow"]

    /// The settings.
    var format: DateFormat
    /// Whether the answer is a day and a time (``AnswerFormat/dateTime(_:)``) rather than a day.
    var includesTime: Bool

    var dontKnow: DontKnowOption? { format.dontKnow }

    var wrongKindError: AnswerValidationError {
        AnswerValidationError(includesTime ? .takesDateAndTime : .takesDate)
    }

    func addConstructionProblems(to problems: inout FormatProblems) {
        func text(_ date: Date) -> String {
            includesTime ? ISO8601.string(from: date) : ISO8601.dayString(from: date, in: .gmt)
        }
        // A date format's bounds are calendar days: its bounds count as the days they fall on in UTC.
        func key(_ date: Date) -> Date { includesTime ? date : DateFormat.startOfUTCDay(date) }
        if let minimum = format.minimum, let maximum = format.maximum, key(maximum) <= key(minimum) {
            problems.add("maximum", key(maximum) == key(minimum)
                ? "must be later than minimum (both are \(text(maximum)))"
                : "must be later than minimum (\(text(maximum)) is before \(text(minimum)))")
        }
        if let value = format.defaultValue {
            if let minimum = format.minimum, key(value) < key(minimum) {
                problems.add("defaultValue", "must not be before minimum (\(text(value)) is before \(text(minimum)))")
            }
            if let maximum = format.maximum, key(value) > key(maximum) {
                problems.add("defaultValue", "must not be after maximum (\(text(value)) is after \(text(maximum)))")
            }
        }
    }

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .date(let value) = answer else { throw wrongKindError }
        guard value.includesTime == includesTime else {
            throw AnswerValidationError(includesTime ? .enterDateAndTime : .enterDateWithoutTime)
        }
        if includesTime {
            if let minimum = format.minimum, value.date < minimum {
                throw AnswerValidationError(.dateTimeOnOrAfter, ["date": .dateTime(minimum, value.timeZone)])
            }
            if let maximum = format.maximum, value.date > maximum {
                throw AnswerValidationError(.dateTimeOnOrBefore, ["date": .dateTime(maximum, value.timeZone)])
            }
        } else {
            // Days are compared as days: the answer's day where it was given, the bound's day in UTC.
            let day = DateFormat.utcDay(of: value.date, in: value.timeZone)
            if let minimum = format.minimum, day < DateFormat.startOfUTCDay(minimum) {
                throw AnswerValidationError(.dateOnOrAfter, ["date": .day(minimum)])
            }
            if let maximum = format.maximum, day > DateFormat.startOfUTCDay(maximum) {
                throw AnswerValidationError(.dateOnOrBefore, ["date": .day(maximum)])
            }
        }
    }

    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        .date(try includesTime
            ? Self.dateTime(trimmed, timeZone: context.timeZone, calendar: context.calendar)
            : Self.day(trimmed, timeZone: context.timeZone, calendar: context.calendar))
    }

    func hint(in context: TextInputContext) -> String {
        if includesTime {
            let bounds = Self.boundsPhrase(minimum: format.minimum.map { DateFormat.dateTimeText($0, in: context.timeZone) },
                                           maximum: format.maximum.map { DateFormat.dateTimeText($0, in: context.timeZone) })
            return "a date and time, YYYY-MM-DD HH:MM" + bounds
        }
        let bounds = Self.boundsPhrase(minimum: format.minimum.map { ISO8601.dayString(from: $0, in: .gmt) },
                                       maximum: format.maximum.map { ISO8601.dayString(from: $0, in: .gmt) })
        return "a date, YYYY-MM-DD" + bounds
    }

    /// A date-time answer shows with its time, even one recorded without (which validation refuses).
    func display(_ answer: Answer, decimalSeparator: String) -> String {
        guard includesTime, case .date(let value) = answer else { return standardDisplay(answer, decimalSeparator: decimalSeparator) }
        return DateFormat.dateTimeText(value.date, in: value.timeZone)
    }

    /// `YYYY-MM-DD`: that day at its start in `timeZone`.
    static func day(_ text: String, timeZone: TimeZone, calendar: Calendar.Identifier) throws(AnswerValidationError) -> DateAnswer {
        guard let parts = ISO8601.day(from: text) else { throw AnswerValidationError(.enterDateFormat) }
        let gregorian = DateFormat.gregorian(in: timeZone)
        let components = DateComponents(year: parts.year, month: parts.month, day: parts.day)
        guard components.isValidDate(in: gregorian), let date = gregorian.date(from: components) else {
            throw AnswerValidationError(.noSuchDate, ["text": .text(text)])
        }
        return DateAnswer(date: date, timeZone: timeZone, calendar: calendar, includesTime: false)
    }

    /// `YYYY-MM-DD HH:MM` (or with `T`, or with seconds) in `timeZone`, or ISO 8601 with an offset.
    static func dateTime(_ text: String, timeZone: TimeZone, calendar: Calendar.Identifier) throws(AnswerValidationError) -> DateAnswer {
        if let date = ISO8601.date(from: text) {
            return DateAnswer(date: date, timeZone: timeZone, calendar: calendar, includesTime: true)
        }
        let parts = text.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "T" })
        guard parts.count == 2, let day = ISO8601.day(from: String(parts[0])),
              let time = TimeOfDay(parsing: String(parts[1]).trimmingCharacters(in: .whitespaces)) else {
            throw AnswerValidationError(.enterDateTimeFormat)
        }
        let gregorian = DateFormat.gregorian(in: timeZone)
        let components = DateComponents(year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute, second: time.second)
        guard DateComponents(year: day.year, month: day.month, day: day.day).isValidDate(in: gregorian),
              let date = gregorian.date(from: components) else {
            throw AnswerValidationError(.noSuchDate, ["text": .text(String(parts[0]))])
        }
        let back = gregorian.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        guard back.year == day.year, back.month == day.month, back.day == day.day, back.hour == time.hour, back.minute == time.minute else {
            throw AnswerValidationError(.timeSkippedByClockChange, ["text": .text(text), "zone": .text(timeZone.identifier)])
        }
        return DateAnswer(date: date, timeZone: timeZone, calendar: calendar, includesTime: true)
    }

    /// ", from A to B", ", from A", ", up to B" or nothing.
    static func boundsPhrase(minimum: String?, maximum: String?) -> String {
        switch (minimum, maximum) {
        case let (minimum?, maximum?): ", from \(minimum) to \(maximum)"
        case let (minimum?, nil): ", from \(minimum)"
        case let (nil, maximum?): ", up to \(maximum)"
        case (nil, nil): ""
        }
    }
}

/// Days and times as date formats compare and word them.
extension DateFormat {
    /// A gregorian calendar in `timeZone`.
    static func gregorian(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The start, in UTC, of the calendar day that `date` falls on in `timeZone`: days from different zones become comparable.
    static func utcDay(of date: Date, in timeZone: TimeZone) -> Date {
        let components = gregorian(in: timeZone).dateComponents([.era, .year, .month, .day], from: date)
        return gregorian(in: .gmt).date(from: components) ?? date
    }

    /// The start of the UTC day of `date`; a date format's bounds are the UTC days they fall on.
    static func startOfUTCDay(_ date: Date) -> Date { utcDay(of: date, in: .gmt) }

    /// `2026-03-01 08:30` in `timeZone`.
    static func dateTimeText(_ date: Date, in timeZone: TimeZone) -> String {
        let parts = gregorian(in: timeZone).dateComponents([.hour, .minute], from: date)
        return ISO8601.dayString(from: date, in: timeZone) + String(format: " %02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}
