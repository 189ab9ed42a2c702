import Foundation

/// When something happens in a calendar: an instant written as the wall time of a named zone, an instant in UTC, or a
/// whole day.
///
/// ```swift
/// .zoned(start, in: TimeZone(identifier: "Europe/Berlin")!)   // DTSTART;TZID=Europe/Berlin:20270328T090000
/// .utc(start)                                                  // DTSTART:20270328T070000Z
/// .allDay(ICalendarDay(year: 2027, month: 3, day: 28))         // DTSTART;VALUE=DATE:20270328
/// ```
///
/// A zoned time is what a participant's schedule needs: a recurrence repeats its wall time (09:00 every day) across
/// daylight-saving changes, and the calendar carries the zone's `VTIMEZONE`.
public enum ICalendarTime: Hashable, Sendable {
    /// The instant `date`, written as the wall time it shows in `timeZone` with the zone's identifier as `TZID`.
    case zoned(Date, in: TimeZone)
    /// The instant `date`, written in UTC (`…Z`).
    case utc(Date)
    /// A whole day (`VALUE=DATE`), the same day wherever the reader is.
    case allDay(ICalendarDay)

    /// The zone whose wall time this is written in, for a zoned time.
    var timeZone: TimeZone? {
        if case .zoned(_, let timeZone) = self { return timeZone }
        return nil
    }

    /// The instant, for a zoned or UTC time.
    var instant: Date? {
        switch self {
        case .zoned(let date, _), .utc(let date): date
        case .allDay: nil
        }
    }

    /// This time in the form `start` is written in, as RFC 5545 asks of `DTEND`, `EXDATE` and `UNTIL`: an instant is
    /// written in the start's zone (or UTC), or as the day it falls on in its own zone for an all-day start; a day, for
    /// a start with a time, is that day at the start's wall time.
    func inForm(of start: ICalendarTime) -> ICalendarTime {
        switch (start, self) {
        case (.zoned(_, let zone), .zoned(let date, _)), (.zoned(_, let zone), .utc(let date)):
            return .zoned(date, in: zone)
        case (.zoned(let startDate, let zone), .allDay(let day)):
            return .zoned(day.date(atWallTimeOf: startDate, in: zone), in: zone)
        case (.utc, .zoned(let date, _)), (.utc, .utc(let date)):
            return .utc(date)
        case (.utc(let startDate), .allDay(let day)):
            return .utc(day.date(atWallTimeOf: startDate, in: DateTimeText.utc))
        case (.allDay, .zoned(let date, let zone)):
            return .allDay(ICalendarDay(containing: date, in: zone))
        case (.allDay, .utc(let date)):
            return .allDay(ICalendarDay(containing: date, in: DateTimeText.utc))
        case (.allDay, .allDay):
            return self
        }
    }

    /// The value as written after the property's name: `;TZID=Europe/Berlin` and `20270328T090000`,
    /// nothing and `20270328T070000Z`, or `;VALUE=DATE` and `20270328`.
    var parametersAndValue: (parameters: [ContentLine.Parameter], value: String) {
        switch self {
        case .zoned(let date, let zone):
            ([ContentLine.Parameter(name: "TZID", value: zone.identifier)], DateTimeText.local(date, in: zone))
        case .utc(let date):
            ([], DateTimeText.utc(date))
        case .allDay(let day):
            ([ContentLine.Parameter(name: "VALUE", value: "DATE")], day.serialized())
        }
    }
}

extension ICalendarDay {
    /// This day at the wall time `reference` shows in `timeZone`.
    func date(atWallTimeOf reference: Date, in timeZone: TimeZone) -> Date {
        let time = DateTimeText.gregorian(in: timeZone).dateComponents([.hour, .minute, .second], from: reference)
        return date(hour: time.hour ?? 0, minute: time.minute ?? 0, second: time.second ?? 0, in: timeZone)
    }
}
