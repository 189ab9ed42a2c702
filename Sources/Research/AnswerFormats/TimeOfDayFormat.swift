import Foundation

/// A time of day.
public struct TimeOfDayFormat: Hashable, Sendable, Codable {
    /// The time the picker starts at; nil for none. Must be a valid time (hours 0–23, minutes and seconds 0–59).
    public var defaultValue: TimeOfDay?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a time of day format; see the properties for each setting's rules.
    public init(defaultValue: TimeOfDay? = nil, dontKnow: DontKnowOption? = nil) {
        self.defaultValue = defaultValue
        self.dontKnow = dontKnow
    }
}

extension TimeOfDayFormat: AnswerFormatRules {
    static let jsonKeys: Set<String> = ["defaultValue", "dontKnow"]

    var wrongKindError: AnswerValidationError { AnswerValidationError(.takesTimeOfDay) }

    /// Whether a time of day has hours 0–23 and minutes and seconds 0–59.
    static func isValid(_ time: TimeOfDay) -> Bool {
        (0...23).contains(time.hour) && (0...59).contains(time.minute) && (0...59).contains(time.second)
    }

    func addConstructionProblems(to problems: inout FormatProblems) {
        if let value = defaultValue, !Self.isValid(value) {
            problems.add("defaultValue", "is not a time of day (hour \(value.hour), minute \(value.minute), second \(value.second))")
        }
    }

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .timeOfDay(let value) = answer else { throw wrongKindError }
        guard Self.isValid(value) else { throw AnswerValidationError(.enterValidTimeOfDay) }
    }

    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        guard let time = TimeOfDay(parsing: trimmed) else { throw AnswerValidationError(.enterTimeFormat) }
        return .timeOfDay(time)
    }

    func hint(in context: TextInputContext) -> String { "HH:MM" }
}
