/// The messages of ``AnswerValidationError`` in the built-in languages: English, Simplified Chinese, Japanese,
/// Korean and Spanish, by ``AnswerValidationError/Key``.
///
/// A template names its values in braces (`{minimum}`); every language's template names the same ones as English's.
/// A key followed by ``singularSuffix`` is the wording for a count of one, where a language needs one.
public enum AnswerValidationMessages {
    /// The tables by language tag. Every table has every key but ``AnswerValidationError/Key/study``.
    public static let tables: [String: [String: String]] = [
        "en": english, "zh-Hans": simplifiedChinese, "ja": japanese, "ko": korean, "es": spanish,
    ]

    /// What follows a key for the wording of a count of one: `textTooLong.one`.
    public static let singularSuffix = ".one"

    /// What comes before a key where the web pages look a message up, and a study's strings file rewords it:
    /// `answer.numberRange`.
    public static let webKeyPrefix = "answer."

    /// The message key a web string key names (`answer.numberRange` → `numberRange`); nil for any other web key.
    public static func answerKey(ofWebKey key: String) -> String? {
        key.hasPrefix(webKeyPrefix) ? String(key.dropFirst(webKeyPrefix.count)) : nil
    }

    /// Every key of the English table, a singular wording's among them.
    public static var keys: [String] { tables["en"].map { Array($0.keys).sorted() } ?? [] }

    private static let english: [String: String] = [
        "signatureRequired": "Sign in the box before continuing.",
        "signatureOutsideArea": "The signature has points outside its drawing area.",

        "invisibleCharacter": "Remove the invisible character {character} from your answer: {reason}.",
        "reasonChangesDirection": "it changes the direction text is shown in, so it would read differently than it is stored",
        "reasonSingleLine": "this answer takes a single line",
        "reasonNoTabs": "this answer takes a single line without tabs",
        "reasonControlCharacter": "control characters cannot be stored in an answer",
        "textTooLong": "Enter at most {count} characters.",
        "textTooLong.one": "Enter at most {count} character.",

        "takesNumber": "This question takes a number.",
        "enterNumber": "Enter a number.",
        "enterWholeNumber": "Enter a whole number.",
        "numberRange": "Enter a number from {minimum} to {maximum}.",
        "numberAtLeast": "Enter a number of at least {minimum}.",
        "numberAtMost": "Enter a number of at most {maximum}.",
        "numberRangeInSteps": "Enter a number from {minimum} to {maximum}, in steps of {step}.",
        "percentRange": "Enter a number from {minimum} to {maximum} ({minimumPercent}% to {maximumPercent}%).",
        "enterWholePercentage": "Enter a whole percentage.",
        "percentFractionDigits": "Use at most {count} digits after the decimal point of the percentage.",
        "percentFractionDigits.one": "Use at most {count} digit after the decimal point of the percentage.",
        "fractionDigits": "Use at most {count} digits after the decimal point.",
        "fractionDigits.one": "Use at most {count} digit after the decimal point.",
        "ageRange": "Enter an age from {minimum} to {maximum}.",

        "takesHeight": "This question takes a height.",
        "heightPositive": "Enter a height greater than 0 cm.",
        "heightRange": "Enter a height from {minimum} to {maximum} cm.",
        "heightAtLeast": "Enter a height of at least {minimum} cm.",
        "heightAtMost": "Enter a height of at most {maximum} cm.",
        "enterFeetAndInches": "Enter feet and inches, like 5' 8\", or inches, like 68 in.",
        "inchesRange": "Enter inches from 0 to 11.",
        "enterHeightInFeet": "Enter a height in feet and inches, like 5' 8\".",
        "enterHeightInCentimetres": "Enter a height in centimetres, like 172.",
        "takesWeight": "This question takes a weight.",
        "weightPositive": "Enter a weight greater than 0 kg.",
        "weightRange": "Enter a weight from {minimum} to {maximum} kg.",
        "weightAtLeast": "Enter a weight of at least {minimum} kg.",
        "weightAtMost": "Enter a weight of at most {maximum} kg.",
        "enterWholeKilograms": "Enter a whole number of kilograms.",
        "enterPounds": "Enter pounds, like 150 lb.",
        "ouncesRange": "Enter ounces from 0 to 15.",
        "enterWeightInPounds": "Enter a weight in pounds, like 150 lb.",
        "enterWeightInKilograms": "Enter a weight in kilograms, like 72.",

        "takesDate": "This question takes a date.",
        "takesDateAndTime": "This question takes a date and time.",
        "enterDateAndTime": "Enter a date and a time.",
        "enterDateWithoutTime": "Enter a date without a time.",
        "dateOnOrAfter": "Choose a date on or after {date}.",
        "dateOnOrBefore": "Choose a date on or before {date}.",
        "dateTimeOnOrAfter": "Choose a date and time on or after {date}.",
        "dateTimeOnOrBefore": "Choose a date and time on or before {date}.",
        "enterDateFormat": "Enter a date as YYYY-MM-DD.",
        "enterDateTimeFormat": "Enter a date and time as YYYY-MM-DD HH:MM.",
        "noSuchDate": "There is no such date as {text}.",
        "timeSkippedByClockChange": "{text} does not exist in the time zone {zone}: the clocks change then.",
        "takesTimeOfDay": "This question takes a time of day.",
        "enterValidTimeOfDay": "Enter a valid time of day.",
        "enterTimeFormat": "Enter a time as HH:MM.",
        "takesDuration": "This question takes a duration.",
        "durationRange": "Enter a duration from 0 min to {maximum}.",
        "enterWholeMinutes": "Enter a whole number of minutes.",
        "durationInSteps": "Enter a duration in steps of {step} min.",
        "enterDurationFormat": "Enter a duration like 1h 30m, 90m or 1:30.",

        "takesChoice": "This question takes a choice from the list.",
        "chooseAnswer": "Choose an answer.",
        "notAChoice": "That answer is not one of the choices.",
        "chooseEachOnce": "Choose each answer only once.",
        "chooseOnlyOne": "Choose only one answer.",
        "exclusiveChoice": "“{choice}” can’t be combined with other answers.",
        "otherTextRequired": "Type your answer for “{choice}”.",
        "otherTextNotTaken": "“{choice}” doesn’t take any text.",
        "unknownChoiceTyped": "“{text}” is not one of the choices. Type a number from 1 to {count}.",
        "noChoices": "This question has no choices.",
        "takesValueFromEachList": "This question takes one value from each list.",
        "chooseInEachList": "Choose one value in each of the {count} lists.",
        "typeValueForEachList": "Type one value for each of the {count} lists, separated by commas.",
        "unknownPickerValueTyped": "“{text}” is not one of the choices in list {list}. Type a number from 1 to {count}.",
        "takesRung": "This question takes a rung of the ladder.",
        "rungRange": "Choose a rung from 1 to {count}.",
        "takesYesOrNo": "This question takes a yes or no answer.",
        "answerYesOrNo": "Answer yes or no.",
        "answerYesOrNoWords": "Answer “{yes}” or “{no}”.",
        "yes": "Yes",
        "no": "No",
        "noDontKnow": "This question has no “I don’t know” answer.",

        "takesText": "This question takes text.",
        "enterSomeText": "Enter some text.",
        "enterSingleLine": "Enter a single line of text.",
        "checkTextFormat": "Check the format of your answer.",
        "takesEmail": "This question takes an email address.",
        "enterValidEmail": "Enter a valid email address.",
        "takesPlace": "This question takes a place.",
        "enterLatitudeAndLongitude": "Enter both latitude and longitude.",
        "latitudeRange": "Enter a latitude from -90 to 90.",
        "longitudeRange": "Enter a longitude from -180 to 180.",
        "enterAddressOrPosition": "Enter an address or a position.",
        "enterPositionFormat": "Enter the position as latitude, longitude, like 52.52, 13.40.",

        "takesFile": "This question takes a file.",
        "fileEmpty": "The file is empty; choose another.",
        "fileTooLarge": "Choose a file of at most {size}.",
        "fileTypeNotAllowed": "Choose a file of one of these types: {types}.",
        "fileTypeInvalid": "The browser sent this file without a valid media type (such as image/jpeg); choose it again or choose another file.",
        "fileNameCharacter": "Rename the file and choose it again: its name holds the invisible character {character}; {reason}.",
        "fileNameTooLong": "Rename the file and choose it again: its name may have at most {count} characters.",
        "attachFile": "Attach a file to answer this question.",
    ]
}
