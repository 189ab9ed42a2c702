import Foundation

/// What kind of answer a question takes, with the rules that answer must follow.
///
/// Each case carries its own settings. ``validate(_:)`` checks an answer against them and
/// ``constructionProblems()`` checks the settings themselves (a scale of 0–10 in steps of 3 is refused).
/// In JSON a format is an object whose `type` names the case: `{"type": "scale", "minimum": 0, …}`.
///
/// Each family of formats has one file in `Research/AnswerFormats`, named after its settings type, that holds the
/// settings with their construction checks, answer validation and text input side by side; the enum only picks a
/// case's rules (one switch) and asks them.
public enum AnswerFormat: Hashable, Sendable {
    /// Yes or no; the answer is ``Answer/boolean(_:)``.
    case boolean(BooleanFormat)
    /// One or several texts from a list; the answer is ``Answer/choices(_:)``.
    case textChoice(TextChoiceFormat)
    /// One or several pictures; the answer is ``Answer/choices(_:)``.
    case imageChoice(ImageChoiceFormat)
    /// One value from a wheel or drop-down list; the answer is ``Answer/choices(_:)`` with one selection.
    case valuePicker(ValuePickerFormat)
    /// One value from each of several pickers; the answer is ``Answer/components(_:)``, one value per picker.
    case multipleValuePicker(MultipleValuePickerFormat)
    /// A slider over labelled positions; the answer is ``Answer/choices(_:)`` with one selection.
    case textScale(TextScaleFormat)
    /// A slider over whole numbers; the answer is ``Answer/number(_:)``.
    case scale(ScaleFormat)
    /// A slider over real numbers; the answer is ``Answer/number(_:)``.
    case continuousScale(ContinuousScaleFormat)
    /// A number typed in; the answer is ``Answer/number(_:)``.
    case numeric(NumericFormat)
    /// A body height; the answer is ``Answer/number(_:)`` in centimetres, whatever units the participant used.
    case height(HeightFormat)
    /// A body weight; the answer is ``Answer/number(_:)`` in kilograms, whatever units the participant used.
    case weight(WeightFormat)
    /// An age; the answer is ``Answer/number(_:)`` in whole years.
    case age(AgeFormat)
    /// A calendar day; the answer is ``Answer/date(_:)`` without a time. In JSON the bounds are written as days.
    case date(DateFormat)
    /// A day and a time; the answer is ``Answer/date(_:)`` with a time. In JSON the bounds are written as date-times.
    case dateTime(DateFormat)
    /// A time of day without a date; the answer is ``Answer/timeOfDay(_:)``.
    case timeOfDay(TimeOfDayFormat)
    /// A duration; the answer is ``Answer/timeInterval(_:)`` in seconds.
    case timeInterval(TimeIntervalFormat)
    /// Free text; the answer is ``Answer/text(_:)``.
    case text(TextFormat)
    /// An email address; the answer is ``Answer/text(_:)``, stored without surrounding white space.
    case email(EmailFormat)
    /// A place; the answer is ``Answer/location(_:)``.
    case location(LocationFormat)
    /// A rung of the social status ladder; the answer is ``Answer/number(_:)``, 1 for the bottom rung.
    case sesLadder(SESLadderFormat)
    /// A file the participant attaches; the answer is ``Answer/file(_:)``.
    case file(FileFormat)

    /// The name of the format in JSON and in question results.
    public var type: AnswerFormatType {
        switch self {
        case .boolean: .boolean
        case .textChoice: .textChoice
        case .imageChoice: .imageChoice
        case .valuePicker: .valuePicker
        case .multipleValuePicker: .multipleValuePicker
        case .textScale: .textScale
        case .scale: .scale
        case .continuousScale: .continuousScale
        case .numeric: .numeric
        case .height: .height
        case .weight: .weight
        case .age: .age
        case .date: .date
        case .dateTime: .dateTime
        case .timeOfDay: .timeOfDay
        case .timeInterval: .timeInterval
        case .text: .text
        case .email: .email
        case .location: .location
        case .sesLadder: .sesLadder
        case .file: .file
        }
    }

    /// Asks this case's rules (from the settings' own file) `question`, handing them over with their concrete type: the
    /// one switch over the cases that everything below goes through.
    ///
    /// Each question is a small type rather than a call on an `any AnswerFormatRules`, so that every call is dispatched
    /// statically and specialized: through an existential, each call boxed the settings and reached the generic
    /// ``ChoiceFormat`` through unspecialized code, which made `studykit bench`'s 500-step session a quarter slower.
    func ask<Question: AnswerFormatQuestion>(_ question: Question) -> Question.Reply {
        switch self {
        case .boolean(let format): question.ask(format)
        case .textChoice(let format): question.ask(format)
        case .imageChoice(let format): question.ask(format)
        case .valuePicker(let format): question.ask(format)
        case .multipleValuePicker(let format): question.ask(format)
        case .textScale(let format): question.ask(format)
        case .scale(let format): question.ask(format)
        case .continuousScale(let format): question.ask(format)
        case .numeric(let format): question.ask(format)
        case .height(let format): question.ask(format)
        case .weight(let format): question.ask(format)
        case .age(let format): question.ask(format)
        case .date(let format): question.ask(DateFormatRules(format: format, includesTime: false))
        case .dateTime(let format): question.ask(DateFormatRules(format: format, includesTime: true))
        case .timeOfDay(let format): question.ask(format)
        case .timeInterval(let format): question.ask(format)
        case .text(let format): question.ask(format)
        case .email(let format): question.ask(format)
        case .location(let format): question.ask(format)
        case .sesLadder(let format): question.ask(format)
        case .file(let format): question.ask(format)
        }
    }

    /// The "I don't know" option, for the formats that may offer one.
    public var dontKnow: DontKnowOption? { ask(DontKnowQuestion()) }

    /// The values of the format's choices (every picker's, for a multiple value picker); empty for formats without
    /// choices.
    public var choiceValues: [ChoiceValue] { ask(ChoiceValuesQuestion()) }

    /// The unit the answer is stored in, which question results carry: "cm" for height, "kg" for weight,
    /// "years" for age, "s" for a time interval, the numeric format's own unit; nil for the other formats.
    public var unit: String? { ask(UnitQuestion()) }

    /// Checks the format's own settings and lists everything wrong with them; empty when the format is usable.
    ///
    /// Answers are validated against these settings, so a format with problems must be refused before any
    /// participant sees it: a scale of 0–10 in steps of 3 has no valid maximum answer, a pattern without an
    /// invalid-answer message leaves the participant without an explanation. The rules follow ResearchKit's
    /// `validateParameters` where it has them.
    public func constructionProblems() -> [FormatProblem] {
        ask(ConstructionQuestion())
    }

    /// Checks an answer against this format and throws the reason, in the participant's words, when it is refused.
    ///
    /// This is the one place where answers are judged: the browser and the terminal may check early, the
    /// server calls this before it stores anything. Pass answers through ``normalized(_:)`` first, so that
    /// blank text and empty selections count as no answer rather than as wrong answers.
    public func validate(_ answer: Answer) throws(AnswerValidationError) {
        if let refusal = ask(ValidationQuestion(answer: answer, kind: type.answerKind)) { throw refusal }
    }

    /// The answer as it should be stored: nil when it amounts to no answer, tidied where tidying cannot change its meaning.
    ///
    /// Blank text and an empty selection (or an empty list of picker values) are no answer; the text of an "other" choice is
    /// trimmed (and dropped when blank); an email address loses surrounding white space; a location without address
    /// or coordinates is no answer. Everything else is returned unchanged.
    public func normalized(_ answer: Answer) -> Answer? {
        ask(NormalizationQuestion(answer: answer))
    }

    /// The message for an answer of the wrong shape, naming the shape this format takes.
    var wrongKindError: AnswerValidationError { ask(WrongKindQuestion()) }

    /// Turns what a participant typed in the terminal, or posted in an HTML form field, into a validated answer.
    ///
    /// Both front ends share this parser, so "1, 3", `5'8"`, `1h 30m` or `2026-03-01` mean the same everywhere.
    /// Blank input is no answer (nil). "?" or "dk" is ``Answer/dontKnow`` when the format offers that option.
    /// Choices are picked by their 1-based number in the list (numbers are never read as choice values), by a
    /// string value or by their text; an "other" choice takes its text after a colon (`3: my own words`).
    /// Numbers accept `locale`'s decimal separator as well as `.`; heights and weights in US customary units are
    /// converted to cm and kg; dates and times are read in `timeZone` and recorded with `calendar`.
    /// The result is checked with ``validate(_:)`` before it is returned.
    public func answer(fromText text: String, locale: Locale = Locale(identifier: "en_US_POSIX"), timeZone: TimeZone = .current,
                       calendar: Calendar.Identifier = .gregorian) throws(AnswerValidationError) -> Answer? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return nil }
        let context = TextInputContext(locale: locale, timeZone: timeZone, calendar: calendar)
        guard let answer = try ask(TextInputQuestion(trimmed: trimmed, typed: text, context: context)).get() else { return nil }
        try validate(answer)
        return answer
    }

    /// A short English hint for the terminal prompt saying what to type: "a whole number from 0 to 10, in steps of 1",
    /// "yes or no", "choose one: type its number", "a date, YYYY-MM-DD, from 2026-01-01 to 2026-12-31".
    ///
    /// `locale` decides the decimal separator shown and, for formats in the local measurement system, whether
    /// heights and weights are asked in metric or US units; date-time bounds are shown in `timeZone`.
    public func hint(locale: Locale = Locale(identifier: "en_US_POSIX"), timeZone: TimeZone = .current) -> String {
        ask(HintQuestion(context: TextInputContext(locale: locale, timeZone: timeZone, calendar: .gregorian)))
    }

    /// The answer as text for people: "Yes", "Often, Other: on weekends", "72.5 kg", "2026-03-01", "1 h 30 min", "I don't know".
    ///
    /// Choices show their texts, not their values; numbers show in the unit they are stored in (cm, kg), with
    /// `locale`'s decimal separator; a date-time shows in the time zone the participant answered in.
    public func display(_ answer: Answer, locale: Locale = Locale(identifier: "en_US_POSIX")) -> String {
        ask(DisplayQuestion(answer: answer, decimalSeparator: locale.decimalSeparator ?? "."))
    }
}

/// The names of the answer formats, as they appear in JSON (`"type": "textChoice"`) and in question results.
public enum AnswerFormatType: String, Hashable, Sendable, Codable, CaseIterable {
    /// The yes-or-no, choice and slider formats; each name is that of the matching ``AnswerFormat`` case.
    case boolean, textChoice, imageChoice, valuePicker, multipleValuePicker, textScale, scale, continuousScale
    /// The typed, date and time, text and place formats; each name is that of the matching ``AnswerFormat`` case.
    case numeric, height, weight, age, date, dateTime, timeOfDay, timeInterval, text, email, location, sesLadder
    /// A file the participant attaches.
    case file

    /// The keys a format of this type may have in JSON besides `type`, from its family's file.
    var jsonKeys: Set<String> {
        switch self {
        case .boolean: BooleanFormat.jsonKeys
        case .textChoice: TextChoiceFormat.jsonKeys
        case .imageChoice: ImageChoiceFormat.jsonKeys
        case .valuePicker: ValuePickerFormat.jsonKeys
        case .multipleValuePicker: MultipleValuePickerFormat.jsonKeys
        case .textScale: TextScaleFormat.jsonKeys
        case .scale: ScaleFormat.jsonKeys
        case .continuousScale: ContinuousScaleFormat.jsonKeys
        case .numeric: NumericFormat.jsonKeys
        case .height: HeightFormat.jsonKeys
        case .weight: WeightFormat.jsonKeys
        case .age: AgeFormat.jsonKeys
        case .date, .dateTime: DateFormatRules.jsonKeys
        case .timeOfDay: TimeOfDayFormat.jsonKeys
        case .timeInterval: TimeIntervalFormat.jsonKeys
        case .text: TextFormat.jsonKeys
        case .email: EmailFormat.jsonKeys
        case .location: LocationFormat.jsonKeys
        case .sesLadder: SESLadderFormat.jsonKeys
        case .file: FileFormat.jsonKeys
        }
    }

    /// The shape of the answers this format produces.
    public var answerKind: AnswerKind {
        switch self {
        case .boolean: .boolean
        case .textChoice, .imageChoice, .valuePicker, .textScale: .choices
        case .multipleValuePicker: .components
        case .scale, .continuousScale, .numeric, .height, .weight, .age, .sesLadder: .number
        case .date, .dateTime: .date
        case .timeOfDay: .timeOfDay
        case .timeInterval: .timeInterval
        case .text, .email: .text
        case .location: .location
        case .file: .file
        }
    }
}

/// An "I don't know" button offered beside a question; choosing it records ``Answer/dontKnow``.
public struct DontKnowOption: Hashable, Sendable, Codable {
    /// The button's text; the string table's "I don't know" when nil.
    public var text: String?
    /// Creates the option; a nil `text` shows the standard "I don't know". A text given must not be blank.
    public init(text: String? = nil) { self.text = text }
}
