import Foundation

extension AnswerFormat {
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
        if let option = dontKnow, TextInput.isDontKnow(trimmed, option: option) { return .dontKnow }
        let separator = locale.decimalSeparator ?? "."
        let parsed: Answer
        switch self {
        case .boolean(let format):
            parsed = .boolean(try TextInput.boolean(trimmed, format: format))
        case .textChoice(let format):
            parsed = .choices(try TextInput.selections(trimmed, options: format.choices))
        case .imageChoice(let format):
            parsed = .choices(try TextInput.selections(trimmed, options: format.choices))
        case .valuePicker(let format):
            parsed = .choices(try TextInput.selections(trimmed, options: format.choices))
        case .textScale(let format):
            parsed = .choices(try TextInput.selections(trimmed, options: format.choices))
        case .multipleValuePicker(let format):
            parsed = .components(try TextInput.components(trimmed, format: format))
        case .scale, .age, .sesLadder:
            parsed = .number(try TextInput.number(trimmed, separator: separator, whole: true))
        case .continuousScale(let format):
            if format.percentStyle, trimmed.hasSuffix("%") {
                let number = String(trimmed.dropLast()).trimmingCharacters(in: .whitespaces)
                parsed = .number(try TextInput.number(number, separator: separator, whole: false) / 100)
            } else {
                parsed = .number(try TextInput.number(trimmed, separator: separator, whole: false))
            }
        case .numeric(let format):
            var number = trimmed
            if let unit = format.unit?.trimmingCharacters(in: .whitespaces), !unit.isEmpty,
               number.lowercased().hasSuffix(unit.lowercased()) {
                number = String(number.dropLast(unit.count)).trimmingCharacters(in: .whitespaces)
            }
            parsed = .number(try TextInput.number(number, separator: separator, whole: format.style == .integer))
        case .height(let format):
            parsed = .number(try TextInput.height(trimmed, usCustomary: TextInput.usesUSCustomary(format.measurementSystem, locale),
                                                  separator: separator))
        case .weight(let format):
            parsed = .number(try TextInput.weight(trimmed, usCustomary: TextInput.usesUSCustomary(format.measurementSystem, locale),
                                                  fractionDigits: format.precision.maximumFractionDigits, separator: separator))
        case .date:
            parsed = .date(try TextInput.day(trimmed, timeZone: timeZone, calendar: calendar))
        case .dateTime:
            parsed = .date(try TextInput.dateTime(trimmed, timeZone: timeZone, calendar: calendar))
        case .timeOfDay:
            guard let time = TimeOfDay(parsing: trimmed) else { throw AnswerValidationError("Enter a time as HH:MM.") }
            parsed = .timeOfDay(time)
        case .timeInterval:
            parsed = .timeInterval(try TextInput.duration(trimmed))
        case .text:
            parsed = .text(text)
        case .email:
            parsed = .text(trimmed)
        case .location:
            parsed = .location(try TextInput.location(trimmed))
        case .file:
            // A file is attached with TaskSession.attachFile, which writes it to the run's folder; text cannot carry one.
            throw AnswerValidationError("Attach a file to answer this question.")
        }
        guard let answer = normalized(parsed) else { return nil }
        try validate(answer)
        return answer
    }

    /// A short English hint for the terminal prompt saying what to type: "a whole number from 0 to 10, in steps of 1",
    /// "yes or no", "choose one: type its number", "a date, YYYY-MM-DD, from 2026-01-01 to 2026-12-31".
    ///
    /// `locale` decides the decimal separator shown and, for formats in the local measurement system, whether
    /// heights and weights are asked in metric or US units; date-time bounds are shown in `timeZone`.
    public func hint(locale: Locale = Locale(identifier: "en_US_POSIX"), timeZone: TimeZone = .current) -> String {
        let separator = locale.decimalSeparator ?? "."
        func number(_ value: Decimal) -> String { AnswerRules.numberText(value, decimalSeparator: separator) }
        var text: String
        switch self {
        case .boolean(let format):
            text = format.yesText == nil && format.noText == nil
                ? "yes or no"
                : "\(format.yesText ?? "yes") or \(format.noText ?? "no") (or yes / no)"
        case .textChoice(let format):
            text = format.style == .single ? "choose one: type its number" : "choose any: numbers separated by commas"
            if format.choices.contains(where: { $0.other != nil }) { text += "; add your own words after a colon, as in 3: my words" }
        case .imageChoice(let format):
            text = format.style == .single ? "choose one: type its number" : "choose any: numbers separated by commas"
        case .valuePicker, .textScale:
            text = "choose one: type its number"
        case .multipleValuePicker(let format):
            text = "one number for each of the \(format.pickers.count) lists, separated by commas"
        case .scale(let format):
            text = "a whole number from \(format.minimum) to \(format.maximum), in steps of \(format.step)"
        case .continuousScale(let format):
            let minimum = AnswerRules.decimal(format.minimum).map(number) ?? "\(format.minimum)"
            let maximum = AnswerRules.decimal(format.maximum).map(number) ?? "\(format.maximum)"
            if format.percentStyle {
                let low = AnswerRules.decimal(format.minimum * 100).map(number) ?? "\(format.minimum * 100)"
                let high = AnswerRules.decimal(format.maximum * 100).map(number) ?? "\(format.maximum * 100)"
                text = format.maximumFractionDigits <= 0
                    ? "a percentage from \(low)% to \(high)%, as in 25%"
                    : "a percentage from \(low)% to \(high)%, up to \(AnswerRules.digitsPhrase(format.maximumFractionDigits)) after the decimal point"
            } else {
                text = format.maximumFractionDigits <= 0
                    ? "a whole number from \(minimum) to \(maximum)"
                    : "a number from \(minimum) to \(maximum), up to \(AnswerRules.digitsPhrase(format.maximumFractionDigits)) after the decimal point"
            }
        case .numeric(let format):
            let whole = format.style == .integer || format.maximumFractionDigits == 0
            text = AnswerRules.rangePhrase(noun: whole ? "a whole number" : "a number", minimum: format.minimum,
                                           maximum: format.maximum, unit: nil, decimalSeparator: separator)
            if !whole, let digits = format.maximumFractionDigits { text += ", up to \(AnswerRules.digitsPhrase(digits)) after the decimal point" }
            if let unit = format.unit { text += ", in \(unit)" }
        case .height(let format):
            text = TextInput.usesUSCustomary(format.measurementSystem, locale)
                ? "your height in feet and inches, as in 5' 8\" (or in cm, as in 172 cm)"
                : "your height in cm, as in 172"
        case .weight(let format):
            let example = format.precision == .default ? "72" : "72\(separator)5"
            text = TextInput.usesUSCustomary(format.measurementSystem, locale)
                ? "your weight in pounds, as in 150 lb\(format.precision == .high ? " 4 oz" : "") (or in kg, as in \(example) kg)"
                : "your weight in kg, as in \(example)"
        case .age(let format):
            text = "an age in whole years, from \(format.minimumAge) to \(format.maximumAge)"
        case .sesLadder(let format):
            text = "a rung from 1 (bottom) to \(format.numberOfRungs) (top)"
        case .date(let format):
            let bounds = TextInput.boundsPhrase(minimum: format.minimum.map { ISO8601.dayString(from: $0, in: .gmt) },
                                                maximum: format.maximum.map { ISO8601.dayString(from: $0, in: .gmt) })
            text = "a date, YYYY-MM-DD" + bounds
        case .dateTime(let format):
            let bounds = TextInput.boundsPhrase(minimum: format.minimum.map { TextInput.dateTimeText($0, in: timeZone) },
                                                maximum: format.maximum.map { TextInput.dateTimeText($0, in: timeZone) })
            text = "a date and time, YYYY-MM-DD HH:MM" + bounds
        case .timeOfDay:
            text = "HH:MM"
        case .timeInterval(let format):
            text = "a duration such as 1h 30m, 90m or 1:30, up to \(AnswerRules.durationPhrase(format.maximum))"
            if format.stepMinutes > 1 { text += ", in steps of \(format.stepMinutes) min" }
        case .text(let format):
            text = format.multipleLines ? "text (several lines allowed)" : "text"
            if let length = format.maximumLength { text += ", at most \(length) characters" }
        case .email:
            text = "an email address"
        case .location:
            text = "an address, optionally followed by @ latitude, longitude (as in Berlin @ 52.52, 13.40)"
        case .file(let format):
            text = "the path of a file of at most \(AnswerRules.byteCountPhrase(format.maximumBytes))"
            if !format.allowedContentTypes.isEmpty { text += " (\(format.allowedContentTypes.joined(separator: ", ")))" }
        }
        if dontKnow != nil { text += "; ? if you don't know" }
        return text
    }

    /// The answer as text for people: "Yes", "Often, Other: on weekends", "72.5 kg", "2026-03-01", "1 h 30 min", "I don't know".
    ///
    /// Choices show their texts, not their values; numbers show in the unit they are stored in (cm, kg), with
    /// `locale`'s decimal separator; a date-time shows in the time zone the participant answered in.
    public func display(_ answer: Answer, locale: Locale = Locale(identifier: "en_US_POSIX")) -> String {
        let separator = locale.decimalSeparator ?? "."
        func number(_ value: Decimal) -> String { AnswerRules.numberText(value, decimalSeparator: separator) }
        func choiceText(_ value: ChoiceValue, in choices: [some ChoiceOption]) -> String {
            choices.first { $0.value.isSameChoice(as: value) }?.text ?? value.description
        }
        switch (self, answer) {
        case (_, .dontKnow):
            return dontKnow?.text ?? "I don't know"
        case (.boolean(let format), .boolean(let value)):
            return value ? format.yesText ?? "Yes" : format.noText ?? "No"
        case (_, .choices(let selections)):
            func texts(_ options: [some ChoiceOption]) -> String {
                selections.map { selection in
                    let text = choiceText(selection.value, in: options)
                    return selection.text.map { "\(text): \($0)" } ?? text
                }.joined(separator: ", ")
            }
            switch self {
            case .textChoice(let format): return texts(format.choices)
            case .imageChoice(let format): return texts(format.choices)
            case .valuePicker(let format): return texts(format.choices)
            case .textScale(let format): return texts(format.choices)
            default: return texts([TextChoice]())
            }
        case (.multipleValuePicker(let format), .components(let values)):
            return values.enumerated().map { index, value in
                let options = index < format.pickers.count ? format.pickers[index].choices : []
                return choiceText(value, in: options)
            }.joined(separator: format.separator)
        case (.continuousScale(let format), .number(let value)) where format.percentStyle:
            return number(value * 100) + "%"
        case (.age, .number(let value)):
            return number(value) + (value == 1 ? " year" : " years")
        case (.sesLadder(let format), .number(let value)):
            return "\(number(value)) of \(format.numberOfRungs)"
        case (_, .number(let value)):
            return unit.map { "\(number(value)) \($0)" } ?? number(value)
        case (.dateTime, .date(let value)):
            return TextInput.dateTimeText(value.date, in: value.timeZone)
        case (_, .date(let value)):
            return value.includesTime
                ? TextInput.dateTimeText(value.date, in: value.timeZone)
                : ISO8601.dayString(from: value.date, in: value.timeZone)
        case (_, .timeOfDay(let value)):
            return value.description
        case (_, .timeInterval(let value)):
            return AnswerRules.durationPhrase(value)
        case (_, .text(let value)):
            return value
        case (_, .location(let value)):
            var coordinates: String?
            if let latitude = value.latitude, let longitude = value.longitude {
                coordinates = "\(AnswerRules.text(latitude)), \(AnswerRules.text(longitude))"
            }
            switch (value.address, coordinates) {
            case let (address?, coordinates?): return "\(address) (\(coordinates))"
            case let (address?, nil): return address
            case let (nil, coordinates?): return coordinates
            case (nil, nil): return ""
            }
        case (_, .components(let values)):
            return values.map(\.description).joined(separator: " ")
        case (_, .file(let value)):
            return "\(value.title ?? value.fileName) (\(AnswerRules.byteCountPhrase(value.byteCount)))"
        case (_, .boolean(let value)):
            return value ? "Yes" : "No"
        }
    }
}

/// The parsers behind ``AnswerFormat/answer(fromText:locale:timeZone:calendar:)``.
enum TextInput {
    static let posix = Locale(identifier: "en_US_POSIX")

    /// "?", "dk" or the option's own text (case-insensitive), the standard "I don't know" with either apostrophe.
    static func isDontKnow(_ text: String, option: DontKnowOption) -> Bool {
        let typed = text.lowercased().replacingOccurrences(of: "’", with: "'")
        var accepted: Set<String> = ["?", "dk", "i don't know"]
        if let own = option.text { accepted.insert(own.lowercased().replacingOccurrences(of: "’", with: "'")) }
        return accepted.contains(typed)
    }

    static func boolean(_ text: String, format: BooleanFormat) throws(AnswerValidationError) -> Bool {
        let typed = text.lowercased()
        if let yes = format.yesText, typed == yes.trimmingCharacters(in: .whitespaces).lowercased() { return true }
        if let no = format.noText, typed == no.trimmingCharacters(in: .whitespaces).lowercased() { return false }
        if ["yes", "y", "true", "1"].contains(typed) { return true }
        if ["no", "n", "false", "2"].contains(typed) { return false }
        if format.yesText != nil || format.noText != nil {
            throw AnswerValidationError("Answer “\(format.yesText ?? "Yes")” or “\(format.noText ?? "No")”.")
        }
        throw AnswerValidationError("Answer yes or no.")
    }

    /// The choice a single reference names: its 1-based number, a string value, or its text (case-insensitive).
    static func option<Option: ChoiceOption>(_ reference: String, in options: [Option]) -> Option? {
        let reference = reference.trimmingCharacters(in: .whitespaces)
        guard !reference.isEmpty else { return nil }
        if reference.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let number = Int(reference), options.indices.contains(number - 1) else { return nil }
            return options[number - 1]
        }
        if let exact = options.first(where: { $0.value == .string(reference) }) { return exact }
        return options.first { option in
            if case .string(let value) = option.value, value.caseInsensitiveCompare(reference) == .orderedSame { return true }
            return option.text.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare(reference) == .orderedSame
        }
    }

    /// References separated by commas; a part that names no choice as a whole is split at spaces.
    static func references<Option: ChoiceOption>(_ text: String, in options: [Option], list: String = "") throws(AnswerValidationError) -> [Option] {
        var found: [Option] = []
        for part in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            if let option = option(part, in: options) {
                found.append(option)
                continue
            }
            for word in part.split(whereSeparator: \.isWhitespace).map(String.init) {
                guard let option = option(word, in: options) else {
                    throw AnswerValidationError("“\(word)” is not one of the choices\(list). Type a number from 1 to \(options.count).")
                }
                found.append(option)
            }
        }
        return found
    }

    static func selections(_ text: String, options: [some ChoiceOption]) throws(AnswerValidationError) -> [ChoiceSelection] {
        guard !options.isEmpty else { throw AnswerValidationError("This question has no choices.") }
        if let option = option(text, in: options) { return [ChoiceSelection(option.value)] }
        if options.contains(where: { $0.other != nil }), let colon = text.firstIndex(of: ":") {
            let chosen = try references(String(text[..<colon]), in: options)
            let words = text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            var selections = chosen.map { ChoiceSelection($0.value) }
            if !selections.isEmpty, !words.isEmpty { selections[selections.count - 1].text = words }
            return selections
        }
        return try references(text, in: options).map { ChoiceSelection($0.value) }
    }

    static func components(_ text: String, format: MultipleValuePickerFormat) throws(AnswerValidationError) -> [ChoiceValue] {
        var parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count != format.pickers.count {
            parts = text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
        }
        guard parts.count == format.pickers.count else {
            throw AnswerValidationError("Type one value for each of the \(format.pickers.count) lists, separated by commas.")
        }
        var values: [ChoiceValue] = []
        for (index, (part, picker)) in zip(parts, format.pickers).enumerated() {
            let options = picker.choices
            guard let option = option(part, in: options) else {
                throw AnswerValidationError("“\(part)” is not one of the choices in list \(index + 1). Type a number from 1 to \(options.count).")
            }
            values.append(option.value)
        }
        return values
    }

    /// Rewrites the locale's decimal separator (and the typographic minus) so that the text uses ASCII `.` and `-`.
    static func plainNumerals(_ text: String, separator: String) -> String {
        var text = text.replacingOccurrences(of: "\u{2212}", with: "-")
        if separator != ".", !separator.isEmpty { text = text.replacingOccurrences(of: separator, with: ".") }
        return text
    }

    /// Parses `12`, `-3`, `2.5`, `.5` or `2,5` (with a comma locale) exactly, as a decimal.
    static func decimal(_ text: String, separator: String) -> Decimal? {
        let text = plainNumerals(text.trimmingCharacters(in: .whitespaces), separator: separator)
        guard isPlainDecimal(text) else { return nil }
        return Decimal(string: text, locale: posix)
    }

    /// Whether `text` is `[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)` with ASCII digits: a sign, then digits with an optional
    /// point and digits, or a point and digits. Checked by hand: a regex literal is parsed again at each use, which
    /// cost a twentieth of a server's answer post.
    static func isPlainDecimal(_ text: String) -> Bool {
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var rest = text.utf8[...]
        if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { rest = rest.dropFirst() }
        let whole = rest.prefix(while: isDigit).count
        rest = rest.dropFirst(whole)
        var fraction = 0
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            fraction = rest.prefix(while: isDigit).count
            rest = rest.dropFirst(fraction)
        }
        return rest.isEmpty && (whole > 0 || fraction > 0)
    }

    static func number(_ text: String, separator: String, whole: Bool) throws(AnswerValidationError) -> Decimal {
        guard let value = decimal(text, separator: separator) else {
            throw AnswerValidationError(whole ? "Enter a whole number." : "Enter a number.")
        }
        return value
    }

    static func usesUSCustomary(_ system: MeasurementSystem, _ locale: Locale) -> Bool {
        switch system {
        case .metric: false
        case .usCustomary: true
        case .local: locale.measurementSystem == .us
        }
    }

    private static let centimetresPerInch = Decimal(string: "2.54", locale: posix) ?? 2.54
    private static let kilogramsPerPound = Decimal(string: "0.45359237", locale: posix) ?? 0.45359237

    /// "172", "172 cm", "1.72 m", `5'8"`, `5 ft 8 in`, `68 in`; the result in cm with at most 2 fraction digits.
    static func height(_ text: String, usCustomary: Bool, separator: String) throws(AnswerValidationError) -> Decimal {
        let typed = plainNumerals(text, separator: separator).lowercased()
            .replacingOccurrences(of: "’", with: "'").replacingOccurrences(of: "′", with: "'")
            .replacingOccurrences(of: "”", with: "\"").replacingOccurrences(of: "″", with: "\"")
            .replacingOccurrences(of: "''", with: "\"")
        func value(_ digits: Substring) -> Decimal { Decimal(string: String(digits), locale: posix) ?? 0 }
        if let match = typed.wholeMatch(of: #/(?<n>[0-9]+(?:\.[0-9]*)?)\s*(?<unit>cm|m)?/#) {
            if match.unit == "m" { return value(match.n) * 100 }
            if match.unit == "cm" || !usCustomary { return value(match.n) }
            throw AnswerValidationError("Enter feet and inches, like 5' 8\", or inches, like 68 in.")
        }
        if let match = typed.wholeMatch(of: #/(?<n>[0-9]+(?:\.[0-9]*)?)\s*(?:"|in|inch|inches)/#) {
            return AnswerRules.rounded(value(match.n) * centimetresPerInch, fractionDigits: 2)
        }
        if let match = typed.wholeMatch(of: #/(?<ft>[0-9]+)\s*(?:'|ft|feet|foot)\s*(?:(?<inch>[0-9]+(?:\.[0-9]*)?)\s*(?:"|in|inch|inches)?)?/#) {
            let inches = match.inch.map(value) ?? 0
            guard inches < 12 else { throw AnswerValidationError("Enter inches from 0 to 11.") }
            return AnswerRules.rounded((value(match.ft) * 12 + inches) * centimetresPerInch, fractionDigits: 2)
        }
        throw AnswerValidationError(usCustomary
            ? "Enter a height in feet and inches, like 5' 8\"."
            : "Enter a height in centimetres, like 172.")
    }

    /// "72.5", "72.5 kg", "150 lb", "150 lb 4 oz"; the result in kg, rounded to the precision's fraction digits.
    static func weight(_ text: String, usCustomary: Bool, fractionDigits: Int, separator: String) throws(AnswerValidationError) -> Decimal {
        let typed = plainNumerals(text, separator: separator).lowercased()
        func value(_ digits: Substring) -> Decimal { Decimal(string: String(digits), locale: posix) ?? 0 }
        if let match = typed.wholeMatch(of: #/(?<n>[0-9]+(?:\.[0-9]*)?)\s*(?<unit>kg|kgs|kilos?|kilograms?)?/#) {
            if match.unit != nil || !usCustomary { return value(match.n) }
            throw AnswerValidationError("Enter pounds, like 150 lb.")
        }
        if let match = typed.wholeMatch(of: #/(?:(?<lb>[0-9]+(?:\.[0-9]*)?)\s*(?:lb|lbs|pounds?))?\s*(?:(?<oz>[0-9]+(?:\.[0-9]*)?)\s*(?:oz|ounces?))?/#),
           match.lb != nil || match.oz != nil {
            let ounces = match.oz.map(value) ?? 0
            guard match.lb == nil || ounces < 16 else { throw AnswerValidationError("Enter ounces from 0 to 15.") }
            let pounds = (match.lb.map(value) ?? 0) + ounces / 16
            return AnswerRules.rounded(pounds * kilogramsPerPound, fractionDigits: fractionDigits)
        }
        throw AnswerValidationError(usCustomary ? "Enter a weight in pounds, like 150 lb." : "Enter a weight in kilograms, like 72.")
    }

    /// `YYYY-MM-DD`: that day at its start in `timeZone`.
    static func day(_ text: String, timeZone: TimeZone, calendar: Calendar.Identifier) throws(AnswerValidationError) -> DateAnswer {
        guard let parts = ISO8601.day(from: text) else { throw AnswerValidationError("Enter a date as YYYY-MM-DD.") }
        let gregorian = AnswerRules.gregorian(in: timeZone)
        let components = DateComponents(year: parts.year, month: parts.month, day: parts.day)
        guard components.isValidDate(in: gregorian), let date = gregorian.date(from: components) else {
            throw AnswerValidationError("There is no such date as \(text).")
        }
        return DateAnswer(date: date, timeZone: timeZone, calendar: calendar, includesTime: false)
    }

    /// `YYYY-MM-DD HH:MM` (or with `T`, or with seconds) in `timeZone`, or ISO 8601 with an offset.
    static func dateTime(_ text: String, timeZone: TimeZone, calendar: Calendar.Identifier) throws(AnswerValidationError) -> DateAnswer {
        if let date = ISO8601.date(from: text) {
            return DateAnswer(date: date, timeZone: timeZone, calendar: calendar, includesTime: true)
        }
        let parts = text.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "T" })
        guard parts.count == 2, let day = ISO8601.day(from: String(parts[0])),
              let time = TimeOfDay(parsing: String(parts[1]).trimmingCharacters(in: .whitespaces)) else {
            throw AnswerValidationError("Enter a date and time as YYYY-MM-DD HH:MM.")
        }
        let gregorian = AnswerRules.gregorian(in: timeZone)
        let components = DateComponents(year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute, second: time.second)
        guard DateComponents(year: day.year, month: day.month, day: day.day).isValidDate(in: gregorian),
              let date = gregorian.date(from: components) else {
            throw AnswerValidationError("There is no such date as \(parts[0]).")
        }
        let back = gregorian.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        guard back.year == day.year, back.month == day.month, back.day == day.day, back.hour == time.hour, back.minute == time.minute else {
            throw AnswerValidationError("\(text) does not exist in the time zone \(timeZone.identifier): the clocks change then.")
        }
        return DateAnswer(date: date, timeZone: timeZone, calendar: calendar, includesTime: true)
    }

    /// `1h 30m`, `90m`, `2 hours`, `5400s`, `1:30` (hours and minutes); the result in seconds.
    static func duration(_ text: String) throws(AnswerValidationError) -> TimeInterval {
        let typed = text.lowercased()
        if let match = typed.wholeMatch(of: #/(?<h>[0-9]{1,6}):(?<m>[0-5][0-9])/#), let hours = Double(match.h), let minutes = Double(match.m) {
            return hours * 3600 + minutes * 60
        }
        let pattern = #/(?:(?<h>[0-9]{1,9})\s*(?:h|hr|hrs|hours?))?\s*(?:(?<m>[0-9]{1,9})\s*(?:m|min|mins|minutes?))?\s*(?:(?<s>[0-9]{1,12})\s*(?:s|sec|secs|seconds?))?/#
        if let match = typed.wholeMatch(of: pattern), match.h != nil || match.m != nil || match.s != nil {
            let hours = match.h.flatMap { Double($0) } ?? 0
            let minutes = match.m.flatMap { Double($0) } ?? 0
            let seconds = match.s.flatMap { Double($0) } ?? 0
            return hours * 3600 + minutes * 60 + seconds
        }
        throw AnswerValidationError("Enter a duration like 1h 30m, 90m or 1:30.")
    }

    /// `address`, `address @ 52.52, 13.40` or `52.52, 13.40`.
    static func location(_ text: String) throws(AnswerValidationError) -> LocationAnswer {
        let coordinates = #/\s*(?<lat>[+-]?[0-9]+(?:\.[0-9]+)?)\s*,\s*(?<lon>[+-]?[0-9]+(?:\.[0-9]+)?)\s*/#
        if let at = text.lastIndex(of: "@") {
            let address = text[..<at].trimmingCharacters(in: .whitespacesAndNewlines)
            guard let match = text[text.index(after: at)...].wholeMatch(of: coordinates),
                  let latitude = Double(match.lat), let longitude = Double(match.lon) else {
                throw AnswerValidationError("Enter the position as latitude, longitude, like 52.52, 13.40.")
            }
            return LocationAnswer(address: address.isEmpty ? nil : address, latitude: latitude, longitude: longitude)
        }
        if let match = text.wholeMatch(of: coordinates), let latitude = Double(match.lat), let longitude = Double(match.lon) {
            return LocationAnswer(latitude: latitude, longitude: longitude)
        }
        return LocationAnswer(address: text)
    }

    /// ", from A to B", ", from A", ", up to B" or nothing.
    static func boundsPhrase(minimum: String?, maximum: String?) -> String {
        switch (minimum, maximum) {
        case let (minimum?, maximum?): ", from \(minimum) to \(maximum)"
        case let (minimum?, nil): ", from \(minimum)"
        case let (nil, maximum?): ", up to \(maximum)"
        case (nil, nil): ""
        }
    }

    /// `2026-03-01 08:30` in `timeZone`.
    static func dateTimeText(_ date: Date, in timeZone: TimeZone) -> String {
        let parts = AnswerRules.gregorian(in: timeZone).dateComponents([.hour, .minute], from: date)
        return ISO8601.dayString(from: date, in: timeZone) + String(format: " %02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}
