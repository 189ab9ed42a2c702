import Foundation

/// A task result that cannot be written as a QuestionnaireResponse, or a QuestionnaireResponse that cannot
/// be read as a task result: every problem found, not only the first.
public struct FHIRResponseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Each problem, in document order, naming the linkId and path where there is one.
    public var issues: [FHIRResponseIssue]

    /// Creates an error from its problems.
    public init(issues: [FHIRResponseIssue]) { self.issues = issues }

    /// The problems, one a line.
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
