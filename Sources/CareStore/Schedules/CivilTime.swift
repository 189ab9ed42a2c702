import Foundation

/// Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01), with no time zone.
///
/// Recurrence rules are expanded on wall-clock dates and times; doing that with integers instead of
/// `Calendar` keeps a rule's expansion cheap, and ``ZoneClock`` turns the results into instants.
enum CivilDate {
    /// The day number of a year, month (1–12) and day (1–31); days past the month's end run into the next month.
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = (month + 9) % 12
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day of a day number.
    static func components(ofDay number: Int) -> (year: Int, month: Int, day: Int) {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The weekday of a day number, numbered as `Calendar` does: 1 = Sunday … 7 = Saturday.
    static func weekday(ofDay number: Int) -> Int {
        ((number + 4) % 7 + 7) % 7 + 1
    }

    static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func daysInYear(_ year: Int) -> Int { isLeapYear(year) ? 366 : 365 }

    /// Months counted from year 0: `year * 12 + month - 1`.
    static func monthIndex(year: Int, month: Int) -> Int { year * 12 + month - 1 }

    /// The day number of a day (1–31) in the month of a month index.
    static func dayNumber(ofMonthIndex index: Int, day: Int) -> Int {
        let (year, month) = yearAndMonth(ofMonthIndex: index)
        return dayNumber(year: year, month: month, day: day)
    }

    /// The year and month (1–12) of a month index.
    static func yearAndMonth(ofMonthIndex index: Int) -> (year: Int, month: Int) {
        let year = index >= 0 ? index / 12 : (index - 11) / 12
        return (year, index - year * 12 + 1)
    }
}

/// Converts between instants and wall-clock time in one time zone, the way `Calendar` does: a wall-clock time
/// that a daylight-saving change skips is moved forward by the length of the gap (02:30 becomes 03:30), and one
/// that happens twice means the earlier instant.
///
/// Wall-clock time is counted as "local seconds": seconds since 1970-01-01T00:00 on the wall clock.
struct ZoneClock {
    let zone: TimeZone
    /// The zone's offset when it never changes (fixed-offset zones), which spares the lookups.
    private let fixedOffset: Int?
    /// The zone's offsets as learned so far, shared by every clock of the zone.
    private let offsets: ZoneOffsets

    init(_ zone: TimeZone) {
        self.zone = zone
        offsets = ZoneOffsets.of(zone)
        // Zones made from an offset (`GMT+0100`), UTC and the `Etc/` zones never change; asking the others whether
        // they ever change costs more than it saves.
        let identifier = zone.identifier
        let isFixed = identifier == "GMT" || identifier == "UTC" || identifier.hasPrefix("GMT+") || identifier.hasPrefix("GMT-")
            || identifier.hasPrefix("Etc/")
        fixedOffset = isFixed ? zone.secondsFromGMT() : nil
    }

    private func offset(at seconds: Double) -> Int {
        fixedOffset ?? offsets.offset(at: seconds)
    }

    /// Local seconds of an instant.
    func localSeconds(of date: Date) -> Double {
        let seconds = date.timeIntervalSince1970
        return seconds + Double(offset(at: seconds))
    }

    /// The instant of a wall-clock time.
    func instant(localSeconds local: Double) -> Date {
        if let fixedOffset { return Date(timeIntervalSince1970: local - Double(fixedOffset)) }
        let before = offset(at: local - 86_400)
        let after = offset(at: local + 86_400)
        if before == after {
            let candidate = local - Double(before)
            if offset(at: candidate) == before { return Date(timeIntervalSince1970: candidate) }
            return calendarInstant(localSeconds: local)
        }
        let early = local - Double(before), late = local - Double(after)
        let earlyValid = offset(at: early) == before, lateValid = offset(at: late) == after
        switch (earlyValid, lateValid) {
        case (true, true): return Date(timeIntervalSince1970: min(early, late))
        case (true, false): return Date(timeIntervalSince1970: early)
        case (false, true): return Date(timeIntervalSince1970: late)
        case (false, false): return Date(timeIntervalSince1970: early) // in the gap: moved forward by its length
        }
    }

    /// The instant of the start (00:00) of a local day.
    func startOfDay(_ dayNumber: Int) -> Date {
        instant(localSeconds: Double(dayNumber) * 86_400)
    }

    /// The local day number of an instant.
    func dayNumber(of date: Date) -> Int {
        Int((localSeconds(of: date) / 86_400).rounded(.down))
    }

    /// Asks `Calendar` (slow, but right when two changes fall within two days of each other).
    private func calendarInstant(localSeconds local: Double) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let day = Int((local / 86_400).rounded(.down))
        let (year, month, dayOfMonth) = CivilDate.components(ofDay: day)
        let second = local - Double(day) * 86_400
        let whole = Int(second.rounded(.down))
        let parts = DateComponents(year: year, month: month, day: dayOfMonth, hour: whole / 3600,
                                   minute: whole / 60 % 60, second: whole % 60)
        let date = calendar.date(from: parts) ?? Date(timeIntervalSince1970: local)
        return date.addingTimeInterval(second - Double(whole))
    }
}
