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

/// An outcome's notes, tags and user info, kept together as JSON in `outcome.details` (NULL when all are empty).
struct OutcomeDetails: Codable {
    var notes: [Note]
    var tags: [String]
    var userInfo: [String: String]

    init(_ outcome: Outcome) {
        notes = outcome.notes
        tags = outcome.tags
        userInfo = outcome.userInfo
    }

    /// Reads the column; nil when it is not such JSON.
    init?(json: String) {
        guard let decoded = try? JSONDecoder().decode(OutcomeDetails.self, from: Data(json.utf8)) else { return nil }
        self = decoded
    }

    /// The column's text, or nil when there is nothing to keep.
    func json() throws -> String? {
        guard !(notes.isEmpty && tags.isEmpty && userInfo.isEmpty) else { return nil }
        return String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    func apply(to outcome: inout Outcome) {
        outcome.notes = notes
        outcome.tags = tags
        outcome.userInfo = userInfo
    }
}

/// Lists of strings as JSON arrays: a version's tags, and large sets bound as one query argument.
enum StringListJSON {
    /// `[]` for an empty list without going through the encoder (the common case for tags).
    static func encode(_ list: [String]) throws -> String {
        list.isEmpty ? "[]" : String(decoding: try JSONEncoder().encode(list), as: UTF8.self)
    }

    /// The list, or nil when the text is not a JSON array of strings.
    static func decode(_ text: String) -> [String]? {
        text == "[]" ? [] : try? JSONDecoder().decode([String].self, from: Data(text.utf8))
    }

    /// A set of strings as a JSON array for `json_each(?)`; strings always encode.
    static func encodeForQuery(_ list: [String]) -> String {
        (try? encode(list)) ?? "[]"
    }
}
