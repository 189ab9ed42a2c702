import Consent
import Foundation

/// Builds the FHIR R4 `Provenance` of a sealed consent record: who signed the Consent, when, and the sealed record
/// itself as the electronic signature, so that the evidence travels with the export and can be verified later.
///
/// ```swift
/// let provenance = try FHIRProvenanceBuilder().provenance(for: stored.sealed, sealedJSON: stored.sealedJSON)
/// ```
///
/// What it writes, for a consent record:
/// - `target`: the record's Consent. `recorded`: when the record was sealed. `occurredDateTime`: when the
///   participant signed, with their offset. `activity`: v3-DataOperation `CREATE`.
/// - `agent`: the participant's Patient as `author`; each countersigner (such as the investigator) as `verifier`,
///   with the signature's meaning as the role's text and their name as `who.display` (StudyKit keeps no Practitioner
///   resources).
/// - `signature`: one entry, the participant's: type ASTM E1762 "Consent Signature", `when` the signing time, `who`
///   the Patient, `sigFormat` `application/json`, and `data` the base64 of the sealed record's canonical JSON exactly
///   as stored — `{"algorithm": "Ed25519", "publicKey": …, "record": …, "signature": …}` — which holds the
///   document's HTML and SHA-256, every signature with its drawing, name, meaning and time, the answers, and the
///   server's Ed25519 seal over all of it. `studykit consent verify` checks it once decoded.
///
/// For a withdrawal record the `target` is the Consent withdrawn, `occurredDateTime` the withdrawal time, `activity`
/// v3-DataOperation `UPDATE` with the text "consent withdrawn", `reason` the participant's reason, and the signature's
/// type ASTM E1762 "Author's Signature" (the participant authors the withdrawal; E1762 has no withdrawal signature).
public struct FHIRProvenanceBuilder: Sendable {
    /// Creates a builder.
    public init() {}

    /// The Provenance of `sealed`. `sealedJSON` is the record's canonical JSON as stored (byte for byte); nil to
    /// write it again from `sealed`. `participantSignatureIdentifiers` as for ``FHIRConsentBuilder``.
    public func provenance(for sealed: SealedConsentRecord, sealedJSON: Data? = nil,
                           participantSignatureIdentifiers: Set<String> = []) throws(FHIRExportError) -> FHIRResource {
        let record = sealed.record
        try FHIRResource.requireValidID(record.participantIdentifier, for: "Patient")
        let patient = FHIRJSON.fields(["reference": .string("Patient/\(record.participantIdentifier)")])
        let signer = record.participantSignature(identifiers: participantSignatureIdentifiers)
        let evidence: Data
        if let sealedJSON {
            evidence = sealedJSON
        } else {
            do { evidence = try sealed.jsonData() } catch {
                throw .unsupportedRecord("record \(record.id.uuidString.lowercased()) cannot be written as canonical JSON: \(error)")
            }
        }

        let target: UUID, occurred: String, activity: FHIRJSON, reason: FHIRJSON?, signatureType: FHIRCoding
        switch record.kind {
        case .consent:
            target = record.id
            occurred = signer.map { FHIRDateFormat.dateTime($0.signedAt, in: $0.signerTimeZone) } ?? FHIRDateFormat.instant(record.createdAt)
            activity = FHIRTerminology.createActivity.codeableConcept
            reason = nil
            signatureType = FHIRTerminology.consentSignature
        case .withdrawal:
            guard let link = record.withdrawal else {
                throw .unsupportedRecord("withdrawal record \(record.id.uuidString.lowercased()) names no consent record")
            }
            target = link.originalRecordID
            occurred = FHIRDateFormat.dateTime(link.withdrawnAt, in: signer?.signerTimeZone ?? .gmt)
            activity = .fields(["coding": [FHIRTerminology.reviseActivity.json], "text": "consent withdrawn"])
            reason = link.reason.map { [.fields(["text": .string($0)])] }
            signatureType = FHIRTerminology.authorSignature
        case .countersignature:
            guard let link = record.countersignature else {
                throw .unsupportedRecord("countersignature record \(record.id.uuidString.lowercased()) names no consent record")
            }
            target = link.originalRecordID
            occurred = FHIRDateFormat.instant(record.createdAt)
            activity = .fields(["coding": [FHIRTerminology.reviseActivity.json], "text": "consent countersigned"])
            reason = nil
            signatureType = FHIRTerminology.verificationSignature
        }

        var agents: [FHIRJSON] = [.fields(["type": FHIRTerminology.authorAgent.codeableConcept, "who": patient])]
        for countersignature in record.countersignatures(identifiers: participantSignatureIdentifiers) {
            let name = countersignature.displayName
            agents.append(.fields([
                "type": FHIRTerminology.verifierAgent.codeableConcept,
                "role": [.fields(["text": .string(countersignature.meaning)])],
                "who": .fields(["display": .string(name.isEmpty ? countersignature.identifier : name)]),
            ]))
        }
        return try FHIRResource(json: .fields([
            "resourceType": "Provenance",
            "id": .string(record.id.uuidString.lowercased()),
            "target": [.fields(["reference": .string("Consent/\(target.uuidString.lowercased())")])],
            "occurredDateTime": .string(occurred),
            "recorded": .string(FHIRDateFormat.instant(record.createdAt)),
            "reason": reason,
            "activity": activity,
            "agent": .array(agents),
            "signature": [.fields([
                "type": [signatureType.json],
                "when": .string(FHIRDateFormat.instant(signer?.signedAt ?? record.createdAt)),
                "who": patient,
                "sigFormat": "application/json",
                "data": .string(evidence.base64EncodedString()),
            ])],
        ]))
    }
}
