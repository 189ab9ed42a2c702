import Foundation
import Testing
@testable import Research

/// The message `format` refuses `answer` with, or nil when it accepts it.
private func refusal(_ format: AnswerFormat, _ answer: Answer) -> String? {
    do {
        try format.validate(answer)
        return nil
    } catch {
        return error.message
    }
}

private func choice(_ text: String, _ value: ChoiceValue, exclusive: Bool = false, other: OtherChoice? = nil) -> TextChoice {
    TextChoice(text: text, value: value, exclusive: exclusive, other: other)
}

private func number(_ text: String) -> Answer { .number(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!) }

private func zone(_ identifier: String) -> TimeZone { TimeZone(identifier: identifier)! }

private func utcDay(_ text: String) -> Date { ISO8601.date(from: text + "T00:00:00Z")! }

private let pets = TextChoiceFormat(style: .multiple, choices: [
    choice("Dogs", "dogs"),
    choice("Cats", "cats"),
    choice("Other", "other", other: OtherChoice()),
    choice("Something else", "else", other: OtherChoice(textRequired: true)),
    choice("None of these", "none", exclusive: true),
])

@Suite("AnswerFormat answer validation")
struct AnswerFormatValidationTests {
    // MARK: Kinds and "I don't know"

    @Test func wrongKindNamesTheExpectedAnswer() {
        #expect(refusal(.boolean(BooleanFormat()), .text("yes")) == "This question takes a yes or no answer.")
        #expect(refusal(.scale(ScaleFormat(minimum: 0, maximum: 10)), .text("7")) == "This question takes a number.")
        #expect(refusal(.textChoice(pets), .number(1)) == "This question takes a choice from the list.")
        #expect(refusal(.date(DateFormat()), .timeOfDay(TimeOfDay(hour: 8, minute: 0))) == "This question takes a date.")
        #expect(refusal(.email(EmailFormat()), .boolean(true)) == "This question takes an email address.")
        #expect(refusal(.boolean(BooleanFormat()), .boolean(false)) == nil)
    }

    @Test func dontKnowOnlyWhereOffered() {
        #expect(refusal(.scale(ScaleFormat(minimum: 0, maximum: 10, dontKnow: DontKnowOption())), .dontKnow) == nil)
        #expect(refusal(.scale(ScaleFormat(minimum: 0, maximum: 10)), .dontKnow) == "This question has no “I don’t know” answer.")
        #expect(refusal(.email(EmailFormat()), .dontKnow) == "This question has no “I don’t know” answer.")
    }

    @Test func errorDescribesItself() {
        let error = AnswerValidationError(.enterNumber)
        #expect(error.description == "Enter a number.")
        #expect(error.localizedDescription == "Enter a number.")
        #expect(throws: AnswerValidationError(.enterWholeNumber)) {
            try AnswerFormat.age(AgeFormat()).validate(number("4.5"))
        }
    }

    // MARK: Choices

    @Test func choicesMustExist() {
        #expect(refusal(.textChoice(pets), .choices([ChoiceSelection("dogs"), ChoiceSelection("cats")])) == nil)
        #expect(refusal(.textChoice(pets), .choices([ChoiceSelection("fish")])) == "That answer is not one of the choices.")
    }

    @Test func choicesMatchNumbersWhateverTheirSpelling() {
        let format = AnswerFormat.textChoice(TextChoiceFormat(choices: [choice("Two", 2), choice("Three", 3)]))
        #expect(refusal(format, .choices([ChoiceSelection(.decimal(2.0))])) == nil)
        #expect(refusal(format, .choices([ChoiceSelection("2")])) == "That answer is not one of the choices.")
    }

    @Test func choicesNotTwice() {
        #expect(refusal(.textChoice(pets), .choices([ChoiceSelection("dogs"), ChoiceSelection("dogs")])) == "Choose each answer only once.")
    }

    @Test func emptySelectionIsRefused() {
        #expect(refusal(.textChoice(pets), .choices([])) == "Choose an answer.")
    }

    @Test func singleStyleTakesExactlyOne() {
        let format = AnswerFormat.textChoice(TextChoiceFormat(style: .single, choices: [choice("Yes", 1), choice("No", 0)]))
        #expect(refusal(format, .choices([ChoiceSelection(1)])) == nil)
        #expect(refusal(format, .choices([ChoiceSelection(1), ChoiceSelection(0)])) == "Choose only one answer.")
    }

    @Test func exclusiveChoiceStandsAlone() {
        #expect(refusal(.textChoice(pets), .choices([ChoiceSelection("none")])) == nil)
        #expect(refusal(.textChoice(pets), .choices([ChoiceSelection("dogs"), ChoiceSelection("none")]))
            == "“None of these” can’t be combined with other answers.")
    }

    @Test func textOnlyOnOtherChoices() {
        #expect(refusal(.textChoice(pets), .choices([ChoiceSelection("other", text: "Ferrets")])) == nil)
        #expect(refusal(.textChoice(pets), .choices([ChoiceSelection("other")])) == nil)
        #expect(refusal(.textChoice(pets), .choices([ChoiceSelection("dogs", text: "Labradors")])) == "“Dogs” doesn’t take any text.")
    }

    @Test func requiredOtherTextMustBeThere() {
        #expect(refusal(.textChoice(pets), .choices([ChoiceSelection("else", text: "Snails")])) == nil)
        #expect(refusal(.textChoice(pets), .choices([ChoiceSelection("else")])) == "Type your answer for “Something else”.")
        #expect(refusal(.textChoice(pets), .choices([ChoiceSelection("else", text: "  ")])) == "Type your answer for “Something else”.")
    }

    @Test func imageChoice() {
        let image = ImageReference(url: "face.png")
        let format = AnswerFormat.imageChoice(ImageChoiceFormat(choices: [
            ImageChoice(image: image, text: "Happy", value: "happy"), ImageChoice(image: image, text: "Sad", value: "sad"),
        ]))
        #expect(refusal(format, .choices([ChoiceSelection("sad")])) == nil)
        #expect(refusal(format, .choices([ChoiceSelection("happy"), ChoiceSelection("sad")])) == "Choose only one answer.")
        #expect(refusal(format, .choices([ChoiceSelection("happy", text: "very")])) == "“Happy” doesn’t take any text.")
    }

    @Test func valuePickerTakesExactlyOne() {
        let format = AnswerFormat.valuePicker(ValuePickerFormat(choices: [choice("Low", 1), choice("High", 2)]))
        #expect(refusal(format, .choices([ChoiceSelection(2)])) == nil)
        #expect(refusal(format, .choices([ChoiceSelection(1), ChoiceSelection(2)])) == "Choose only one answer.")
        #expect(refusal(format, .choices([ChoiceSelection(3)])) == "That answer is not one of the choices.")
    }

    @Test func multipleValuePickerTakesOneValidValuePerPicker() {
        let format = AnswerFormat.multipleValuePicker(MultipleValuePickerFormat(pickers: [
            ValuePickerFormat(choices: [choice("4 ft", 4), choice("5 ft", 5)]),
            ValuePickerFormat(choices: [choice("0 in", 0), choice("6 in", 6)]),
        ]))
        #expect(refusal(format, .components([5, 6])) == nil)
        #expect(refusal(format, .components([5])) == "Choose one value in each of the 2 lists.")
        #expect(refusal(format, .components([6, 5])) == "That answer is not one of the choices.")
    }

    @Test func textScaleTakesOneValidValue() {
        let format = AnswerFormat.textScale(TextScaleFormat(choices: [choice("Poor", 1), choice("Fair", 2), choice("Good", 3)]))
        #expect(refusal(format, .choices([ChoiceSelection(3)])) == nil)
        #expect(refusal(format, .choices([ChoiceSelection(4)])) == "That answer is not one of the choices.")
        #expect(refusal(format, .choices([ChoiceSelection(1), ChoiceSelection(2)])) == "Choose only one answer.")
    }

    // MARK: Numbers

    @Test func scaleTakesWholeNumbersInRangeOnAStep() {
        let format = AnswerFormat.scale(ScaleFormat(minimum: 0, maximum: 10, step: 5))
        #expect(refusal(format, number("10")) == nil)
        #expect(refusal(format, number("5.5")) == "Enter a whole number.")
        #expect(refusal(format, number("15")) == "Enter a number from 0 to 10.")
        #expect(refusal(format, number("-5")) == "Enter a number from 0 to 10.")
        #expect(refusal(format, number("7")) == "Enter a number from 0 to 10, in steps of 5.")
        // Steps are counted from the minimum.
        #expect(refusal(.scale(ScaleFormat(minimum: 1, maximum: 7, step: 2)), number("3")) == nil)
        #expect(refusal(.scale(ScaleFormat(minimum: 1, maximum: 7, step: 2)), number("4")) == "Enter a number from 1 to 7, in steps of 2.")
    }

    @Test func continuousScaleRangeAndFractionDigits() {
        let format = AnswerFormat.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, maximumFractionDigits: 2))
        #expect(refusal(format, number("0.25")) == nil)
        #expect(refusal(format, number("1")) == nil)
        #expect(refusal(format, number("1.01")) == "Enter a number from 0 to 1.")
        #expect(refusal(format, number("0.255")) == "Use at most 2 digits after the decimal point.")
        // Trailing zeros are not digits that count.
        #expect(refusal(format, number("0.2500")) == nil)
        #expect(refusal(.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 100)), number("2.5")) == "Enter a whole number.")
    }

    @Test func numericIntegerStyleTakesWholeNumbers() {
        let format = AnswerFormat.numeric(NumericFormat(style: .integer))
        #expect(refusal(format, number("-42")) == nil)
        #expect(refusal(format, number("4.2")) == "Enter a whole number.")
    }

    @Test func numericBoundsAreInclusive() {
        let format = AnswerFormat.numeric(NumericFormat(style: .decimal, minimum: 0, maximum: 10))
        #expect(refusal(format, number("0")) == nil)
        #expect(refusal(format, number("10")) == nil)
        #expect(refusal(format, number("10.001")) == "Enter a number from 0 to 10.")
        #expect(refusal(.numeric(NumericFormat(style: .decimal, minimum: 18)), number("17")) == "Enter a number of at least 18.")
        #expect(refusal(.numeric(NumericFormat(style: .decimal, maximum: Decimal(string: "2.5"))), number("3")) == "Enter a number of at most 2.5.")
    }

    @Test func numericFractionDigits() {
        let format = AnswerFormat.numeric(NumericFormat(style: .decimal, maximumFractionDigits: 1))
        #expect(refusal(format, number("2.5")) == nil)
        #expect(refusal(format, number("2.55")) == "Use at most 1 digit after the decimal point.")
        #expect(refusal(.numeric(NumericFormat(style: .decimal)), number("3.14159265")) == nil)
    }

    @Test func heightWithinBoundsAndPositive() {
        let format = AnswerFormat.height(HeightFormat(minimum: 50, maximum: 250))
        #expect(refusal(format, number("172.72")) == nil)
        #expect(refusal(format, number("260")) == "Enter a height from 50 to 250 cm.")
        #expect(refusal(.height(HeightFormat()), number("0")) == "Enter a height greater than 0 cm.")
        #expect(refusal(.height(HeightFormat()), number("300")) == nil)
    }

    @Test func weightWithinBoundsPositiveAndOfThePrecision() {
        #expect(refusal(.weight(WeightFormat(maximum: 200)), number("201")) == "Enter a weight of at most 200 kg.")
        #expect(refusal(.weight(WeightFormat()), number("-1")) == "Enter a weight greater than 0 kg.")
        #expect(refusal(.weight(WeightFormat(precision: .default)), number("72")) == nil)
        #expect(refusal(.weight(WeightFormat(precision: .default)), number("72.5")) == "Enter a whole number of kilograms.")
        #expect(refusal(.weight(WeightFormat(precision: .low)), number("72.5")) == nil)
        #expect(refusal(.weight(WeightFormat(precision: .low)), number("72.25")) == "Use at most 1 digit after the decimal point.")
        #expect(refusal(.weight(WeightFormat(precision: .high)), number("72.25")) == nil)
        #expect(refusal(.weight(WeightFormat(precision: .high)), number("72.255")) == "Use at most 2 digits after the decimal point.")
    }

    @Test func ageIsAWholeNumberInRange() {
        let format = AnswerFormat.age(AgeFormat(minimumAge: 18, maximumAge: 65))
        #expect(refusal(format, number("18")) == nil)
        #expect(refusal(format, number("65")) == nil)
        #expect(refusal(format, number("17")) == "Enter an age from 18 to 65.")
        #expect(refusal(format, number("30.5")) == "Enter a whole number.")
    }

    @Test func sesLadderRung() {
        let format = AnswerFormat.sesLadder(SESLadderFormat(numberOfRungs: 10))
        #expect(refusal(format, number("1")) == nil)
        #expect(refusal(format, number("10")) == nil)
        #expect(refusal(format, number("0")) == "Choose a rung from 1 to 10.")
        #expect(refusal(format, number("11")) == "Choose a rung from 1 to 10.")
        #expect(refusal(format, number("2.5")) == "Choose a rung from 1 to 10.")
    }

    // MARK: Dates and times

    @Test func dateFormatTakesDaysAndDateTimeFormatTakesTimes() {
        let day = DateAnswer(year: 2026, month: 3, day: 1, timeZone: .gmt)!
        var withTime = day
        withTime.includesTime = true
        #expect(refusal(.date(DateFormat()), .date(day)) == nil)
        #expect(refusal(.date(DateFormat()), .date(withTime)) == "Enter a date without a time.")
        #expect(refusal(.dateTime(DateFormat()), .date(withTime)) == nil)
        #expect(refusal(.dateTime(DateFormat()), .date(day)) == "Enter a date and a time.")
    }

    @Test func dateBoundsCompareDaysWhereverTheParticipantIs() {
        let format = AnswerFormat.date(DateFormat(minimum: utcDay("2026-03-01"), maximum: utcDay("2026-12-31")))
        // 1 March in Kiritimati (UTC+14) starts at 10:00 UTC on 28 February: still 1 March, so it is accepted.
        let kiritimati = DateAnswer(year: 2026, month: 3, day: 1, timeZone: zone("Pacific/Kiritimati"))!
        #expect(kiritimati.date < utcDay("2026-03-01"))
        #expect(refusal(format, .date(kiritimati)) == nil)
        let dayBefore = DateAnswer(year: 2026, month: 2, day: 28, timeZone: zone("Pacific/Kiritimati"))!
        #expect(refusal(format, .date(dayBefore)) == "Choose a date on or after March 1, 2026.")
        // 31 December in Honolulu (UTC−10) starts at 10:00 UTC, after the maximum's instant: still the last allowed day.
        let honolulu = DateAnswer(year: 2026, month: 12, day: 31, timeZone: zone("Pacific/Honolulu"))!
        #expect(honolulu.date > utcDay("2026-12-31"))
        #expect(refusal(format, .date(honolulu)) == nil)
        let nextYear = DateAnswer(year: 2027, month: 1, day: 1, timeZone: zone("Asia/Tokyo"))!
        #expect(refusal(format, .date(nextYear)) == "Choose a date on or before December 31, 2026.")
    }

    @Test func dateTimeBoundsCompareInstantsAndSpeakInTheAnswersZone() {
        let format = AnswerFormat.dateTime(DateFormat(minimum: ISO8601.date(from: "2026-03-01T00:00:00Z")))
        let tokyo = zone("Asia/Tokyo")
        // 08:00 in Tokyo on 1 March is 23:00 UTC on 28 February: too early.
        let early = DateAnswer(date: ISO8601.date(from: "2026-03-01T08:00:00+09:00")!, timeZone: tokyo, includesTime: true)
        // The time is written as English writes it (ICU puts a narrow space before AM), in the answer's zone.
        #expect(refusal(format, .date(early))?.replacingOccurrences(of: "\u{202F}", with: " ") == "Choose a date and time on or after March 1, 2026 at 9:00 AM.")
        let onTime = DateAnswer(date: ISO8601.date(from: "2026-03-01T09:00:00+09:00")!, timeZone: tokyo, includesTime: true)
        #expect(refusal(format, .date(onTime)) == nil)
        let late = AnswerFormat.dateTime(DateFormat(maximum: ISO8601.date(from: "2026-03-01T00:00:00Z")))
        let after = DateAnswer(date: ISO8601.date(from: "2026-03-01T00:01:00Z")!, timeZone: .gmt, includesTime: true)
        #expect(refusal(late, .date(after))?.replacingOccurrences(of: "\u{202F}", with: " ") == "Choose a date and time on or before March 1, 2026 at 12:00 AM.")
    }

    @Test func timeOfDayMustBeValid() {
        #expect(refusal(.timeOfDay(TimeOfDayFormat()), .timeOfDay(TimeOfDay(hour: 23, minute: 59, second: 59))) == nil)
        #expect(refusal(.timeOfDay(TimeOfDayFormat()), .timeOfDay(TimeOfDay(hour: 24, minute: 0))) == "Enter a valid time of day.")
        #expect(refusal(.timeOfDay(TimeOfDayFormat()), .timeOfDay(TimeOfDay(hour: 8, minute: 60))) == "Enter a valid time of day.")
    }

    @Test func timeIntervalWithinMaximumOnAStep() {
        let format = AnswerFormat.timeInterval(TimeIntervalFormat(maximum: 7200, stepMinutes: 15))
        #expect(refusal(format, .timeInterval(0)) == nil)
        #expect(refusal(format, .timeInterval(7200)) == nil)
        #expect(refusal(format, .timeInterval(5400)) == nil)
        #expect(refusal(format, .timeInterval(8100)) == "Enter a duration from 0 min to 2 h.")
        #expect(refusal(format, .timeInterval(-900)) == "Enter a duration from 0 min to 2 h.")
        #expect(refusal(format, .timeInterval(600)) == "Enter a duration in steps of 15 min.")
        #expect(refusal(.timeInterval(TimeIntervalFormat()), .timeInterval(90)) == "Enter a whole number of minutes.")
        #expect(refusal(.timeInterval(TimeIntervalFormat()), .timeInterval(86_400)) == "Enter a duration from 0 min to 23 h 59 min.")
    }

    // MARK: Text, email, location

    @Test func textLengthCountsCharacters() {
        let format = AnswerFormat.text(TextFormat(maximumLength: 3))
        // A thumbs-up with skin tone is two scalars but one character.
        #expect(refusal(format, .text("ok👍🏽")) == nil)
        #expect(refusal(format, .text("okay")) == "Enter at most 3 characters.")
        #expect(refusal(.text(TextFormat(maximumLength: 280)), .text(String(repeating: "a", count: 281))) == "Enter at most 280 characters.")
    }

    @Test func textPatternMustMatchWholeAnswer() {
        let format = AnswerFormat.text(TextFormat(validationPattern: "[0-9]{5}", invalidMessage: "Enter a 5-digit postcode."))
        #expect(refusal(format, .text("10115")) == nil)
        #expect(refusal(format, .text("101155")) == "Enter a 5-digit postcode.")
        #expect(refusal(format, .text("Berlin 10115")) == "Enter a 5-digit postcode.")
    }

    @Test func singleLineTextRejectsLineBreaks() {
        #expect(refusal(.text(TextFormat(multipleLines: false)), .text("one\ntwo")) == "Enter a single line of text.")
        #expect(refusal(.text(TextFormat(multipleLines: true)), .text("one\ntwo")) == nil)
    }

    @Test func blankTextIsRefused() {
        #expect(refusal(.text(TextFormat()), .text("   ")) == "Enter some text.")
    }

    @Test func emailAddresses() {
        let format = AnswerFormat.email(EmailFormat())
        for good in ["ada@example.org", "a.b+tag@mail.example.co.uk", "名前@例え.jp"] {
            #expect(refusal(format, .text(good)) == nil, "\(good)")
        }
        for bad in ["ada.example.org", "ada@@example.org", "ada@exa@mple.org", "ada@example", "ada lovelace@example.org",
                    "@example.org", "ada@.org", "ada@example.", "ada@example.o"] {
            #expect(refusal(format, .text(bad)) == "Enter a valid email address.", "\(bad)")
        }
    }

    @Test func locations() {
        let format = AnswerFormat.location(LocationFormat())
        #expect(refusal(format, .location(LocationAnswer(address: "Unter den Linden 1, Berlin"))) == nil)
        #expect(refusal(format, .location(LocationAnswer(latitude: -90, longitude: 180))) == nil)
        #expect(refusal(format, .location(LocationAnswer(address: " "))) == "Enter an address or a position.")
        #expect(refusal(format, .location(LocationAnswer(latitude: 90.5, longitude: 0))) == "Enter a latitude from -90 to 90.")
        #expect(refusal(format, .location(LocationAnswer(latitude: 0, longitude: -180.5))) == "Enter a longitude from -180 to 180.")
        #expect(refusal(format, .location(LocationAnswer(address: "Berlin", latitude: 52.5))) == "Enter both latitude and longitude.")
    }

    // MARK: Normalizing

    @Test func blankTextIsNoAnswer() {
        #expect(AnswerFormat.text(TextFormat()).normalized(.text(" \n ")) == nil)
        #expect(AnswerFormat.text(TextFormat()).normalized(.text(" kept as typed ")) == .text(" kept as typed "))
        #expect(AnswerFormat.email(EmailFormat()).normalized(.text("  ")) == nil)
        #expect(AnswerFormat.email(EmailFormat()).normalized(.text(" ada@example.org ")) == .text("ada@example.org"))
    }

    @Test func emptySelectionIsNoAnswer() {
        #expect(AnswerFormat.textChoice(pets).normalized(.choices([])) == nil)
        #expect(AnswerFormat.multipleValuePicker(MultipleValuePickerFormat(pickers: [])).normalized(.components([])) == nil)
        let normalized = AnswerFormat.textChoice(pets).normalized(.choices([
            ChoiceSelection("other", text: "  Ferrets "), ChoiceSelection("else", text: " "),
        ]))
        #expect(normalized == .choices([ChoiceSelection("other", text: "Ferrets"), ChoiceSelection("else")]))
    }

    @Test func otherAnswersAreUnchanged() {
        let format = AnswerFormat.numeric(NumericFormat(style: .decimal))
        #expect(format.normalized(number("2.5")) == number("2.5"))
        #expect(format.normalized(.dontKnow) == .dontKnow)
        #expect(AnswerFormat.location(LocationFormat()).normalized(.location(LocationAnswer(address: ""))) == nil)
        #expect(AnswerFormat.location(LocationFormat()).normalized(.location(LocationAnswer(address: "", latitude: 1, longitude: 2)))
            == .location(LocationAnswer(latitude: 1, longitude: 2)))
    }

    // MARK: Toggling choices

    @Test func singleStyleSelectionReplaces() {
        let format = TextChoiceFormat(style: .single, choices: [choice("A", "a"), choice("B", "b")])
        #expect(format.toggling("b", in: [ChoiceSelection("a")]) == [ChoiceSelection("b")])
        #expect(format.toggling("a", in: [ChoiceSelection("a")]) == [ChoiceSelection("a")])
    }

    @Test func multipleStyleToggles() {
        #expect(pets.toggling("cats", in: [ChoiceSelection("dogs")]) == [ChoiceSelection("dogs"), ChoiceSelection("cats")])
        #expect(pets.toggling("dogs", in: [ChoiceSelection("dogs"), ChoiceSelection("cats")]) == [ChoiceSelection("cats")])
    }

    @Test func exclusiveChoiceClearsOthersAndIsCleared() {
        let chosen = [ChoiceSelection("dogs"), ChoiceSelection("other", text: "Ferrets")]
        #expect(pets.toggling("none", in: chosen) == [ChoiceSelection("none")])
        #expect(pets.toggling("cats", in: [ChoiceSelection("none")]) == [ChoiceSelection("cats")])
    }

    @Test func togglingKeepsOtherTextAndIgnoresUnknownValues() {
        let chosen = [ChoiceSelection("other", text: "Ferrets")]
        #expect(pets.toggling("dogs", in: chosen) == [ChoiceSelection("other", text: "Ferrets"), ChoiceSelection("dogs")])
        #expect(pets.toggling("fish", in: chosen) == chosen)
    }
}

@Suite("Continuous scale in percent")
struct PercentScaleTests {
    let format = AnswerFormat.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, percentStyle: true))

    @Test func digitsCountInThePercentageShown() throws {
        try format.validate(.number(Decimal(string: "0.25")!))
        #expect(throws: AnswerValidationError(.enterWholePercentage)) { try format.validate(.number(Decimal(string: "0.255")!)) }
        let oneDigit = AnswerFormat.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, maximumFractionDigits: 1, percentStyle: true))
        try oneDigit.validate(.number(Decimal(string: "0.255")!))
        #expect(throws: AnswerValidationError.self) { try oneDigit.validate(.number(Decimal(string: "0.2555")!)) }
    }

    @Test func typedPercentagesAreAccepted() throws {
        #expect(try format.answer(fromText: "25%") == .number(Decimal(string: "0.25")!))
        #expect(format.hint() == "a percentage from 0% to 100%, as in 25%")
    }
}

@Suite("Empty choice lists")
struct EmptyChoiceListTests {
    @Test func aNumberTypedForAPickerWithoutChoicesIsRefusedNotACrash() {
        let format = AnswerFormat.multipleValuePicker(MultipleValuePickerFormat(pickers: [ValuePickerFormat(choices: []), ValuePickerFormat(choices: [])]))
        #expect(throws: AnswerValidationError.self) { try format.answer(fromText: "1, 1") }
        let choice = AnswerFormat.textChoice(TextChoiceFormat(choices: []))
        #expect(throws: AnswerValidationError.self) { try choice.answer(fromText: "1") }
    }

    // MARK: Free text: limits and invisible characters

    /// A location's address had no limit (900 KB stored per post) and names could hold NUL, ESC or U+202E (which
    /// printed a consent's name reversed): every free-text answer now has a limit and refuses such characters by name.
    @Test func everyFreeTextAnswerHasAMaximumLength() {
        let plain = AnswerFormat.text(TextFormat())
        #expect(refusal(plain, .text(String(repeating: "a", count: FreeTextRules.defaultMaximumLength))) == nil)
        #expect(refusal(plain, .text(String(repeating: "a", count: FreeTextRules.defaultMaximumLength + 1))) == "Enter at most 10000 characters.")
        let location = AnswerFormat.location(LocationFormat())
        #expect(refusal(location, .location(LocationAnswer(address: String(repeating: "街", count: 1_000)))) == nil)
        #expect(refusal(location, .location(LocationAnswer(address: String(repeating: "街", count: 900_000)))) == "Enter at most 1000 characters.")
        #expect(refusal(.textChoice(pets), .choices([ChoiceSelection("other", text: String(repeating: "x", count: 1_001))]))
            == "Enter at most 1000 characters.")
        #expect(refusal(.email(EmailFormat()), .text(String(repeating: "a", count: 250) + "@example.org")) == "Enter at most 254 characters.")
    }

    @Test(arguments: [
        ("\u{0}", "U+0000", "control characters cannot be stored in an answer"),
        ("\u{1B}[31m", "U+001B", "control characters cannot be stored in an answer"),
        ("\u{202E}", "U+202E RIGHT-TO-LEFT OVERRIDE", "it changes the direction text is shown in"),
        ("\u{2066}", "U+2066 LEFT-TO-RIGHT ISOLATE", "it changes the direction text is shown in"),
    ])
    func controlAndDirectionCharactersAreRefusedByName(inserted: String, name: String, reason: String) {
        let answers: [(AnswerFormat, Answer)] = [
            (.text(TextFormat(maximumLength: 200)), .text("Alex\(inserted)Kim")),
            (.text(TextFormat(multipleLines: true)), .text("line\n\(inserted)line")),
            (.location(LocationFormat()), .location(LocationAnswer(address: "1 Main St\(inserted)"))),
            (.textChoice(pets), .choices([ChoiceSelection("other", text: "ferret\(inserted)")])),
            (.email(EmailFormat()), .text("ada\(inserted)@example.org")),
        ]
        for (format, answer) in answers {
            let message = refusal(format, answer)
            #expect(message?.hasPrefix("Remove the invisible character \(name) from your answer: \(reason)") == true, "\(format): \(message ?? "accepted")")
        }
    }

    @Test func rightToLeftTextAndItsMarksAreAnswers() {
        // Arabic and Hebrew with the marks their writers type (U+200F, U+061C), and a multi-line answer's breaks and tabs.
        #expect(refusal(.text(TextFormat(maximumLength: 200)), .text("سارة\u{200F} كيم")) == nil)
        #expect(refusal(.text(TextFormat(maximumLength: 200)), .text("דנה\u{061C} כהן")) == nil)
        #expect(refusal(.text(TextFormat(multipleLines: true)), .text("one\r\n\ttwo")) == nil)
        #expect(refusal(.text(TextFormat()), .text("one\ttwo")) == "Remove the invisible character U+0009 from your answer: this answer takes a single line without tabs.")
    }
}
