import CareStore
import Foundation
import GRDB

/// How an outcome value is spread over the `type` and `value` columns of `outcomeValue`.
enum OutcomeValueColumns {
    /// The type name and the SQLite value of an outcome value: integers and booleans as INTEGER, doubles and dates
    /// (seconds since 2001, UTC) as REAL, text as TEXT, binary data as BLOB.
    static func columns(of value: OutcomeValue.Value) -> (type: String, value: DatabaseValue) {
        switch value {
        case .integer(let number): ("integer", number.databaseValue)
        case .double(let number): ("double", number.databaseValue)
        case .boolean(let flag): ("boolean", flag.databaseValue)
        case .text(let text): ("text", text.databaseValue)
        case .binary(let data): ("binary", data.databaseValue)
        case .date(let date): ("date", date.timeIntervalSinceReferenceDate.databaseValue)
        }
    }

    /// The outcome value the columns hold; nil when they do not fit together.
    static func value(type: String, stored: DatabaseValue) -> OutcomeValue.Value? {
        switch (type, stored.storage) {
        case ("integer", .int64(let number)): .integer(Int(number))
        case ("double", .double(let number)): .double(number)
        case ("double", .int64(let number)): .double(Double(number))
        case ("boolean", .int64(let number)): .boolean(number != 0)
        case ("text", .string(let text)): .text(text)
        case ("binary", .blob(let data)): .binary(data)
        case ("date", .double(let seconds)): .date(Date(timeIntervalSinceReferenceDate: seconds))
        case ("date", .int64(let seconds)): .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        default: nil
        }
    }
}

/// Lists of strings as JSON arrays: a version's tags, and large sets bound as one query argument.
enum StringListJSON {
    /// `[]` for an empty list without going through the encoder (the common case for tags).
    static func encode(_ list: [String]) throws -> String {
        list.isEmpty ? "[]" : String(decoding: try JSONEncoder().encode(list), as: UTF8.self)
    }

    /// The list, or nil when the text is not a JSON array of strings.
    ///
    /// Every version read carries its tags (the study server tags each entity with the study's identifier), and a
    /// `JSONDecoder` for `["recover"]` cost more than the rest of the row; the encoder's plain output is split by
    /// hand, and anything else (escapes, whitespace) goes through the decoder.
    static func decode(_ text: String) -> [String]? {
        if text == "[]" { return [] }
        return plainList(text) ?? (try? JSONDecoder().decode([String].self, from: Data(text.utf8)))
    }

    /// The strings of `["a","b"]` written without spaces, escapes or control characters; nil for any other text.
    /// Without a backslash, every quote delimits a string, so the split is exact.
    static func plainList(_ text: String) -> [String]? {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), backslash = UInt8(ascii: "\\")
        let bytes = Array(text.utf8)
        guard bytes.count >= 4, bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return nil }
        var list: [String] = []
        var index = 1
        let end = bytes.count - 1
        while true {
            guard index < end, bytes[index] == quote else { return nil }
            var close = index + 1
            while close < end, bytes[close] != quote {
                if bytes[close] == backslash || bytes[close] < 0x20 { return nil }
                close += 1
            }
            guard close < end else { return nil }
            list.append(String(decoding: bytes[(index + 1)..<close], as: UTF8.self))
            index = close + 1
            if index == end { return list }
            guard bytes[index] == comma else { return nil }
            index += 1
        }
    }

    /// A set of strings as a JSON array for `json_each(?)`; strings always encode.
    static func encodeForQuery(_ list: [String]) -> String {
        (try? encode(list)) ?? "[]"
    }
}
