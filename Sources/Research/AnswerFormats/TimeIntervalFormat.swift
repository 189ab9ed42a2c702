import Foundation

/// A duration, in whole minutes, up to a maximum.
public struct TimeIntervalFormat: Hashable, Sendable, Codable {
    /// Longest accepted duration in seconds.
    public var maximum: TimeInterval
    /// The duration must be a whole multiple of this many minutes (1–30).
    public var stepMinutes: Int
    /// The duration the picker starts at, in seconds; nil for none. From 0 to ``maximum``, and a whole multiple
    /// of ``stepMinutes``.
    public var defaultValue: TimeInterval?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a time interval format; see the properties for each setting's rules.
    public init(maximum: TimeInterval = 86_400 - 60, stepMinutes: Int = 1, defaultValue: TimeInterval? = nil, dontKnow: DontKnowOption? = nil) {
        self.maximum = maximum
        self.stepMinutes = stepMinutes
        self.defaultValue = defaultValue
        self.dontKnow = dontKnow
    }
    private enum CodingKeys: String, CodingKey { case maximum, stepMinutes, defaultValue, dontKnow }
    /// Reads the format; `maximum` defaults to 86,340 seconds (23 h 59 min) and `stepMinutes` to 1.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        maximum = try c.decodeIfPresent(TimeInterval.self, forKey: .maximum) ?? 86_400 - 60
        stepMinutes = try c.decodeIfPresent(Int.self, forKey: .stepMinutes) ?? 1
        defaultValue = try c.decodeIfPresent(TimeInterval.self, forKey: .defaultValue)
        dontKnow = try c.decodeIfPresent(DontKnowOption.self, forKey: .dontKnow)
    }
}

extension TimeIntervalFormat: AnswerFormatRules {
    static let jsonKeys: Set<String> = ["maximum", "stepMinutes", "defaultValue", "dontKnow"]

    /// The step of a time interval format, in minutes.
    static let stepMinuteCounts: ClosedRange<Int> = 1...30

    var unit: String? { "s" }
    var wrongKindError: AnswerValidationError { AnswerValidationError(.takesDuration) }

    func addConstructionProblems(to problems: inout FormatProblems) {
        if !maximum.isFinite || maximum <= 0 {
            problems.add("maximum", "must be more than 0 seconds (is \(AnswerNumbers.text(maximum)))")
        }
        let steps = Self.stepMinuteCounts
        let stepValid = steps.contains(stepMinutes)
        if !stepValid {
            problems.add("stepMinutes", "must be from \(steps.lowerBound) to \(steps.upperBound) (is \(stepMinutes))")
        }
        if let value = defaultValue {
            if !value.isFinite || value < 0 || (maximum.isFinite && value > maximum) {
                problems.add("defaultValue", "must be from 0 to maximum (\(AnswerNumbers.text(maximum)) seconds); is \(AnswerNumbers.text(value))")
            } else if stepValid, value.truncatingRemainder(dividingBy: Double(stepMinutes * 60)) != 0 {
                problems.add("defaultValue", "must be a whole multiple of stepMinutes (\(stepMinutes) min = \(stepMinutes * 60) s); \(AnswerNumbers.text(value)) s is not")
            }
        }
    }

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .timeInterval(let value) = answer else { throw wrongKindError }
        guard value.isFinite, value >= 0, value <= maximum else {
            throw AnswerValidationError(.durationRange, ["maximum": .text(Self.durationPhrase(maximum))])
        }
        let step = Double(max(1, stepMinutes) * 60)
        guard value.truncatingRemainder(dividingBy: step) == 0 else {
            throw stepMinutes <= 1 ? AnswerValidationError(.enterWholeMinutes) : AnswerValidationError(.durationInSteps, ["step": .integer(stepMinutes)])
        }
    }

    /// `1h 30m`, `90m`, `2 hours`, `5400s`, `1:30` (hours and minutes); the answer in seconds.
    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        let text = trimmed.lowercased()
        if let match = text.wholeMatch(of: #/(?<h>[0-9]{1,6}):(?<m>[0-5][0-9])/#), let hours = Double(match.h), let minutes = Double(match.m) {
            return .timeInterval(hours * 3600 + minutes * 60)
        }
        let pattern = #/(?:(?<h>[0-9]{1,9})\s*(?:h|hr|hrs|hours?))?\s*(?:(?<m>[0-9]{1,9})\s*(?:m|min|mins|minutes?))?\s*(?:(?<s>[0-9]{1,12})\s*(?:s|sec|secs|seconds?))?/#
        if let match = text.wholeMatch(of: pattern), match.h != nil || match.m != nil || match.s != nil {
            let hours = match.h.flatMap { Double($0) } ?? 0
            let minutes = match.m.flatMap { Double($0) } ?? 0
            let seconds = match.s.flatMap { Double($0) } ?? 0
            return .timeInterval(hours * 3600 + minutes * 60 + seconds)
        }
        throw AnswerValidationError(.enterDurationFormat)
    }

    func hint(in context: TextInputContext) -> String {
        var text = "a duration such as 1h 30m, 90m or 1:30, up to \(Self.durationPhrase(maximum))"
        if stepMinutes > 1 { text += ", in steps of \(stepMinutes) min" }
        return text
    }

    /// "1 h 30 min", "45 min", "2 h", "1 min 30 s", "0 min".
    static func durationPhrase(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite else { return "\(seconds) s" }
        let total = Int(seconds.rounded(.towardZero))
        let sign = total < 0 ? "-" : ""
        let magnitude = abs(total)
        let hours = magnitude / 3600, minutes = magnitude % 3600 / 60, rest = magnitude % 60
        var parts: [String] = []
        if hours > 0 { parts.append("\(hours) h") }
        if minutes > 0 { parts.append("\(minutes) min") }
        if rest > 0 { parts.append("\(rest) s") }
        return sign + (parts.isEmpty ? "0 min" : parts.joined(separator: " "))
    }
}
