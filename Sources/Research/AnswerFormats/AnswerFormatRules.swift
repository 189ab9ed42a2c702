import Foundation
import JSONDiagnostics

/// One thing wrong with the settings of an answer format, found by ``AnswerFormat/constructionProblems()``: its path
/// relative to the format object, in JSON key names (`maximum`, `choices[2].value`), and what is wrong.
public typealias FormatProblem = DocumentProblem

/// What an answer format's settings know of their own rules.
///
/// Each settings type conforms in its own file, where its settings, construction checks, answer validation and text
/// input sit side by side. ``AnswerFormat`` picks a case's rules in one switch (``AnswerFormat/ask(_:)``) and asks them;
/// it handles what every format shares itself: "I don't know" answers, blank typed text, answers of the wrong kind.
protocol AnswerFormatRules: Sendable {
    /// The keys of the format's JSON object besides `type`: the task validator reports any other key as a typo.
    static var jsonKeys: Set<String> { get }
    /// The values of the format's choices, which conditions may compare answers with; empty for formats without choices.
    var choiceValues: [ChoiceValue] { get }
    /// The "I don't know" option; nil for formats that cannot offer one.
    var dontKnow: DontKnowOption? { get }
    /// The unit a number answer is stored in ("cm", "kg"); nil when there is none.
    var unit: String? { get }
    /// The refusal of an answer of the wrong shape, naming the shape this format takes.
    var wrongKindError: AnswerValidationError { get }
    /// Adds the problems of the settings, at paths relative to the format object. The "I don't know" text is checked
    /// by ``AnswerFormat/constructionProblems()``.
    func addConstructionProblems(to problems: inout FormatProblems)
    /// Checks an answer of the format's kind (never ``Answer/dontKnow``); throws the participant's reason.
    func validate(_ answer: Answer) throws(AnswerValidationError)
    /// The answer as stored; see ``AnswerFormat/normalized(_:)``.
    func normalized(_ answer: Answer) -> Answer?
    /// Reads typed text as an answer, before it is normalised and validated. `trimmed` is never blank and never an
    /// "I don't know"; `typed` is the text as it came.
    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer
    /// What to type, for the terminal prompt, without the "I don't know" part.
    func hint(in context: TextInputContext) -> String
    /// An answer (never ``Answer/dontKnow``) as text for people.
    func display(_ answer: Answer, decimalSeparator: String) -> String
}

extension AnswerFormatRules {
    var choiceValues: [ChoiceValue] { [] }
    var dontKnow: DontKnowOption? { nil }
    var unit: String? { nil }

    func normalized(_ answer: Answer) -> Answer? { standardNormalized(answer) }

    func display(_ answer: Answer, decimalSeparator: String) -> String {
        standardDisplay(answer, decimalSeparator: decimalSeparator)
    }

    /// The tidying every format shares, by the answer's shape: blank text, an empty selection or an empty list of
    /// picker values is no answer; an "other" choice's text is trimmed (dropped when blank); a location loses a blank
    /// address and is no answer without address or coordinates.
    func standardNormalized(_ answer: Answer) -> Answer? {
        switch answer {
        case .text(let text):
            return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : answer
        case .choices(let selections):
            if selections.isEmpty { return nil }
            return .choices(selections.map { selection in
                var selection = selection
                let trimmed = selection.text?.trimmingCharacters(in: .whitespacesAndNewlines)
                selection.text = trimmed?.isEmpty == false ? trimmed : nil
                return selection
            })
        case .components(let values):
            return values.isEmpty ? nil : answer
        case .location(var location):
            if location.address?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true { location.address = nil }
            if location.address == nil, location.latitude == nil, location.longitude == nil { return nil }
            return .location(location)
        default:
            return answer
        }
    }

    /// An answer as text by its shape alone, for the answers a format adds nothing to: numbers with ``unit``,
    /// choices by their values, yes and no in English.
    func standardDisplay(_ answer: Answer, decimalSeparator: String) -> String {
        switch answer {
        case .dontKnow:
            return dontKnow?.text ?? "I don't know"
        case .boolean(let value):
            return value ? "Yes" : "No"
        case .choices(let selections):
            return [TextChoice]().displayText(of: selections)
        case .number(let value):
            let number = AnswerNumbers.numberText(value, decimalSeparator: decimalSeparator)
            return unit.map { "\(number) \($0)" } ?? number
        case .date(let value):
            return value.includesTime
                ? DateFormat.dateTimeText(value.date, in: value.timeZone)
                : ISO8601.dayString(from: value.date, in: value.timeZone)
        case .timeOfDay(let value):
            return value.description
        case .timeInterval(let value):
            return TimeIntervalFormat.durationPhrase(value)
        case .text(let value):
            return value
        case .location(let value):
            return LocationFormat.text(of: value)
        case .components(let values):
            return values.map(\.description).joined(separator: " ")
        case .file(let value):
            return "\(value.title ?? value.fileName) (\(FileFormat.sizeDescription(value.byteCount)))"
        }
    }
}

/// Where typed answers are read and hinted: the participant's locale, time zone and calendar.
struct TextInputContext {
    /// The locale, for its decimal separator and measurement system.
    var locale: Locale
    /// The time zone dates and times are read and shown in.
    var timeZone: TimeZone
    /// The calendar a date answer is recorded with.
    var calendar: Calendar.Identifier
    /// The locale's decimal separator, `.` when it has none.
    var decimalSeparator: String

    init(locale: Locale, timeZone: TimeZone, calendar: Calendar.Identifier) {
        self.locale = locale
        self.timeZone = timeZone
        self.calendar = calendar
        decimalSeparator = locale.decimalSeparator ?? "."
    }

    /// A decimal as plain digits with the locale's decimal separator: `72.5`, `72,5`.
    func number(_ value: Decimal) -> String { AnswerNumbers.numberText(value, decimalSeparator: decimalSeparator) }
}

/// Collects the problems of a format's settings while they are checked.
struct FormatProblems {
    /// The problems found, in the order found.
    private(set) var list: [FormatProblem] = []

    /// Adds a problem at `path`, relative to the format object.
    mutating func add(_ path: String, _ message: String) {
        list.append(FormatProblem(path: path, message: message))
    }

    /// Joins a path prefix and a key: `path("pickers[1]", "choices")` is `pickers[1].choices`.
    static func path(_ prefix: String, _ key: String) -> String {
        prefix.isEmpty ? key : "\(prefix).\(key)"
    }
}
