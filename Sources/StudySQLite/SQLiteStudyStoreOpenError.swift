/// Why a study database could not be opened for reading.
public enum SQLiteStudyStoreOpenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No file at the path.
    case missing(path: String)
    /// The file's schema is not the one this version of StudyKit writes (older, or newer).
    case outdatedSchema(path: String)

    /// The triggers that keep consent records append-only are missing or changed: someone edited the database.
    case appendOnlyTriggers(path: String, problems: [String])
    /// The triggers that write the audit trail, or keep it append-only, are missing or changed: someone edited the database.
    case auditTriggers(path: String, problems: [String])

    /// The problem, naming the file.
    public var description: String {
        switch self {
        case .missing(let path): "no study database at \(path)"
        case .outdatedSchema(let path):
            "\(path) has another schema version than this StudyKit writes: start `studykit serve` on it once to migrate it, or use the StudyKit that wrote it"
        case .appendOnlyTriggers(let path, let problems):
            "\(path) was edited outside StudyKit: \(problems.joined(separator: "; ")). Consent records may have been changed or "
                + "removed; restore the file from a backup, or check every record with `studykit export` and recreate the triggers "
                + "(their SQL is in StudyStoreMigrations.consentRecordTriggers) before serving it again"
        case .auditTriggers(let path, let problems):
            "\(path) was edited outside StudyKit: \(problems.joined(separator: "; ")). Changes since may be missing from the audit trail; "
                + "restore the file from a backup, or check it with `studykit audit verify` and recreate the triggers before serving it again"
        }
    }
}
