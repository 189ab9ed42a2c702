import Foundation
import Research

/// One task's columns in the `csv-wide` export and their rows of the data dictionary: one column per question (a
/// checkbox column per option of a multiple choice, one per picker of a multiple-value picker, the typed text of an
/// "other" option and a place's coordinates beside their answer), named as REDCap names variables.
struct CSVWideForm {
    /// What a column holds of its question's answer.
    enum Cell: Equatable {
        /// The answer itself (a single choice's value, yes as 1).
        case answer
        /// 1 when this option is among the chosen, 0 when it is not (empty when the question was not answered).
        case option(ChoiceValue)
        /// The value of one picker of a multiple-value picker (0-based).
        case component(Int)
        /// The text typed with an "other" option.
        case otherText
        /// A place's `latitude,longitude`.
        case coordinates
    }

    /// One column: its variable name, the step and question it comes from, and what it holds.
    struct Column {
        var variable: String
        var step: String
        var item: String
        var cell: Cell
    }

    /// The study task id (`onboarding`, or a task of the study).
    var taskID: String
    /// The REDCap form (instrument) name.
    var formName: String
    var columns: [Column] = []
    /// The data dictionary's rows, in REDCap's column layout (``CSVWideExporter/dictionaryColumns``).
    var dictionaryRows: [[String]] = []
    /// The columns of each (step, item), by index.
    private(set) var columnsByQuestion: [String: [Int]] = [:]

    static func key(step: String, item: String) -> String { step + "\u{0}" + item }

    /// The form of `task`, its variable names made unique against `names` and its form name against `formNames`
    /// (which gain them).
    init(taskID: String, task: ResearchTask, names: inout Set<String>, formNames: inout Set<String>) {
        self.taskID = taskID
        formName = Self.variableName(taskID, unique: &formNames)
        for step in task.steps {
            var section = ""
            switch step.kind {
            case .question(let format):
                add(step: step.identifier, item: step.identifier, label: step.title ?? step.text ?? step.identifier, format: format,
                    required: !step.isOptional, calculation: nil, section: "", names: &names)
            case .form(let content):
                for item in content.items {
                    guard let identifier = item.identifier, let format = item.answerFormat else {
                        section = item.text ?? section
                        continue
                    }
                    add(step: step.identifier, item: identifier, label: item.text ?? identifier, format: format,
                        required: !item.isOptional && item.calculation == nil, calculation: item.calculation, section: section, names: &names)
                    section = ""
                }
            default:
                continue
            }
        }
    }

    private mutating func add(step: String, item: String, label: String, format: AnswerFormat, required: Bool, calculation: ItemCalculation?,
                              section: String, names: inout Set<String>) {
        let variable = Self.variableName(item, prefix: formName, unique: &names)
        var annotation = "StudyKit step '\(step)' item '\(item)'"
        // A calculated item's value comes from StudyKit's expression, which REDCap's calc fields cannot read: a read-only text field.
        if let calculation { annotation = "@READONLY " + annotation + "; calculated (\(calculation.language)): \(calculation.expression)" }
        func column(_ name: String, _ cell: Cell, type: String, label: String, choices: String = "", note: String = "",
                    validation: String = "", minimum: String = "", maximum: String = "", required: Bool = false) {
            columnsByQuestion[Self.key(step: step, item: item), default: []].append(columns.count)
            columns.append(Column(variable: name, step: step, item: item, cell: cell))
            // REDCap's eighteen columns; a checkbox's options share one dictionary row.
            dictionaryRows.append([name, formName, name == variable ? section : "", type, label, choices, note, validation,
                                   minimum, maximum, "", "", required ? "y" : "", "", "", "", "", annotation])
        }
        func choiceList<Option: ChoiceOption>(_ options: [Option]) -> String {
            options.map { "\($0.value.description), \($0.text)" }.joined(separator: " | ")
        }
        func choices<Option: ChoiceOption>(_ format: ChoiceFormat<Option>) {
            switch format.style {
            case .single:
                column(variable, .answer, type: "radio", label: label, choices: choiceList(format.choices), required: required)
            case .multiple:
                // REDCap's checkbox: one dictionary row, one column per option named VARIABLE___CODE.
                var codes = Set<String>()
                for option in format.choices {
                    let code = Self.variableName(option.value.description, unique: &codes, allowLeadingDigit: true)
                    columnsByQuestion[Self.key(step: step, item: item), default: []].append(columns.count)
                    columns.append(Column(variable: "\(variable)___\(code)", step: step, item: item, cell: .option(option.value)))
                }
                dictionaryRows.append([variable, formName, section, "checkbox", label, choiceList(format.choices), "", "", "", "", "", "",
                                       required ? "y" : "", "", "", "", "", annotation])
            }
            if format.choices.contains(where: { $0.other != nil }) {
                column(Self.variableName(item + "_other", prefix: formName, unique: &names), .otherText, type: "text",
                       label: "\(label): other (typed)")
            }
        }
        switch format {
        case .boolean:
            column(variable, .answer, type: "yesno", label: label, required: required)
        case .textChoice(let format): choices(format)
        case .imageChoice(let format): choices(format)
        case .valuePicker(let format):
            column(variable, .answer, type: "dropdown", label: label, choices: choiceList(format.choices), required: required)
        case .textScale(let format):
            column(variable, .answer, type: "radio", label: label, choices: choiceList(format.choices), required: required)
        case .multipleValuePicker(let format):
            for (index, picker) in format.pickers.enumerated() {
                column(Self.variableName("\(item)_\(index + 1)", prefix: formName, unique: &names), .component(index), type: "dropdown",
                       label: "\(label) (\(index + 1))", choices: choiceList(picker.choices), required: required)
            }
        case .scale(let format):
            column(variable, .answer, type: "text", label: label, validation: "integer", minimum: String(format.minimum),
                   maximum: String(format.maximum), required: required)
        case .continuousScale(let format):
            column(variable, .answer, type: "text", label: label, validation: "number", minimum: CSVAnswerCells.text(of: format.minimum),
                   maximum: CSVAnswerCells.text(of: format.maximum), required: required)
        case .numeric(let format):
            column(variable, .answer, type: "text", label: label, note: format.unit ?? "",
                   validation: format.style == .integer ? "integer" : "number", minimum: format.minimum.map { "\($0)" } ?? "",
                   maximum: format.maximum.map { "\($0)" } ?? "", required: required)
        case .height(let format):
            column(variable, .answer, type: "text", label: label, note: "cm", validation: "number",
                   minimum: format.minimum.map { "\($0)" } ?? "", maximum: format.maximum.map { "\($0)" } ?? "", required: required)
        case .weight(let format):
            column(variable, .answer, type: "text", label: label, note: "kg", validation: "number",
                   minimum: format.minimum.map { "\($0)" } ?? "", maximum: format.maximum.map { "\($0)" } ?? "", required: required)
        case .age(let format):
            column(variable, .answer, type: "text", label: label, note: "years", validation: "integer", minimum: String(format.minimumAge),
                   maximum: String(format.maximumAge), required: required)
        case .sesLadder:
            column(variable, .answer, type: "text", label: label, validation: "integer", required: required)
        case .date:
            column(variable, .answer, type: "text", label: label, validation: "date_ymd", required: required)
        case .dateTime:
            column(variable, .answer, type: "text", label: label, note: "ISO 8601 with the offset it was given in", required: required)
        case .timeOfDay:
            column(variable, .answer, type: "text", label: label, validation: "time_hh_mm_ss", required: required)
        case .timeInterval:
            column(variable, .answer, type: "text", label: label, note: "seconds", validation: "number", required: required)
        case .text(let format):
            column(variable, .answer, type: format.multipleLines ? "notes" : "text", label: label, required: required)
        case .email:
            column(variable, .answer, type: "text", label: label, validation: "email", required: required)
        case .location:
            column(variable, .answer, type: "text", label: label, note: "address", required: required)
            column(Self.variableName(item + "_coordinates", prefix: formName, unique: &names), .coordinates, type: "text",
                   label: "\(label): latitude,longitude")
        case .file:
            column(variable, .answer, type: "file", label: label, required: required)
        }
    }

    /// `raw` as a REDCap variable name: lowercase letters, digits and single underscores, starting with a letter, at
    /// most 100 characters; made unique in `names` (with the form's name in front, then a number) and added to it.
    static func variableName(_ raw: String, prefix: String? = nil, unique names: inout Set<String>, allowLeadingDigit: Bool = false) -> String {
        var name = ""
        for scalar in raw.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                name.unicodeScalars.append(scalar)
            } else if !name.hasSuffix("_") && !name.isEmpty {
                name += "_"
            }
        }
        while name.hasSuffix("_") { name.removeLast() }
        if name.isEmpty { name = "v" }
        if !allowLeadingDigit, let first = name.unicodeScalars.first, !("a"..."z").contains(first) { name = "v_" + name }
        name = String(name.prefix(90))
        var candidate = name
        if names.contains(candidate), let prefix { candidate = String((prefix + "_" + name).prefix(90)) }
        var number = 2
        while names.contains(candidate) {
            candidate = "\(name)_\(number)"
            number += 1
        }
        names.insert(candidate)
        return candidate
    }
}
