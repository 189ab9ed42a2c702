import Foundation
import StudyKitEnvironment

/// Dates as the daily page writes them, formatted once per style, language, zone and instant, and kept.
///
/// Formatting a date goes through ICU and costs more than writing the page's HTML around it, and a participant's
/// page shows the same days and times on every visit. A text depends only on what ``Key`` holds (the calendar is
/// always Gregorian in the participant's zone and language), so a kept one is the text formatting would give. At
/// most ``capacity`` texts are kept; the cache starts afresh when full.
final class DateTexts: Sendable {
    /// How a date is written.
    enum Style: Hashable, Sendable {
        /// A time of day: `9:04 PM`.
        case time
        /// A weekday with its day and month, for screen readers on the week strip: `Monday, November 23`.
        case weekdayDayMonth
        /// The whole date: `Monday, November 23, 2026`.
        case completeDate
        /// The day as the `day` query parameter writes it: `2026-11-23`.
        case dayParameter
    }

    private struct Key: Hashable, Sendable {
        let style: Style
        let language: String
        let zone: String
        let date: Date
    }

    /// Most texts kept at once.
    static let capacity = 8_192

    private let texts = KeptValues<Key, String>(capacity: capacity)
    private let weekdays = KeptValues<String, [String]>(capacity: 256)
    private let weeks = KeptValues<Key, WeekTexts>(capacity: capacity / 8)

    /// What the week strip writes of each of its days, and the days a week before and after the chosen one.
    struct WeekTexts: Sendable {
        struct Day: Sendable {
            /// The short weekday: `Mon`.
            var weekday: String
            /// The day of the month in digits: `23`.
            var number: String
            /// The whole date for screen readers (``Style/weekdayDayMonth``).
            var fullDate: String
            /// The day as the `day` query parameter writes it: `2026-11-23`.
            var parameter: String
        }

        /// When each day starts: the strip the texts were made for.
        var starts: [Date]
        var days: [Day]
        /// The `day` parameter of the same weekday a week before the chosen day, and a week after.
        var previousWeek: String
        var nextWeek: String
    }

    /// The texts of the week strip whose days start at `days` with the day starting at `chosen` selected, in the
    /// calendar's language and zone: made once per language, zone and chosen day, and made again should the same
    /// chosen day come with other days.
    func week(days: [Date], chosen: Date, calendar: Calendar) -> WeekTexts {
        let locale = calendar.locale ?? Locale(identifier: "en")
        let key = Key(style: .weekdayDayMonth, language: locale.identifier, zone: calendar.timeZone.identifier, date: chosen)
        if let kept = weeks[key], kept.starts == days { return kept }
        let weekdays = shortWeekdaySymbols(calendar: calendar)
        let texts = WeekTexts(starts: days, days: days.map { start in
            let parts = calendar.dateComponents(Self.dayParts, from: start)
            return WeekTexts.Day(weekday: parts.weekday.flatMap { weekdays.indices.contains($0 - 1) ? weekdays[$0 - 1] : nil } ?? "",
                                 number: parts.day.map(String.init) ?? "", fullDate: text(start, .weekdayDayMonth, calendar: calendar),
                                 parameter: DailyPageBuilder.parameter(of: parts))
        }, previousWeek: Self.parameter(ofDayAt: -7, from: chosen, in: calendar), nextWeek: Self.parameter(ofDayAt: 7, from: chosen, in: calendar))
        weeks.keep(texts, for: key)
        return texts
    }

    private static let dayParts: Set<Calendar.Component> = [.year, .month, .weekday, .day]

    /// The `day` parameter of the day `offset` days from `date` (`date`'s own when the calendar cannot say).
    private static func parameter(ofDayAt offset: Int, from date: Date, in calendar: Calendar) -> String {
        DailyPageBuilder.parameter(of: calendar.date(byAdding: .day, value: offset, to: date) ?? date, in: calendar)
    }

    /// The calendar's short weekday names in its language (`Sun` … `Sat` in English), looked up once per language.
    private func shortWeekdaySymbols(calendar: Calendar) -> [String] {
        weekdays.value(for: calendar.locale?.identifier ?? "") { calendar.shortWeekdaySymbols }
    }

    /// `date` written in `style` for the calendar's language and zone (a Gregorian calendar with both set).
    func text(_ date: Date, _ style: Style, calendar: Calendar) -> String {
        let locale = calendar.locale ?? Locale(identifier: "en")
        let key = Key(style: style, language: locale.identifier, zone: calendar.timeZone.identifier, date: date)
        return texts.value(for: key) {
            switch style {
            case .time:
                date.formatted(Date.FormatStyle(date: .omitted, time: .shortened, locale: locale, calendar: calendar, timeZone: calendar.timeZone))
            case .weekdayDayMonth:
                date.formatted(Date.FormatStyle(locale: locale, calendar: calendar, timeZone: calendar.timeZone).weekday(.wide).day().month(.wide))
            case .completeDate:
                date.formatted(Date.FormatStyle(date: .complete, time: .omitted, locale: locale, calendar: calendar, timeZone: calendar.timeZone))
            case .dayParameter:
                DailyPageBuilder.parameter(of: date, in: calendar)
            }
        }
    }
}
