import Consent
import Crypto
import Foundation

/// Builds the FHIR R4 `Consent` of a sealed consent record: a research consent of the participant, with the signed
/// document attached and the sharing choice as its provision.
///
/// ```swift
/// let consent = try FHIRConsentBuilder().consent(for: stored.sealed, pdf: pdfBytes, withdrawal: nil,
///                                                 sharingRecipients: "the Recover team at the University Clinic")
/// ```
///
/// What it writes:
/// - `id` and `identifier` (`urn:ietf:rfc:3986`, `urn:uuid:…`): the record's id.
/// - `status`: `active`; `inactive` once a withdrawal record withdraws it. (StudyKit seals no record for a declined
///   consent, so none is `rejected`.)
/// - `scope` research (consentscope) and `category` LOINC 59284-0 (see ``FHIRTerminology``).
/// - `patient` and `performer`: the participant's Patient. `dateTime`: when the participant signed, with their offset.
/// - `sourceAttachment`: the signed PDF (`application/pdf`) with its size, SHA-1 `hash` (base64, as FHIR's
///   Attachment says), `title`, `language` and `creation`; when the PDF was not printed, the exact signed HTML from
///   the record instead (`text/html; charset=utf-8`), so that the attachment is always the document the participant saw.
/// - `policyRule`: text naming the consent document and its version (ppc-1 requires a policy or a policy rule;
///   StudyKit has no URI for a study's consent policy, and claiming a legal framework such as the US Common Rule
///   would be a guess).
/// - `provision`: `permit` for `healthcare research` from the signing time (to the withdrawal, if any); when the
///   participant chose to share with the investigators only, one actor, the information recipient, named by
///   `sharingRecipients`; when they chose to share widely, no actor, meaning any recipient.
public struct FHIRConsentBuilder: Sendable {
    /// Creates a builder.
    public init() {}

    /// The Consent of `sealed`, a consent record (not a withdrawal). `pdf` is its printed PDF when there is one;
    /// `withdrawal` the withdrawal record that withdraws it, if any; `participantSignatureIdentifiers` the signature
    /// identifiers the participant gives in the study's flow (see ``Consent/ConsentRecord/participantSignature(identifiers:)``);
    /// `sharingRecipients` who "the investigators" are, in the words of the study's sharing step.
    public func consent(for sealed: SealedConsentRecord, pdf: Data?, withdrawal: ConsentRecord? = nil,
                        participantSignatureIdentifiers: Set<String> = [], sharingRecipients: String? = nil) throws(FHIRExportError) -> FHIRResource {
        let record = sealed.record
        guard record.kind == .consent else {
            throw .unsupportedRecord("record \(record.id.uuidString.lowercased()) is a \(record.kind.rawValue) record; only a consent record becomes a Consent")
        }
        let id = record.id.uuidString.lowercased()
        try FHIRResource.requireValidID(record.participantIdentifier, for: "Patient")
        let patient = FHIRJSON.fields(["reference": .string("Patient/\(record.participantIdentifier)")])
        let signer = record.participantSignature(identifiers: participantSignatureIdentifiers)
        let signedAt = signer.map { FHIRDateFormat.dateTime($0.signedAt, in: $0.signerTimeZone) }
            ?? FHIRDateFormat.instant(record.createdAt)
        var withdrawnAt: String?
        if let withdrawal, let link = withdrawal.withdrawal {
            let zone = withdrawal.participantSignature()?.signerTimeZone ?? signer?.signerTimeZone ?? .gmt
            withdrawnAt = FHIRDateFormat.dateTime(link.withdrawnAt, in: zone)
        }
        return try FHIRResource(json: .fields([
            "resourceType": "Consent",
            "id": .string(id),
            "identifier": [.fields(["system": .string(FHIRTerminology.uriIdentifierSystem), "value": .string("urn:uuid:\(id)")])],
            "status": withdrawnAt == nil ? "active" : "inactive",
            "scope": FHIRTerminology.researchScope.codeableConcept,
            "category": [FHIRTerminology.consentDocumentCategory.codeableConcept],
            "patient": patient,
            "dateTime": .string(signedAt),
            "performer": [patient],
            "sourceAttachment": attachment(of: record, pdf: pdf),
            "policyRule": .fields(["text": .string("Consent document '\(record.documentIdentifier)' version \(record.documentVersion) of the study \(record.studyName) (\(record.studyIdentifier))")]),
            "provision": provision(of: record, from: signedAt, to: withdrawnAt, sharingRecipients: sharingRecipients),
        ]))
    }

    /// The signed document: the PDF when printed, else the record's exact HTML.
    private func attachment(of record: ConsentRecord, pdf: Data?) -> FHIRJSON {
        let title = "\(record.studyName): \(record.documentIdentifier) version \(record.documentVersion), signed"
        let (contentType, bytes, fullTitle) = pdf.map { ("application/pdf", $0, title) }
            ?? ("text/html; charset=utf-8", Data(record.html.utf8), title + " (HTML as shown; the PDF has not been printed)")
        return .fields([
            "contentType": .string(contentType),
            "language": .string(record.language),
            "data": .string(bytes.base64EncodedString()),
            "size": .integer(bytes.count),
            "hash": .string(Data(Insecure.SHA1.hash(data: bytes)).base64EncodedString()),
            "title": .string(fullTitle),
            "creation": .string(FHIRDateFormat.instant(record.createdAt)),
        ])
    }

    private func provision(of record: ConsentRecord, from start: String, to end: String?, sharingRecipients: String?) -> FHIRJSON {
        var actor: FHIRJSON?
        if record.answers["sharing"].flatMap(ConsentSharingChoice.init(rawValue:)) == .investigatorsOnly {
            let recipients = sharingRecipients ?? "the investigators of \(record.studyName)"
            actor = [.fields(["role": FHIRTerminology.informationRecipientRole.codeableConcept,
                              "reference": .fields(["display": .string(recipients)])])]
        }
        return .fields([
            "type": "permit",
            "period": .fields(["start": .string(start), "end": end.map(FHIRJSON.string)]),
            "actor": actor,
            "purpose": [FHIRTerminology.healthcareResearchPurpose.json],
        ])
    }
}
