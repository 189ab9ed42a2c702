import Foundation
import Testing
@testable import Research

private let posix = Locale(identifier: "en_US_POSIX")
private let german = Locale(identifier: "de_DE")
private let american = Locale(identifier: "en_US")

/// What `format` makes of `text`: the answer, or the refusal's message.
private func read(_ format: AnswerFormat, _ text: String, locale: Locale = posix, timeZone: TimeZone = .gmt) -> Result<Answer?, AnswerValidationError> {
    do {
        return .success(try format.answer(fromText: text, locale: locale, timeZone: timeZone))
    } catch {
        return .failure(error)
    }
}

private func answer(_ format: AnswerFormat, _ text: String, locale: Locale = posix, timeZone: TimeZone = .gmt) -> Answer? {
    try? read(format, text, locale: locale, timeZone: timeZone).get()
}

private func refusal(_ format: AnswerFormat, _ text: String, locale: Locale = posix, timeZone: TimeZone = .gmt) -> String? {
    if case .failure(let error) = read(format, text, locale: locale, timeZone: timeZone) { return error.message }
    return nil
}

private func number(_ text: String) -> Answer { .number(Decimal(string: text, locale: posix)!) }

private func choice(_ text: String, _ value: ChoiceValue, exclusive: Bool = false, other: OtherChoice? = nil) -> TextChoice {
    TextChoice(text: text, value: value, exclusive: exclusive, other: other)
}

private func zone(_ identifier: String) -> TimeZone { TimeZone(identifier: identifier)! }

private let frequency = AnswerFormat.textChoice(TextChoiceFormat(style: .single, choices: [
    choice("Not at all", 0), choice("Several days", 1), choice("More than half the days", 2), choice("Nearly every day", "daily"),
]))

private let pets = AnswerFormat.textChoice(TextChoiceFormat(style: .multiple, choices: [
    choice("Dogs", "dogs"),
    choice("Cats", "cats"),
    choice("Other", "other", other: OtherChoice()),
    choice("None of these", "none", exclusive: true),
]))

@Suite("AnswerFormat text input, hints and display")
struct AnswerFormatTextInputTests {
    // MARK: Common

    @Test func blankInputIsNoAnswer() {
        #expect(read(.scale(ScaleFormat(minimum: 0, maximum: 10)), "").map { $0 == nil } == .success(true))
        #expect(read(.text(TextFormat()), "  \n ").map { $0 == nil } == .success(true))
        #expect(read(pets, " ").map { $0 == nil } == .success(true))
    }

    @Test func dontKnowWhenOffered() {
        let format = AnswerFormat.scale(ScaleFormat(minimum: 0, maximum: 10, dontKnow: DontKnowOption(text: "Not sure")))
        #expect(answer(format, "?") == .dontKnow)
        #expect(answer(format, "DK") == .dontKnow)
        #expect(answer(format, "not sure") == .dontKnow)
        #expect(answer(.boolean(BooleanFormat(dontKnow: DontKnowOption())), "I don’t know") == .dontKnow)
        #expect(refusal(.scale(ScaleFormat(minimum: 0, maximum: 10)), "?") == "Enter a whole number.")
    }

    // MARK: Yes or no

    @Test func booleanWords() {
        let format = AnswerFormat.boolean(BooleanFormat())
        for yes in ["yes", "Y", "true", "1"] { #expect(answer(format, yes) == .boolean(true), "\(yes)") }
        for no in ["no", "N", "FALSE", "2"] { #expect(answer(format, no) == .boolean(false), "\(no)") }
        #expect(refusal(format, "maybe") == "Answer yes or no.")
    }

    @Test func booleanCustomTexts() {
        let format = AnswerFormat.boolean(BooleanFormat(yesText: "Agree", noText: "Disagree"))
        #expect(answer(format, "agree") == .boolean(true))
        #expect(answer(format, "Disagree") == .boolean(false))
        #expect(answer(format, "y") == .boolean(true))
        #expect(refusal(format, "perhaps") == "Answer “Agree” or “Disagree”.")
    }

    // MARK: Choices

    @Test func singleChoiceByNumberValueOrText() {
        // Numbers are positions in the list, never values: "1" is the first choice even though a choice has value 1.
        #expect(answer(frequency, "1") == .choices([ChoiceSelection(0)]))
        #expect(answer(frequency, "2") == .choices([ChoiceSelection(1)]))
        #expect(answer(frequency, "daily") == .choices([ChoiceSelection("daily")]))
        #expect(answer(frequency, "several days") == .choices([ChoiceSelection(1)]))
        #expect(refusal(frequency, "5") == "“5” is not one of the choices. Type a number from 1 to 4.")
        #expect(refusal(frequency, "0") == "“0” is not one of the choices. Type a number from 1 to 4.")
        #expect(refusal(frequency, "1, 2") == "Choose only one answer.")
    }

    @Test func multipleChoiceNumbersSeparatedByCommasOrSpaces() {
        #expect(answer(pets, "1, 2") == .choices([ChoiceSelection("dogs"), ChoiceSelection("cats")]))
        #expect(answer(pets, "2 1") == .choices([ChoiceSelection("cats"), ChoiceSelection("dogs")]))
        #expect(answer(pets, "dogs,cats") == .choices([ChoiceSelection("dogs"), ChoiceSelection("cats")]))
        #expect(refusal(pets, "1, 7") == "“7” is not one of the choices. Type a number from 1 to 4.")
        #expect(refusal(pets, "1, 1") == "Choose each answer only once.")
        #expect(refusal(pets, "1, 4") == "“None of these” can’t be combined with other answers.")
    }

    @Test func otherChoiceTakesTextAfterAColon() {
        #expect(answer(pets, "3: ferrets, rats") == .choices([ChoiceSelection("other", text: "ferrets, rats")]))
        #expect(answer(pets, "1, 3: ferrets") == .choices([ChoiceSelection("dogs"), ChoiceSelection("other", text: "ferrets")]))
        #expect(answer(pets, "3:") == .choices([ChoiceSelection("other")]))
        #expect(refusal(pets, "1: labradors") == "“Dogs” doesn’t take any text.")
    }

    @Test func pickersAndScalesOfChoices() {
        let picker = AnswerFormat.valuePicker(ValuePickerFormat(choices: [choice("Low", "low"), choice("High", "high")]))
        #expect(answer(picker, "2") == .choices([ChoiceSelection("high")]))
        #expect(refusal(picker, "3") == "“3” is not one of the choices. Type a number from 1 to 2.")
        let scale = AnswerFormat.textScale(TextScaleFormat(choices: [choice("Poor", 1), choice("Fair", 2), choice("Good", 3)]))
        #expect(answer(scale, "good") == .choices([ChoiceSelection(3)]))
        let image = ImageReference(url: "face.png")
        let faces = AnswerFormat.imageChoice(ImageChoiceFormat(style: .multiple, choices: [
            ImageChoice(image: image, text: "Happy", value: "happy"), ImageChoice(image: image, text: "Sad", value: "sad"),
        ]))
        #expect(answer(faces, "1,2") == .choices([ChoiceSelection("happy"), ChoiceSelection("sad")]))
    }

    @Test func multipleValuePickerOneNumberPerPicker() {
        let format = AnswerFormat.multipleValuePicker(MultipleValuePickerFormat(pickers: [
            ValuePickerFormat(choices: (4...6).map { choice("\($0) ft", .integer($0)) }),
            ValuePickerFormat(choices: (0...11).map { choice("\($0) in", .integer($0)) }),
        ]))
        #expect(answer(format, "2, 9") == .components([5, 8]))
        #expect(answer(format, "2 9") == .components([5, 8]))
        #expect(refusal(format, "2") == "Type one value for each of the 2 lists, separated by commas.")
        #expect(refusal(format, "2, 13") == "“13” is not one of the choices in list 2. Type a number from 1 to 12.")
    }

    // MARK: Numbers

    @Test func scaleNumbers() {
        let format = AnswerFormat.scale(ScaleFormat(minimum: 0, maximum: 10))
        #expect(answer(format, "7") == number("7"))
        #expect(answer(format, " +7 ") == number("7"))
        #expect(refusal(format, "seven") == "Enter a whole number.")
        #expect(refusal(format, "7.5") == "Enter a whole number.")
        #expect(refusal(format, "11") == "Enter a number from 0 to 10.")
    }

    @Test func decimalSeparatorOfTheLocaleAndThePoint() {
        let format = AnswerFormat.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, maximumFractionDigits: 2))
        #expect(answer(format, "0,25", locale: german) == number("0.25"))
        #expect(answer(format, "0.25", locale: german) == number("0.25"))
        #expect(answer(format, ".5") == number("0.5"))
        #expect(refusal(format, "0,25", locale: posix) == "Enter a number.")
        #expect(refusal(format, "abc") == "Enter a number.")
        #expect(refusal(format, "1e-1") == "Enter a number.")
        #expect(refusal(format, "0.125") == "Use at most 2 digits after the decimal point.")
    }

    @Test func percentStyleTakesPercentages() {
        let format = AnswerFormat.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, maximumFractionDigits: 2, percentStyle: true))
        #expect(answer(format, "25%") == number("0.25"))
        #expect(answer(format, "0.25") == number("0.25"))
        #expect(refusal(format, "250 %") == "Enter a number from 0 to 1 (0% to 100%).")
    }

    @Test func numericWithUnitAndStyle() {
        let format = AnswerFormat.numeric(NumericFormat(style: .decimal, unit: "mg", minimum: 0, maximumFractionDigits: 1))
        #expect(answer(format, "2.5 mg") == number("2.5"))
        #expect(answer(format, "2.5MG") == number("2.5"))
        #expect(refusal(format, "2.5 g") == "Enter a number.")
        #expect(refusal(format, "-1") == "Enter a number of at least 0.")
        let integer = AnswerFormat.numeric(NumericFormat(style: .integer))
        #expect(answer(integer, "-12") == number("-12"))
        #expect(refusal(integer, "twelve") == "Enter a whole number.")
        #expect(refusal(integer, "12.5") == "Enter a whole number.")
    }

    @Test func ageAndLadder() {
        #expect(answer(.age(AgeFormat()), "42") == number("42"))
        #expect(refusal(.age(AgeFormat()), "forty") == "Enter a whole number.")
        #expect(refusal(.age(AgeFormat(maximumAge: 120)), "130") == "Enter an age from 0 to 120.")
        #expect(answer(.sesLadder(SESLadderFormat()), "7") == number("7"))
        #expect(refusal(.sesLadder(SESLadderFormat()), "top") == "Enter a whole number.")
        #expect(refusal(.sesLadder(SESLadderFormat()), "11") == "Choose a rung from 1 to 10.")
    }

    // MARK: Height and weight

    @Test func metricHeight() {
        let format = AnswerFormat.height(HeightFormat(measurementSystem: .metric))
        #expect(answer(format, "172") == number("172"))
        #expect(answer(format, "172 cm") == number("172"))
        #expect(answer(format, "172,5", locale: german) == number("172.5"))
        #expect(answer(format, "1.72 m") == number("172"))
        #expect(refusal(format, "tall") == "Enter a height in centimetres, like 172.")
    }

    @Test func usCustomaryHeightIsConvertedToCentimetres() {
        let format = AnswerFormat.height(HeightFormat(measurementSystem: .usCustomary))
        #expect(answer(format, #"5'8""#) == number("172.72"))
        #expect(answer(format, "5’ 8”") == number("172.72"))
        #expect(answer(format, "5 ft 8 in") == number("172.72"))
        #expect(answer(format, "5 ft") == number("152.4"))
        #expect(answer(format, "68 in") == number("172.72"))
        // 67.25 in is 170.815 cm: two fraction digits, the half rounded up.
        #expect(answer(format, "5 ft 7.25 in") == number("170.82"))
        #expect(answer(format, "180 cm") == number("180"))
        #expect(refusal(format, "68") == "Enter feet and inches, like 5' 8\", or inches, like 68 in.")
        #expect(refusal(format, "5 ft 13 in") == "Enter inches from 0 to 11.")
    }

    @Test func localHeightFollowsTheLocale() {
        let format = AnswerFormat.height(HeightFormat(measurementSystem: .local))
        #expect(answer(format, "172", locale: german) == number("172"))
        #expect(refusal(format, "172", locale: american) == "Enter feet and inches, like 5' 8\", or inches, like 68 in.")
        #expect(answer(format, #"5'8""#, locale: american) == number("172.72"))
    }

    @Test func metricWeight() {
        let format = AnswerFormat.weight(WeightFormat(measurementSystem: .metric, precision: .low))
        #expect(answer(format, "72.5") == number("72.5"))
        #expect(answer(format, "72.5 kg") == number("72.5"))
        #expect(refusal(format, "72.55 kg") == "Use at most 1 digit after the decimal point.")
        #expect(refusal(format, "heavy") == "Enter a weight in kilograms, like 72.")
    }

    @Test func usCustomaryWeightIsConvertedToKilograms() {
        // 150 lb is 68.0388555 kg.
        #expect(answer(.weight(WeightFormat(measurementSystem: .usCustomary, precision: .default)), "150 lb") == number("68"))
        #expect(answer(.weight(WeightFormat(measurementSystem: .usCustomary, precision: .high)), "150 lbs") == number("68.04"))
        // 150.25 lb is 68.1522535... kg.
        #expect(answer(.weight(WeightFormat(measurementSystem: .usCustomary, precision: .high)), "150 lb 4 oz") == number("68.15"))
        #expect(refusal(.weight(WeightFormat(measurementSystem: .usCustomary)), "150") == "Enter pounds, like 150 lb.")
        #expect(refusal(.weight(WeightFormat(measurementSystem: .usCustomary)), "150 lb 20 oz") == "Enter ounces from 0 to 15.")
        #expect(answer(.weight(WeightFormat(measurementSystem: .local)), "150 lb", locale: american) == number("68"))
    }

    // MARK: Dates and times

    @Test func dateIsTheDayInTheParticipantsZone() throws {
        let kiritimati = zone("Pacific/Kiritimati")
        let result = try #require(answer(.date(DateFormat()), "2026-03-01", timeZone: kiritimati))
        guard case .date(let value) = result else {
            Issue.record("expected a date, got \(result)")
            return
        }
        #expect(value.date == ISO8601.date(from: "2026-02-28T10:00:00Z"))
        #expect(value.timeZone == kiritimati)
        #expect(value.includesTime == false)
        #expect(value.calendar == .gregorian)
    }

    @Test func dateBoundsApplyToTheTypedDay() {
        let format = AnswerFormat.date(DateFormat(minimum: ISO8601.date(from: "2026-03-01T00:00:00Z")))
        #expect(answer(format, "2026-03-01", timeZone: zone("Pacific/Kiritimati")) != nil)
        #expect(refusal(format, "2026-02-28", timeZone: zone("Pacific/Kiritimati")) == "Choose a date on or after March 1, 2026.")
    }

    @Test func malformedDates() {
        #expect(refusal(.date(DateFormat()), "03/01/2026") == "Enter a date as YYYY-MM-DD.")
        #expect(refusal(.date(DateFormat()), "2026-02-30") == "There is no such date as 2026-02-30.")
    }

    @Test func dateTimeIsReadInTheParticipantsZone() {
        let tokyo = zone("Asia/Tokyo")
        let expected = DateAnswer(date: ISO8601.date(from: "2026-02-28T23:30:00Z")!, timeZone: tokyo, includesTime: true)
        #expect(answer(.dateTime(DateFormat()), "2026-03-01 08:30", timeZone: tokyo) == .date(expected))
        #expect(answer(.dateTime(DateFormat()), "2026-03-01T08:30", timeZone: tokyo) == .date(expected))
        #expect(answer(.dateTime(DateFormat()), "2026-03-01T08:30:00+09:00", timeZone: tokyo) == .date(expected))
        #expect(refusal(.dateTime(DateFormat()), "2026-03-01") == "Enter a date and time as YYYY-MM-DD HH:MM.")
    }

    @Test func dateTimeInTheSpringForwardGapIsRefused() {
        #expect(refusal(.dateTime(DateFormat()), "2026-03-29 02:30", timeZone: zone("Europe/Berlin"))
            == "2026-03-29 02:30 does not exist in the time zone Europe/Berlin: the clocks change then.")
        #expect(answer(.dateTime(DateFormat()), "2026-03-29 03:30", timeZone: zone("Europe/Berlin")) != nil)
    }

    @Test func timeOfDay() {
        #expect(answer(.timeOfDay(TimeOfDayFormat()), "08:30") == .timeOfDay(TimeOfDay(hour: 8, minute: 30)))
        #expect(answer(.timeOfDay(TimeOfDayFormat()), "8:30") == .timeOfDay(TimeOfDay(hour: 8, minute: 30)))
        #expect(refusal(.timeOfDay(TimeOfDayFormat()), "25:00") == "Enter a time as HH:MM.")
        #expect(refusal(.timeOfDay(TimeOfDayFormat()), "half past eight") == "Enter a time as HH:MM.")
    }

    @Test func timeIntervals() {
        let format = AnswerFormat.timeInterval(TimeIntervalFormat())
        for text in ["1h 30m", "1h30m", "90m", "90 min", "1 hour 30 minutes", "1:30", "5400s"] {
            #expect(answer(format, text) == .timeInterval(5400), "\(text)")
        }
        #expect(answer(format, "2h") == .timeInterval(7200))
        #expect(refusal(format, "90") == "Enter a duration like 1h 30m, 90m or 1:30.")
        #expect(refusal(format, "soon") == "Enter a duration like 1h 30m, 90m or 1:30.")
        #expect(refusal(format, "90s") == "Enter a whole number of minutes.")
        #expect(refusal(.timeInterval(TimeIntervalFormat(stepMinutes: 15)), "20m") == "Enter a duration in steps of 15 min.")
        #expect(refusal(format, "24h") == "Enter a duration from 0 min to 23 h 59 min.")
    }

    // MARK: Text, email, location

    @Test func textIsKeptAsTyped() {
        #expect(answer(.text(TextFormat(multipleLines: true)), "first line\nsecond line") == .text("first line\nsecond line"))
        #expect(refusal(.text(TextFormat()), "first line\nsecond line") == "Enter a single line of text.")
        #expect(refusal(.text(TextFormat(maximumLength: 5)), "too long") == "Enter at most 5 characters.")
        let postcode = AnswerFormat.text(TextFormat(validationPattern: "[0-9]{5}", invalidMessage: "Enter a 5-digit postcode."))
        #expect(answer(postcode, "10115") == .text("10115"))
        #expect(refusal(postcode, "1011") == "Enter a 5-digit postcode.")
    }

    @Test func emailIsTrimmedAndChecked() {
        #expect(answer(.email(EmailFormat()), " ada@example.org ") == .text("ada@example.org"))
        #expect(refusal(.email(EmailFormat()), "ada at example.org") == "Enter a valid email address.")
    }

    @Test func locations() {
        let format = AnswerFormat.location(LocationFormat())
        #expect(answer(format, "Unter den Linden 1, Berlin") == .location(LocationAnswer(address: "Unter den Linden 1, Berlin")))
        #expect(answer(format, "Unter den Linden 1, Berlin @ 52.52, 13.40")
            == .location(LocationAnswer(address: "Unter den Linden 1, Berlin", latitude: 52.52, longitude: 13.40)))
        #expect(answer(format, "52.52, 13.40") == .location(LocationAnswer(latitude: 52.52, longitude: 13.40)))
        #expect(answer(format, "-33.87,151.21") == .location(LocationAnswer(latitude: -33.87, longitude: 151.21)))
        #expect(refusal(format, "Berlin @ north") == "Enter the position as latitude, longitude, like 52.52, 13.40.")
        #expect(refusal(format, "91, 13.4") == "Enter a latitude from -90 to 90.")
    }

    // MARK: Hints

    @Test func hints() {
        #expect(AnswerFormat.scale(ScaleFormat(minimum: 0, maximum: 10)).hint() == "a whole number from 0 to 10, in steps of 1")
        #expect(AnswerFormat.boolean(BooleanFormat()).hint() == "yes or no")
        #expect(AnswerFormat.boolean(BooleanFormat(dontKnow: DontKnowOption())).hint() == "yes or no; ? if you don't know")
        #expect(frequency.hint() == "choose one: type its number")
        #expect(AnswerFormat.textChoice(TextChoiceFormat(style: .multiple, choices: [choice("A", 1)])).hint()
            == "choose any: numbers separated by commas")
        #expect(pets.hint() == "choose any: numbers separated by commas; add your own words after a colon, as in 3: my words")
        #expect(AnswerFormat.timeOfDay(TimeOfDayFormat()).hint() == "HH:MM")
        let year = DateFormat(minimum: ISO8601.date(from: "2026-01-01T00:00:00Z"), maximum: ISO8601.date(from: "2026-12-31T00:00:00Z"))
        #expect(AnswerFormat.date(year).hint() == "a date, YYYY-MM-DD, from 2026-01-01 to 2026-12-31")
        #expect(AnswerFormat.dateTime(DateFormat(minimum: ISO8601.date(from: "2026-03-01T00:00:00Z"))).hint(timeZone: zone("Asia/Tokyo"))
            == "a date and time, YYYY-MM-DD HH:MM, from 2026-03-01 09:00")
        #expect(AnswerFormat.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1.5, maximumFractionDigits: 2)).hint(locale: german)
            == "a number from 0 to 1,5, up to 2 digits after the decimal point")
        #expect(AnswerFormat.numeric(NumericFormat(style: .decimal, unit: "mg", minimum: 0, maximum: 10, maximumFractionDigits: 1)).hint()
            == "a number from 0 to 10, up to 1 digit after the decimal point, in mg")
        #expect(AnswerFormat.numeric(NumericFormat(style: .integer, minimum: 1)).hint() == "a whole number of at least 1")
        #expect(AnswerFormat.height(HeightFormat()).hint(locale: german) == "your height in cm, as in 172")
        #expect(AnswerFormat.height(HeightFormat()).hint(locale: american) == "your height in feet and inches, as in 5' 8\" (or in cm, as in 172 cm)")
        #expect(AnswerFormat.timeInterval(TimeIntervalFormat(maximum: 7200, stepMinutes: 15)).hint()
            == "a duration such as 1h 30m, 90m or 1:30, up to 2 h, in steps of 15 min")
        #expect(AnswerFormat.sesLadder(SESLadderFormat()).hint() == "a rung from 1 (bottom) to 10 (top)")
        #expect(AnswerFormat.text(TextFormat(maximumLength: 280)).hint() == "text, at most 280 characters")
    }

    // MARK: Display

    @Test func displayOfAnswers() {
        #expect(AnswerFormat.boolean(BooleanFormat()).display(.boolean(true)) == "Yes")
        #expect(AnswerFormat.boolean(BooleanFormat(yesText: "Agree", noText: "Disagree")).display(.boolean(false)) == "Disagree")
        #expect(pets.display(.choices([ChoiceSelection("dogs"), ChoiceSelection("other", text: "Ferrets")])) == "Dogs, Other: Ferrets")
        #expect(AnswerFormat.weight(WeightFormat()).display(number("72.5")) == "72.5 kg")
        #expect(AnswerFormat.weight(WeightFormat()).display(number("72.5"), locale: german) == "72,5 kg")
        #expect(AnswerFormat.height(HeightFormat()).display(number("172.72")) == "172.72 cm")
        #expect(AnswerFormat.scale(ScaleFormat(minimum: 0, maximum: 10)).display(number("7")) == "7")
        #expect(AnswerFormat.age(AgeFormat()).display(number("42")) == "42 years")
        #expect(AnswerFormat.sesLadder(SESLadderFormat()).display(number("7")) == "7 of 10")
        #expect(AnswerFormat.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, percentStyle: true)).display(number("0.25")) == "25%")
        let day = DateAnswer(year: 2026, month: 3, day: 1, timeZone: zone("Pacific/Kiritimati"))!
        #expect(AnswerFormat.date(DateFormat()).display(.date(day)) == "2026-03-01")
        let moment = DateAnswer(date: ISO8601.date(from: "2026-02-28T23:30:00Z")!, timeZone: zone("Asia/Tokyo"), includesTime: true)
        #expect(AnswerFormat.dateTime(DateFormat()).display(.date(moment)) == "2026-03-01 08:30")
        #expect(AnswerFormat.timeInterval(TimeIntervalFormat()).display(.timeInterval(5400)) == "1 h 30 min")
        #expect(AnswerFormat.timeInterval(TimeIntervalFormat()).display(.timeInterval(2700)) == "45 min")
        #expect(AnswerFormat.timeInterval(TimeIntervalFormat()).display(.timeInterval(7200)) == "2 h")
        #expect(AnswerFormat.timeOfDay(TimeOfDayFormat()).display(.timeOfDay(TimeOfDay(hour: 8, minute: 5))) == "08:05")
        #expect(AnswerFormat.scale(ScaleFormat(minimum: 0, maximum: 10, dontKnow: DontKnowOption())).display(.dontKnow) == "I don't know")
        #expect(AnswerFormat.scale(ScaleFormat(minimum: 0, maximum: 10, dontKnow: DontKnowOption(text: "Not sure"))).display(.dontKnow) == "Not sure")
        #expect(AnswerFormat.location(LocationFormat()).display(.location(LocationAnswer(address: "Berlin", latitude: 52.52, longitude: 13.4)))
            == "Berlin (52.52, 13.4)")
        let height = AnswerFormat.multipleValuePicker(MultipleValuePickerFormat(pickers: [
            ValuePickerFormat(choices: [choice("5 ft", 5)]), ValuePickerFormat(choices: [choice("8 in", 8)]),
        ], separator: " "))
        #expect(height.display(.components([5, 8])) == "5 ft 8 in")
    }
}

@Suite("Plain decimals")
struct PlainDecimalTests {
    /// The hand-written check accepts exactly what the pattern it replaced accepts.
    @Test func acceptsWhatThePatternAccepts() {
        let texts = ["", "0", "12", "-3", "+4", "2.5", ".5", "2.", "-.5", "+.", ".", "-", "+", "1.2.3", "1e5", "0x10", " 1", "1 ",
                     "١٢", "１２", "1\u{301}", "--1", "+-1", "12a", "a12", "007", "3.14159", "-0", "1,5", ".5.", "..5", "5..",
                     "9999999999999999999999999999"]
        for text in texts {
            #expect(TextInput.isPlainDecimal(text) == (text.wholeMatch(of: #/[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)/#) != nil), "\(text)")
        }
    }
}
