import Foundation

/// The clock, identifiers, calendar and time zone a task session uses, injected so that runs can be
/// reproduced in tests at fixed times and zones.
public struct SessionEnvironment: Sendable {
    /// The current time.
    public var now: @Sendable () -> Date
    /// A fresh UUID for each new run.
    public var makeUUID: @Sendable () -> UUID
    /// The participant's calendar, used to read dates they type.
    public var calendar: Calendar
    /// The participant's time zone, used to read dates and times they type.
    public var timeZone: TimeZone
    /// The participant's locale, used to read numbers they type.
    public var locale: Locale
    /// Evaluates calculated items (scores); nil when the tasks run have none.
    public var calculator: (any TaskCalculator)?

    /// Creates an environment; tests pass a fixed clock and zone, everything else uses ``live``.
    public init(now: @escaping @Sendable () -> Date, makeUUID: @escaping @Sendable () -> UUID,
                calendar: Calendar, timeZone: TimeZone, locale: Locale, calculator: (any TaskCalculator)? = nil) {
        self.now = now
        self.makeUUID = makeUUID
        self.calendar = calendar
        self.timeZone = timeZone
        self.locale = locale
        self.calculator = calculator
    }

    /// The system clock, random UUIDs, and the machine's calendar, zone and locale.
    public static var live: SessionEnvironment {
        SessionEnvironment(now: { Date() }, makeUUID: { UUID() }, calendar: .current, timeZone: .current, locale: .current)
    }
}
