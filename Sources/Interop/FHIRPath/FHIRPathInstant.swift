import Foundation

/// The moment a FHIRPath expression is evaluated, and the time zone its `now()`, `today()` and `timeOfDay()`
/// are given in: the participant's, so that `today()` is their calendar day.
///
/// ```swift
/// let now = FHIRPathInstant(date: environment.now(), timeZone: environment.timeZone)
/// try FHIRPathExpression("today()").evaluate(on: response, now: now) // [.date(2026-11-26)]
/// ```
public struct FHIRPathInstant: Sendable, Hashable {
    /// The moment.
    public var date: Date
    /// The time zone the moment is written in.
    public var timeZone: TimeZone

    /// Creates an instant; see the properties for each part.
    public init(date: Date, timeZone: TimeZone) {
        self.date = date
        self.timeZone = timeZone
    }

    /// `now()`: the date-time to the millisecond with the zone's offset, such as `2026-11-26T09:30:00.000+13:00`.
    var dateTimeText: String { format("yyyy-MM-dd'T'HH:mm:ss.SSSxxx") }
    /// `today()`: the calendar day in the zone, such as `2026-11-26`.
    var dateText: String { format("yyyy-MM-dd") }
    /// `timeOfDay()`: the time in the zone, such as `09:30:00.000`.
    var timeText: String { format("HH:mm:ss.SSS") }

    private func format(_ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
