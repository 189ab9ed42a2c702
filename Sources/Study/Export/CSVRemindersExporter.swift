import Foundation
import Research

/// `reminders`: every reminder the study sent a participant, or tried to, as one row of `reminders.csv`: the outbox's
/// deliveries (``ReminderDelivery``), one per reminder, event and channel.
///
/// | Column | What it holds |
/// |---|---|
/// | `participant`, `reminder`, `task`, `occurrence` | whose reminder, which of the study's reminders, and of which task's event (both empty for a reminder of the daily page) |
/// | `channel` | `email` or `push` (never the address: exports carry no contact details) |
/// | `due_at` | when it fell due, in the participant's zone |
/// | `state` | `sent`, `retrying`, `failed`, `skipped`, or `sending` (claimed by a process, not yet settled) |
/// | `attempts` | how many times it was claimed for sending |
/// | `detail` | the mail server's or push service's answer, or why it failed or was skipped |
/// | `updated_at` | when it last changed |
///
/// Participants come in enrolment order, each one's reminders by the time they fell due.
public struct CSVRemindersExporter: StudyExporter {
    /// The file written.
    public static let fileName = "reminders.csv"
    /// The columns, in order.
    public static let columns = ["participant", "reminder", "task", "occurrence", "channel", "due_at", "state", "attempts", "detail", "updated_at"]

    /// How the CSV cells are written: exactly (the default), or ``CSVCellStyle/forSpreadsheets``.
    public var cells: CSVCellStyle

    /// Creates the exporter; `cells` says how its CSV cells are written.
    public init(cells: CSVCellStyle = .exact) {
        self.cells = cells
    }

    /// ``StudyExportFormat/reminders``.
    public var format: StudyExportFormat { .reminders }

    public func start(study: StudyDefinition, takenAt: Date, into folder: URL) throws -> any StudyExportStream {
        CSVExportStream(file: try CSVFileWriter(creating: folder.appendingPathComponent(Self.fileName), header: Self.columns, cells: cells),
                        format: format, rows: Self.rows(of:))
    }

    /// The rows of one participant's reminders, as written.
    public static func rows(of data: ParticipantExportData) -> [[String]] {
        let zone = data.participant.timeZone
        return data.reminderDeliveries.sorted { ($0.dueAt, $0.key) < ($1.dueAt, $1.key) }.map { delivery in
            [data.participant.id, delivery.reminderID, delivery.taskID, delivery.taskID.isEmpty ? "" : String(delivery.occurrence), delivery.channelKind.rawValue,
             ISO8601.string(from: delivery.dueAt, in: zone), delivery.state.rawValue, String(delivery.attempts), delivery.detail ?? "",
             ISO8601.string(from: delivery.updatedAt, in: zone)]
        }
    }
}
