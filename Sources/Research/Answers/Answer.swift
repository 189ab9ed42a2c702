import Foundation

/// A participant's answer to one question, as the task session stores it and results report it.
///
/// The case says what kind of value it is; the answer format of the question decides which case is
/// acceptable and validates it (see ``AnswerFormat/validate(_:)``).
public enum Answer: Hashable, Sendable {
    /// A yes or no.
    case boolean(Bool)
    /// The chosen options of a text, image, value-picker or text-scale question, in the order chosen.
    case choices([ChoiceSelection])
    /// A number: scale, continuous scale, numeric, height (cm), weight (kg), age (years), SES ladder rung.
    case number(Decimal)
    /// A date, or a date and time, with the calendar and time zone it was given in.
    case date(DateAnswer)
    /// A time of day without a date.
    case timeOfDay(TimeOfDay)
    /// A duration in seconds.
    case timeInterval(TimeInterval)
    /// Free text or an email address.
    case text(String)
    /// A place: address text and, optionally, coordinates.
    case location(LocationAnswer)
    /// One value per picker of a multiple value picker.
    case components([ChoiceValue])
    /// A file attached to the run.
    case file(FileAnswer)
    /// The participant chose "I don't know" (only where the format offers it).
    case dontKnow

    /// The JSON shape this answer takes, which a question result's type announces.
    public var kind: AnswerKind {
        switch self {
        case .boolean: .boolean
        case .choices: .choices
        case .number: .number
        case .date: .date
        case .timeOfDay: .timeOfDay
        case .timeInterval: .timeInterval
        case .text: .text
        case .location: .location
        case .components: .components
        case .file: .file
        case .dontKnow: .dontKnow
        }
    }

    /// The answer as a number when it is numeric (numbers, durations, and single numeric choices).
    public var numericValue: Double? {
        switch self {
        case .number(let value): NSDecimalNumber(decimal: value).doubleValue
        case .timeInterval(let value): value
        case .choices(let selections) where selections.count == 1: selections[0].value.numericValue
        default: nil
        }
    }

    /// The chosen values when the answer is a choice.
    public var choiceValues: [ChoiceValue]? {
        if case .choices(let selections) = self { return selections.map(\.value) }
        return nil
    }
}

/// The shapes an ``Answer`` can take.
public enum AnswerKind: String, Hashable, Sendable, Codable {
    /// One per ``Answer`` case, with the same name; a question result's `type` implies one of them.
    case boolean, choices, number, date, timeOfDay, timeInterval, text, location, components, file, dontKnow
}

extension Answer {
    /// Encodes the answer as its bare JSON value: `true`, `["a", 2]`, `7.5`, `"08:30"`, `{"date": …}`.
    func encodeValue(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .boolean(let value): try container.encode(value)
        case .choices(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .date(let value): try container.encode(value)
        case .timeOfDay(let value): try container.encode(value)
        case .timeInterval(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        case .location(let value): try container.encode(value)
        case .components(let value): try container.encode(value)
        case .file(let value): try container.encode(value)
        case .dontKnow: try container.encodeNil()
        }
    }

    /// Decodes a bare JSON value as an answer of the given kind.
    static func decodeValue(_ kind: AnswerKind, from decoder: any Decoder) throws -> Answer {
        let container = try decoder.singleValueContainer()
        switch kind {
        case .boolean: return .boolean(try container.decode(Bool.self))
        case .choices: return .choices(try container.decode([ChoiceSelection].self))
        case .number: return .number(try container.decode(Decimal.self))
        case .date: return .date(try container.decode(DateAnswer.self))
        case .timeOfDay: return .timeOfDay(try container.decode(TimeOfDay.self))
        case .timeInterval: return .timeInterval(try container.decode(TimeInterval.self))
        case .text: return .text(try container.decode(String.self))
        case .location: return .location(try container.decode(LocationAnswer.self))
        case .components: return .components(try container.decode([ChoiceValue].self))
        case .file: return .file(try container.decode(FileAnswer.self))
        case .dontKnow: return .dontKnow
        }
    }
}

/// Self-describing JSON for a lone answer: `{"kind": "number", "value": 7}`; used where no format gives the kind.
extension Answer: Codable {
    private enum CodingKeys: String, CodingKey { case kind, value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(AnswerKind.self, forKey: .kind)
        if kind == .dontKnow { self = .dontKnow; return }
        self = try Answer.decodeValue(kind, from: try container.superDecoder(forKey: .value))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        if self != .dontKnow { try encodeValue(to: container.superEncoder(forKey: .value)) }
    }
}

/// A time of day, without a date: hours 0–23, minutes and seconds 0–59. JSON: `"08:30"` or `"08:30:15"`.
public struct TimeOfDay: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// Hours, 0–23.
    public var hour: Int
    /// Minutes, 0–59.
    public var minute: Int
    /// Seconds, 0–59; usually 0.
    public var second: Int

    /// Creates a time from its parts without checking them; ``init(parsing:)`` is the checked way.
    public init(hour: Int, minute: Int, second: Int = 0) {
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Parses `H:MM` or `H:MM:SS` (24-hour clock); nil when the text is not a valid time.
    public init?(parsing text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count),
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0...23).contains(hour), (0...59).contains(minute), parts[1].count == 2 else { return nil }
        var second = 0
        if parts.count == 3 {
            guard parts[2].count == 2, let value = Int(parts[2]), (0...59).contains(value) else { return nil }
            second = value
        }
        self.init(hour: hour, minute: minute, second: second)
    }

    /// Seconds since midnight.
    public var secondsSinceMidnight: Int { hour * 3600 + minute * 60 + second }

    /// `HH:MM`, or `HH:MM:SS` when the seconds are not 0; the text JSON uses.
    public var description: String {
        let base = String(format: "%02d:%02d", hour, minute)
        return second == 0 ? base : base + String(format: ":%02d", second)
    }

    /// Whether `lhs` comes earlier in the day than `rhs`.
    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.secondsSinceMidnight < rhs.secondsSinceMidnight }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = TimeOfDay(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a time of day (HH:MM or HH:MM:SS)")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A place the participant gave: the address as typed, and coordinates when known.
public struct LocationAnswer: Hashable, Sendable, Codable {
    /// The address text.
    public var address: String?
    /// Latitude in degrees, −90…90.
    public var latitude: Double?
    /// Longitude in degrees, −180…180.
    public var longitude: Double?

    /// Creates a location: an address, coordinates (latitude and longitude together), or both.
    public init(address: String? = nil, latitude: Double? = nil, longitude: Double? = nil) {
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
    }
}
