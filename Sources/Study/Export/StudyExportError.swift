/// Why an export could not be written where it was asked to go. Each case names the path.
public enum StudyExportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The output path is a file, not a folder.
    case notAFolder(path: String)
    /// The output folder holds files but no previous export, so replacing it could destroy someone's files.
    case notAnExport(path: String)
    /// The output folder (or its parent) cannot be written, with the system's reason.
    case cannotWrite(path: String, reason: String)

    /// The problem, naming the path.
    public var description: String {
        switch self {
        case .notAFolder(let path):
            "\(path) is a file; give --out a folder (new, empty, or a previous export)"
        case .notAnExport(let path):
            "\(path) is not empty and holds no previous export (no \(StudyExportFolder.manifestFileName)); give --out a new or empty folder, or a previous export to replace"
        case .cannotWrite(let path, let reason):
            "cannot write \(path): \(reason)"
        }
    }
}
