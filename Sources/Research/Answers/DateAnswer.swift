import Foundation

/// A date (a calendar day) or a date and time, kept with the calendar and time zone it was given in,
/// so that "the 3rd of March" stays the 3rd of March wherever the result is read.
///
/// JSON: `{"date": "2026-03-03", "timeZone": "Asia/Tokyo", "calendar": "gregorian"}` for a day, or
/// `{"dateTime": "2026-03-03T08:30:00+09:00", "timeZone": "Asia/Tokyo", "calendar": "gregorian"}`.
public struct DateAnswer: Hashable, Sendable, Codable, Comparable {
    /// The instant: for a day, its start in ``timeZone``.
    public var date: Date
    /// The time zone the participant answered in.
    public var timeZone: TimeZone
    /// The calendar the participant answered in.
    public var calendar: Calendar.Identifier
    /// Whether a time of day is part of the answer (date-time formats) or only the day (date formats).
    public var includesTime: Bool

    /// Creates an answer; for a day, `date` should be the start of that day in `timeZone`.
    public init(date: Date, timeZone: TimeZone, calendar: Calendar.Identifier = .gregorian, includesTime: Bool) {
        self.date = date
        self.timeZone = timeZone
        self.calendar = calendar
        self.includesTime = includesTime
    }

    /// The day `year-month-day` at its start in `timeZone`; nil when no such day exists.
    public init?(year: Int, month: Int, day: Int, timeZone: TimeZone, calendar: Calendar.Identifier = .gregorian) {
        var cal = Calendar(identifier: calendar)
        cal.timeZone = timeZone
        let components = DateComponents(year: year, month: month, day: day)
        guard components.isValidDate(in: cal), let date = cal.date(from: components) else { return nil }
        self.init(date: date, timeZone: timeZone, calendar: calendar, includesTime: false)
    }

    /// Orders answers by instant, whatever their time zones.
    public static func < (lhs: DateAnswer, rhs: DateAnswer) -> Bool { lhs.date < rhs.date }

    private enum CodingKeys: String, CodingKey { case date, dateTime, timeZone, calendar }

    /// Reads a day (`date`) or a date-time (`dateTime`, which wins when both are present);
    /// `timeZone` is required and `calendar` defaults to `gregorian`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let zoneName = try container.decode(String.self, forKey: .timeZone)
        guard let zone = TimeZone(identifier: zoneName) else {
            throw DecodingError.dataCorruptedError(forKey: .timeZone, in: container, debugDescription: "unknown time zone '\(zoneName)'")
        }
        let calendarName = try container.decodeIfPresent(String.self, forKey: .calendar) ?? "gregorian"
        guard let calendar = CalendarIdentifierName.identifier(named: calendarName) else {
            throw DecodingError.dataCorruptedError(forKey: .calendar, in: container, debugDescription: "unknown calendar '\(calendarName)'")
        }
        if let text = try container.decodeIfPresent(String.self, forKey: .dateTime) {
            guard let date = ISO8601.date(from: text) else {
                throw DecodingError.dataCorruptedError(forKey: .dateTime, in: container, debugDescription: "'\(text)' is not an ISO 8601 date and time with offset")
            }
            self.init(date: date, timeZone: zone, calendar: calendar, includesTime: true)
        } else {
            let text = try container.decode(String.self, forKey: .date)
            guard let day = ISO8601.day(from: text),
                  var value = DateAnswer(year: day.year, month: day.month, day: day.day, timeZone: zone, calendar: .gregorian) else {
                throw DecodingError.dataCorruptedError(forKey: .date, in: container, debugDescription: "'\(text)' is not a day (YYYY-MM-DD)")
            }
            value.calendar = calendar
            self = value
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if includesTime {
            try container.encode(ISO8601.string(from: date, in: timeZone), forKey: .dateTime)
        } else {
            // The day is always written as an ISO 8601 (Gregorian) day; `calendar` records what the participant saw.
            try container.encode(ISO8601.dayString(from: date, in: timeZone), forKey: .date)
        }
        try container.encode(timeZone.identifier, forKey: .timeZone)
        try container.encode(CalendarIdentifierName.name(of: calendar), forKey: .calendar)
    }
}
