import Foundation
import JSONDiagnostics

/// How long each event of a schedule element lasts: the whole day, or a number of seconds.
///
/// JSON: `"allDay"`, or exactly one of `{"seconds": n}`, `{"minutes": n}`, `{"hours": n}` with n > 0.
public enum ScheduleDuration: Hashable, Sendable, Codable {
    /// From the start of the event's day to the start of the next day in the schedule's time zone
    /// (23 or 25 hours on the days daylight saving begins or ends).
    case allDay
    /// A fixed length in seconds.
    case seconds(TimeInterval)

    /// A length in minutes.
    public static func minutes(_ minutes: Double) -> ScheduleDuration { .seconds(minutes * 60) }
    /// A length in hours.
    public static func hours(_ hours: Double) -> ScheduleDuration { .seconds(hours * 3600) }
    /// One hour, the length of an event unless its element says otherwise (as in CareKit).
    public static let oneHour = ScheduleDuration.seconds(3600)

    /// Reads `"allDay"` or `{"hours": 1}` (also `seconds` or `minutes`).
    public init(from decoder: any Decoder) throws {
        let value = try JSONTree(from: decoder)
        var reader = ScheduleReader()
        guard let duration = reader.duration(value, path: ""), reader.problems.isEmpty else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath,
                                                                    debugDescription: reader.problems.map(\.description).joined(separator: "; ")))
        }
        self = duration
    }

    /// Writes `"allDay"`, or the largest whole unit: `{"hours": 1}`, `{"minutes": 90}`, `{"seconds": 45}`.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }

    var jsonValue: JSONTree {
        switch self {
        case .allDay:
            return .string("allDay")
        case .seconds(let seconds):
            if seconds.truncatingRemainder(dividingBy: 3600) == 0 { return .object([.init(key: "hours", value: .number(seconds / 3600))]) }
            if seconds.truncatingRemainder(dividingBy: 60) == 0 { return .object([.init(key: "minutes", value: .number(seconds / 60))]) }
            return .object([.init(key: "seconds", value: .number(seconds))])
        }
    }
}
