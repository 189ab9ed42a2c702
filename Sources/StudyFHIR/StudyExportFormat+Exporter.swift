import Study

extension StudyExportFormat {
    /// The exporter that writes this format, its CSV cells written in the style `cells` (exactly, by default); a format
    /// without CSV files (``StudyExportFormat/fhir``, ``StudyExportFormat/json``) writes its data as it is whatever
    /// `cells` says (see ``StudyExportFormat/writesCSV``).
    public func makeExporter(cells: CSVCellStyle = .exact) -> any StudyExporter {
        switch self {
        case .fhir: FHIRStudyExporter()
        case .csvLong: CSVLongExporter(cells: cells)
        case .csvWide: CSVWideExporter(cells: cells)
        case .outcomes: CSVOutcomesExporter(cells: cells)
        case .reminders: CSVRemindersExporter(cells: cells)
        case .json: JSONExporter()
        case .consents: ConsentsExporter(cells: cells)
        }
    }
}
