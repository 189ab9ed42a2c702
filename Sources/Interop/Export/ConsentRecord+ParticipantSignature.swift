import Consent
import Foundation

extension ConsentRecord {
    /// The participant's own signature in the record: the first whose identifier is one of `identifiers` (the
    /// signatures the participant gives in the study's consent flow), or, when `identifiers` is empty or none
    /// matches, the first signature, which is the participant's by the record's convention. Nil for a record
    /// without signatures (a withdrawal may have none).
    public func participantSignature(identifiers: Set<String> = []) -> ConsentRecordSignature? {
        signatures.first { identifiers.contains($0.identifier) } ?? signatures.first
    }

    /// The signatures other than ``participantSignature(identifiers:)``: countersignatures such as the investigator's.
    public func countersignatures(identifiers: Set<String> = []) -> [ConsentRecordSignature] {
        guard let own = participantSignature(identifiers: identifiers) else { return [] }
        return signatures.filter { $0 != own }
    }
}

extension ConsentRecordSignature {
    /// The signer's own time zone at signing: their zone when recorded, else a fixed offset zone.
    var signerTimeZone: TimeZone {
        timeZoneIdentifier.flatMap(TimeZone.init(identifier:)).flatMap { zone in
            zone.secondsFromGMT(for: signedAt) == utcOffsetSeconds ? zone : nil
        } ?? TimeZone(secondsFromGMT: utcOffsetSeconds) ?? .gmt
    }

    /// The signer's name as typed, given name first, for `display`.
    var displayName: String {
        [givenName, familyName].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}
