import Foundation
import JSONDiagnostics

/// One thing wrong with the settings of an answer format, found by ``AnswerFormat/constructionProblems()``: its path
/// relative to the format object, in JSON key names (`maximum`, `choices[2].value`), and what is wrong.
public typealias FormatProblem = DocumentProblem

extension AnswerFormat {
    /// The smallest and largest values a scale or continuous scale may reach, as in ResearchKit.
    static let scaleValueBounds: ClosedRange<Int> = -10_000...10_000
    /// The number of steps a scale may have, as in ResearchKit.
    static let scaleStepCounts: ClosedRange<Int> = 1...13
    /// The fraction digits a continuous scale may show, as in ResearchKit.
    static let continuousScaleFractionDigits: ClosedRange<Int> = 0...4
    /// How many positions a text scale may have, as in ResearchKit.
    static let textScaleChoiceCounts: ClosedRange<Int> = 2...8
    /// The oldest age an age format may accept.
    static let largestMaximumAge = 150
    /// The step of a time interval format, in minutes.
    static let timeIntervalStepMinutes: ClosedRange<Int> = 1...30
    /// How many rungs an SES ladder may have.
    static let sesLadderRungCounts: ClosedRange<Int> = 2...20

    /// Checks the format's own settings and lists everything wrong with them; empty when the format is usable.
    ///
    /// Answers are validated against these settings, so a format with problems must be refused before any
    /// participant sees it: a scale of 0–10 in steps of 3 has no valid maximum answer, a pattern without an
    /// invalid-answer message leaves the participant without an explanation. The rules follow ResearchKit's
    /// `validateParameters` where it has them.
    public func constructionProblems() -> [FormatProblem] {
        var problems = FormatProblems()
        switch self {
        case .boolean(let format): Self.check(format, into: &problems)
        case .textChoice(let format): Self.check(format, into: &problems)
        case .imageChoice(let format): Self.check(format, into: &problems)
        case .valuePicker(let format): Self.check(format, at: "", into: &problems)
        case .multipleValuePicker(let format): Self.check(format, into: &problems)
        case .textScale(let format): Self.check(format, into: &problems)
        case .scale(let format): Self.check(format, into: &problems)
        case .continuousScale(let format): Self.check(format, into: &problems)
        case .numeric(let format): Self.check(format, into: &problems)
        case .height(let format): Self.check(format, into: &problems)
        case .weight(let format): Self.check(format, into: &problems)
        case .age(let format): Self.check(format, into: &problems)
        case .date(let format): Self.check(format, includesTime: false, into: &problems)
        case .dateTime(let format): Self.check(format, includesTime: true, into: &problems)
        case .timeOfDay(let format): Self.check(format, into: &problems)
        case .timeInterval(let format): Self.check(format, into: &problems)
        case .text(let format): Self.check(format, into: &problems)
        case .email, .location: break
        case .sesLadder(let format): Self.check(format, into: &problems)
        case .file(let format): Self.check(format, into: &problems)
        }
        if let text = dontKnow?.text, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problems.add("dontKnow.text", "must not be empty; leave it out to use the standard “I don't know”")
        }
        return problems.list
    }
}

/// Collects problems while a format is checked.
private struct FormatProblems {
    var list: [FormatProblem] = []

    mutating func add(_ path: String, _ message: String) {
        list.append(FormatProblem(path: path, message: message))
    }
}

/// Joins a path prefix and a key: `join("pickers[1]", "choices")` is `pickers[1].choices`.
private func join(_ prefix: String, _ key: String) -> String {
    prefix.isEmpty ? key : "\(prefix).\(key)"
}

private extension AnswerFormat {
    static func check(_ format: BooleanFormat, into problems: inout FormatProblems) {
        if let yes = format.yesText, yes.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problems.add("yesText", "must not be empty; leave it out to use “Yes”")
        }
        if let no = format.noText, no.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problems.add("noText", "must not be empty; leave it out to use “No”")
        }
        let yes = format.yesText ?? "Yes", no = format.noText ?? "No"
        if yes.trimmingCharacters(in: .whitespacesAndNewlines).caseInsensitiveCompare(no.trimmingCharacters(in: .whitespacesAndNewlines)) == .orderedSame {
            problems.add("noText", "must differ from the yes text (both are “\(no)”)")
        }
    }

    /// The rules every list of choices follows: at least `minimumCount` choices, each with a text and a distinct value.
    static func checkChoiceList(_ choices: [some ChoiceOption], at prefix: String, minimumCount: Int, into problems: inout FormatProblems) {
        let path = join(prefix, "choices")
        if choices.count < minimumCount {
            problems.add(path, minimumCount == 1 ? "needs at least one choice" : "needs at least \(minimumCount) choices (has \(choices.count))")
        }
        checkTexts(choices.map(\.text), at: path, into: &problems)
        checkValues(choices.map(\.value), at: path, into: &problems)
    }

    static func checkTexts(_ texts: [String], at path: String, into problems: inout FormatProblems) {
        for (index, text) in texts.enumerated() where text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problems.add("\(path)[\(index)].text", "must not be empty")
        }
    }

    static func checkValues(_ values: [ChoiceValue], at path: String, into problems: inout FormatProblems) {
        for (index, value) in values.enumerated() {
            let valuePath = "\(path)[\(index)].value"
            switch value {
            case .string(let text) where text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty:
                problems.add(valuePath, "must not be empty")
            case .decimal(let number) where !number.isFinite:
                problems.add(valuePath, "must be a finite number (is \(number))")
            default:
                if let first = values[..<index].firstIndex(where: { $0.isSameChoice(as: value) }) {
                    problems.add(valuePath, "repeats the value of \(path)[\(first)] (\(value.quotedForProblem)); values must be unique")
                }
            }
        }
    }

    /// Text choices and image choices alike: the list's rules, and `exclusive` only in multiple choice.
    static func check<Option>(_ format: ChoiceFormat<Option>, into problems: inout FormatProblems) {
        checkChoiceList(format.choices, at: "", minimumCount: 1, into: &problems)
        if format.style == .single {
            for (index, choice) in format.choices.enumerated() where choice.exclusive {
                problems.add("choices[\(index)].exclusive", "only has a meaning in multiple choice (the style is single)")
            }
        }
    }

    /// Choices of formats that show only the text: no exclusive flag, no "other" field.
    static func checkPlainChoices(_ choices: [TextChoice], at prefix: String, kind: String, into problems: inout FormatProblems) {
        for (index, choice) in choices.enumerated() {
            let path = join(prefix, "choices[\(index)]")
            if choice.exclusive { problems.add("\(path).exclusive", "has no meaning in \(kind)") }
            if choice.other != nil { problems.add("\(path).other", "\(kind) has no free-text field") }
        }
    }

    static func check(_ format: ValuePickerFormat, at prefix: String, into problems: inout FormatProblems) {
        checkChoiceList(format.choices, at: prefix, minimumCount: 1, into: &problems)
        checkPlainChoices(format.choices, at: prefix, kind: "a value picker", into: &problems)
    }

    static func check(_ format: MultipleValuePickerFormat, into problems: inout FormatProblems) {
        if format.pickers.count < 2 {
            problems.add("pickers", "needs at least 2 pickers (has \(format.pickers.count)); use a value picker for one")
        }
        for (index, picker) in format.pickers.enumerated() {
            check(picker, at: "pickers[\(index)]", into: &problems)
        }
    }

    static func check(_ format: TextScaleFormat, into problems: inout FormatProblems) {
        let counts = AnswerFormat.textScaleChoiceCounts
        if !counts.contains(format.choices.count) {
            problems.add("choices", "a text scale has \(counts.lowerBound) to \(counts.upperBound) choices (has \(format.choices.count))")
        }
        checkTexts(format.choices.map(\.text), at: "choices", into: &problems)
        checkValues(format.choices.map(\.value), at: "choices", into: &problems)
        checkPlainChoices(format.choices, at: "", kind: "a text scale", into: &problems)
        if let index = format.defaultIndex, !format.choices.indices.contains(index) {
            problems.add("defaultIndex", format.choices.isEmpty
                ? "has no choice to point to (is \(index))"
                : "must be from 0 to \(format.choices.count - 1) (is \(index))")
        }
    }

    static func check(_ format: ScaleFormat, into problems: inout FormatProblems) {
        let bounds = AnswerFormat.scaleValueBounds
        if format.minimum < bounds.lowerBound {
            problems.add("minimum", "must be at least \(bounds.lowerBound) (is \(format.minimum))")
        }
        if format.maximum > bounds.upperBound {
            problems.add("maximum", "must be at most \(bounds.upperBound) (is \(format.maximum))")
        }
        if format.maximum <= format.minimum {
            problems.add("maximum", "must be greater than minimum (\(format.maximum) \(format.maximum == format.minimum ? "=" : "<") \(format.minimum))")
        }
        if format.step < 1 {
            problems.add("step", "must be at least 1 (is \(format.step))")
        }
        let (span, overflow) = format.maximum.subtractingReportingOverflow(format.minimum)
        if format.maximum > format.minimum, format.step >= 1, !overflow {
            if span % format.step != 0 {
                problems.add("step", "(maximum - minimum) must be divisible by step (\(span) is not a multiple of \(format.step))")
            }
            let steps = span / format.step
            let counts = AnswerFormat.scaleStepCounts
            if !counts.contains(steps) {
                problems.add("step", "a scale has \(counts.lowerBound) to \(counts.upperBound) steps; \(format.minimum)...\(format.maximum) in steps of \(format.step) gives \(steps)")
            }
        }
        if let value = format.defaultValue {
            if value < format.minimum || value > format.maximum {
                problems.add("defaultValue", "must be within minimum...maximum (\(format.minimum)...\(format.maximum)); is \(value)")
            } else if format.step >= 1, case let (offset, false) = value.subtractingReportingOverflow(format.minimum),
                      offset % format.step != 0 {
                problems.add("defaultValue", "must be on a step: minimum \(format.minimum) plus a multiple of \(format.step) (\(value) is not)")
            }
        }
    }

    static func check(_ format: ContinuousScaleFormat, into problems: inout FormatProblems) {
        let bounds = AnswerFormat.scaleValueBounds
        let finite = format.minimum.isFinite && format.maximum.isFinite
        if !format.minimum.isFinite { problems.add("minimum", "must be a finite number (is \(format.minimum))") }
        if !format.maximum.isFinite { problems.add("maximum", "must be a finite number (is \(format.maximum))") }
        if format.minimum < Double(bounds.lowerBound) {
            problems.add("minimum", "must be at least \(bounds.lowerBound) (is \(AnswerRules.text(format.minimum)))")
        }
        if format.maximum > Double(bounds.upperBound) {
            problems.add("maximum", "must be at most \(bounds.upperBound) (is \(AnswerRules.text(format.maximum)))")
        }
        if finite, format.maximum <= format.minimum {
            problems.add("maximum", "must be greater than minimum (\(AnswerRules.text(format.maximum)) \(format.maximum == format.minimum ? "=" : "<") \(AnswerRules.text(format.minimum)))")
        }
        let digits = AnswerFormat.continuousScaleFractionDigits
        if !digits.contains(format.maximumFractionDigits) {
            problems.add("maximumFractionDigits", "must be from \(digits.lowerBound) to \(digits.upperBound) (is \(format.maximumFractionDigits))")
        }
        if let value = format.defaultValue {
            if !value.isFinite {
                problems.add("defaultValue", "must be a finite number (is \(value))")
            } else if finite, value < format.minimum || value > format.maximum {
                problems.add("defaultValue", "must be within minimum...maximum (\(AnswerRules.text(format.minimum))...\(AnswerRules.text(format.maximum))); is \(AnswerRules.text(value))")
            } else if digits.contains(format.maximumFractionDigits), let decimal = AnswerRules.decimal(value),
                      !AnswerRules.fits(format.percentStyle ? decimal * 100 : decimal, fractionDigits: format.maximumFractionDigits) {
                problems.add("defaultValue", "has more than \(AnswerRules.digitsPhrase(format.maximumFractionDigits)) after the decimal point (\(decimal))")
            }
        }
    }

    static func check(_ format: NumericFormat, into problems: inout FormatProblems) {
        if let minimum = format.minimum, let maximum = format.maximum, maximum <= minimum {
            problems.add("maximum", "must be greater than minimum (\(maximum) \(maximum == minimum ? "=" : "<") \(minimum))")
        }
        if let digits = format.maximumFractionDigits {
            if digits < 0 {
                problems.add("maximumFractionDigits", "must not be negative (is \(digits))")
            } else if format.style == .integer, digits != 0 {
                problems.add("maximumFractionDigits", "must be 0 or left out for an integer format (is \(digits))")
            }
        }
        if format.style == .integer {
            for (key, bound) in [("minimum", format.minimum), ("maximum", format.maximum)] {
                if let bound, !AnswerRules.fits(bound, fractionDigits: 0) {
                    problems.add(key, "must be a whole number for an integer format (is \(bound))")
                }
            }
        }
        if let unit = format.unit, unit.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problems.add("unit", "must not be empty; leave it out for a number without unit")
        }
        if let value = format.defaultValue {
            if let minimum = format.minimum, value < minimum {
                problems.add("defaultValue", "must be at least minimum (\(value) < \(minimum))")
            }
            if let maximum = format.maximum, value > maximum {
                problems.add("defaultValue", "must be at most maximum (\(value) > \(maximum))")
            }
            let allowed = format.style == .integer ? 0 : format.maximumFractionDigits
            if let allowed, allowed >= 0, !AnswerRules.fits(value, fractionDigits: allowed) {
                problems.add("defaultValue", allowed == 0
                    ? "must be a whole number (is \(value))"
                    : "has more than \(AnswerRules.digitsPhrase(allowed)) after the decimal point (\(value))")
            }
        }
    }

    /// Bounds of a body measurement: not negative, and minimum below maximum.
    static func checkMeasurementBounds(minimum: Decimal?, maximum: Decimal?, unit: String, into problems: inout FormatProblems) {
        if let minimum, minimum < 0 { problems.add("minimum", "must not be negative (is \(minimum) \(unit))") }
        if let maximum, maximum < 0 { problems.add("maximum", "must not be negative (is \(maximum) \(unit))") }
        if let minimum, let maximum, maximum <= minimum {
            problems.add("maximum", "must be greater than minimum (\(maximum) \(maximum == minimum ? "=" : "<") \(minimum))")
        }
    }

    static func check(_ format: HeightFormat, into problems: inout FormatProblems) {
        checkMeasurementBounds(minimum: format.minimum, maximum: format.maximum, unit: "cm", into: &problems)
    }

    static func check(_ format: WeightFormat, into problems: inout FormatProblems) {
        checkMeasurementBounds(minimum: format.minimum, maximum: format.maximum, unit: "kg", into: &problems)
        if let value = format.defaultValue {
            if value <= 0 { problems.add("defaultValue", "must be greater than 0 (is \(value) kg)") }
            if let minimum = format.minimum, value < minimum {
                problems.add("defaultValue", "must be at least minimum (\(value) < \(minimum))")
            }
            if let maximum = format.maximum, value > maximum {
                problems.add("defaultValue", "must be at most maximum (\(value) > \(maximum))")
            }
            let digits = format.precision.maximumFractionDigits
            if !AnswerRules.fits(value, fractionDigits: digits) {
                problems.add("defaultValue", "has more than \(AnswerRules.digitsPhrase(digits)) after the decimal point for \(format.precision.rawValue) precision (\(value))")
            }
        }
    }

    static func check(_ format: AgeFormat, into problems: inout FormatProblems) {
        if format.minimumAge < 0 { problems.add("minimumAge", "must not be negative (is \(format.minimumAge))") }
        if format.maximumAge > AnswerFormat.largestMaximumAge {
            problems.add("maximumAge", "must be at most \(AnswerFormat.largestMaximumAge) (is \(format.maximumAge))")
        }
        if format.maximumAge <= format.minimumAge {
            problems.add("maximumAge", "must be greater than minimumAge (\(format.maximumAge) \(format.maximumAge == format.minimumAge ? "=" : "<") \(format.minimumAge))")
        }
        if let value = format.defaultValue, value < format.minimumAge || value > format.maximumAge {
            problems.add("defaultValue", "must be within minimumAge...maximumAge (\(format.minimumAge)...\(format.maximumAge)); is \(value)")
        }
    }

    static func check(_ format: DateFormat, includesTime: Bool, into problems: inout FormatProblems) {
        func text(_ date: Date) -> String {
            includesTime ? ISO8601.string(from: date) : ISO8601.dayString(from: date, in: .gmt)
        }
        // A date format's bounds are calendar days: its bounds count as the days they fall on in UTC.
        func key(_ date: Date) -> Date { includesTime ? date : AnswerRules.startOfUTCDay(date) }
        if let minimum = format.minimum, let maximum = format.maximum, key(maximum) <= key(minimum) {
            problems.add("maximum", key(maximum) == key(minimum)
                ? "must be later than minimum (both are \(text(maximum)))"
                : "must be later than minimum (\(text(maximum)) is before \(text(minimum)))")
        }
        if let value = format.defaultValue {
            if let minimum = format.minimum, key(value) < key(minimum) {
                problems.add("defaultValue", "must not be before minimum (\(text(value)) is before \(text(minimum)))")
            }
            if let maximum = format.maximum, key(value) > key(maximum) {
                problems.add("defaultValue", "must not be after maximum (\(text(value)) is after \(text(maximum)))")
            }
        }
    }

    static func check(_ format: TimeOfDayFormat, into problems: inout FormatProblems) {
        if let value = format.defaultValue, !AnswerRules.isValid(value) {
            problems.add("defaultValue", "is not a time of day (hour \(value.hour), minute \(value.minute), second \(value.second))")
        }
    }

    static func check(_ format: TimeIntervalFormat, into problems: inout FormatProblems) {
        if !format.maximum.isFinite || format.maximum <= 0 {
            problems.add("maximum", "must be more than 0 seconds (is \(AnswerRules.text(format.maximum)))")
        }
        let steps = AnswerFormat.timeIntervalStepMinutes
        let stepValid = steps.contains(format.stepMinutes)
        if !stepValid {
            problems.add("stepMinutes", "must be from \(steps.lowerBound) to \(steps.upperBound) (is \(format.stepMinutes))")
        }
        if let value = format.defaultValue {
            if !value.isFinite || value < 0 || (format.maximum.isFinite && value > format.maximum) {
                problems.add("defaultValue", "must be from 0 to maximum (\(AnswerRules.text(format.maximum)) seconds); is \(AnswerRules.text(value))")
            } else if stepValid, value.truncatingRemainder(dividingBy: Double(format.stepMinutes * 60)) != 0 {
                problems.add("defaultValue", "must be a whole multiple of stepMinutes (\(format.stepMinutes) min = \(format.stepMinutes * 60) s); \(AnswerRules.text(value)) s is not")
            }
        }
    }

    static func check(_ format: TextFormat, into problems: inout FormatProblems) {
        if let length = format.maximumLength, length < 1 {
            problems.add("maximumLength", "must be at least 1 (is \(length)); leave it out for no limit")
        }
        var regex: Regex<AnyRegexOutput>?
        if let pattern = format.validationPattern {
            if pattern.isEmpty {
                problems.add("validationPattern", "must not be empty; leave it out to accept any text")
            } else {
                do {
                    regex = try CompiledPatterns.regex(pattern)
                } catch {
                    problems.add("validationPattern", "is not a valid regular expression (\(error))")
                }
            }
            if let message = format.invalidMessage {
                if message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    problems.add("invalidMessage", "must not be empty: it tells the participant why an answer does not match validationPattern")
                }
            } else {
                problems.add("invalidMessage", "is required with validationPattern: it tells the participant why an answer does not match")
            }
        } else if format.invalidMessage != nil {
            problems.add("invalidMessage", "has no validationPattern to go with it")
        }
        if let value = format.defaultValue {
            if let length = format.maximumLength, length >= 1, value.count > length {
                problems.add("defaultValue", "is longer than maximumLength (\(value.count) > \(length) characters)")
            }
            if !format.multipleLines, value.contains(where: \.isNewline) {
                problems.add("defaultValue", "has a line break, but multipleLines is false")
            }
            if let regex, (try? regex.wholeMatch(in: value)) == nil {
                problems.add("defaultValue", "does not match validationPattern")
            }
        }
    }

    static func check(_ format: FileFormat, into problems: inout FormatProblems) {
        if format.maximumBytes < 1 || format.maximumBytes > FileFormat.largestMaximumBytes {
            problems.add("maximumBytes", "must be from 1 to \(FileFormat.largestMaximumBytes) (50 MB) (is \(format.maximumBytes))")
        }
        for (index, type) in format.allowedContentTypes.enumerated() {
            let parts = type.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count != 2 || parts[0].isEmpty || parts[1].isEmpty || parts[0] == "*" {
                problems.add("allowedContentTypes[\(index)]", "'\(type)' is not a media type such as image/jpeg or image/*")
            }
        }
    }

    static func check(_ format: SESLadderFormat, into problems: inout FormatProblems) {
        let counts = AnswerFormat.sesLadderRungCounts
        if !counts.contains(format.numberOfRungs) {
            problems.add("numberOfRungs", "must be from \(counts.lowerBound) to \(counts.upperBound) (is \(format.numberOfRungs))")
        }
    }
}

private extension ChoiceValue {
    /// The value as it appears in JSON, for problem messages: strings quoted, numbers bare.
    var quotedForProblem: String {
        if case .string(let text) = self { return "\"\(text)\"" }
        return description
    }
}
