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

    /// The calendar's short weekday names in its language (`Sun` … `Sat` in English), looked up once per language.
    func shortWeekdaySymbols(calendar: Calendar) -> [String] {
        weekdays.value(for: calendar.locale?.identifier ?? "") { calendar.shortWeekdaySymbols }
    }

    /// `date` written in `style` for the calendar's language and zone (a Gregorian calendar with both set).
    func text(_ date: Date, _ style: Style, calendar: Calendar) -> String {
        let locale = calendar.locale ?? Locale(identifier: "en")
        let key = Key(style: style, language: locale.identifier, zone: calendar.timeZone.identifier, date: date)
        return texts.value(for: key) {
            let format: Date.FormatStyle = switch style {
            case .time: Date.FormatStyle(date: .omitted, time: .shortened, locale: locale, calendar: calendar, timeZone: calendar.timeZone)
            case .weekdayDayMonth:
                Date.FormatStyle(locale: locale, calendar: calendar, timeZone: calendar.timeZone).weekday(.wide).day().month(.wide)
            case .completeDate: Date.FormatStyle(date: .complete, time: .omitted, locale: locale, calendar: calendar, timeZone: calendar.timeZone)
            }
            return date.formatted(format)
        }
    }
}
