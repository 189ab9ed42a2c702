/// What the participant chose on a consent sharing step. JSON (and the step's choice values): the raw value.
public enum ConsentSharingChoice: String, Hashable, Sendable, Codable, CaseIterable {
    /// Share the coded data with the investigators and qualified researchers worldwide.
    case shareWidely
    /// Share the data only with the investigators.
    case investigatorsOnly
}
