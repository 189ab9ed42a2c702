import Foundation

/// The clock, identifiers, randomness, calendar and locale that StudyKit's code reads from the world, injected so that
/// schedules, sessions, stores and consent records run in tests at fixed times, in fixed zones, with known ids.
///
/// Every module takes this one type: a store, a task session, a consent recorder and the participant's workflow are
/// each given an environment, never the system clock. ``live`` is what a server or an app uses; a test builds one
/// from a clock it moves by hand:
///
/// ```swift
/// var environment = StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.next() })
/// environment.timeZone = TimeZone(identifier: "Asia/Tokyo")!
/// let session = try TaskSession(task: task, environment: environment)
/// ```
public struct StudyKitEnvironment: Sendable {
    /// The current time.
    public var now: @Sendable () -> Date
    /// A fresh UUID for each new entity, version, outcome, record, run, invitation or session.
    public var makeUUID: @Sendable () -> UUID
    /// `count` random bytes for codes and tokens; they must come from a cryptographically secure source.
    public var randomBytes: @Sendable (Int) -> [UInt8]
    /// The calendar dates are read and days counted in; its time zone is ``timeZone``.
    public var calendar: Calendar
    /// The locale numbers and dates are read and written in.
    public var locale: Locale

    /// The time zone of ``calendar``: the participant's, for a session; setting it moves the calendar too.
    public var timeZone: TimeZone {
        get { calendar.timeZone }
        set { calendar.timeZone = newValue }
    }

    /// Creates an environment. Only the clock and the UUIDs must be given; randomness defaults to the system's secure
    /// source, the calendar to the Gregorian one in UTC and the locale to `en_US_POSIX`, so that a test that does not
    /// name a zone is not at the mercy of the machine's.
    public init(now: @escaping @Sendable () -> Date, makeUUID: @escaping @Sendable () -> UUID,
                randomBytes: @escaping @Sendable (Int) -> [UInt8] = StudyKitEnvironment.secureRandomBytes,
                calendar: Calendar = StudyKitEnvironment.gregorianUTC, locale: Locale = Locale(identifier: "en_US_POSIX")) {
        self.now = now
        self.makeUUID = makeUUID
        self.randomBytes = randomBytes
        self.calendar = calendar
        self.locale = locale
    }

    /// The system clock; time-ordered (version 7) UUIDs, see ``TimeOrderedUUIDGenerator``; the system's secure random
    /// bytes; and the machine's calendar, zone and locale.
    public static var live: StudyKitEnvironment {
        StudyKitEnvironment(now: { Date() }, makeUUID: { TimeOrderedUUIDGenerator.shared.next() },
                            randomBytes: secureRandomBytes, calendar: .current, locale: .current)
    }

    /// This environment with another calendar, time zone and locale: the clock, UUIDs and randomness stay shared. The
    /// workflow uses it to give a participant's session their own zone and language.
    public func with(calendar: Calendar, locale: Locale) -> StudyKitEnvironment {
        var copy = self
        copy.calendar = calendar
        copy.locale = locale
        return copy
    }

    /// `count` bytes from the system's secure random source (on Linux /dev/urandom, read only once `getrandom` says
    /// the kernel's generator is seeded; the system generator elsewhere), fetched in blocks so that a token does not
    /// cost a system call.
    public static let secureRandomBytes: @Sendable (Int) -> [UInt8] = { SecureRandomPool.shared.bytes($0) }

    /// The Gregorian calendar in UTC.
    public static var gregorianUTC: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }
}
