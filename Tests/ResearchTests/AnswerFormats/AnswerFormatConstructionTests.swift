import Foundation
import Testing
@testable import Research

/// The problems of `format` at `path`.
private func problems(_ format: AnswerFormat, at path: String) -> [String] {
    format.constructionProblems().filter { $0.path == path }.map(\.message)
}

private func choice(_ text: String, _ value: ChoiceValue, exclusive: Bool = false, other: OtherChoice? = nil) -> TextChoice {
    TextChoice(text: text, value: value, exclusive: exclusive, other: other)
}

private func day(_ text: String) -> Date {
    ISO8601.date(from: text + "T00:00:00Z")!
}

private let image = ImageReference(url: "smile.png", altText: "A smiling face")

@Suite("AnswerFormat construction problems")
struct AnswerFormatConstructionTests {
    static let validFormats: [AnswerFormat] = [
        .boolean(BooleanFormat()),
        .boolean(BooleanFormat(yesText: "Agree", noText: "Disagree", dontKnow: DontKnowOption(text: "Not sure"))),
        .textChoice(TextChoiceFormat(style: .multiple, choices: [
            choice("Dogs", "dogs"), choice("Cats", "cats"),
            choice("Other pet", "otherPet", other: OtherChoice()), choice("Something else", "else", other: OtherChoice(textRequired: true)),
            choice("None of these", "none", exclusive: true),
        ])),
        .textChoice(TextChoiceFormat(choices: [choice("Only", 1)])),
        .imageChoice(ImageChoiceFormat(choices: [ImageChoice(image: image, text: "Happy", value: 1), ImageChoice(image: image, text: "Sad", value: 2)])),
        .valuePicker(ValuePickerFormat(choices: [choice("Low", 1), choice("High", 2)])),
        .multipleValuePicker(MultipleValuePickerFormat(pickers: [
            ValuePickerFormat(choices: [choice("4 ft", 4), choice("5 ft", 5)]),
            ValuePickerFormat(choices: [choice("0 in", 0), choice("6 in", 6)]),
        ])),
        .textScale(TextScaleFormat(choices: [choice("Poor", 1), choice("Good", 2)], defaultIndex: 1)),
        .scale(ScaleFormat(minimum: 0, maximum: 10, step: 1, defaultValue: 5)),
        .scale(ScaleFormat(minimum: -10_000, maximum: 10_000, step: 2000, defaultValue: -4000)),
        .continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, maximumFractionDigits: 4, defaultValue: 0.2525)),
        .continuousScale(ContinuousScaleFormat(minimum: -10_000, maximum: 10_000, maximumFractionDigits: 0, defaultValue: -10_000)),
        .numeric(NumericFormat(style: .decimal, unit: "mg", minimum: 0, maximum: 10, maximumFractionDigits: 2, defaultValue: Decimal(string: "2.25"))),
        .numeric(NumericFormat(style: .integer, minimum: 1, maximumFractionDigits: 0, defaultValue: 3)),
        .height(HeightFormat(minimum: 30, maximum: 250)),
        .weight(WeightFormat(precision: .low, minimum: 2, maximum: 300, defaultValue: Decimal(string: "70.5"))),
        .age(AgeFormat(minimumAge: 0, maximumAge: 150, defaultValue: 40)),
        .date(DateFormat(minimum: day("2026-01-01"), maximum: day("2026-12-31"), defaultValue: day("2026-12-31"))),
        .dateTime(DateFormat(minimum: ISO8601.date(from: "2026-03-01T08:00:00Z"), maximum: ISO8601.date(from: "2026-03-01T09:00:00Z"))),
        .timeOfDay(TimeOfDayFormat(defaultValue: TimeOfDay(hour: 23, minute: 59, second: 59))),
        .timeInterval(TimeIntervalFormat(maximum: 7200, stepMinutes: 30, defaultValue: 5400)),
        .text(TextFormat(maximumLength: 5, validationPattern: "[0-9]{5}", invalidMessage: "Enter a 5-digit postcode.", defaultValue: "12345")),
        .text(TextFormat(multipleLines: true, defaultValue: "line one\nline two")),
        .email(EmailFormat()),
        .location(LocationFormat()),
        .sesLadder(SESLadderFormat(numberOfRungs: 2)),
        .sesLadder(SESLadderFormat(numberOfRungs: 20)),
    ]

    @Test("well-formed formats have no problems", arguments: validFormats)
    func validFormatsHaveNoProblems(format: AnswerFormat) {
        #expect(format.constructionProblems() == [])
    }

    @Test func problemDescriptionShowsPath() {
        #expect(FormatProblem(path: "step", message: "must be at least 1 (is 0)").description == "step: must be at least 1 (is 0)")
        #expect(FormatProblem(path: "", message: "whole").description == "whole")
    }

    // MARK: Boolean and "I don't know"

    @Test func booleanTextsMustBeUsable() {
        #expect(problems(.boolean(BooleanFormat(yesText: " ")), at: "yesText").count == 1)
        #expect(problems(.boolean(BooleanFormat(noText: "")), at: "noText").contains { $0.hasPrefix("must not be empty") })
        #expect(problems(.boolean(BooleanFormat(yesText: "Sure", noText: "sure")), at: "noText")
            == ["must differ from the yes text (both are “sure”)"])
    }

    @Test func dontKnowTextMustNotBeBlank() {
        let format = AnswerFormat.scale(ScaleFormat(minimum: 0, maximum: 10, dontKnow: DontKnowOption(text: "  ")))
        #expect(problems(format, at: "dontKnow.text").count == 1)
        #expect(AnswerFormat.scale(ScaleFormat(minimum: 0, maximum: 10, dontKnow: DontKnowOption())).constructionProblems() == [])
    }

    // MARK: Choices

    @Test func textChoiceNeedsAChoice() {
        #expect(problems(.textChoice(TextChoiceFormat(choices: [])), at: "choices") == ["needs at least one choice"])
    }

    @Test func choiceTextsMustNotBeEmpty() {
        let format = AnswerFormat.textChoice(TextChoiceFormat(choices: [choice("A", 1), choice(" ", 2)]))
        #expect(format.constructionProblems() == [FormatProblem(path: "choices[1].text", message: "must not be empty")])
    }

    @Test func choiceValuesMustBeUnique() {
        let format = AnswerFormat.textChoice(TextChoiceFormat(choices: [choice("A", "a"), choice("B", "b"), choice("C", "a")]))
        #expect(format.constructionProblems() == [
            FormatProblem(path: "choices[2].value", message: "repeats the value of choices[0] (\"a\"); values must be unique"),
        ])
        // 2 and 2.0 are the same value once written as JSON.
        let numbers = AnswerFormat.textChoice(TextChoiceFormat(choices: [choice("Two", 2), choice("Also two", 2.0)]))
        #expect(problems(numbers, at: "choices[1].value").count == 1)
        // The string "2" is a different value from the number 2.
        #expect(AnswerFormat.textChoice(TextChoiceFormat(choices: [choice("Two", 2), choice("Text two", "2")])).constructionProblems() == [])
    }

    @Test func choiceValuesMustNotBeEmptyStrings() {
        let format = AnswerFormat.textChoice(TextChoiceFormat(choices: [choice("A", "")]))
        #expect(problems(format, at: "choices[0].value") == ["must not be empty"])
    }

    @Test func exclusiveOnlyInMultipleStyle() {
        let choices = [choice("A", 1), choice("None", 0, exclusive: true)]
        #expect(problems(.textChoice(TextChoiceFormat(style: .single, choices: choices)), at: "choices[1].exclusive")
            == ["only has a meaning in multiple choice (the style is single)"])
        #expect(AnswerFormat.textChoice(TextChoiceFormat(style: .multiple, choices: choices)).constructionProblems() == [])
    }

    @Test func imageChoiceRules() {
        #expect(problems(.imageChoice(ImageChoiceFormat(choices: [])), at: "choices") == ["needs at least one choice"])
        let format = AnswerFormat.imageChoice(ImageChoiceFormat(choices: [
            ImageChoice(image: image, text: "", value: 1), ImageChoice(image: image, text: "B", value: 1),
        ]))
        #expect(format.constructionProblems().map(\.path) == ["choices[0].text", "choices[1].value"])
    }

    @Test func valuePickerRules() {
        #expect(problems(.valuePicker(ValuePickerFormat(choices: [])), at: "choices") == ["needs at least one choice"])
        let format = AnswerFormat.valuePicker(ValuePickerFormat(choices: [choice("A", 1, exclusive: true), choice("B", 2, other: OtherChoice())]))
        #expect(format.constructionProblems() == [
            FormatProblem(path: "choices[0].exclusive", message: "has no meaning in a value picker"),
            FormatProblem(path: "choices[1].other", message: "a value picker has no free-text field"),
        ])
    }

    @Test func multipleValuePickerNeedsTwoValidPickers() {
        let one = AnswerFormat.multipleValuePicker(MultipleValuePickerFormat(pickers: [ValuePickerFormat(choices: [choice("A", 1)])]))
        #expect(problems(one, at: "pickers") == ["needs at least 2 pickers (has 1); use a value picker for one"])
        let broken = AnswerFormat.multipleValuePicker(MultipleValuePickerFormat(pickers: [
            ValuePickerFormat(choices: [choice("A", 1)]), ValuePickerFormat(choices: []),
        ]))
        #expect(broken.constructionProblems() == [FormatProblem(path: "pickers[1].choices", message: "needs at least one choice")])
        let duplicate = AnswerFormat.multipleValuePicker(MultipleValuePickerFormat(pickers: [
            ValuePickerFormat(choices: [choice("A", 1)]), ValuePickerFormat(choices: [choice("B", 1), choice("C", 1)]),
        ]))
        #expect(duplicate.constructionProblems().map(\.path) == ["pickers[1].choices[1].value"])
    }

    @Test func textScaleHasTwoToEightChoices() {
        let one = AnswerFormat.textScale(TextScaleFormat(choices: [choice("A", 1)]))
        #expect(problems(one, at: "choices") == ["a text scale has 2 to 8 choices (has 1)"])
        let nine = AnswerFormat.textScale(TextScaleFormat(choices: (1...9).map { choice("\($0)", .integer($0)) }))
        #expect(problems(nine, at: "choices") == ["a text scale has 2 to 8 choices (has 9)"])
        let eight = AnswerFormat.textScale(TextScaleFormat(choices: (1...8).map { choice("\($0)", .integer($0)) }))
        #expect(eight.constructionProblems() == [])
    }

    @Test func textScaleValuesUniqueAndDefaultIndexInRange() {
        let duplicate = AnswerFormat.textScale(TextScaleFormat(choices: [choice("A", 1), choice("B", 1)]))
        #expect(duplicate.constructionProblems().map(\.path) == ["choices[1].value"])
        let badDefault = AnswerFormat.textScale(TextScaleFormat(choices: [choice("A", 1), choice("B", 2), choice("C", 3)], defaultIndex: 3))
        #expect(badDefault.constructionProblems() == [FormatProblem(path: "defaultIndex", message: "must be from 0 to 2 (is 3)")])
        let negative = AnswerFormat.textScale(TextScaleFormat(choices: [choice("A", 1), choice("B", 2)], defaultIndex: -1))
        #expect(problems(negative, at: "defaultIndex") == ["must be from 0 to 1 (is -1)"])
    }

    // MARK: Scale

    @Test func scaleOfZeroToTenInStepsOfThreeIsRefused() {
        let format = AnswerFormat.scale(ScaleFormat(minimum: 0, maximum: 10, step: 3))
        #expect(format.constructionProblems() == [
            FormatProblem(path: "step", message: "(maximum - minimum) must be divisible by step (10 is not a multiple of 3)"),
        ])
    }

    @Test func scaleMaximumMustExceedMinimum() {
        #expect(problems(.scale(ScaleFormat(minimum: 10, maximum: 5)), at: "maximum") == ["must be greater than minimum (5 < 10)"])
        #expect(problems(.scale(ScaleFormat(minimum: 3, maximum: 3)), at: "maximum") == ["must be greater than minimum (3 = 3)"])
    }

    @Test func scaleStepMustBePositive() {
        #expect(problems(.scale(ScaleFormat(minimum: 0, maximum: 10, step: 0)), at: "step") == ["must be at least 1 (is 0)"])
        #expect(problems(.scale(ScaleFormat(minimum: 0, maximum: 10, step: -2)), at: "step") == ["must be at least 1 (is -2)"])
    }

    @Test func scaleHasOneToThirteenSteps() {
        #expect(problems(.scale(ScaleFormat(minimum: 0, maximum: 100, step: 1)), at: "step")
            == ["a scale has 1 to 13 steps; 0...100 in steps of 1 gives 100"])
        #expect(problems(.scale(ScaleFormat(minimum: 0, maximum: 14, step: 1)), at: "step")
            == ["a scale has 1 to 13 steps; 0...14 in steps of 1 gives 14"])
        #expect(AnswerFormat.scale(ScaleFormat(minimum: 0, maximum: 13, step: 1)).constructionProblems() == [])
        #expect(AnswerFormat.scale(ScaleFormat(minimum: 1, maximum: 2, step: 1)).constructionProblems() == [])
    }

    @Test func scaleBoundsAreWithinTenThousand() {
        let format = AnswerFormat.scale(ScaleFormat(minimum: -10_001, maximum: 10_001, step: 20_002))
        #expect(problems(format, at: "minimum") == ["must be at least -10000 (is -10001)"])
        #expect(problems(format, at: "maximum") == ["must be at most 10000 (is 10001)"])
        // Extreme values are reported without overflowing.
        let extreme = AnswerFormat.scale(ScaleFormat(minimum: .min, maximum: .max))
        #expect(problems(extreme, at: "minimum").count == 1)
        #expect(problems(extreme, at: "step") == [])
    }

    @Test func scaleDefaultWithinRangeAndOnAStep() {
        #expect(problems(.scale(ScaleFormat(minimum: 0, maximum: 10, step: 5, defaultValue: 12)), at: "defaultValue")
            == ["must be within minimum...maximum (0...10); is 12"])
        #expect(problems(.scale(ScaleFormat(minimum: 0, maximum: 10, step: 5, defaultValue: 7)), at: "defaultValue")
            == ["must be on a step: minimum 0 plus a multiple of 5 (7 is not)"])
        #expect(AnswerFormat.scale(ScaleFormat(minimum: 0, maximum: 10, step: 5, defaultValue: 5)).constructionProblems() == [])
    }

    // MARK: Continuous scale

    @Test func continuousScaleMaximumMustExceedMinimum() {
        #expect(problems(.continuousScale(ContinuousScaleFormat(minimum: 1, maximum: 0.5)), at: "maximum")
            == ["must be greater than minimum (0.5 < 1)"])
    }

    @Test func continuousScaleFractionDigitsZeroToFour() {
        #expect(problems(.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, maximumFractionDigits: 5)), at: "maximumFractionDigits")
            == ["must be from 0 to 4 (is 5)"])
        #expect(problems(.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, maximumFractionDigits: -1)), at: "maximumFractionDigits")
            == ["must be from 0 to 4 (is -1)"])
        #expect(AnswerFormat.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, maximumFractionDigits: 0)).constructionProblems() == [])
    }

    @Test func continuousScaleBounds() {
        let format = AnswerFormat.continuousScale(ContinuousScaleFormat(minimum: -10_000.5, maximum: 10_000.5))
        #expect(problems(format, at: "minimum") == ["must be at least -10000 (is -10000.5)"])
        #expect(problems(format, at: "maximum") == ["must be at most 10000 (is 10000.5)"])
        #expect(problems(.continuousScale(ContinuousScaleFormat(minimum: .nan, maximum: 1)), at: "minimum").contains("must be a finite number (is nan)"))
    }

    @Test func continuousScaleDefault() {
        #expect(problems(.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, maximumFractionDigits: 2, defaultValue: 1.5)), at: "defaultValue")
            == ["must be within minimum...maximum (0...1); is 1.5"])
        #expect(problems(.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, maximumFractionDigits: 2, defaultValue: 0.125)), at: "defaultValue")
            == ["has more than 2 digits after the decimal point (0.125)"])
    }

    // MARK: Numeric

    @Test func numericMaximumMustExceedMinimum() {
        #expect(problems(.numeric(NumericFormat(style: .decimal, minimum: 10, maximum: 5)), at: "maximum")
            == ["must be greater than minimum (5 < 10)"])
        #expect(AnswerFormat.numeric(NumericFormat(style: .decimal, minimum: 10)).constructionProblems() == [])
    }

    @Test func numericFractionDigits() {
        #expect(problems(.numeric(NumericFormat(style: .decimal, maximumFractionDigits: -1)), at: "maximumFractionDigits")
            == ["must not be negative (is -1)"])
        #expect(problems(.numeric(NumericFormat(style: .integer, maximumFractionDigits: 2)), at: "maximumFractionDigits")
            == ["must be 0 or left out for an integer format (is 2)"])
        #expect(AnswerFormat.numeric(NumericFormat(style: .decimal, maximumFractionDigits: 0)).constructionProblems() == [])
    }

    @Test func numericIntegerBoundsAreWhole() {
        #expect(problems(.numeric(NumericFormat(style: .integer, minimum: Decimal(string: "0.5"))), at: "minimum")
            == ["must be a whole number for an integer format (is 0.5)"])
    }

    @Test func numericDefaultWithinBoundsAndOfTheStyle() {
        #expect(problems(.numeric(NumericFormat(style: .decimal, minimum: 0, maximum: 10, defaultValue: 11)), at: "defaultValue")
            == ["must be at most maximum (11 > 10)"])
        #expect(problems(.numeric(NumericFormat(style: .decimal, minimum: 0, defaultValue: -1)), at: "defaultValue")
            == ["must be at least minimum (-1 < 0)"])
        #expect(problems(.numeric(NumericFormat(style: .integer, defaultValue: Decimal(string: "2.5"))), at: "defaultValue")
            == ["must be a whole number (is 2.5)"])
        #expect(problems(.numeric(NumericFormat(style: .decimal, maximumFractionDigits: 1, defaultValue: Decimal(string: "2.25"))), at: "defaultValue")
            == ["has more than 1 digit after the decimal point (2.25)"])
    }

    // MARK: Height, weight, age

    @Test func heightBounds() {
        #expect(problems(.height(HeightFormat(minimum: 200, maximum: 100)), at: "maximum") == ["must be greater than minimum (100 < 200)"])
        #expect(problems(.height(HeightFormat(minimum: -1)), at: "minimum") == ["must not be negative (is -1 cm)"])
    }

    @Test func weightBoundsAndDefault() {
        #expect(problems(.weight(WeightFormat(minimum: 50, maximum: 50)), at: "maximum") == ["must be greater than minimum (50 = 50)"])
        #expect(problems(.weight(WeightFormat(maximum: -5)), at: "maximum") == ["must not be negative (is -5 kg)"])
        #expect(problems(.weight(WeightFormat(minimum: 40, defaultValue: 30)), at: "defaultValue") == ["must be at least minimum (30 < 40)"])
        #expect(problems(.weight(WeightFormat(precision: .default, defaultValue: Decimal(string: "70.5"))), at: "defaultValue")
            == ["has more than 0 digits after the decimal point for default precision (70.5)"])
        #expect(AnswerFormat.weight(WeightFormat(precision: .high, defaultValue: Decimal(string: "70.25"))).constructionProblems() == [])
    }

    @Test func ageRange() {
        #expect(problems(.age(AgeFormat(minimumAge: -1)), at: "minimumAge") == ["must not be negative (is -1)"])
        #expect(problems(.age(AgeFormat(maximumAge: 151)), at: "maximumAge") == ["must be at most 150 (is 151)"])
        #expect(problems(.age(AgeFormat(minimumAge: 65, maximumAge: 18)), at: "maximumAge") == ["must be greater than minimumAge (18 < 65)"])
        #expect(problems(.age(AgeFormat(minimumAge: 18, maximumAge: 65, defaultValue: 70)), at: "defaultValue")
            == ["must be within minimumAge...maximumAge (18...65); is 70"])
    }

    // MARK: Dates and times

    @Test func dateMaximumMustBeLaterThanMinimum() {
        let format = AnswerFormat.date(DateFormat(minimum: day("2026-12-31"), maximum: day("2026-01-01")))
        #expect(problems(format, at: "maximum") == ["must be later than minimum (2026-01-01 is before 2026-12-31)"])
        // Two instants on the same UTC day are the same day for a date format, but not for a date-time format.
        let sameDay = DateFormat(minimum: ISO8601.date(from: "2026-03-01T08:00:00Z"), maximum: ISO8601.date(from: "2026-03-01T20:00:00Z"))
        #expect(problems(.date(sameDay), at: "maximum") == ["must be later than minimum (both are 2026-03-01)"])
        #expect(AnswerFormat.dateTime(sameDay).constructionProblems() == [])
    }

    @Test func dateDefaultInsideRange() {
        let early = AnswerFormat.date(DateFormat(minimum: day("2026-01-01"), maximum: day("2026-12-31"), defaultValue: day("2025-12-31")))
        #expect(problems(early, at: "defaultValue") == ["must not be before minimum (2025-12-31 is before 2026-01-01)"])
        let late = AnswerFormat.dateTime(DateFormat(maximum: ISO8601.date(from: "2026-03-01T08:00:00Z"),
                                                    defaultValue: ISO8601.date(from: "2026-03-01T08:00:01Z")))
        #expect(problems(late, at: "defaultValue") == ["must not be after maximum (2026-03-01T08:00:01Z is after 2026-03-01T08:00:00Z)"])
    }

    @Test func timeOfDayDefaultMustBeATime() {
        #expect(problems(.timeOfDay(TimeOfDayFormat(defaultValue: TimeOfDay(hour: 24, minute: 0))), at: "defaultValue")
            == ["is not a time of day (hour 24, minute 0, second 0)"])
    }

    @Test func timeIntervalMaximumAndStep() {
        #expect(problems(.timeInterval(TimeIntervalFormat(maximum: 0)), at: "maximum") == ["must be more than 0 seconds (is 0)"])
        #expect(problems(.timeInterval(TimeIntervalFormat(stepMinutes: 0)), at: "stepMinutes") == ["must be from 1 to 30 (is 0)"])
        #expect(problems(.timeInterval(TimeIntervalFormat(stepMinutes: 31)), at: "stepMinutes") == ["must be from 1 to 30 (is 31)"])
        #expect(AnswerFormat.timeInterval(TimeIntervalFormat(stepMinutes: 1)).constructionProblems() == [])
    }

    @Test func timeIntervalDefault() {
        #expect(problems(.timeInterval(TimeIntervalFormat(maximum: 3600, stepMinutes: 15, defaultValue: 4500)), at: "defaultValue")
            == ["must be from 0 to maximum (3600 seconds); is 4500"])
        #expect(problems(.timeInterval(TimeIntervalFormat(maximum: 3600, stepMinutes: 15, defaultValue: 600)), at: "defaultValue")
            == ["must be a whole multiple of stepMinutes (15 min = 900 s); 600 s is not"])
    }

    // MARK: Text

    @Test func textMaximumLengthPositive() {
        #expect(problems(.text(TextFormat(maximumLength: 0)), at: "maximumLength") == ["must be at least 1 (is 0); leave it out for no limit"])
        #expect(AnswerFormat.text(TextFormat(maximumLength: 1)).constructionProblems() == [])
    }

    @Test func textPatternMustCompile() {
        let format = AnswerFormat.text(TextFormat(validationPattern: "[a-", invalidMessage: "Letters only."))
        let messages = problems(format, at: "validationPattern")
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("is not a valid regular expression") == true)
    }

    @Test func textPatternAndInvalidMessageComeTogether() {
        #expect(problems(.text(TextFormat(validationPattern: "[0-9]+")), at: "invalidMessage")
            == ["is required with validationPattern: it tells the participant why an answer does not match"])
        #expect(problems(.text(TextFormat(validationPattern: "[0-9]+", invalidMessage: " ")), at: "invalidMessage").count == 1)
        #expect(problems(.text(TextFormat(invalidMessage: "Digits only.")), at: "invalidMessage") == ["has no validationPattern to go with it"])
        #expect(problems(.text(TextFormat(validationPattern: "", invalidMessage: "x")), at: "validationPattern")
            == ["must not be empty; leave it out to accept any text"])
    }

    @Test func textDefaultMustBeAValidAnswer() {
        #expect(problems(.text(TextFormat(maximumLength: 3, defaultValue: "abcd")), at: "defaultValue")
            == ["is longer than maximumLength (4 > 3 characters)"])
        #expect(problems(.text(TextFormat(validationPattern: "[0-9]+", invalidMessage: "Digits only.", defaultValue: "12a")), at: "defaultValue")
            == ["does not match validationPattern"])
        #expect(problems(.text(TextFormat(multipleLines: false, defaultValue: "a\nb")), at: "defaultValue")
            == ["has a line break, but multipleLines is false"])
    }

    // MARK: SES ladder

    @Test func sesLadderHasTwoToTwentyRungs() {
        #expect(problems(.sesLadder(SESLadderFormat(numberOfRungs: 1)), at: "numberOfRungs") == ["must be from 2 to 20 (is 1)"])
        #expect(problems(.sesLadder(SESLadderFormat(numberOfRungs: 21)), at: "numberOfRungs") == ["must be from 2 to 20 (is 21)"])
    }

    @Test func problemsFromDecodedJSON() throws {
        let json = #"{"type": "scale", "minimum": 0, "maximum": 10, "step": 3}"#
        let format = try JSONDecoder().decode(AnswerFormat.self, from: Data(json.utf8))
        #expect(format.constructionProblems().map(\.path) == ["step"])
    }
}
