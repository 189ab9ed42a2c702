import Foundation

/// Why a study store refused a request. Every message names what was asked and what is wrong.
public enum StudyStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No invitation has this code.
    case unknownInvitation
    /// The invitation was already used.
    case invitationUsed(usedAt: Date)
    /// The invitation expired.
    case invitationExpired(expiresAt: Date)
    /// The study team revoked the invitation.
    case invitationRevoked(revokedAt: Date)
    /// No invitation has this id.
    case unknownInvitationID(UUID)
    /// No participant has this id.
    case unknownParticipant(String)
    /// The run id is taken by another participant's run, which this participant may not touch.
    case runOfAnotherParticipant(run: UUID)
    /// A run to delete is not one of the participant's stored runs.
    case noRunToDelete(run: UUID)
    /// The run is completed or discarded, and a finished run never changes.
    case runFinished(run: UUID, state: TaskRunState)
    /// The run was saved for another task.
    case runTaskChanged(run: UUID, stored: String, given: String)
    /// The run lacks what its state needs, or holds data of another run.
    case invalidRun(run: UUID, reason: String)
    /// A consent record with this id is already stored; records are append-only.
    case consentRecordExists(UUID)
    /// No consent record of this participant has this id.
    case unknownConsentRecord(UUID)
    /// A PDF path that is not a safe relative path under the data folder.
    case unsafePDFPath(String)
    /// A lifetime that is not positive.
    case invalidLifetime(TimeInterval)

    /// What went wrong, in plain English.
    public var description: String {
        switch self {
        case .unknownInvitation: "no invitation has this code; check the link"
        case .invitationUsed(let date): "this invitation was already used (\(Self.format(date)))"
        case .invitationExpired(let date): "this invitation expired at \(Self.format(date))"
        case .invitationRevoked(let date): "this invitation was revoked by the study team (\(Self.format(date)))"
        case .unknownInvitationID(let id): "no invitation has the id \(id.uuidString)"
        case .unknownParticipant(let id): "no participant has the id '\(id)'"
        case .runOfAnotherParticipant(let run): "task run \(run.uuidString) cannot be saved: its id belongs to another participant's run"
        case .noRunToDelete(let run): "task run \(run.uuidString) cannot be deleted: the participant has no such run"
        case .runFinished(let run, let state): "task run \(run.uuidString) is \(state.rawValue) and can no longer change"
        case .runTaskChanged(let run, let stored, let given): "task run \(run.uuidString) is a run of '\(stored)', not of '\(given)'"
        case .invalidRun(let run, let reason): "task run \(run.uuidString): \(reason)"
        case .consentRecordExists(let id): "consent record \(id.uuidString) is already stored; records are append-only (a withdrawal is a new record)"
        case .unknownConsentRecord(let id): "no consent record \(id.uuidString) of this participant"
        case .unsafePDFPath(let path): "the PDF path '\(path)' must be relative to the data folder, without '..'"
        case .invalidLifetime(let seconds): "a lifetime must be more than 0 seconds (found \(seconds))"
        }
    }

    private static func format(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle()) }
}
