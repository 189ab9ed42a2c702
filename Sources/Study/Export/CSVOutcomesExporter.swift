import CareStore
import Foundation
import Research

/// `outcomes`: every value of every live outcome (what the daily page's cards recorded, and what surveys mapped to
/// outcomes) as one row of `outcomes.csv`; adherence and the charts are computed from these.
///
/// | Column | What it holds |
/// |---|---|
/// | `participant`, `task`, `occurrence`, `event_start` | whose outcome, of which study task and event, and when the event starts |
/// | `outcome` | the outcome's UUID (its values share it) |
/// | `kind`, `value_type` | the value's kind (`pain`, `completed`…) and `integer`, `double`, `boolean`, `text`, `date` or `binary` |
/// | `value`, `number`, `units` | the value as text (a date in ISO 8601, binary data in base64), as a number where it is one (true is 1), and its units |
/// | `recorded_at` | when the value (or else the outcome) was recorded |
///
/// Times are ISO 8601 with the offset of the zone the outcome was recorded in. An outcome without values is one row
/// with the value columns empty. Participants come in enrolment order, each one's outcomes by event start.
public struct CSVOutcomesExporter: StudyExporter {
    /// The file written.
    public static let fileName = "outcomes.csv"
    /// The columns, in order.
    public static let columns = ["participant", "task", "occurrence", "event_start", "outcome", "kind", "value_type", "value",
                                 "number", "units", "recorded_at"]

    /// How the CSV cells are written: exactly (the default), or ``CSVCellStyle/forSpreadsheets``.
    public var cells: CSVCellStyle

    /// Creates the exporter; `cells` says how its CSV cells are written.
    public init(cells: CSVCellStyle = .exact) {
        self.cells = cells
    }

    /// ``StudyExportFormat/outcomes``.
    public var format: StudyExportFormat { .outcomes }

    public func start(study: StudyDefinition, takenAt: Date, into folder: URL) throws -> any StudyExportStream {
        CSVExportStream(file: try CSVFileWriter(creating: folder.appendingPathComponent(Self.fileName), header: Self.columns, cells: cells),
                        format: format, rows: Self.rows(of:))
    }

    /// The rows of one participant's outcomes, as written.
    public static func rows(of data: ParticipantExportData) -> [[String]] {
        var rows: [[String]] = []
        for outcome in data.outcomes {
            let version = data.taskVersion(of: outcome)
            let zone = outcome.timeZone
            let start = version?.schedule.event(occurrence: outcome.occurrenceIndex)?.start
            let event = [data.participant.id, version.flatMap(data.studyTaskID(of:)) ?? version?.id ?? "", String(outcome.occurrenceIndex),
                         start.map { ISO8601.string(from: $0, in: zone) } ?? "", outcome.uuid.uuidString.lowercased()]
            guard !outcome.values.isEmpty else {
                rows.append(event + ["", "", "", "", "", outcome.createdDate.map { ISO8601.string(from: $0, in: zone) } ?? ""])
                continue
            }
            for value in outcome.values {
                let (type, text): (String, String) = switch value.value {
                case .integer(let integer): ("integer", String(integer))
                case .double(let double): ("double", CSVAnswerCells.text(of: double))
                case .boolean(let yes): ("boolean", yes ? "true" : "false")
                case .text(let text): ("text", text)
                case .date(let date): ("date", ISO8601.string(from: date, in: zone))
                case .binary(let data): ("binary", data.base64EncodedString())
                }
                let recorded = value.createdDate ?? outcome.createdDate
                rows.append(event + [value.kind ?? "", type, text, value.value.numericValue.map(CSVAnswerCells.text(of:)) ?? "", value.units ?? "",
                                     recorded.map { ISO8601.string(from: $0, in: zone) } ?? ""])
            }
        }
        return rows
    }
}
