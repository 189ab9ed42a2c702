/// One fault in a document a person wrote (a study file, a task, a schedule, an answer format's settings): the file
/// it is in when that is known, the path inside it, and what is wrong. Every loader and validator of StudyKit reports
/// with this one type, under the name that says what it checked (`StudyProblem`, `TaskDefinitionError`,
/// `ScheduleProblem`, `FormatProblem`).
///
/// ```swift
/// DocumentProblem(file: "study.yaml", path: "tasks[1].schedule[0].weekly.on[2]", message: "'mondy' is not a weekday; did you mean 'monday'?")
/// DocumentProblem(path: "maximum", message: "must be greater than minimum")
/// ```
public struct DocumentProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file, as the person named it (relative to a study folder, for instance); empty when the reader of the problem
    /// knows which document it is about.
    public var file: String
    /// The JSON or YAML path inside the document, such as `tasks[2].schedule[0].daily.at`; empty for the whole document.
    public var path: String
    /// What is wrong, in plain English.
    public var message: String

    /// A problem at `path` (empty for the whole document) of `file` (empty when known from the context).
    public init(file: String = "", path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    /// `file: path: message`, leaving out an empty file or path.
    public var description: String {
        [file, path, message].filter { !$0.isEmpty }.joined(separator: ": ")
    }
}
