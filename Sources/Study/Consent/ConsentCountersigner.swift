import Consent
import Foundation
import Research

/// The study team's countersignature of a participant's consent, where the study's consent document has a signature
/// given in the console (``ConsentSignature/signedInConsole``): the whole document is rendered again with the
/// participant's signatures and the countersigner's typed name, sealed as a ``ConsentRecordKind/countersignature``
/// record bound to the consent it countersigns, and appended. The consent record itself never changes.
///
/// ```swift
/// let stored = try await workflow.countersigner.countersign(recordID: id, of: participant, givenName: "Jamie", familyName: "Lee")
/// ```
public struct ConsentCountersigner: Sendable {
    let workflow: ParticipantWorkflow

    /// Why a countersignature cannot be given.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// The participant has no consent record with this id.
        case noSuchConsent
        /// The record was countersigned already (at that time).
        case alreadyCountersigned(Date)
        /// The consent was withdrawn.
        case withdrawn
        /// The consent document in the record's language asks for no signature in the console.
        case notAsked
        /// A name is missing or cannot be printed as typed.
        case name(String)
        /// The consent record does not verify: it is not countersigned.
        case doesNotVerify(String)

        public var description: String {
            switch self {
            case .noSuchConsent: "This participant has no consent record with this id."
            case .alreadyCountersigned(let date): "This consent was countersigned already, at \(ISO8601.string(from: date, in: .gmt))."
            case .withdrawn: "This consent was withdrawn; it is not countersigned."
            case .notAsked: "The study's consent document asks for no countersignature in the console."
            case .name(let problem): problem
            case .doesNotVerify(let reason): "This consent record does not verify, so it is not countersigned: \(reason)"
            }
        }
    }

    /// Whether `record` (one of `records`, the participant's) waits for a countersignature in the console.
    public func awaitsCountersignature(_ record: StoredConsentRecord, among records: [StoredConsentRecord]) -> Bool {
        record.sealed.record.kind == .consent
            && workflow.study.consentDocument(language: record.sealed.record.language).signatures.contains(where: \.signedInConsole)
            && !records.contains { $0.sealed.record.countersignature?.originalRecordID == record.id || $0.sealed.record.withdrawal?.originalRecordID == record.id }
    }

    /// Countersigns the participant's consent record `recordID` with the typed name, now.
    public func countersign(recordID: UUID, of participant: StudyParticipant, givenName: String, familyName: String) async throws -> StoredConsentRecord {
        let records = try await workflow.data.studyStore.consentRecords(participantID: participant.id)
        guard let original = records.first(where: { $0.id == recordID && $0.sealed.record.kind == .consent }) else { throw Problem.noSuchConsent }
        if let earlier = records.first(where: { $0.sealed.record.countersignature?.originalRecordID == recordID }) {
            throw Problem.alreadyCountersigned(earlier.sealed.record.createdAt)
        }
        if records.contains(where: { $0.sealed.record.withdrawal?.originalRecordID == recordID }) { throw Problem.withdrawn }
        let mismatches = ConsentRecordVerifier(expectedPublicKey: workflow.consentKey.publicKey).mismatches(in: original.sealed)
        guard mismatches.isEmpty else { throw Problem.doesNotVerify(mismatches.map(\.description).joined(separator: "; ")) }
        let givenName = givenName.trimmingCharacters(in: .whitespacesAndNewlines), familyName = familyName.trimmingCharacters(in: .whitespacesAndNewlines)
        for (field, name) in [("given name", givenName), ("family name", familyName)] {
            if name.isEmpty { throw Problem.name("Type your \(field).") }
            if name.count > 200 { throw Problem.name("Your \(field) is longer than 200 characters.") }
            if let scalar = FreeTextRules.forbiddenScalar(in: name, allowingLineBreaks: false) {
                throw Problem.name("Your \(field) holds \(FreeTextRules.describe(scalar)), which would not print as typed.")
            }
        }

        let record = original.sealed.record
        let document = workflow.study.consentDocument(language: record.language)
        let console = document.signatures.filter(\.signedInConsole)
        guard !console.isEmpty else { throw Problem.notAsked }
        let now = workflow.environment.now()
        // The whole document as signed: the participant's signatures as sealed, then the study team's.
        var signed = document
        for given in record.signatures where document.signature(withIdentifier: given.identifier) != nil {
            signed = try signed.applying(ConsentSignatureResult(signatureIdentifier: given.identifier, givenName: given.givenName,
                                                                familyName: given.familyName, signature: given.drawing, signedDate: given.signedAt,
                                                                consented: true))
        }
        for signature in console {
            signed = try signed.applying(ConsentSignatureResult(signatureIdentifier: signature.identifier, givenName: givenName, familyName: familyName,
                                                                signedDate: now, consented: true))
        }
        let html = ConsentReviewRenderer(context: workflow.consentContext(for: participant)).page(for: signed)
        let countersignatures = console.map { signature in
            ConsentRecordSignature(identifier: signature.identifier, meaning: signature.meaning, givenName: givenName, familyName: familyName,
                                   drawing: nil, signedAt: now, timeZone: .gmt)
        }
        let sealed = try ConsentRecorder(signingKey: workflow.consentKey, environment: workflow.environment)
            .sealCountersignature(of: original.sealed, html: html, countersignatures: countersignatures)
        return try await workflow.data.studyStore.appendConsentRecord(sealed)
    }
}

extension ParticipantWorkflow {
    /// The study team's countersignatures of this study's consents.
    public var countersigner: ConsentCountersigner { ConsentCountersigner(workflow: self) }
}
