import Foundation
import Research

/// The HTML form fields of one question: their names, the values that show a stored answer, and the reading
/// of posted values back into what ``TaskSession`` takes.
///
/// Fields are named after the question's position in its step, `q0`, `q1`…, so that no item identifier can
/// collide with another field; the parts of a composite answer add a suffix: `q0-ft`, `q0-in`, `q0-dk`.
/// Choices post their 1-based number in the list, never their value, so values never reach the page.
struct QuestionFields {
    /// The question's identifier: the step's for a question step, the item's for a form item.
    let identifier: String
    /// The question's answer format.
    let format: AnswerFormat
    /// The base field name and element id, `q0`.
    let name: String
    /// The participant's locale (metric or US units for `local` formats).
    let locale: Locale
    /// The participant's time zone, in which date-times are shown and read.
    let timeZone: TimeZone

    /// The name of a part of the answer: `q0-dk`, `q0-ft`, `q0-p1`.
    func part(_ suffix: String) -> String { "\(name)-\(suffix)" }

    /// The "I don't know" checkbox, when the format offers one.
    var dontKnowName: String? { format.dontKnow == nil ? nil : part("dk") }

    /// Whether heights and weights are entered in US customary units.
    var usesUSCustomary: Bool {
        switch format {
        case .height(let f): f.measurementSystem.usesUSCustomary(in: locale)
        case .weight(let f): f.measurementSystem.usesUSCustomary(in: locale)
        default: false
        }
    }

    /// The choices of a choice-like format: text, detail, image, exclusivity and "other" field, in order.
    var options: [ChoiceOptionView] {
        switch format {
        case .textChoice(let f):
            return f.choices.enumerated().map { index, choice in
                ChoiceOptionView(number: index + 1, text: choice.text, detail: choice.detailText, image: nil,
                                 exclusive: choice.exclusive, other: choice.other, value: choice.value)
            }
        case .imageChoice(let f):
            return f.choices.enumerated().map { index, choice in
                ChoiceOptionView(number: index + 1, text: choice.text, detail: nil, image: choice.image, exclusive: false,
                                 other: nil, value: choice.value)
            }
        case .valuePicker(let f): return Self.plain(f.choices)
        case .textScale(let f): return Self.plain(f.choices)
        default: return []
        }
    }

    static func plain(_ choices: [TextChoice]) -> [ChoiceOptionView] {
        choices.enumerated().map { index, choice in
            ChoiceOptionView(number: index + 1, text: choice.text, detail: choice.detailText, image: nil, exclusive: false,
                             other: nil, value: choice.value)
        }
    }

    /// Every field name this question may post; anything else in a post is refused.
    var fieldNames: Set<String> {
        var names: Set<String> = []
        switch format {
        case .multipleValuePicker(let f):
            for index in f.pickers.indices { names.insert(part("p\(index + 1)")) }
        case .height where usesUSCustomary:
            names = [part("ft"), part("in")]
        case .weight(let f) where usesUSCustomary:
            names = f.precision == .high ? [part("lb"), part("oz")] : [part("lb")]
        case .timeInterval:
            names = [part("h"), part("m")]
        case .location:
            names = [part("address"), part("lat"), part("lon")]
        default:
            names = [name]
        }
        for option in options where option.other != nil { names.insert(otherName(option.number)) }
        if let dontKnowName { names.insert(dontKnowName) }
        return names
    }

    /// The text field of the "other" choice numbered `number`.
    func otherName(_ number: Int) -> String { part("other\(number)") }

    /// Whether the field may carry several values (checkboxes).
    func allowsSeveralValues(_ field: String) -> Bool {
        guard field == name else { return false }
        switch format {
        case .textChoice(let f): return f.style == .multiple
        case .imageChoice(let f): return f.style == .multiple
        default: return false
        }
    }

    // MARK: - Showing an answer

    /// The answer the fields start with when nothing is stored: the format's default, if it has one.
    var defaultAnswer: Answer? {
        switch format {
        case .textScale(let f):
            guard let index = f.defaultIndex, f.choices.indices.contains(index) else { return nil }
            return .choices([ChoiceSelection(f.choices[index].value)])
        case .scale(let f): return f.defaultValue.map { .number(Decimal($0)) }
        case .continuousScale(let f): return f.defaultValue.flatMap(Self.decimal).map { .number($0) }
        case .numeric(let f): return f.defaultValue.map { .number($0) }
        case .weight(let f): return f.defaultValue.map { .number($0) }
        case .age(let f): return f.defaultValue.map { .number(Decimal($0)) }
        case .date(let f): return f.defaultValue.map { .date(DateAnswer(date: $0, timeZone: .gmt, includesTime: false)) }
        case .dateTime(let f): return f.defaultValue.map { .date(DateAnswer(date: $0, timeZone: timeZone, includesTime: true)) }
        case .timeOfDay(let f): return f.defaultValue.map { .timeOfDay($0) }
        case .timeInterval(let f): return f.defaultValue.map { .timeInterval($0) }
        case .text(let f): return f.defaultValue.map { .text($0) }
        default: return nil
        }
    }

    /// The posted form values that show `answer` (the inverse of ``reading(from:)``).
    func values(for answer: Answer?) -> [String: [String]] {
        guard let answer else { return [:] }
        if answer == .dontKnow { return dontKnowName.map { [$0: ["1"]] } ?? [:] }
        switch (format, answer) {
        case (.boolean, .boolean(let value)):
            return [name: [value ? "yes" : "no"]]
        case (_, .choices(let selections)):
            var values: [String: [String]] = [:]
            for selection in selections {
                guard let option = options.first(where: { $0.value == selection.value }) else { continue }
                values[name, default: []].append(String(option.number))
                if option.other != nil, let text = selection.text { values[otherName(option.number)] = [text] }
            }
            return values
        case (.multipleValuePicker(let f), .components(let chosen)):
            var values: [String: [String]] = [:]
            for (index, (picker, value)) in zip(f.pickers, chosen).enumerated() {
                if let number = picker.choices.firstIndex(where: { $0.value == value }) {
                    values[part("p\(index + 1)")] = [String(number + 1)]
                }
            }
            return values
        case (.continuousScale(let f), .number(let value)) where f.percentStyle:
            return [name: [Self.text(value * 100)]]
        case (.height, .number(let centimetres)) where usesUSCustomary:
            let inches = Self.double(centimetres) / 2.54
            var feet = (inches / 12).rounded(.down)
            var rest = ((inches - feet * 12) * 10).rounded() / 10
            if rest >= 12 { feet += 1; rest -= 12 }
            return [part("ft"): [Self.text(feet)], part("in"): [Self.text(rest)]]
        case (.weight(let f), .number(let kilograms)) where usesUSCustomary:
            let pounds = Self.double(kilograms) / 0.45359237
            if f.precision == .high {
                let ounces = (pounds * 16).rounded()
                return [part("lb"): [Self.text((ounces / 16).rounded(.down))],
                        part("oz"): [Self.text(ounces.truncatingRemainder(dividingBy: 16))]]
            }
            return [part("lb"): [Self.text((pounds * 10).rounded() / 10)]]
        case (_, .number(let value)):
            return [name: [Self.text(value)]]
        case (.dateTime, .date(let value)):
            return [name: [Self.dateText(value.date, in: timeZone, withTime: true)]]
        case (_, .date(let value)):
            return [name: [Self.dateText(value.date, in: value.timeZone, withTime: false)]]
        case (_, .timeOfDay(let value)):
            return [name: [value.description]]
        case (_, .timeInterval(let seconds)):
            let minutes = Int((seconds / 60).rounded(.down))
            return [part("h"): [String(minutes / 60)], part("m"): [String(minutes % 60)]]
        case (_, .text(let text)):
            return [name: [text]]
        case (_, .location(let location)):
            var values: [String: [String]] = [:]
            if let address = location.address { values[part("address")] = [address] }
            if let latitude = location.latitude { values[part("lat")] = [Self.text(latitude)] }
            if let longitude = location.longitude { values[part("lon")] = [Self.text(longitude)] }
            return values
        default:
            return [:]
        }
    }

    // MARK: - Reading a post

    /// What the posted fields of this question say: no answer, text for Research's text parser, an answer built
    /// from choice numbers, or a problem to show beside the question.
    enum Reading: Equatable {
        /// Every field is empty: the question is left unanswered (a stored answer is cleared).
        case empty
        /// Text for ``AnswerFormat/answer(fromText:locale:timeZone:calendar:)``, through ``TaskSession/setAnswer(text:for:)``.
        case text(String)
        /// An answer built from the fields (choices by number, "I don't know"), validated by ``TaskSession/setAnswer(_:for:)``.
        case answer(Answer)
        /// The fields cannot make an answer, for the reason given (a built-in string key).
        case problem(WebStringKey)
    }

    /// Reads this question's fields from a post; `posted` holds only fields of this page.
    func reading(from posted: [String: [String]]) -> Reading {
        func value(_ field: String) -> String {
            (posted[field]?.first ?? "").replacingOccurrences(of: "\r\n", with: "\n")
        }
        func trimmed(_ field: String) -> String { value(field).trimmingCharacters(in: .whitespacesAndNewlines) }
        if let dontKnowName, !trimmed(dontKnowName).isEmpty { return .answer(.dontKnow) }
        switch format {
        case .boolean:
            switch trimmed(name) {
            case "": return .empty
            case "yes": return .answer(.boolean(true))
            case "no": return .answer(.boolean(false))
            default: return .problem(.notAChoice)
            }
        case .textChoice, .imageChoice, .valuePicker, .textScale:
            let numbers = (posted[name] ?? []).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if numbers.isEmpty { return .empty }
            var selections: [ChoiceSelection] = []
            for number in numbers {
                guard let index = Int(number), let option = options.first(where: { $0.number == index }) else {
                    return .problem(.notAChoice)
                }
                let text = option.other == nil ? nil : value(otherName(option.number))
                selections.append(ChoiceSelection(option.value, text: text?.isEmpty == false ? text : nil))
            }
            return .answer(.choices(selections))
        case .multipleValuePicker(let f):
            let numbers = f.pickers.indices.map { trimmed(part("p\($0 + 1)")) }
            if numbers.allSatisfy(\.isEmpty) { return .empty }
            var values: [ChoiceValue] = []
            for (picker, number) in zip(f.pickers, numbers) {
                guard !number.isEmpty else { return .problem(.chooseEveryList) }
                guard let index = Int(number), picker.choices.indices.contains(index - 1) else { return .problem(.notAChoice) }
                values.append(picker.choices[index - 1].value)
            }
            return .answer(.components(values))
        case .continuousScale(let f):
            let number = trimmed(name)
            if number.isEmpty { return .empty }
            return .text(f.percentStyle ? number + "%" : number)
        case .height:
            if usesUSCustomary {
                let feet = trimmed(part("ft")), inches = trimmed(part("in"))
                if feet.isEmpty && inches.isEmpty { return .empty }
                return .text([feet.isEmpty ? "" : "\(feet) ft", inches.isEmpty ? "" : "\(inches) in"].filter { !$0.isEmpty }.joined(separator: " "))
            }
            let centimetres = trimmed(name)
            return centimetres.isEmpty ? .empty : .text(centimetres + " cm")
        case .weight:
            if usesUSCustomary {
                let pounds = trimmed(part("lb")), ounces = trimmed(part("oz"))
                if pounds.isEmpty && ounces.isEmpty { return .empty }
                return .text([pounds.isEmpty ? "" : "\(pounds) lb", ounces.isEmpty ? "" : "\(ounces) oz"].filter { !$0.isEmpty }.joined(separator: " "))
            }
            let kilograms = trimmed(name)
            return kilograms.isEmpty ? .empty : .text(kilograms + " kg")
        case .timeInterval:
            let hours = trimmed(part("h")), minutes = trimmed(part("m"))
            if hours.isEmpty && minutes.isEmpty { return .empty }
            return .text([hours.isEmpty ? "" : "\(hours)h", minutes.isEmpty ? "" : "\(minutes)m"].filter { !$0.isEmpty }.joined(separator: " "))
        case .location:
            let address = trimmed(part("address")), latitude = trimmed(part("lat")), longitude = trimmed(part("lon"))
            if address.isEmpty && latitude.isEmpty && longitude.isEmpty { return .empty }
            if latitude.isEmpty && longitude.isEmpty { return .answer(.location(LocationAnswer(address: address))) }
            return .text("\(address) @ \(latitude), \(longitude)")
        case .text:
            let text = value(name)
            return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? .empty : .text(text)
        case .scale, .numeric, .age, .sesLadder, .date, .dateTime, .timeOfDay, .email:
            let text = trimmed(name)
            return text.isEmpty ? .empty : .text(text)
        case .file:
            // Files come as uploads, not fields; StepSubmission attaches them.
            return .empty
        }
    }

    // MARK: - Number and date text

    /// A decimal as form text: plain digits and `.`, as number inputs post them.
    static func text(_ value: Decimal) -> String { "\(value)" }

    /// A double as form text, without a useless `.0`.
    static func text(_ value: Double) -> String { NumberText.plain(value) }

    static func double(_ value: Decimal) -> Double { NSDecimalNumber(decimal: value).doubleValue }

    /// A double as a decimal through its shortest spelling (0.1 stays 0.1).
    static func decimal(_ value: Double) -> Decimal? {
        value.isFinite ? Decimal(string: String(value), locale: Locale(identifier: "en_US_POSIX")) : nil
    }

    /// `2026-03-01`, or `2026-03-01T08:30` with the time, as date and datetime-local inputs want it.
    static func dateText(_ date: Date, in timeZone: TimeZone, withTime: Bool) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let day = String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 1, c.day ?? 1)
        return withTime ? day + String(format: "T%02d:%02d", c.hour ?? 0, c.minute ?? 0) : day
    }
}

/// One choice of a choice-like question as the page shows it.
struct ChoiceOptionView {
    /// Its 1-based number in the list: the value the page posts.
    let number: Int
    let text: String
    let detail: String?
    let image: ImageReference?
    let exclusive: Bool
    let other: OtherChoice?
    let value: ChoiceValue
}
