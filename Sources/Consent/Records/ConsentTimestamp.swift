import Foundation

/// The one way consent records write an instant: ISO 8601 in UTC with exactly three fraction digits,
/// `2026-03-29T08:00:00.000Z`.
///
/// Records keep their instants to whole milliseconds (``milliseconds(_:)``), so a record read back from its
/// JSON is equal to the one that was sealed, and its canonical bytes are the same.
public enum ConsentTimestamp {
    /// `date` rounded to the nearest whole millisecond since 1970.
    public static func milliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(millisecondsSince1970(date)) / 1000)
    }

    /// `2026-03-29T08:00:00.123Z`; the instant is rounded to the nearest millisecond.
    public static func string(from date: Date) -> String {
        let total = millisecondsSince1970(date)
        let (days, millisecondOfDay) = floorDivision(total, 86_400_000)
        let (year, month, day) = civilDate(daysSince1970: days)
        let hour = millisecondOfDay / 3_600_000
        let minute = millisecondOfDay / 60_000 % 60
        let second = millisecondOfDay / 1000 % 60
        let millisecond = millisecondOfDay % 1000
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":"
            + pad(second, 2) + "." + pad(millisecond, 3) + "Z"
    }

    /// Parses exactly the form ``string(from:)`` writes; nil for anything else, so that a record with a
    /// differently written date is refused rather than silently re-written.
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."),
              bytes[23] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), let second = number(17..<19), let millisecond = number(20..<23),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        guard civilDate(daysSince1970: days) == (year, month, day) else { return nil }
        let total = Int64(days) * 86_400_000 + Int64(hour * 3_600_000 + minute * 60_000 + second * 1000 + millisecond)
        return Date(timeIntervalSince1970: Double(total) / 1000)
    }

    private static func millisecondsSince1970(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int, Int) {
        var quotient = value / divisor, remainder = value % divisor
        if remainder < 0 { quotient -= 1; remainder += divisor }
        return (Int(quotient), Int(remainder))
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    // Howard Hinnant's days-from-civil and civil-from-days, proleptic Gregorian calendar.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilDate(daysSince1970 days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension ConsentTimestamp {
    /// Decodes a timestamp string at `key`, throwing a data-corruption error that names the key when the
    /// text is not in the one accepted form.
    static func decode<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> Date {
        let text = try container.decode(String.self, forKey: key)
        guard let date = date(from: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container,
                debugDescription: "'\(text)' is not a UTC time with milliseconds like 2026-03-29T08:00:00.000Z")
        }
        return date
    }
}
