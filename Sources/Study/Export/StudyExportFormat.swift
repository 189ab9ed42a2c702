/// A format a study's data can be exported in. `studykit export --format NAME` takes the raw value.
///
/// ```swift
/// let exporter = StudyExportFormat.fhir.makeExporter()   // StudyFHIR
/// ```
public enum StudyExportFormat: String, Hashable, Sendable, CaseIterable {
    /// FHIR R4: one Bundle per participant and one NDJSON file per resource type (StudyFHIR's `FHIRStudyExporter`).
    case fhir
    /// Every answer of every run as a row of one CSV file (``CSVLongExporter``).
    case csvLong = "csv-long"
    /// One row per task run and one column per question, a file per task, with a data dictionary in REDCap's layout
    /// (``CSVWideExporter``).
    case csvWide = "csv-wide"
    /// The data as StudyKit keeps it, as JSON lines, with the attached files in a ZIP (``JSONExporter``).
    case json
    /// The signed consent PDFs with their sealed records in a ZIP, and a list of them (``ConsentsExporter``).
    case consents
    /// Every value of every live outcome as a row of one CSV file (``CSVOutcomesExporter``).
    case outcomes
    /// Every reminder the study sent or tried to send, as a row of one CSV file (``CSVRemindersExporter``).
    case reminders

    /// Whether the format writes CSV files, whose cells ``CSVCellStyle/forSpreadsheets`` can make safe to open in a
    /// spreadsheet: `csv-long`, `csv-wide`, `outcomes`, `reminders` and `consents` (its `consents.csv`).
    public var writesCSV: Bool {
        switch self {
        case .csvLong, .csvWide, .outcomes, .reminders, .consents: true
        case .fhir, .json: false
        }
    }
}
