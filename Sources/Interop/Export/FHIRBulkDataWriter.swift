import Foundation

/// Writes an export's resources into a folder as FHIR Bulk Data does, plus one Bundle file per participant:
///
/// - `<ResourceType>.ndjson`: every resource of that type, one compact JSON object per line (`Patient.ndjson`,
///   `Observation.ndjson`, …), references relative (`Patient/p-0042`);
/// - `participants/<id>.json`: each Bundle, indented for reading, named by the Bundle's id.
///
/// ```swift
/// let counts = try FHIRBulkDataWriter(folder: out).write(resources: all, bundles: bundles)   // ["Patient": 3, …]
/// ```
///
/// ``FHIRBulkDataStream`` writes the same files participant by participant.
public struct FHIRBulkDataWriter: Sendable {
    /// The folder written into; it must exist.
    public var folder: URL

    /// The sub-folder of the participants' Bundles.
    public static let bundleFolderName = "participants"

    /// A writer into `folder`.
    public init(folder: URL) {
        self.folder = folder
    }

    /// Writes `resources` by type into NDJSON files (in the order given within each type) and each of `bundles`
    /// into its own file; returns how many resources of each type were written. File system errors are thrown as they
    /// come (Foundation's errors name the file).
    @discardableResult
    public func write(resources: [FHIRResource], bundles: [FHIRResource]) throws -> [String: Int] {
        let stream = FHIRBulkDataStream(folder: folder)
        try stream.append(resources)
        for bundle in bundles { try stream.append([], bundle: bundle) }
        return try stream.finish()
    }
}
