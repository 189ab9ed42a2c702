/// Whether a sealed record gives consent, countersigns it or withdraws it. Records are append-only: countersigning or
/// withdrawing never changes the consent record, it adds a record that points to it.
public enum ConsentRecordKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// The participant (and any countersigner) signed the consent document.
    case consent
    /// The participant withdrew a consent given earlier; the record's ``ConsentRecord/withdrawal`` says which.
    case withdrawal
    /// A member of the study team countersigned a consent given earlier (a signature the document has them give in the
    /// console); the record's ``ConsentRecord/countersignature`` says which, and its HTML is the whole document signed.
    case countersignature
}
