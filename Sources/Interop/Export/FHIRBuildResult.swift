/// A resource a builder made, with the issues met on the way (parts written in a lesser form, each explained).
public struct FHIRBuildResult: Hashable, Sendable {
    /// The resource.
    public var resource: FHIRResource
    /// What could not be written exactly; empty when everything was.
    public var issues: [FHIRExportIssue]

    /// Creates a result.
    public init(resource: FHIRResource, issues: [FHIRExportIssue] = []) {
        self.resource = resource
        self.issues = issues
    }
}
