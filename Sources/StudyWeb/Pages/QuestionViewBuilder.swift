import Foundation
import Research
import Synchronization

/// Builds the view of one question: the control that fits its format, with its hint, error, values and the
/// attributes that let the browser (and the script) check early what the server checks again.
struct QuestionViewBuilder {
    let fields: QuestionFields
    let strings: WebStrings
    let displayLocale: Locale
    let timeZone: TimeZone
    /// The field values to show (posted, stored or default).
    let values: [String: [String]]
    let error: String?
    let label: String
    let detail: String?
    let placeholder: String?
    let learnMore: LearnMoreView?
    /// Whether Next needs an answer here: the browser may then check it (`required`) before the server does.
    let answerNeeded: Bool
    /// Whether the question shows the Required mark: it cannot be skipped.
    let markedRequired: Bool
    let card: Bool
    /// Turns an image URL from the task into one the browser can load.
    let resolveURL: @Sendable (String) -> String
    /// The file already attached to a file question, shown beside its (empty) file input.
    var storedFile: FileAnswer? = nil

    private var id: String { fields.name }
    private func value(_ name: String) -> String? { values[name]?.first }

    func build() -> QuestionView {
        var choices: ChoiceGroupView?
        var select: SelectView?
        var pickers: [SelectView] = []
        var input: InputView?
        var textarea: TextareaView?
        var parts: [InputView] = []
        var locate = false
        var hint: String?
        // A field with an "I don't know" box beside it cannot be `required`: the box alone is an answer.
        let nativeRequired = answerNeeded && fields.dontKnowName == nil

        switch fields.format {
        case .boolean(let f):
            choices = group(type: "radio", listClass: "opts", options: [
                option(value: "yes", label: f.yesText ?? strings[.yes]), option(value: "no", label: f.noText ?? strings[.no]),
            ])
        case .textChoice(let f):
            choices = group(type: f.style == .multiple ? "checkbox" : "radio", listClass: "opts", options: choiceOptions())
            hint = strings[f.style == .multiple ? .chooseAny : .chooseOne]
        case .imageChoice(let f):
            choices = group(type: f.style == .multiple ? "checkbox" : "radio", listClass: "opts pics", options: choiceOptions())
            hint = strings[f.style == .multiple ? .chooseAny : .chooseOne]
        case .textScale(let f):
            choices = group(type: "radio", listClass: f.vertical ? "opts" : "opts row", options: choiceOptions())
        case .valuePicker:
            select = SelectView(id: id, name: id, label: nil, options: selectOptions(fields.options, chosen: value(id)), required: nativeRequired)
        case .multipleValuePicker(let f):
            pickers = f.pickers.enumerated().map { index, picker in
                let name = fields.part("p\(index + 1)")
                return SelectView(id: name, name: name,
                                  label: strings.format(.pickerList, ["index": index + 1, "count": f.pickers.count]),
                                  options: selectOptions(QuestionFields.plain(picker.choices), chosen: value(name)), required: nativeRequired)
            }
        case .scale(let f):
            var numbers = Array(stride(from: f.minimum, through: f.maximum, by: max(1, f.step)))
            var ends = (f.minimumDescription, f.maximumDescription)
            if f.vertical { numbers.reverse(); ends = (f.maximumDescription, f.minimumDescription) }
            choices = ChoiceGroupView(type: "radio", name: id, listClass: f.vertical ? "opts" : "opts row",
                                      options: numbers.map { option(value: String($0), label: number(Decimal($0))) },
                                      startLabel: ends.0, endLabel: ends.1)
        case .sesLadder(let f):
            let rungs = Array((1...max(1, f.numberOfRungs)).reversed())
            choices = ChoiceGroupView(type: "radio", name: id, listClass: "opts ladder",
                                      options: rungs.map { option(value: String($0), label: String($0)) },
                                      startLabel: f.topRungText ?? strings[.ladderTop], endLabel: f.bottomRungText ?? strings[.ladderBottom])
        case .continuousScale(let f):
            let scale = f.percentStyle ? 100.0 : 1.0
            let digits = f.percentStyle ? max(0, f.maximumFractionDigits) : max(0, f.maximumFractionDigits)
            let step = digits == 0 ? "1" : "0." + String(repeating: "0", count: digits - 1) + "1"
            let low = QuestionFields.text(f.minimum * scale), high = QuestionFields.text(f.maximum * scale)
            input = numberInput(inputmode: "decimal", min: low, max: high, step: step, unit: f.percentStyle ? "%" : nil,
                                required: nativeRequired, range: RangeView(min: low, max: high, step: step))
            hint = rangeHint(QuestionFields.decimal(f.minimum * scale), QuestionFields.decimal(f.maximum * scale), unit: f.percentStyle ? "%" : nil)
            if let low = f.minimumDescription, let high = f.maximumDescription { hint = [hint, "\(low) – \(high)"].compactMap { $0 }.joined(separator: " ") }
        case .numeric(let f):
            let whole = f.style == .integer || f.maximumFractionDigits == 0
            input = numberInput(inputmode: whole ? "numeric" : "decimal", min: f.minimum.map(QuestionFields.text),
                                max: f.maximum.map(QuestionFields.text),
                                step: whole ? aligned("1", minimum: f.minimum) : f.maximumFractionDigits.map { aligned(Self.stepText($0), minimum: f.minimum) } ?? "any",
                                unit: f.unit, placeholder: placeholder ?? f.placeholder, required: nativeRequired)
            hint = rangeHint(f.minimum, f.maximum, unit: f.unit)
        case .age(let f):
            input = numberInput(inputmode: "numeric", min: String(f.minimumAge), max: String(f.maximumAge), step: "1", required: nativeRequired)
            hint = rangeHint(Decimal(f.minimumAge), Decimal(f.maximumAge), unit: nil)
        case .height(let f):
            if fields.usesUSCustomary {
                parts = [
                    part("ft", label: strings[.feet], inputmode: "numeric", min: "0", max: "9", step: "1", required: nativeRequired),
                    part("in", label: strings[.inches], inputmode: "decimal", min: "0", max: "11.9", step: "any"),
                ]
            } else {
                input = numberInput(inputmode: "decimal", min: f.minimum.map(QuestionFields.text), max: f.maximum.map(QuestionFields.text),
                                    step: "any", unit: "cm", required: nativeRequired)
                hint = rangeHint(f.minimum, f.maximum, unit: "cm")
            }
        case .weight(let f):
            if fields.usesUSCustomary {
                parts = [part("lb", label: strings[.pounds], inputmode: "decimal", min: "0", max: nil, step: f.precision == .high ? "1" : "any",
                              required: nativeRequired)]
                if f.precision == .high { parts.append(part("oz", label: strings[.ounces], inputmode: "numeric", min: "0", max: "15", step: "1")) }
            } else {
                let step = f.precision == .default ? "1" : Self.stepText(f.precision.maximumFractionDigits)
                input = numberInput(inputmode: f.precision == .default ? "numeric" : "decimal", min: f.minimum.map(QuestionFields.text),
                                    max: f.maximum.map(QuestionFields.text), step: aligned(step, minimum: f.minimum), unit: "kg",
                                    required: nativeRequired)
                hint = rangeHint(f.minimum, f.maximum, unit: "kg")
            }
        case .date(let f):
            input = plainInput(type: "date", min: f.minimum.map { QuestionFields.dateText($0, in: .gmt, withTime: false) },
                               max: f.maximum.map { QuestionFields.dateText($0, in: .gmt, withTime: false) }, required: nativeRequired)
            hint = dateHint(f.minimum, f.maximum, zone: .gmt, withTime: false)
        case .dateTime(let f):
            input = plainInput(type: "datetime-local", min: f.minimum.map { QuestionFields.dateText($0, in: timeZone, withTime: true) },
                               max: f.maximum.map { QuestionFields.dateText($0, in: timeZone, withTime: true) }, required: nativeRequired)
            hint = dateHint(f.minimum, f.maximum, zone: timeZone, withTime: true)
        case .timeOfDay:
            let shown = value(id)
            input = plainInput(type: "time", step: shown.map { $0.count > 5 } == true ? "1" : nil, required: nativeRequired)
        case .timeInterval(let f):
            let maximumHours = Int(f.maximum / 3600)
            parts = [
                part("h", label: strings[.hours], inputmode: "numeric", min: "0", max: String(maximumHours), step: "1", required: nativeRequired),
                part("m", label: strings[.minutes], inputmode: "numeric", min: "0", max: "59", step: String(max(1, f.stepMinutes))),
            ]
        case .text(let f):
            let maxlength = f.maximumLength.map(String.init)
            if f.multipleLines {
                textarea = TextareaView(id: id, name: id, value: value(id) ?? "", maxlength: maxlength,
                                        placeholder: placeholder ?? f.placeholder, required: nativeRequired)
            } else {
                input = InputView(id: id, name: id, type: "text", label: nil, value: value(id), inputmode: nil, min: nil, max: nil, step: nil,
                                  maxlength: maxlength, placeholder: placeholder ?? f.placeholder, autocomplete: nil, unit: nil,
                                  required: nativeRequired, pattern: f.validationPattern, patternMessage: f.invalidMessage, range: nil)
            }
            hint = f.maximumLength.map { strings.format(.hintMaxLength, ["count": $0]) }
        case .email(let f):
            input = InputView(id: id, name: id, type: "email", label: nil, value: value(id), inputmode: "email", min: nil, max: nil, step: nil,
                              maxlength: nil, placeholder: placeholder ?? f.placeholder, autocomplete: "email", unit: nil,
                              required: nativeRequired, pattern: nil, patternMessage: nil, range: nil)
        case .location(let f):
            parts = [
                part("address", label: strings[.address], type: "text", inputmode: nil, min: nil, max: nil, step: nil, autocomplete: "street-address"),
                part("lat", label: strings[.latitude], inputmode: "decimal", min: "-90", max: "90", step: "any"),
                part("lon", label: strings[.longitude], inputmode: "decimal", min: "-180", max: "180", step: "any"),
            ]
            locate = f.useCurrentLocation
        case .file(let f):
            // The stored answer is shown as text: a file input cannot be pre-filled. Choosing a file replaces it.
            let attached = storedFile
            var file = InputView(id: id, name: id, type: "file", label: nil, value: nil, inputmode: nil, min: nil, max: nil, step: nil,
                                 maxlength: nil, placeholder: nil, autocomplete: nil, unit: nil,
                                 required: nativeRequired && attached == nil, pattern: nil, patternMessage: nil, range: nil)
            file.accept = f.allowedContentTypes.isEmpty ? nil : f.allowedContentTypes.joined(separator: ",")
            input = file
            var lines = [strings.format(.hintFileSize, ["size": f.maximumSizeDescription])]
            if !f.allowedContentTypes.isEmpty { lines.append(strings.format(.hintFileTypes, ["types": f.allowedContentTypes.joined(separator: ", ")])) }
            if let attached {
                lines.append(strings.format(.fileAttached, ["name": attached.title ?? attached.fileName,
                                                            "size": FileFormat.sizeDescription(attached.byteCount)]))
            }
            hint = lines.joined(separator: " ")
        }

        let dontKnow = fields.dontKnowName.map { name in
            DontKnowView(questionId: id, id: name, name: name, label: fields.format.dontKnow?.text ?? strings[.dontKnow], checked: !(values[name]?.first ?? "").isEmpty)
        }
        let grouped = choices != nil || !pickers.isEmpty || !parts.isEmpty
        let describedBy = [detail.map { _ in "\(id)-detail" }, hint.map { _ in "\(id)-hint" }, error.map { _ in "\(id)-err" }]
            .compactMap { $0 }.joined(separator: " ")
        return QuestionView(id: id, label: label, detail: detail, detailId: "\(id)-detail", hint: hint, hintId: "\(id)-hint",
                            error: error, errorId: "\(id)-err", describedBy: describedBy.isEmpty ? nil : describedBy,
                            invalid: error != nil, required: markedRequired, card: card, grouped: grouped, learnMore: learnMore,
                            choices: choices, select: select, pickers: pickers, hasPickers: !pickers.isEmpty, input: input, textarea: textarea,
                            parts: parts, hasParts: !parts.isEmpty,
                            locate: locate, dontKnow: dontKnow)
    }

    // MARK: - Controls

    private func group(type: String, listClass: String, options: [OptionView]) -> ChoiceGroupView {
        ChoiceGroupView(type: type, name: id, listClass: listClass, options: options, startLabel: nil, endLabel: nil)
    }

    private func option(value: String, label: String) -> OptionView {
        OptionView(id: "\(id)-\(value)", value: value, label: label, detail: nil, checked: values[id]?.contains(value) == true,
                   image: nil, exclusive: false, other: nil)
    }

    private func choiceOptions() -> [OptionView] {
        fields.options.map { choice in
            let number = String(choice.number)
            let other = choice.other.map { other in
                OtherFieldView(optionId: "\(id)-\(number)", id: fields.otherName(choice.number), name: fields.otherName(choice.number),
                               value: values[fields.otherName(choice.number)]?.first ?? "", placeholder: other.placeholder, label: choice.text)
            }
            return OptionView(id: "\(id)-\(number)", value: number, label: choice.text, detail: choice.detail,
                              checked: values[id]?.contains(number) == true,
                              image: choice.image.map { ImageView(src: resolveURL($0.url), alt: $0.altText ?? "") },
                              exclusive: choice.exclusive, other: other)
        }
    }

    private func selectOptions(_ options: [ChoiceOptionView], chosen: String?) -> [SelectOptionView] {
        [SelectOptionView(value: "", label: strings[.chooseFromList], selected: chosen == nil || chosen == "")]
            + options.map { SelectOptionView(value: String($0.number), label: $0.text, selected: chosen == String($0.number)) }
    }

    private func numberInput(inputmode: String, min: String?, max: String?, step: String?, unit: String? = nil,
                             placeholder: String? = nil, required: Bool, range: RangeView? = nil) -> InputView {
        InputView(id: id, name: id, type: "number", label: nil, value: value(id), inputmode: inputmode, min: min, max: max, step: step,
                  maxlength: nil, placeholder: placeholder, autocomplete: nil, unit: unit, required: required,
                  pattern: nil, patternMessage: nil, range: range)
    }

    private func plainInput(type: String, min: String? = nil, max: String? = nil, step: String? = nil, required: Bool) -> InputView {
        InputView(id: id, name: id, type: type, label: nil, value: value(id), inputmode: nil, min: min, max: max, step: step,
                  maxlength: nil, placeholder: nil, autocomplete: nil, unit: nil, required: required, pattern: nil, patternMessage: nil, range: nil)
    }

    private func part(_ suffix: String, label: String, type: String = "number", inputmode: String?, min: String?, max: String?,
                      step: String?, autocomplete: String? = nil, required: Bool = false) -> InputView {
        let name = fields.part(suffix)
        return InputView(id: name, name: name, type: type, label: label, value: value(name), inputmode: inputmode, min: min, max: max,
                         step: step, maxlength: nil, placeholder: nil, autocomplete: autocomplete, unit: nil, required: required,
                         pattern: nil, patternMessage: nil, range: nil)
    }

    /// `0.1` for one fraction digit, `0.01` for two; `1` for none.
    static func stepText(_ digits: Int) -> String {
        digits <= 0 ? "1" : "0." + String(repeating: "0", count: digits - 1) + "1"
    }

    /// `step` when the minimum lies on it, else `any`: the browser counts steps from the minimum, and a step that
    /// misses every valid answer would block the form.
    private func aligned(_ step: String, minimum: Decimal?) -> String {
        guard let minimum, let size = Decimal(string: step, locale: Locale(identifier: "en_US_POSIX")), size > 0 else { return step }
        var quotient = minimum / size
        var whole = Decimal()
        NSDecimalRound(&whole, &quotient, 0, .plain)
        return whole == quotient ? step : "any"
    }

    // MARK: - Hints

    /// `value` as the participant's locale writes numbers (grouping, decimal separator, at most six fraction digits).
    private func number(_ value: Decimal) -> String {
        Self.decimalFormatters.withLock { formatters in
            let formatter = formatters[displayLocale.identifier] ?? {
                let made = NumberFormatter()
                made.locale = displayLocale
                made.numberStyle = .decimal
                made.maximumFractionDigits = 6
                formatters[displayLocale.identifier] = made
                return made
            }()
            return formatter.string(from: NSDecimalNumber(decimal: value)) ?? "\(value)"
        }
    }

    /// The number formatters of ``number(_:)`` by locale, made once and used under the lock: making one (an ICU
    /// formatter and its attributes) cost nine times as much as formatting with it, and a 0–10 scale formats eleven
    /// numbers, which made a scale's step page four times as slow to build as a home page.
    private static let decimalFormatters = Mutex<[String: NumberFormatter]>([:])

    private func rangeHint(_ minimum: Decimal?, _ maximum: Decimal?, unit: String?) -> String? {
        func shown(_ value: Decimal) -> String { unit.map { "\(number(value)) \($0)" } ?? number(value) }
        switch (minimum, maximum) {
        case let (low?, high?): return strings.format(.hintRange, ["min": shown(low), "max": shown(high)])
        case let (low?, nil): return strings.format(.hintAtLeast, ["min": shown(low)])
        case let (nil, high?): return strings.format(.hintAtMost, ["max": shown(high)])
        case (nil, nil): return unit.map { strings.format(.hintUnit, ["unit": $0]) }
        }
    }

    private func dateHint(_ minimum: Date?, _ maximum: Date?, zone: TimeZone, withTime: Bool) -> String? {
        let formatter = DateFormatter()
        formatter.locale = displayLocale
        formatter.timeZone = zone
        formatter.dateStyle = .medium
        formatter.timeStyle = withTime ? .short : .none
        switch (minimum, maximum) {
        case let (low?, high?): return strings.format(.hintRange, ["min": formatter.string(from: low), "max": formatter.string(from: high)])
        case let (low?, nil): return strings.format(.hintAtLeast, ["min": formatter.string(from: low)])
        case let (nil, high?): return strings.format(.hintAtMost, ["max": formatter.string(from: high)])
        case (nil, nil): return nil
        }
    }
}
