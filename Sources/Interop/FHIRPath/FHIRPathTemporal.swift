import Foundation

/// A FHIRPath date, date-time or time, with the precision it was written with.
///
/// `@2020-01` has month precision; comparing it with `@2020-01-15` gives no answer (an empty result), as
/// the FHIRPath specification says, while comparing it with `@2020-02-01` gives `true` for `<`.
public struct FHIRPathTemporal: Sendable, Hashable, CustomStringConvertible {
    /// How finely a value is given; seconds include any fraction of a second.
    public enum Precision: Int, Sendable, Hashable, Comparable {
        case year, month, day, hour, minute, second

        /// Orders from coarse (year) to fine (second).
        public static func < (lhs: Precision, rhs: Precision) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The text as written, without the leading `@` (and, for times, without the `T`), such as
    /// `2020-01-01T10:00:00Z` or `14:30`.
    public let text: String
    /// The finest component given.
    public let precision: Precision
    /// Whether this has calendar parts (false for a time of day).
    public let hasDate: Bool
    /// The offset from UTC in minutes, when one is given (`Z` is 0).
    public let timeZoneOffsetMinutes: Int?

    private let year: Int?
    private let month: Int?
    private let day: Int?
    private let hour: Int?
    private let minute: Int?
    private let second: Decimal?

    private init(text: String, hasDate: Bool, parts: [Int?], second: Decimal?, timeZone: Int?) {
        self.text = text
        self.hasDate = hasDate
        year = parts[0]
        month = parts[1]
        day = parts[2]
        hour = parts[3]
        minute = parts[4]
        self.second = second
        timeZoneOffsetMinutes = timeZone
        precision = if second != nil { .second } else if parts[4] != nil { .minute } else if parts[3] != nil { .hour }
            else if parts[2] != nil { .day } else if parts[1] != nil { .month } else { .year }
    }

    /// A date (`2020`, `2020-01` or `2020-01-31`); nil when `text` is not one.
    public static func date(_ text: String) -> FHIRPathTemporal? {
        var scanner = TemporalScanner(text)
        guard let date = scanner.scanDate(), scanner.isAtEnd else { return nil }
        return FHIRPathTemporal(text: text, hasDate: true, parts: date + [nil, nil], second: nil, timeZone: nil)
    }

    /// A date-time: a date, optionally followed by `T`, a time of day and a time zone (`Z` or `+hh:mm`), as in
    /// FHIR `dateTime` and `instant` values; nil when `text` is not one.
    public static func dateTime(_ text: String) -> FHIRPathTemporal? {
        var scanner = TemporalScanner(text)
        guard let date = scanner.scanDate() else { return nil }
        var time: [Int?] = [nil, nil]
        var second: Decimal?
        var timeZone: Int?
        if scanner.scan("T") {
            if let scanned = scanner.scanTime() {
                time = [scanned.hour, scanned.minute]
                second = scanned.second
                guard let zone = scanner.scanTimeZone() else { return nil }
                timeZone = zone
            }
        }
        guard scanner.isAtEnd, date[2] != nil || time[0] == nil else { return nil }
        return FHIRPathTemporal(text: text, hasDate: true, parts: date + time, second: second, timeZone: timeZone)
    }

    /// A time of day (`14`, `14:30`, `14:30:15.5`) without a time zone; nil when `text` is not one.
    public static func time(_ text: String) -> FHIRPathTemporal? {
        var scanner = TemporalScanner(text)
        guard let time = scanner.scanTime(), scanner.isAtEnd else { return nil }
        return FHIRPathTemporal(
            text: text, hasDate: false, parts: [nil, nil, nil, time.hour, time.minute], second: time.second, timeZone: nil
        )
    }

    /// Compares two dates/date-times (or two times) as the FHIRPath specification does: both are moved to
    /// UTC when both give a time zone; then parts are compared from the coarsest; when one value stops
    /// before the other while all common parts are equal, the order is unknown and the result is nil.
    static func compare(_ lhs: FHIRPathTemporal, _ rhs: FHIRPathTemporal) -> ComparisonResult? {
        // A date-time with a time zone and one without are not on one time line: their order is unknown.
        if lhs.hasDate, rhs.hasDate, lhs.hour != nil, rhs.hour != nil, (lhs.timeZoneOffsetMinutes == nil) != (rhs.timeZoneOffsetMinutes == nil) {
            return nil
        }
        var left = lhs.comparableParts
        var right = rhs.comparableParts
        if let leftZone = lhs.timeZoneOffsetMinutes, let rightZone = rhs.timeZoneOffsetMinutes, lhs.hasDate, rhs.hasDate {
            left = lhs.shiftedToUTC(offset: leftZone)
            right = rhs.shiftedToUTC(offset: rightZone)
        }
        for (leftPart, rightPart) in zip(left, right) {
            switch (leftPart, rightPart) {
            case (nil, nil): return .orderedSame
            case (nil, _), (_, nil): return nil
            case (let leftValue?, let rightValue?):
                if leftValue < rightValue { return .orderedAscending }
                if leftValue > rightValue { return .orderedDescending }
            }
        }
        return .orderedSame
    }

    private var comparableParts: [Decimal?] {
        let parts = hasDate ? [year, month, day, hour, minute] : [hour, minute]
        return parts.map { $0.map { Decimal($0) } } + [second]
    }

    /// The parts after subtracting the time zone offset (only when the value has an hour).
    private func shiftedToUTC(offset: Int) -> [Decimal?] {
        guard hour != nil, let year, let month, let day else { return comparableParts }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: (minute ?? 0) - offset)
        guard let date = calendar.date(from: components) else { return comparableParts }
        let shifted = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let parts: [Int?] = [shifted.year, shifted.month, shifted.day, shifted.hour, minute == nil ? nil : shifted.minute]
        return parts.map { $0.map { Decimal($0) } } + [second]
    }

    /// The text as written (without `@`).
    public var description: String { text }

    /// The calendar unit of a time-valued quantity (`year`, `'mo'`, `days`…) and how many of it; nil for other units.
    private static func calendarAmount(_ quantity: FHIRPathQuantity) -> (Calendar.Component, Decimal)? {
        switch quantity.unit {
        case "year", "a": (.year, quantity.value)
        case "month", "mo": (.month, quantity.value)
        case "week", "wk": (.day, quantity.value * 7)
        case "day", "d": (.day, quantity.value)
        case "hour", "h": (.hour, quantity.value)
        case "minute", "min": (.minute, quantity.value)
        case "second", "s": (.second, quantity.value)
        case "millisecond", "ms": (.second, quantity.value / 1000)
        default: nil
        }
    }

    /// This value moved by a time-valued quantity (`@2020-01-31 + 1 month` is `@2020-02-29`), kept at its own
    /// precision and time zone, as FHIRPath's date arithmetic does: a whole number of the unit is added (fractions
    /// dropped, except for seconds), a month-end day that does not exist becomes the last day of the month, and a
    /// unit finer than the value's precision moves it only by whole steps of that precision. Nil when the
    /// quantity is not a time or the result leaves the years 1 to 9999.
    func adding(_ quantity: FHIRPathQuantity, negated: Bool) -> FHIRPathTemporal? {
        guard var (unit, amount) = Self.calendarAmount(quantity) else { return nil }
        if negated { amount = -amount }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        // Units finer than the value's precision count only in whole steps of that precision.
        let finest: Calendar.Component = switch precision {
        case .year: .year
        case .month: .month
        case .day: .day
        case .hour: .hour
        case .minute: .minute
        case .second: .second
        }
        switch (finest, unit) {
        case (.year, .month): amount /= 12; unit = .year
        case (.year, _) where unit != .year, (.month, _) where unit != .year && unit != .month: return self
        case (.day, .hour): amount /= 24; unit = .day
        case (.day, .minute): amount /= 1440; unit = .day
        case (.day, .second): amount /= 86_400; unit = .day
        case (.hour, .minute): amount /= 60; unit = .hour
        case (.hour, .second): amount /= 3600; unit = .hour
        case (.minute, .second): amount /= 60; unit = .minute
        default: break
        }
        let whole = NSDecimalNumber(decimal: FHIRPathOperations.truncated(amount)).intValue
        let base = DateComponents(year: hasDate ? year : 2000, month: hasDate ? month ?? 1 : 1, day: hasDate ? day ?? 1 : 1,
                                  hour: hour ?? 0, minute: minute ?? 0)
        guard let start = calendar.date(from: base) else { return nil }
        var seconds = second ?? 0
        let moved: Date?
        if unit == .second {
            seconds += amount
            let carry = NSDecimalNumber(decimal: FHIRPathOperations.rounded(seconds, 0, mode: .down)).intValue
            seconds -= Decimal(carry)
            moved = calendar.date(byAdding: .second, value: carry, to: start)
        } else {
            moved = calendar.date(byAdding: unit, value: whole, to: start)
        }
        guard let moved else { return nil }
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: moved)
        guard let newYear = parts.year, (1...9999).contains(newYear) || !hasDate else { return nil }
        var out = ""
        if hasDate {
            out = String(format: "%04d", newYear)
            if precision >= .month { out += String(format: "-%02d", parts.month!) }
            if precision >= .day { out += String(format: "-%02d", parts.day!) }
            if precision >= .hour { out += "T" }
        }
        if precision >= .hour { out += String(format: "%02d", parts.hour!) }
        if precision >= .minute { out += String(format: ":%02d", parts.minute!) }
        if precision == .second {
            let digits = text.firstIndex(of: ".").map { index in text[text.index(after: index)...].prefix { $0.isNumber }.count } ?? 0
            let rounded = FHIRPathOperations.rounded(seconds, digits)
            let whole = NSDecimalNumber(decimal: FHIRPathOperations.truncated(rounded)).intValue
            out += String(format: ":%02d", whole)
            if digits > 0 {
                let fraction = NSDecimalNumber(decimal: (rounded - Decimal(whole)) * pow(10, digits)).intValue
                out += "." + String(format: "%0\(digits)d", fraction)
            }
        }
        if hasDate, precision >= .hour, let zone = timeZoneOffsetMinutes {
            out += zone == 0 && text.hasSuffix("Z") ? "Z" : String(format: "%@%02d:%02d", zone < 0 ? "-" : "+", abs(zone) / 60, abs(zone) % 60)
        }
        return hasDate ? (precision >= .hour ? Self.dateTime(out) : Self.date(out) ?? Self.dateTime(out)) : Self.time(out)
    }
}

/// Reads the parts of a FHIRPath or FHIR date, date-time or time from text.
private struct TemporalScanner {
    private let characters: [Character]
    private var position = 0

    init(_ text: String) {
        characters = Array(text)
    }

    var isAtEnd: Bool { position == characters.count }

    mutating func scan(_ character: Character) -> Bool {
        guard position < characters.count, characters[position] == character else { return false }
        position += 1
        return true
    }

    /// `YYYY(-MM(-DD)?)?` as [year, month, day].
    mutating func scanDate() -> [Int?]? {
        guard let year = scanDigits(4) else { return nil }
        var month: Int?
        var day: Int?
        if scan("-") {
            guard let scannedMonth = scanDigits(2), (1...12).contains(scannedMonth) else { return nil }
            month = scannedMonth
            if scan("-") {
                guard let scannedDay = scanDigits(2), (1...31).contains(scannedDay) else { return nil }
                day = scannedDay
            }
        }
        return [year, month, day]
    }

    /// `hh(:mm(:ss(.f+)?)?)?`.
    mutating func scanTime() -> (hour: Int, minute: Int?, second: Decimal?)? {
        guard let hour = scanDigits(2), hour < 24 else { return nil }
        var minute: Int?
        var second: Decimal?
        if scan(":") {
            guard let scannedMinute = scanDigits(2), scannedMinute < 60 else { return nil }
            minute = scannedMinute
            if scan(":") {
                guard let whole = scanDigits(2), whole < 60 else { return nil }
                var secondText = String(whole)
                if scan(".") {
                    let start = position
                    while position < characters.count, characters[position].isASCII, characters[position].isNumber { position += 1 }
                    guard position > start else { return nil }
                    secondText += "." + String(characters[start..<position])
                }
                second = Decimal(string: secondText, locale: Locale(identifier: "en_US_POSIX"))
            }
        }
        return (hour, minute, second)
    }

    /// `Z`, `+hh:mm`, `-hh:mm` as minutes east of UTC; `.some(nil)` when there is none, nil when malformed.
    mutating func scanTimeZone() -> Int?? {
        if scan("Z") { return .some(0) }
        guard position < characters.count, characters[position] == "+" || characters[position] == "-" else { return .some(nil) }
        let sign = characters[position] == "-" ? -1 : 1
        position += 1
        guard let hours = scanDigits(2), scan(":"), let minutes = scanDigits(2), hours <= 14, minutes < 60 else { return nil }
        return .some(sign * (hours * 60 + minutes))
    }

    private mutating func scanDigits(_ count: Int) -> Int? {
        guard position + count <= characters.count else { return nil }
        let digits = characters[position..<position + count]
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(String(digits)) else { return nil }
        position += count
        return value
    }
}
