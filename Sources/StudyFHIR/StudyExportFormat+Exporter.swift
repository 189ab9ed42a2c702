import Study

extension StudyExportFormat {
    /// The exporter that writes this format, with its default settings.
    public func makeExporter() -> any StudyExporter {
        switch self {
        case .fhir: FHIRStudyExporter()
        case .csvLong: CSVLongExporter()
        case .csvWide: CSVWideExporter()
        case .outcomes: CSVOutcomesExporter()
        case .json: JSONExporter()
        case .consents: ConsentsExporter()
        }
    }
}
