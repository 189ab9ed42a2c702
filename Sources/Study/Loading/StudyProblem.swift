import Foundation

/// One fault in a study folder: the file it is in (relative to the study folder), the path inside that file, and
/// what is wrong.
///
/// ```swift
/// StudyProblem(file: "study.yaml", path: "tasks[1].schedule[0].weekly.on[2]", message: "'mondy' is not a weekday; did you mean 'monday'?")
/// ```
public struct StudyProblem: Hashable, Sendable, CustomStringConvertible {
    /// The file, relative to the study folder (`study.yaml`, `surveys/pain.json`, `../../consent/recover-consent.json`).
    public var file: String
    /// The JSON or YAML path inside the file, such as `tasks[2].schedule[0].daily.at`; empty for the whole file.
    public var path: String
    /// What is wrong, in plain English.
    public var message: String

    /// Creates a problem in `file` at `path`.
    public init(file: String, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    /// `file: path: message`, or `file: message` when the path is empty.
    public var description: String { path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)" }
}

/// Every problem found in a study folder; thrown by ``StudyLoader/load(folder:)``.
public struct StudyValidationFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every problem found, in the order found.
    public var problems: [StudyProblem]

    /// Creates a failure listing `problems`.
    public init(problems: [StudyProblem]) { self.problems = problems }

    /// The problems, one per line, each as `file: path: message`.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
