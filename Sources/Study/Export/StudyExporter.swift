import Foundation

/// Writes a study's data, read once into a ``StudyExportSnapshot``, in one format into a folder.
///
/// Every format reads the same snapshot, so a new format is one more conformer and one more case of
/// ``StudyExportFormat``; ``StudyExportFolder`` gives every format the same safe replacement of the previous export.
///
/// ```swift
/// let snapshot = try await StudyExportReader(study: study, store: store, careStore: careStore, dataFolder: data,
///                                            consentPublicKey: key.publicKey).snapshot()
/// let summary = try StudyExportFolder(url: out).replace(with: FHIRStudyExporter(), snapshot: snapshot)
/// ```
public protocol StudyExporter: Sendable {
    /// The format written.
    var format: StudyExportFormat { get }

    /// Writes `snapshot` into `folder`, an empty folder that exists, and tells what was written and what could not
    /// be written exactly. Throws only for what stops the whole export (a file that cannot be written).
    func write(_ snapshot: StudyExportSnapshot, into folder: URL) throws -> StudyExportSummary
}
