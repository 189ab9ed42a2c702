import Foundation

/// The care-store ids of a participant's entities. One care store holds every participant, and its ids are unique
/// per kind, so each id carries the participant's: the study task `pain` of participant `p1` is the care task
/// `p1/pain`, and its `version.groupIdentifier` is `pain`.
///
/// ```swift
/// var query = CareQuery(for: today)
/// query.carePlanIDs = [StudyCareIdentifiers.carePlanID(participant: participant.id)]
/// let taskID = StudyCareIdentifiers.studyTaskID(careTaskID: event.task.id, participant: participant.id)   // "pain"
/// ```
public enum StudyCareIdentifiers {
    /// The participant's patient: the participant id itself.
    public static func patientID(participant: String) -> String { participant }

    /// The participant's care plan.
    public static func carePlanID(participant: String) -> String { "\(participant)/care-plan" }

    /// The care task of the study task `task` (`onboarding` for the onboarding task).
    public static func taskID(participant: String, task: String) -> String { "\(participant)/\(task)" }

    /// The care contact of the study contact `contact`.
    public static func contactID(participant: String, contact: String) -> String { "\(participant)/\(contact)" }

    /// The study task id of a care task of `participant`; nil when the care task belongs to someone else.
    public static func studyTaskID(careTaskID: String, participant: String) -> String? {
        // Compared as UTF-8, as ids are: no Unicode rules to apply on every card of every page.
        let id = careTaskID.utf8, owner = participant.utf8
        guard id.count > owner.count, id.starts(with: owner) else { return nil }
        let slash = id.index(id.startIndex, offsetBy: owner.count)
        guard id[slash] == UInt8(ascii: "/") else { return nil }
        return String(Substring(id[id.index(after: slash)...]))
    }

    /// The participant whose care entity has the id `careID` (any of the ids above): the part before the first `/`.
    public static func participantID(ofCareID careID: String) -> String? {
        // Searched as bytes: a reminder round asks this of tens of thousands of ids.
        guard let slash = careID.utf8.firstIndex(of: UInt8(ascii: "/")), slash > careID.startIndex else { return nil }
        return String(careID[..<slash])
    }

    /// Whether `participant` can be used in these ids: not empty and without `/`.
    public static func isValidParticipantID(_ participant: String) -> Bool {
        !participant.isEmpty && !participant.contains("/") && participant.trimmingCharacters(in: .whitespacesAndNewlines) == participant
    }
}
