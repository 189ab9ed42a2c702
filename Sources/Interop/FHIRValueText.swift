import Foundation
import Research

/// Reading and writing the FHIR primitive types a QuestionnaireResponse answers with: integer, date,
/// dateTime and time.
enum FHIRValueText {
    /// A FHIR `integer` (32-bit signed) from a JSON number; nil when the number is not whole or out of range.
    static func integer(_ number: Decimal) -> Int? {
        var value = number
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .plain)
        guard rounded == number, number >= Decimal(Int32.min), number <= Decimal(Int32.max) else { return nil }
        return NSDecimalNumber(decimal: number).intValue
    }

    /// A FHIR `time`: `hh:mm:ss`, always with seconds.
    static func time(_ value: TimeOfDay) -> String {
        String(format: "%02d:%02d:%02d", value.hour, value.minute, value.second)
    }

    /// Reads a FHIR `time` `hh:mm:ss`; nil for anything else (fractional seconds included: a time of day
    /// keeps whole seconds).
    static func timeOfDay(_ text: String) -> TimeOfDay? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }) else { return nil }
        return TimeOfDay(parsing: text)
    }

    /// A FHIR `date`: the day of `answer` in its own time zone, `YYYY-MM-DD` (Gregorian).
    static func date(_ answer: DateAnswer) -> String {
        ISO8601.dayString(from: answer.date, in: answer.timeZone)
    }

    /// Reads a full FHIR `date` `YYYY-MM-DD` as a day answer in `timeZone`; nil for partial dates (`2020`,
    /// `2020-05`) and impossible days.
    static func dateAnswer(_ text: String, timeZone: TimeZone) -> DateAnswer? {
        guard let day = ISO8601.day(from: text) else { return nil }
        return DateAnswer(year: day.year, month: day.month, day: day.day, timeZone: timeZone)
    }

    /// A FHIR `dateTime` with seconds and the offset `timeZone` has at that instant.
    static func dateTime(_ date: Date, in timeZone: TimeZone) -> String {
        ISO8601.string(from: date, in: timeZone)
    }

    /// Reads a FHIR `dateTime` with a time and an offset as a date-time answer. The answer's time zone is
    /// `timeZone` when its offset at that instant is the one written, and otherwise a fixed-offset zone, so
    /// that writing the answer again gives the same offset. Nil for dates without a time, or without offset.
    static func dateTimeAnswer(_ text: String, timeZone: TimeZone) -> DateAnswer? {
        guard text.contains("T"), let date = ISO8601.date(from: text), let offset = offsetSeconds(text) else { return nil }
        let zone = timeZone.secondsFromGMT(for: date) == offset ? timeZone : TimeZone(secondsFromGMT: offset)
        guard let zone else { return nil }
        return DateAnswer(date: date, timeZone: zone, calendar: .gregorian, includesTime: true)
    }

    /// Reads a FHIR `dateTime` with a time and an offset as an instant; nil for anything else.
    static func instant(_ text: String) -> Date? {
        guard text.contains("T"), offsetSeconds(text) != nil else { return nil }
        return ISO8601.date(from: text)
    }

    /// The offset at the end of a date-time: `Z` is 0, `+14:00` is 50400; nil when there is none.
    static func offsetSeconds(_ text: String) -> Int? {
        if text.hasSuffix("Z") { return 0 }
        let suffix = text.suffix(6)
        guard suffix.count == 6, let sign = suffix.first, sign == "+" || sign == "-",
              suffix.dropFirst(3).first == ":",
              let hours = Int(suffix.dropFirst().prefix(2)), let minutes = Int(suffix.suffix(2)) else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}
