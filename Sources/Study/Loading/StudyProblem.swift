import Foundation
import JSONDiagnostics

/// One fault in a study folder: the file it is in (relative to the study folder), the path inside that file, and
/// what is wrong.
///
/// ```swift
/// StudyProblem(file: "study.yaml", path: "tasks[1].schedule[0].weekly.on[2]", message: "'mondy' is not a weekday; did you mean 'monday'?")
/// ```
public typealias StudyProblem = DocumentProblem

/// Every problem found in a study folder; thrown by ``StudyLoader/load(folder:)``.
public struct StudyValidationFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every problem found, in the order found.
    public var problems: [StudyProblem]

    /// Creates a failure listing `problems`.
    public init(problems: [StudyProblem]) { self.problems = problems }

    /// The problems, one per line, each as `file: path: message`.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
