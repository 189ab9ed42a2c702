import Foundation

/// Why an answer was refused, in words the participant sees: "Enter a number from 0 to 10."
///
/// The server, the web page and the terminal runner all show this message as it is, so it is a whole
/// sentence addressed to the participant and never mentions JSON keys or internal values.
public struct AnswerValidationError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The sentence shown to the participant.
    public var message: String

    /// Creates an error with the sentence shown to the participant.
    public init(_ message: String) { self.message = message }

    /// The message itself.
    public var description: String { message }

    /// The message itself, so that `localizedDescription` shows it too.
    public var errorDescription: String? { message }
}

extension AnswerFormat {
    /// Checks an answer against this format and throws the reason, in the participant's words, when it is refused.
    ///
    /// This is the one place where answers are judged: the browser and the terminal may check early, the
    /// server calls this before it stores anything. Pass answers through ``normalized(_:)`` first, so that
    /// blank text and empty selections count as no answer rather than as wrong answers.
    public func validate(_ answer: Answer) throws(AnswerValidationError) {
        if case .dontKnow = answer {
            guard dontKnow != nil else { throw AnswerValidationError("This question has no “I don’t know” answer.") }
            return
        }
        guard answer.kind == type.answerKind else { throw wrongKindError }
        switch (self, answer) {
        case (.boolean, .boolean):
            return
        case (.textChoice(let format), .choices(let selections)):
            try Self.validate(selections, in: format)
        case (.imageChoice(let format), .choices(let selections)):
            try Self.validate(selections, in: format)
        case (.valuePicker(let format), .choices(let selections)):
            try AnswerRules.validate(selections, options: format.choices, multiple: false)
        case (.textScale(let format), .choices(let selections)):
            try AnswerRules.validate(selections, options: format.choices, multiple: false)
        case (.multipleValuePicker(let format), .components(let values)):
            try Self.validate(values, in: format)
        case (.scale(let format), .number(let value)):
            try Self.validate(value, in: format)
        case (.continuousScale(let format), .number(let value)):
            try Self.validate(value, in: format)
        case (.numeric(let format), .number(let value)):
            try Self.validate(value, in: format)
        case (.height(let format), .number(let value)):
            try Self.validateMeasurement(value, noun: "a height", unit: "cm", minimum: format.minimum, maximum: format.maximum)
        case (.weight(let format), .number(let value)):
            try Self.validateMeasurement(value, noun: "a weight", unit: "kg", minimum: format.minimum, maximum: format.maximum)
            let digits = format.precision.maximumFractionDigits
            guard AnswerRules.fits(value, fractionDigits: digits) else {
                throw digits == 0 ? AnswerValidationError("Enter a whole number of kilograms.") : AnswerRules.fractionDigitsError(digits)
            }
        case (.age(let format), .number(let value)):
            guard AnswerRules.fits(value, fractionDigits: 0) else { throw AnswerValidationError("Enter a whole number.") }
            guard value >= Decimal(format.minimumAge), value <= Decimal(format.maximumAge) else {
                throw AnswerValidationError("Enter an age from \(format.minimumAge) to \(format.maximumAge).")
            }
        case (.sesLadder(let format), .number(let value)):
            guard AnswerRules.fits(value, fractionDigits: 0), value >= 1, value <= Decimal(format.numberOfRungs) else {
                throw AnswerValidationError("Choose a rung from 1 to \(format.numberOfRungs).")
            }
        case (.date(let format), .date(let value)):
            try Self.validate(value, in: format, includesTime: false)
        case (.dateTime(let format), .date(let value)):
            try Self.validate(value, in: format, includesTime: true)
        case (.timeOfDay, .timeOfDay(let value)):
            guard AnswerRules.isValid(value) else { throw AnswerValidationError("Enter a valid time of day.") }
        case (.timeInterval(let format), .timeInterval(let value)):
            try Self.validate(value, in: format)
        case (.text(let format), .text(let value)):
            try Self.validate(value, in: format)
        case (.email, .text(let value)):
            try FreeTextRules.check(value, allowingLineBreaks: false, maximumLength: FreeTextRules.maximumEmailLength)
            guard AnswerRules.isEmailAddress(value) else { throw AnswerValidationError("Enter a valid email address.") }
        case (.location, .location(let value)):
            try Self.validate(value)
        case (.file(let format), .file(let value)):
            try Self.validate(value, in: format)
        default:
            throw wrongKindError
        }
    }

    /// The answer as it should be stored: nil when it amounts to no answer, tidied where tidying cannot change its meaning.
    ///
    /// Blank text and an empty selection (or an empty list of picker values) are no answer; the text of an "other" choice is
    /// trimmed (and dropped when blank); an email address loses surrounding white space; a location without address
    /// or coordinates is no answer. Everything else is returned unchanged.
    public func normalized(_ answer: Answer) -> Answer? {
        switch answer {
        case .text(let text):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { return nil }
            if case .email = self { return .text(trimmed) }
            return answer
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

    /// The message for an answer of the wrong shape, naming the shape this format takes.
    var wrongKindError: AnswerValidationError {
        switch self {
        case .boolean: AnswerValidationError("This question takes a yes or no answer.")
        case .textChoice, .imageChoice, .valuePicker, .textScale: AnswerValidationError("This question takes a choice from the list.")
        case .multipleValuePicker: AnswerValidationError("This question takes one value from each list.")
        case .scale, .continuousScale, .numeric, .age: AnswerValidationError("This question takes a number.")
        case .height: AnswerValidationError("This question takes a height.")
        case .weight: AnswerValidationError("This question takes a weight.")
        case .sesLadder: AnswerValidationError("This question takes a rung of the ladder.")
        case .date: AnswerValidationError("This question takes a date.")
        case .dateTime: AnswerValidationError("This question takes a date and time.")
        case .timeOfDay: AnswerValidationError("This question takes a time of day.")
        case .timeInterval: AnswerValidationError("This question takes a duration.")
        case .text: AnswerValidationError("This question takes text.")
        case .email: AnswerValidationError("This question takes an email address.")
        case .location: AnswerValidationError("This question takes a place.")
        case .file: AnswerValidationError("This question takes a file.")
        }
    }
}

private extension AnswerFormat {
    /// Text choices and image choices alike.
    static func validate<Option>(_ selections: [ChoiceSelection], in format: ChoiceFormat<Option>) throws(AnswerValidationError) {
        try AnswerRules.validate(selections, options: format.choices, multiple: format.style == .multiple)
    }

    static func validate(_ file: FileAnswer, in format: FileFormat) throws(AnswerValidationError) {
        guard file.byteCount > 0 else { throw AnswerValidationError("The file is empty; choose another.") }
        guard file.byteCount <= format.maximumBytes else {
            throw AnswerValidationError("Choose a file of at most \(AnswerRules.byteCountPhrase(format.maximumBytes)).")
        }
        guard format.accepts(contentType: file.contentType) else {
            throw AnswerValidationError("Choose a file of one of these types: \(format.allowedContentTypes.joined(separator: ", ")).")
        }
    }

    static func validate(_ values: [ChoiceValue], in format: MultipleValuePickerFormat) throws(AnswerValidationError) {
        guard values.count == format.pickers.count else {
            throw AnswerValidationError("Choose one value in each of the \(format.pickers.count) lists.")
        }
        for (value, picker) in zip(values, format.pickers) where !picker.choices.contains(where: { $0.value.isSameChoice(as: value) }) {
            throw AnswerValidationError("That answer is not one of the choices.")
        }
    }

    static func validate(_ value: Decimal, in format: ScaleFormat) throws(AnswerValidationError) {
        guard AnswerRules.fits(value, fractionDigits: 0) else { throw AnswerValidationError("Enter a whole number.") }
        guard value >= Decimal(format.minimum), value <= Decimal(format.maximum) else {
            throw AnswerValidationError("Enter a number from \(format.minimum) to \(format.maximum).")
        }
        let (offset, overflow) = NSDecimalNumber(decimal: value).intValue.subtractingReportingOverflow(format.minimum)
        if format.step > 1, !overflow, offset % format.step != 0 {
            throw AnswerValidationError("Enter a number from \(format.minimum) to \(format.maximum), in steps of \(format.step).")
        }
    }

    static func validate(_ value: Decimal, in format: ContinuousScaleFormat) throws(AnswerValidationError) {
        if let minimum = AnswerRules.decimal(format.minimum), let maximum = AnswerRules.decimal(format.maximum),
           value < minimum || value > maximum {
            let percentages = format.percentStyle ? " (\(minimum * 100)% to \(maximum * 100)%)" : ""
            throw AnswerValidationError("Enter a number from \(minimum) to \(maximum)\(percentages).")
        }
        // With percent style the digits count in the percentage shown (25 % of a 0–1 scale needs none),
        // as ResearchKit's slider shows them.
        let digits = max(0, format.maximumFractionDigits)
        let shown = format.percentStyle ? value * 100 : value
        guard AnswerRules.fits(shown, fractionDigits: digits) else {
            if format.percentStyle {
                throw AnswerValidationError(digits == 0 ? "Enter a whole percentage." : "Use at most \(AnswerRules.digitsPhrase(digits)) after the decimal point of the percentage.")
            }
            throw digits == 0 ? AnswerValidationError("Enter a whole number.") : AnswerRules.fractionDigitsError(digits)
        }
    }

    static func validate(_ value: Decimal, in format: NumericFormat) throws(AnswerValidationError) {
        let digits = format.style == .integer ? 0 : format.maximumFractionDigits.map { max(0, $0) }
        if digits == 0, !AnswerRules.fits(value, fractionDigits: 0) { throw AnswerValidationError("Enter a whole number.") }
        if !AnswerRules.isWithin(value, minimum: format.minimum, maximum: format.maximum) {
            throw AnswerValidationError("Enter \(AnswerRules.rangePhrase(noun: "a number", minimum: format.minimum, maximum: format.maximum, unit: nil)).")
        }
        if let digits, !AnswerRules.fits(value, fractionDigits: digits) { throw AnswerRules.fractionDigitsError(digits) }
    }

    static func validateMeasurement(_ value: Decimal, noun: String, unit: String, minimum: Decimal?, maximum: Decimal?) throws(AnswerValidationError) {
        guard value > 0 else { throw AnswerValidationError("Enter \(noun) greater than 0 \(unit).") }
        guard AnswerRules.isWithin(value, minimum: minimum, maximum: maximum) else {
            throw AnswerValidationError("Enter \(AnswerRules.rangePhrase(noun: noun, minimum: minimum, maximum: maximum, unit: unit)).")
        }
    }

    static func validate(_ value: DateAnswer, in format: DateFormat, includesTime: Bool) throws(AnswerValidationError) {
        guard value.includesTime == includesTime else {
            throw AnswerValidationError(includesTime ? "Enter a date and a time." : "Enter a date without a time.")
        }
        let noun = includesTime ? "a date and time" : "a date"
        if includesTime {
            if let minimum = format.minimum, value.date < minimum {
                throw AnswerValidationError("Choose \(noun) on or after \(AnswerRules.dateTimePhrase(minimum, in: value.timeZone)).")
            }
            if let maximum = format.maximum, value.date > maximum {
                throw AnswerValidationError("Choose \(noun) on or before \(AnswerRules.dateTimePhrase(maximum, in: value.timeZone)).")
            }
        } else {
            // Days are compared as days: the answer's day where it was given, the bound's day in UTC.
            let day = AnswerRules.utcDay(of: value.date, in: value.timeZone)
            if let minimum = format.minimum, day < AnswerRules.startOfUTCDay(minimum) {
                throw AnswerValidationError("Choose \(noun) on or after \(AnswerRules.dayPhrase(minimum, in: .gmt)).")
            }
            if let maximum = format.maximum, day > AnswerRules.startOfUTCDay(maximum) {
                throw AnswerValidationError("Choose \(noun) on or before \(AnswerRules.dayPhrase(maximum, in: .gmt)).")
            }
        }
    }

    static func validate(_ value: TimeInterval, in format: TimeIntervalFormat) throws(AnswerValidationError) {
        guard value.isFinite, value >= 0, value <= format.maximum else {
            throw AnswerValidationError("Enter a duration from 0 min to \(AnswerRules.durationPhrase(format.maximum)).")
        }
        let step = Double(max(1, format.stepMinutes) * 60)
        guard value.truncatingRemainder(dividingBy: step) == 0 else {
            throw AnswerValidationError(format.stepMinutes <= 1
                ? "Enter a whole number of minutes."
                : "Enter a duration in steps of \(format.stepMinutes) min.")
        }
    }

    static func validate(_ value: String, in format: TextFormat) throws(AnswerValidationError) {
        guard !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw AnswerValidationError("Enter some text.") }
        if !format.multipleLines, value.contains(where: \.isNewline) {
            throw AnswerValidationError("Enter a single line of text.")
        }
        try FreeTextRules.check(value, allowingLineBreaks: format.multipleLines,
                                maximumLength: format.maximumLength ?? FreeTextRules.defaultMaximumLength)
        // A pattern that does not compile is a construction problem, refused when the study loads; it rejects nothing here.
        if let pattern = format.validationPattern, !pattern.isEmpty, (try? CompiledPatterns.regex(pattern)) != nil,
           !CompiledPatterns.wholeMatch(pattern, value) {
            let message = format.invalidMessage?.trimmingCharacters(in: .whitespacesAndNewlines)
            throw AnswerValidationError(message?.isEmpty == false ? message! : "Check the format of your answer.")
        }
    }

    static func validate(_ value: LocationAnswer) throws(AnswerValidationError) {
        guard (value.latitude == nil) == (value.longitude == nil) else {
            throw AnswerValidationError("Enter both latitude and longitude.")
        }
        if let latitude = value.latitude, !(latitude.isFinite && (-90...90).contains(latitude)) {
            throw AnswerValidationError("Enter a latitude from -90 to 90.")
        }
        if let longitude = value.longitude, !(longitude.isFinite && (-180...180).contains(longitude)) {
            throw AnswerValidationError("Enter a longitude from -180 to 180.")
        }
        if let address = value.address {
            try FreeTextRules.check(address, allowingLineBreaks: true, maximumLength: FreeTextRules.maximumAddressLength)
        }
        let hasAddress = value.address.map { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty } ?? false
        guard hasAddress || value.latitude != nil else { throw AnswerValidationError("Enter an address or a position.") }
    }
}

extension ChoiceFormat {
    /// The selection after the participant taps `value`, as choice UIs do it.
    ///
    /// Single style: the tapped choice replaces the selection. Multiple style: a tap toggles the choice;
    /// choosing an exclusive choice clears every other, and choosing any other clears the exclusive ones.
    /// The text typed with an "other" choice stays with it while it remains selected. A value that is not one
    /// of the choices leaves the selection as it is.
    public func toggling(_ value: ChoiceValue, in selection: [ChoiceSelection]) -> [ChoiceSelection] {
        guard let choice = choices.first(where: { $0.value.isSameChoice(as: value) }) else { return selection }
        let existing = selection.first { $0.value.isSameChoice(as: choice.value) }
        switch style {
        case .single:
            return [existing ?? ChoiceSelection(choice.value)]
        case .multiple:
            if existing != nil { return selection.filter { !$0.value.isSameChoice(as: choice.value) } }
            if choice.exclusive { return [ChoiceSelection(choice.value)] }
            let kept = selection.filter { selected in
                !choices.contains { $0.exclusive && $0.value.isSameChoice(as: selected.value) }
            }
            return kept + [ChoiceSelection(choice.value)]
        }
    }
}

extension ChoiceValue {
    /// Whether two values name the same choice: equal, or equal numbers whatever their JSON spelling (`2` and `2.0`).
    func isSameChoice(as other: ChoiceValue) -> Bool {
        if self == other { return true }
        if let lhs = numericValue, let rhs = other.numericValue { return lhs == rhs }
        return false
    }
}

/// Rules and wording shared by construction checks, answer validation and text input.
enum AnswerRules {
    /// A byte count for people: "512 bytes", "200 KB", "10 MB" (1 KB = 1024 bytes).
    static func byteCountPhrase(_ bytes: Int) -> String {
        if bytes >= 1024 * 1024, bytes % (1024 * 1024) == 0 { return "\(bytes / (1024 * 1024)) MB" }
        if bytes >= 1024 * 1024 { return String(format: "%.1f MB", Double(bytes) / 1_048_576) }
        if bytes >= 1024 { return "\(bytes / 1024) KB" }
        return "\(bytes) byte\(bytes == 1 ? "" : "s")"
    }

    static func validate<Option: ChoiceOption>(_ selections: [ChoiceSelection], options: [Option], multiple: Bool) throws(AnswerValidationError) {
        guard !selections.isEmpty else { throw AnswerValidationError("Choose an answer.") }
        var chosen: [Option] = []
        for selection in selections {
            guard let option = options.first(where: { $0.value.isSameChoice(as: selection.value) }) else {
                throw AnswerValidationError("That answer is not one of the choices.")
            }
            guard !chosen.contains(where: { $0.value.isSameChoice(as: option.value) }) else {
                throw AnswerValidationError("Choose each answer only once.")
            }
            chosen.append(option)
        }
        if !multiple, chosen.count > 1 { throw AnswerValidationError("Choose only one answer.") }
        if chosen.count > 1, let exclusive = chosen.first(where: \.exclusive) {
            throw AnswerValidationError("“\(exclusive.text)” can’t be combined with other answers.")
        }
        for (selection, option) in zip(selections, chosen) {
            let hasText = selection.text.map { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty } ?? false
            if let other = option.other {
                if other.textRequired, !hasText { throw AnswerValidationError("Type your answer for “\(option.text)”.") }
                if let text = selection.text {
                    try FreeTextRules.check(text, allowingLineBreaks: false, maximumLength: FreeTextRules.maximumOtherTextLength)
                }
            } else if hasText {
                throw AnswerValidationError("“\(option.text)” doesn’t take any text.")
            }
        }
    }

    /// Whether `value` has at most `fractionDigits` digits after the decimal point (trailing zeros don't count).
    static func fits(_ value: Decimal, fractionDigits: Int) -> Bool {
        rounded(value, fractionDigits: fractionDigits) == value
    }

    /// `value` rounded to `fractionDigits` digits, halves away from zero (2.345 gives 2.35).
    static func rounded(_ value: Decimal, fractionDigits: Int) -> Decimal {
        var source = value
        var result = Decimal()
        NSDecimalRound(&result, &source, fractionDigits, .plain)
        return result
    }

    /// "1 digit", "2 digits".
    static func digitsPhrase(_ count: Int) -> String { count == 1 ? "1 digit" : "\(count) digits" }

    /// "Use at most 2 digits after the decimal point."
    static func fractionDigitsError(_ digits: Int) -> AnswerValidationError {
        AnswerValidationError("Use at most \(digitsPhrase(digits)) after the decimal point.")
    }

    /// A double as a decimal, through its shortest spelling (0.1 stays 0.1); nil when not finite.
    static func decimal(_ value: Double) -> Decimal? {
        guard value.isFinite else { return nil }
        return Decimal(string: String(value), locale: Locale(identifier: "en_US_POSIX"))
    }

    /// A double in its shortest spelling, without a useless ".0": `10`, `0.25`.
    static func text(_ value: Double) -> String {
        decimal(value).map { "\($0)" } ?? String(value)
    }

    /// Whether `value` lies within the optional inclusive bounds.
    static func isWithin(_ value: Decimal, minimum: Decimal?, maximum: Decimal?) -> Bool {
        if let minimum, value < minimum { return false }
        if let maximum, value > maximum { return false }
        return true
    }

    /// "a number from 0 to 10", "a height of at least 100 cm", "a number"; the unit follows the last number.
    static func rangePhrase(noun: String, minimum: Decimal?, maximum: Decimal?, unit: String?, decimalSeparator: String = ".") -> String {
        let suffix = unit.map { " \($0)" } ?? ""
        func number(_ value: Decimal) -> String { numberText(value, decimalSeparator: decimalSeparator) }
        switch (minimum, maximum) {
        case let (minimum?, maximum?): return "\(noun) from \(number(minimum)) to \(number(maximum))\(suffix)"
        case let (minimum?, nil): return "\(noun) of at least \(number(minimum))\(suffix)"
        case let (nil, maximum?): return "\(noun) of at most \(number(maximum))\(suffix)"
        case (nil, nil): return noun
        }
    }

    /// A decimal as plain digits with the given decimal separator and no grouping: `72.5`, `72,5`.
    static func numberText(_ value: Decimal, decimalSeparator: String = ".") -> String {
        let text = "\(value)"
        return decimalSeparator == "." ? text : text.replacingOccurrences(of: ".", with: decimalSeparator)
    }

    /// Whether a time of day has hours 0–23 and minutes and seconds 0–59.
    static func isValid(_ time: TimeOfDay) -> Bool {
        (0...23).contains(time.hour) && (0...59).contains(time.minute) && (0...59).contains(time.second)
    }

    /// One `@`, something before it, a domain of at least two dot-separated labels after it, no white space.
    static func isEmailAddress(_ text: String) -> Bool {
        text.wholeMatch(of: #/[^\s@]+@[^\s@.]+(\.[^\s@.]+)*\.[^\s@.]{2,}/#) != nil
    }

    /// A gregorian calendar in `timeZone`.
    static func gregorian(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The start, in UTC, of the calendar day that `date` falls on in `timeZone`: days from different zones become comparable.
    static func utcDay(of date: Date, in timeZone: TimeZone) -> Date {
        let components = gregorian(in: timeZone).dateComponents([.era, .year, .month, .day], from: date)
        return gregorian(in: .gmt).date(from: components) ?? date
    }

    /// The start of the UTC day of `date`; a date format's bounds are the UTC days they fall on.
    static func startOfUTCDay(_ date: Date) -> Date { utcDay(of: date, in: .gmt) }

    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                                     "August", "September", "October", "November", "December"]

    /// "1 March 2026": the gregorian day of `date` in `timeZone`, in plain English whatever the locale.
    static func dayPhrase(_ date: Date, in timeZone: TimeZone) -> String {
        let parts = gregorian(in: timeZone).dateComponents([.year, .month, .day], from: date)
        let month = parts.month.map { monthNames[($0 - 1) % 12] } ?? ""
        return "\(parts.day ?? 1) \(month) \(parts.year ?? 0)"
    }

    /// "1 March 2026, 08:30": the day and 24-hour time of `date` in `timeZone`.
    static func dateTimePhrase(_ date: Date, in timeZone: TimeZone) -> String {
        let parts = gregorian(in: timeZone).dateComponents([.hour, .minute], from: date)
        return dayPhrase(date, in: timeZone) + String(format: ", %02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
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
