/// Why a participant's care plan could not be built.
public enum StudyEnrolmentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The participant id is empty or holds `/`, which the care-store ids use as a separator.
    case invalidParticipantID(String)

    /// What went wrong, in plain English.
    public var description: String {
        switch self {
        case .invalidParticipantID(let id): "participant id '\(id)' cannot be used: it must be non-empty, without '/' or surrounding spaces"
        }
    }
}
