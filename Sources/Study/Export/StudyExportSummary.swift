/// What an export wrote: how many participants, how many items of each kind, and the issues met.
public struct StudyExportSummary: Hashable, Sendable, Codable {
    /// The format written.
    public var format: String
    /// How many participants were exported.
    public var participantCount: Int
    /// How many items of each kind were written: resources by type for FHIR, rows by file for a table format.
    public var counts: [String: Int]
    /// What could not be written exactly, and what was written instead.
    public var issues: [StudyExportIssue]

    /// Creates a summary.
    public init(format: String, participantCount: Int, counts: [String: Int], issues: [StudyExportIssue]) {
        self.format = format
        self.participantCount = participantCount
        self.counts = counts
        self.issues = issues
    }
}
