/// Something an export could not write exactly as the study holds it, and what it wrote instead (or that it left
/// the item out). Exports report these instead of dropping data silently.
public struct StudyExportIssue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The participant concerned; nil for the study as a whole.
    public var participantID: String?
    /// What happened, in a sentence.
    public var message: String

    /// Creates an issue.
    public init(participantID: String?, message: String) {
        self.participantID = participantID
        self.message = message
    }

    /// `participant p-0042: …`, or the message alone.
    public var description: String {
        participantID.map { "participant \($0): \(message)" } ?? message
    }
}
