import Foundation

/// Why an answer was refused, as a key into the message tables and the values its message names, so that each
/// participant reads it in their language: "Enter a number from 0 to 10.", "0 から 10 までの数を入力してください。"
///
/// The server, the web page and the terminal runner show ``message(in:)`` (or ``message``, in English) as it is, so
/// every message is a whole sentence addressed to the participant and never mentions JSON keys or internal values.
///
/// ```swift
/// let error = AnswerValidationError(.numberRange, ["minimum": .number(0), "maximum": .number(10)])
/// error.message                 // "Enter a number from 0 to 10."
/// error.message(in: "es")       // "Introduzca un número del 0 al 10."
/// ```
public struct AnswerValidationError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// Which problem: its message's key in ``AnswerValidationMessages``.
    public var key: Key
    /// The values the message names, by placeholder: `["minimum": .number(0)]` fills `{minimum}`.
    public var values: [String: Value]

    /// Creates the error `key` with the `values` its message names.
    public init(_ key: Key, _ values: [String: Value] = [:]) {
        self.key = key
        self.values = values
    }

    /// An error whose message a study wrote itself (a text question's `invalidMessage`), shown as written: the
    /// study's translations already give it in each language.
    public static func study(_ message: String) -> AnswerValidationError {
        AnswerValidationError(.study, ["message": .text(message)])
    }

    /// The message in English.
    public var message: String { message(in: "en") }

    /// The message in `language` (a BCP 47 tag such as `ja` or `zh-Hans-CN`), from the built-in tables, falling back
    /// to English as ``LanguageTag/fallbackChain(then:)`` does.
    public func message(in language: String) -> String {
        let chain = LanguageTag(language).fallbackChain(then: "en")
        return message(locale: Locale(identifier: language)) { key in
            chain.lazy.compactMap { AnswerValidationMessages.tables[$0]?[key] }.first
        }
    }

    /// The message with each text looked up by `text` (a key of ``AnswerValidationMessages`` → its template), and
    /// dates and numbers written for `locale`; a key `text` does not know is looked up in English.
    ///
    /// The web pages pass their strings here, so that a study's overrides of a message count too.
    public func message(locale: Locale, text: (String) -> String?) -> String {
        if key == .study, case .text(let message)? = values["message"] { return message }
        func lookUp(_ key: Key) -> String {
            text(key.rawValue) ?? AnswerValidationMessages.tables["en"]?[key.rawValue] ?? key.rawValue
        }
        // A count of one reads its own wording where a language has one ("1 character", not "1 characters").
        var template = lookUp(key)
        if case .integer(1)? = values["count"], let singular = text(key.rawValue + AnswerValidationMessages.singularSuffix) {
            template = singular
        }
        let filled = values.mapValues { value -> String in
            switch value {
            case .text(let text): text
            case .integer(let number): String(number)
            case .number(let number): AnswerNumbers.numberText(number, decimalSeparator: locale.decimalSeparator ?? ".")
            case .day(let date): Self.dateText(date, timeZone: .gmt, withTime: false, locale: locale)
            case .dateTime(let date, let timeZone): Self.dateText(date, timeZone: timeZone, withTime: true, locale: locale)
            case .phrase(let key): lookUp(key)
            }
        }
        return PlaceholderText.fill(template, filled)
    }

    /// The message in English.
    public var description: String { message }

    /// The message in English, so that `localizedDescription` shows it too.
    public var errorDescription: String? { message }

    /// A day (in the long style of `locale`: "March 1, 2026", "2026年3月1日") and, `withTime`, its time.
    private static func dateText(_ date: Date, timeZone: TimeZone, withTime: Bool, locale: Locale) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateStyle = .long
        formatter.timeStyle = withTime ? .short : .none
        return formatter.string(from: date)
    }
}

extension AnswerValidationError {
    /// A value a message names.
    public enum Value: Hashable, Sendable {
        /// Text shown as it is: a choice's text as the study wrote it, what the participant typed.
        case text(String)
        /// A whole number, in plain digits: a count, a bound.
        case integer(Int)
        /// A number, in plain digits with the language's decimal separator.
        case number(Decimal)
        /// A calendar day (the day of this instant in UTC), in the language's long date style.
        case day(Date)
        /// An instant in a time zone, as its day and time in the language's style.
        case dateTime(Date, TimeZone)
        /// Another text of the tables, in the same language: the reason inside a message, the word "Yes".
        case phrase(Key)
    }

    /// The refusals a participant can meet, each with a message in every built-in language.
    public enum Key: String, CaseIterable, Hashable, Sendable {
        /// A message the study wrote (`{message}`), not in the tables.
        case study
        // Signatures.
        case signatureRequired, signatureOutsideArea
        // Any typed text.
        case invisibleCharacter, reasonChangesDirection, reasonSingleLine, reasonNoTabs, reasonControlCharacter
        case textTooLong
        // Numbers and scales.
        case takesNumber, enterNumber, enterWholeNumber, numberRange, numberAtLeast, numberAtMost, numberRangeInSteps
        case percentRange, enterWholePercentage, percentFractionDigits, fractionDigits
        case ageRange
        // Height and weight.
        case takesHeight, heightPositive, heightRange, heightAtLeast, heightAtMost
        case enterFeetAndInches, inchesRange, enterHeightInFeet, enterHeightInCentimetres
        case takesWeight, weightPositive, weightRange, weightAtLeast, weightAtMost
        case enterWholeKilograms, enterPounds, ouncesRange, enterWeightInPounds, enterWeightInKilograms
        // Dates, times and durations.
        case takesDate, takesDateAndTime, enterDateAndTime, enterDateWithoutTime
        case dateOnOrAfter, dateOnOrBefore, dateTimeOnOrAfter, dateTimeOnOrBefore
        case enterDateFormat, enterDateTimeFormat, noSuchDate, timeSkippedByClockChange
        case takesTimeOfDay, enterValidTimeOfDay, enterTimeFormat
        case takesDuration, durationRange, enterWholeMinutes, durationInSteps, enterDurationFormat
        // Choices.
        case takesChoice, chooseAnswer, notAChoice, chooseEachOnce, chooseOnlyOne, exclusiveChoice
        case otherTextRequired, otherTextNotTaken, unknownChoiceTyped, noChoices
        case takesValueFromEachList, chooseInEachList, typeValueForEachList, unknownPickerValueTyped
        case takesRung, rungRange
        case takesYesOrNo, answerYesOrNo, answerYesOrNoWords, yes, no
        case noDontKnow
        // Text, email and places.
        case takesText, enterSomeText, enterSingleLine, checkTextFormat
        case takesEmail, enterValidEmail
        case takesPlace, enterLatitudeAndLongitude, latitudeRange, longitudeRange, enterAddressOrPosition, enterPositionFormat
        // Files.
        case takesFile, fileEmpty, fileTooLarge, fileTypeNotAllowed, fileTypeInvalid, fileNameCharacter, fileNameTooLong, attachFile
    }
}
