/// A format a study's data can be exported in. `studykit export --format NAME` takes the raw value.
///
/// ```swift
/// let exporter = StudyExportFormat.fhir.makeExporter()
/// ```
public enum StudyExportFormat: String, Hashable, Sendable, CaseIterable {
    /// FHIR R4: one Bundle per participant and one NDJSON file per resource type (see ``FHIRStudyExporter``).
    case fhir

    /// The exporter that writes this format, with its default settings.
    public func makeExporter() -> any StudyExporter {
        switch self {
        case .fhir: FHIRStudyExporter()
        }
    }
}
