/// Why a care database could not be opened for reading.
public enum SQLiteCareStorageOpenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No file at the path.
    case missing(path: String)
    /// The file's schema is not the one this version of StudyKit writes (older, or newer).
    case outdatedSchema(path: String)

    /// The problem, naming the file.
    public var description: String {
        switch self {
        case .missing(let path): "no care database at \(path)"
        case .outdatedSchema(let path):
            "\(path) has another schema version than this StudyKit writes: start `studykit serve` on it once to migrate it, or use the StudyKit that wrote it"
        }
    }
}
