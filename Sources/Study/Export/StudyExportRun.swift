import Foundation

/// One export of a study, as the console, the REST API and `studykit export` each run it: the study that `reader`
/// reads, written by `exporter` one participant at a time into an export folder (which it replaces whole, see
/// ``StudyExportFolder``), optionally zipped, and appended to the audit trail as an `export` of the study by the
/// current ``AuditTrail/source``.
///
/// ```swift
/// let run = StudyExportRun(exporter: CSVLongExporter(), reader: reader, auditTrail: database)
/// let summary = try await run.write(to: StudyExportFolder(url: URL(fileURLWithPath: "exports/recover-csv")))
/// ```
public struct StudyExportRun: Sendable {
    /// Writes the export's format.
    public var exporter: any StudyExporter
    /// Reads the study's data.
    public var reader: StudyExportReader
    /// Where the export's row goes; nil for an export that is not recorded (a copy of the data someone looks into).
    public var auditTrail: (any AuditTrailStore)?

    /// An export of what `reader` reads, written by `exporter`, recorded in `auditTrail`.
    public init(exporter: any StudyExporter, reader: StudyExportReader, auditTrail: (any AuditTrailStore)?) {
        self.exporter = exporter
        self.reader = reader
        self.auditTrail = auditTrail
    }

    /// The export was written, and the audit trail did not take its row (a read-only database, one whose triggers
    /// were removed): the caller decides whether the export may still be handed out.
    public struct NotAudited: Error, CustomStringConvertible {
        /// What was exported.
        public var summary: StudyExportSummary
        /// Why the row was not appended.
        public var underlying: any Error

        /// The audit trail's error.
        public var description: String { "\(underlying)" }
    }

    /// Writes the export into `folder` in place of the previous one and appends its row; returns the exporter's
    /// summary. Throws ``StudyExportError`` and the stores' and exporter's errors as they come (the previous export is
    /// then untouched), and ``NotAudited`` when all was written but the row.
    @discardableResult
    public func write(to folder: StudyExportFolder) async throws -> StudyExportSummary {
        let summary = try await folder.replace(with: exporter, reading: reader)
        try await audit(summary)
        return summary
    }

    /// Writes the export into `work/FORMAT/`, zips it into `work/export.zip` (each entry dated `date`), and appends
    /// its row; returns the ZIP file and the summary. Errors as for ``write(to:)``; `work` is left for the caller to
    /// delete.
    public func writeArchive(in work: URL, date: Date) async throws -> (archive: URL, summary: StudyExportSummary) {
        let folder = StudyExportFolder(url: work.appendingPathComponent(exporter.format.rawValue, isDirectory: true))
        let archive = work.appendingPathComponent("export.zip")
        let summary = try await folder.replace(with: exporter, reading: reader)
        try folder.zip(to: archive, date: date)
        try await audit(summary)
        return (archive, summary)
    }

    /// The `after` of an export's row: how many participants it holds, and its cells' style when they were not
    /// written exactly: `{"participants":3}`, `{"participants":3,"cells":"for-spreadsheets"}`.
    public static func auditRecord(of summary: StudyExportSummary, cells: CSVCellStyle) -> String {
        cells == .exact ? #"{"participants":\#(summary.participantCount)}"#
            : #"{"participants":\#(summary.participantCount),"cells":"\#(cells.rawValue)"}"#
    }

    private func audit(_ summary: StudyExportSummary) async throws {
        guard let auditTrail else { return }
        do {
            try await auditTrail.appendAudit(action: "export", entity: "study", entityID: exporter.format.rawValue, participantID: nil,
                                             after: Self.auditRecord(of: summary, cells: exporter.cells))
        } catch {
            throw NotAudited(summary: summary, underlying: error)
        }
    }
}
