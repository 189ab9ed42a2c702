import Foundation

/// Writes a study's data in one format into a folder, one participant at a time.
///
/// An export starts with ``start(study:takenAt:into:)``, gives the returned ``StudyExportStream`` each participant's
/// data in turn, and finishes it: a table format writes each participant's rows as they come, so an export's memory is
/// one participant's data however large the study. ``StudyExportFolder`` gives every format the same safe replacement
/// of the previous export.
///
/// ```swift
/// let reader = StudyExportReader(study: study, store: store, careStore: careStore, dataFolder: data,
///                                consentPublicKey: key.publicKey)
/// let summary = try await StudyExportFolder(url: out).replace(with: CSVLongExporter(), reading: reader)
/// ```
public protocol StudyExporter: Sendable {
    /// The format written.
    var format: StudyExportFormat { get }

    /// How the exporter writes the cells of its CSV files; ``CSVCellStyle/exact`` for a format that writes none.
    var cells: CSVCellStyle { get }

    /// Starts writing into `folder`, an empty folder that exists, the export of `study` read at `takenAt`. Throws only
    /// for what stops the whole export (a file that cannot be created).
    func start(study: StudyDefinition, takenAt: Date, into folder: URL) throws -> any StudyExportStream
}

/// An export being written: given each participant's data, then finished.
public protocol StudyExportStream: AnyObject {
    /// Writes (or keeps, for a format that writes the study whole) one participant's data.
    func add(_ participant: ParticipantExportData) throws

    /// Writes what is left and closes the files; tells what was written and what could not be written exactly.
    func finish() throws -> StudyExportSummary
}

extension StudyExporter {
    /// ``CSVCellStyle/exact``: a format without CSV files writes its data as it is.
    public var cells: CSVCellStyle { .exact }

    /// Writes the participants of `snapshot` into `folder`, an empty folder that exists, through the exporter's stream.
    public func write(_ snapshot: StudyExportSnapshot, into folder: URL) throws -> StudyExportSummary {
        let stream = try start(study: snapshot.study, takenAt: snapshot.takenAt, into: folder)
        for participant in snapshot.participants { try stream.add(participant) }
        return try stream.finish()
    }
}
