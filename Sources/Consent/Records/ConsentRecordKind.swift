/// Whether a sealed record gives consent or withdraws it. Records are append-only: withdrawing never
/// changes the consent record, it adds a withdrawal record that points to it.
public enum ConsentRecordKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// The participant (and any countersigner) signed the consent document.
    case consent
    /// The participant withdrew a consent given earlier; the record's ``ConsentRecord/withdrawal`` says which.
    case withdrawal
}
