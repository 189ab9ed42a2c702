import Consent
import Foundation
import Interop
import Testing

/// Sealed consent records as FHIR Consents: research scope, the participant, the signing time with their offset,
/// the signed PDF (or, without one, the signed HTML) with its SHA-1, and the sharing choice as the provision.
@Suite struct FHIRConsentBuilderTests {
    let builder = FHIRConsentBuilder()

    @Test func aConsentWithItsPDF() throws {
        let sealed = ExportFixtures.consentRecord()
        let consent = try builder.consent(for: sealed, pdf: ExportFixtures.pdf, participantSignatureIdentifiers: ["participant"],
                                          sharingRecipients: "the Recover team at the University Clinic")
        let json = consent.json
        #expect(consent.reference == "Consent/3f2504e0-4f89-11d3-9a0c-0305e82c3301")
        #expect(json.keys.prefix(2) == ["resourceType", "id"])
        #expect(json["status"] == "active")
        #expect(json.at("identifier", 0, "value") == "urn:uuid:3f2504e0-4f89-11d3-9a0c-0305e82c3301")
        #expect(json.at("scope", "coding", 0, "system") == "http://terminology.hl7.org/CodeSystem/consentscope")
        #expect(json.at("scope", "coding", 0, "code") == "research")
        #expect(json.at("category", 0, "coding", 0, "code") == "59284-0")
        #expect(json.at("patient", "reference") == "Patient/p-0042")
        #expect(json.at("performer", 0, "reference") == "Patient/p-0042")
        // The participant's signature, found by its identifier although the investigator's comes first, in Tokyo time.
        #expect(json["dateTime"] == "2026-03-29T17:00:00.250+09:00")
        // ppc-1: a policy rule, naming the document.
        #expect(json.at("policyRule", "text")?.stringValue?.contains("'recover-consent' version 1.2") == true)

        let attachment = try #require(json["sourceAttachment"])
        #expect(attachment["contentType"] == "application/pdf")
        #expect(attachment["language"] == "ja")
        #expect(attachment["data"]?.stringValue.flatMap { Data(base64Encoded: $0) } == ExportFixtures.pdf)
        #expect(attachment["size"] == .integer(ExportFixtures.pdf.count))
        // SHA-1 of "%PDF-1.7\nabc\n%%EOF\n", base64 (computed with Python's hashlib).
        #expect(attachment["hash"] == "nZ1/vu7BJ9wz1UJ7Zcl5v5UFQPo=")
        #expect(attachment["title"] == "Recover: recover-consent version 1.2, signed")

        // Shared with the investigators only: one recipient, by the sharing step's words.
        #expect(json.at("provision", "type") == "permit")
        #expect(json.at("provision", "period", "start") == "2026-03-29T17:00:00.250+09:00")
        #expect(json.at("provision", "period", "end") == nil)
        #expect(json.at("provision", "purpose", 0, "code") == "HRESCH")
        #expect(json.at("provision", "actor", 0, "role", "coding", 0, "code") == "IRCP")
        #expect(json.at("provision", "actor", 0, "reference", "display") == "the Recover team at the University Clinic")
    }

    @Test func aConsentWithoutItsPDFCarriesTheSignedHTML() throws {
        let sealed = ExportFixtures.consentRecord(sharing: "shareWidely")
        let json = try builder.consent(for: sealed, pdf: nil).json
        let attachment = try #require(json["sourceAttachment"])
        #expect(attachment["contentType"] == "text/html; charset=utf-8")
        #expect(attachment["data"]?.stringValue.flatMap { Data(base64Encoded: $0) } == Data(ExportFixtures.html.utf8))
        #expect(attachment["size"] == .integer(Data(ExportFixtures.html.utf8).count))
        #expect(attachment["hash"]?.stringValue?.count == 28, "20 bytes in base64")
        #expect(attachment["title"]?.stringValue?.contains("the PDF has not been printed") == true)
        // Shared widely: permitted for research, with no actor limiting who receives it.
        #expect(json.at("provision", "purpose", 0, "code") == "HRESCH")
        #expect(json.at("provision", "actor") == nil)
        // Without identifiers the first signature is taken as the participant's, as records order them.
        #expect(json["dateTime"] == "2026-03-28T17:00:00.250+09:00")
    }

    @Test func aWithdrawnConsentIsInactiveFromTheWithdrawal() throws {
        let sealed = ExportFixtures.consentRecord()
        let withdrawal = ExportFixtures.withdrawal(of: sealed)
        let json = try builder.consent(for: sealed, pdf: ExportFixtures.pdf, withdrawal: withdrawal.record,
                                       participantSignatureIdentifiers: ["participant"]).json
        #expect(json["status"] == "inactive")
        #expect(json.at("provision", "period", "end") == "2026-04-28T17:00:00.250+09:00")
        #expect(throws: FHIRExportError.self) { try builder.consent(for: withdrawal, pdf: nil) }
    }

    @Test func theProvenanceCarriesTheSealedRecordAsTheParticipantsSignature() throws {
        let sealed = ExportFixtures.consentRecord()
        let stored = try sealed.jsonData()
        let json = try FHIRProvenanceBuilder().provenance(for: sealed, sealedJSON: stored, participantSignatureIdentifiers: ["participant"]).json
        #expect(json["id"] == "3f2504e0-4f89-11d3-9a0c-0305e82c3301")
        #expect(json.at("target", 0, "reference") == "Consent/3f2504e0-4f89-11d3-9a0c-0305e82c3301")
        #expect(json["recorded"] == "2026-03-29T08:00:01.250Z")
        #expect(json["occurredDateTime"] == "2026-03-29T17:00:00.250+09:00")
        #expect(json.at("activity", "coding", 0, "code") == "CREATE")
        #expect(json.at("agent", 0, "type", "coding", 0, "code") == "author")
        #expect(json.at("agent", 0, "who", "reference") == "Patient/p-0042")
        #expect(json.at("agent", 1, "type", "coding", 0, "code") == "verifier")
        #expect(json.at("agent", 1, "role", 0, "text") == "investigator countersignature")
        #expect(json.at("agent", 1, "who", "display") == "Jamie Lee")
        let signature = try #require(json.at("signature", 0))
        #expect(signature.at("type", 0, "system") == "urn:iso-astm:E1762-95:2013")
        #expect(signature.at("type", 0, "code") == "1.2.840.10065.1.12.1.7")
        #expect(signature["when"] == "2026-03-29T08:00:00.250Z")
        #expect(signature.at("who", "reference") == "Patient/p-0042")
        #expect(signature["sigFormat"] == "application/json")
        // The data is the stored record itself, which still verifies once decoded.
        let data = try #require(signature["data"]?.stringValue.flatMap { Data(base64Encoded: $0) })
        #expect(data == stored)
        let decoded = try SealedConsentRecord(jsonData: data)
        #expect(ConsentRecordVerifier().mismatches(in: decoded).isEmpty)
    }

    @Test func aWithdrawalsProvenancePointsAtTheConsentItWithdraws() throws {
        let sealed = ExportFixtures.consentRecord()
        let withdrawal = ExportFixtures.withdrawal(of: sealed)
        let json = try FHIRProvenanceBuilder().provenance(for: withdrawal).json
        #expect(json["id"] == "3f2504e0-4f89-11d3-9a0c-0305e82c3302")
        #expect(json.at("target", 0, "reference") == "Consent/3f2504e0-4f89-11d3-9a0c-0305e82c3301")
        #expect(json.at("activity", "coding", 0, "code") == "UPDATE")
        #expect(json.at("activity", "text") == "consent withdrawn")
        #expect(json.at("reason", 0, "text") == "moved abroad")
        #expect(json.at("signature", 0, "type", 0, "code") == "1.2.840.10065.1.12.1.1")
        #expect(json.at("signature", 0, "data")?.stringValue.flatMap { Data(base64Encoded: $0) } == (try withdrawal.jsonData()))
    }
}
