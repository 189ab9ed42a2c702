/// What happens to a participant's data when they leave the study (`withdrawal: {data: …}` in study.yaml), as the
/// study's protocol and consent say.
///
/// The consent records and the withdrawal record always stay: they are the record of the participant's taking part.
/// Deleting removes the participant's task runs (their answers, measures and files) and their cards' outcomes from the
/// study's data and from every export, in the same transaction as the withdrawal; the audit trail keeps its rows of what
/// was deleted, as a regulated study's trail must.
public enum StudyWithdrawalPolicy: String, Hashable, Sendable, CaseIterable {
    /// What was collected stays in the study (the default, and what most consents describe).
    case keep
    /// What was collected is deleted.
    case delete
    /// The participant chooses when they leave (and an investigator recording a withdrawal records their choice).
    case participantChooses

    /// What the study decides for every participant; nil when each participant chooses.
    public var decided: WithdrawnData? {
        switch self {
        case .keep: .keep
        case .delete: .delete
        case .participantChooses: nil
        }
    }
}

/// What happens to one participant's data when they leave.
public enum WithdrawnData: String, Hashable, Sendable, CaseIterable {
    /// It stays in the study.
    case keep
    /// Their runs and outcomes are deleted.
    case delete
}
