/// Something an export could not write exactly as StudyKit holds it, with what was written instead. Exports report
/// these instead of dropping or bending data silently.
public struct FHIRExportIssue: Hashable, Sendable, CustomStringConvertible {
    /// The type of the resource concerned, such as `CarePlan`.
    public var resourceType: String
    /// The id of the resource concerned (or that would have been made).
    public var resourceID: String
    /// What could not be written, and what was written instead, in a sentence.
    public var message: String

    /// Creates an issue.
    public init(resourceType: String, resourceID: String, message: String) {
        self.resourceType = resourceType
        self.resourceID = resourceID
        self.message = message
    }

    /// `CarePlan/p-0042: …`.
    public var description: String { "\(resourceType)/\(resourceID): \(message)" }
}
