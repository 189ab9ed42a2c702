import Foundation
import Research

/// `csv-long`: every answer of every participant's task runs as one row of `answers.csv`, the shape statisticians
/// reshape from (pandas `pivot`, R `pivot_wider`).
///
/// | Column | What it holds |
/// |---|---|
/// | `participant`, `task`, `occurrence`, `run`, `run_state` | whose run, of which study task and event (empty for a run of no event), its UUID, and whether it is `completed`, `withdrawn`, `discarded` or `inProgress` |
/// | `step`, `item` | the step, and the question (the step's own id for a question step) or active-task measure |
/// | `type` | the question's answer format (`scale`, `textChoice`, `date`…), or `measure` |
/// | `selection` | 1, 2, … for each chosen option of a choice answer and each value of a multiple-value picker; empty otherwise |
/// | `value` | the answer as text: numbers as written (`2.5`), `true`/`false`, a day `2026-11-24`, a date and time in ISO 8601 with the answer's offset, a time `21:30:00`, seconds for a duration, a file's name |
/// | `number` | the answer as a number where it is one (yes is 1), else empty |
/// | `unit` | the unit of a numeric answer or measure (`s` for a duration) |
/// | `detail` | what else the answer carries: an "other" choice's text, a place's `latitude,longitude`, a file's type, size and SHA-256, `dontKnow`, a measure's module |
/// | `answered_at` | when the participant left the step, in ISO 8601 with their offset |
///
/// Only a run's current answers are written (an answer a later pass through its step replaced is not); a run with no
/// result yet is left out, and so are signatures (in the consent records) and permission requests. Participants come
/// in enrolment order, each one's runs oldest first.
public struct CSVLongExporter: StudyExporter {
    /// The file written.
    public static let fileName = "answers.csv"
    /// The columns, in order.
    public static let columns = ["participant", "task", "occurrence", "run", "run_state", "step", "item", "type", "selection",
                                 "value", "number", "unit", "detail", "answered_at"]

    /// How the CSV cells are written: exactly (the default), or ``CSVCellStyle/forSpreadsheets``.
    public var cells: CSVCellStyle

    /// Creates the exporter; `cells` says how its CSV cells are written.
    public init(cells: CSVCellStyle = .exact) {
        self.cells = cells
    }

    /// ``StudyExportFormat/csvLong``.
    public var format: StudyExportFormat { .csvLong }

    public func start(study: StudyDefinition, takenAt: Date, into folder: URL) throws -> any StudyExportStream {
        CSVExportStream(file: try CSVFileWriter(creating: folder.appendingPathComponent(Self.fileName), header: Self.columns, cells: cells),
                        format: format, rows: Self.rows(of:))
    }

    /// The rows of one participant's runs, as written.
    public static func rows(of data: ParticipantExportData) -> [[String]] {
        let zone = data.participant.timeZone
        var rows: [[String]] = []
        for run in data.runsOldestFirst {
            guard let result = run.result else { continue }
            let runCells = [data.participant.id, run.taskID, run.occurrence.map(String.init) ?? "", run.id.uuidString.lowercased(),
                            run.state.rawValue]
            for step in result.stepResults where !step.isPrevious && !step.skipped {
                let answeredAt = ISO8601.string(from: step.endDate, in: zone)
                for item in step.results {
                    switch item {
                    case .question(let question):
                        guard let answer = question.answer else { continue }
                        for cells in CSVAnswerCells.cells(of: answer, unit: question.unit) {
                            rows.append(runCells + [step.identifier, question.identifier, question.type.rawValue] + cells.fields + [answeredAt])
                        }
                    case .active(let active):
                        for measure in active.measures {
                            let number = measure.value.map(CSVAnswerCells.text(of:)) ?? ""
                            rows.append(runCells + [step.identifier, measure.identifier, "measure", "", number, number, measure.units ?? "",
                                                    active.module, answeredAt])
                        }
                    case .signature, .permission, .file:
                        continue
                    }
                }
            }
        }
        return rows
    }
}

/// One answer's `selection`, `value`, `number`, `unit` and `detail` cells in a CSV export: one set for most answers,
/// one per chosen option or picker value.
struct CSVAnswerCells: Equatable {
    var selection = ""
    var value = ""
    var number = ""
    var unit = ""
    var detail = ""

    var fields: [String] { [selection, value, number, unit, detail] }

    /// The cells of `answer`, whose question gave `unit`.
    static func cells(of answer: Answer, unit: String?) -> [CSVAnswerCells] {
        let unit = unit ?? ""
        switch answer {
        case .boolean(let yes):
            return [CSVAnswerCells(value: yes ? "true" : "false", number: yes ? "1" : "0")]
        case .choices(let selections):
            return selections.enumerated().map { index, selection in
                CSVAnswerCells(selection: String(index + 1), value: selection.value.description, number: number(of: selection.value),
                               detail: selection.text ?? "")
            }
        case .components(let values):
            return values.enumerated().map { index, value in
                CSVAnswerCells(selection: String(index + 1), value: value.description, number: number(of: value))
            }
        case .number(let decimal):
            return [CSVAnswerCells(value: decimal.description, number: decimal.description, unit: unit)]
        case .date(let date):
            return [CSVAnswerCells(value: date.includesTime ? ISO8601.string(from: date.date, in: date.timeZone) : day(of: date))]
        case .timeOfDay(let time):
            return [CSVAnswerCells(value: String(format: "%02d:%02d:%02d", time.hour, time.minute, time.second))]
        case .timeInterval(let seconds):
            return [CSVAnswerCells(value: text(of: seconds), number: text(of: seconds), unit: unit.isEmpty ? "s" : unit)]
        case .text(let text):
            return [CSVAnswerCells(value: text)]
        case .location(let place):
            let coordinates = place.latitude.flatMap { latitude in place.longitude.map { "\(text(of: latitude)),\(text(of: $0))" } }
            return [CSVAnswerCells(value: place.address ?? "", detail: coordinates ?? "")]
        case .file(let file):
            return [CSVAnswerCells(value: file.fileName, detail: "\(file.contentType); \(file.byteCount) bytes; sha256 \(file.sha256)")]
        case .dontKnow:
            return [CSVAnswerCells(detail: "dontKnow")]
        }
    }

    /// A number as Swift writes it shortest (`2.5`, `7`, `1e-05`), which pandas and R read back exactly.
    static func text(of number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    private static func number(of value: ChoiceValue) -> String {
        switch value {
        case .integer(let integer): String(integer)
        case .decimal(let decimal): text(of: decimal)
        case .string: ""
        }
    }

    /// The day of a date answer, in the zone and calendar it was given in, written in the Gregorian calendar.
    private static func day(of answer: DateAnswer) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = answer.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: answer.date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
