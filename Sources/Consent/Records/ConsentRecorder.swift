import Foundation
import StudyKitEnvironment

/// Makes and seals consent and withdrawal records with the server's key.
///
/// ```swift
/// let recorder = ConsentRecorder(signingKey: try store.loadOrCreate())
/// let sealed = try recorder.sealConsent(participantIdentifier: "P-0042", studyIdentifier: "recover",
///     studyName: "Recover", documentIdentifier: "recover-consent", documentVersion: "1.2", language: "ja",
///     html: reviewHTML, signatures: [participant], answers: ["sharing": "shareWidely"])
/// try sealed.jsonData().write(to: file)
/// ```
public struct ConsentRecorder: Sendable {
    /// The key that seals.
    public var signingKey: ConsentSigningKey
    /// The clock and identifiers.
    public var environment: StudyKitEnvironment

    /// A recorder sealing with `signingKey`, at the times and with the ids of `environment`.
    public init(signingKey: ConsentSigningKey, environment: StudyKitEnvironment = .live) {
        self.signingKey = signingKey
        self.environment = environment
    }

    /// Signs `record`'s canonical JSON.
    public func seal(_ record: ConsentRecord) throws -> SealedConsentRecord {
        let signature = try signingKey.signature(for: record.canonicalJSON())
        return SealedConsentRecord(record: record, publicKey: signingKey.publicKey.base64, signature: signature.base64EncodedString())
    }

    /// Records and seals a consent: a new id, created now, the HTML's SHA-256 computed here.
    public func sealConsent(participantIdentifier: String, studyIdentifier: String, studyName: String,
                            documentIdentifier: String, documentVersion: String, language: String, html: String,
                            signatures: [ConsentRecordSignature], answers: [String: String]) throws -> SealedConsentRecord {
        try seal(ConsentRecord(id: environment.makeUUID(), kind: .consent, participantIdentifier: participantIdentifier,
                               studyIdentifier: studyIdentifier, studyName: studyName, documentIdentifier: documentIdentifier,
                               documentVersion: documentVersion, language: language, html: html, signatures: signatures,
                               answers: answers, createdAt: environment.now()))
    }

    /// Records and seals the withdrawal of `original`: a new record for the same participant, study and
    /// document that carries `original`'s id and seal hash. `html` is the withdrawal page shown, if any;
    /// `signatures` any signatures given to withdraw. Refuses an original that is itself a withdrawal or
    /// whose seal does not verify, so a withdrawal never points to a record that cannot be trusted.
    /// Seals a countersignature of `original` (a consent record that verifies): `html` is the whole document with every
    /// signature given, `countersignatures` the study team's; the record carries the original's signatures, then
    /// these, and its answers.
    public func sealCountersignature(of original: SealedConsentRecord, html: String,
                                     countersignatures: [ConsentRecordSignature]) throws -> SealedConsentRecord {
        guard original.record.kind == .consent else {
            throw ConsentRecordError.notAConsentRecord(recordID: original.record.id.uuidString, kind: original.record.kind)
        }
        let problems = ConsentRecordVerifier().mismatches(in: original)
        guard problems.isEmpty else {
            throw ConsentRecordError.invalidOriginal(recordID: original.record.id.uuidString, mismatches: problems.map(\.description))
        }
        let source = original.record
        let link = ConsentCountersignature(originalRecordID: source.id, originalSealSHA256: try original.sealSHA256())
        return try seal(ConsentRecord(id: environment.makeUUID(), kind: .countersignature, participantIdentifier: source.participantIdentifier,
                                      studyIdentifier: source.studyIdentifier, studyName: source.studyName,
                                      documentIdentifier: source.documentIdentifier, documentVersion: source.documentVersion,
                                      language: source.language, html: html, signatures: source.signatures + countersignatures,
                                      answers: source.answers, createdAt: environment.now(), countersignature: link))
    }

    public func sealWithdrawal(of original: SealedConsentRecord, reason: String?, html: String = "",
                               signatures: [ConsentRecordSignature] = [], answers: [String: String] = [:]) throws -> SealedConsentRecord {
        guard original.record.kind == .consent else {
            throw ConsentRecordError.notAConsentRecord(recordID: original.record.id.uuidString, kind: original.record.kind)
        }
        let problems = ConsentRecordVerifier().mismatches(in: original)
        guard problems.isEmpty else {
            throw ConsentRecordError.invalidOriginal(recordID: original.record.id.uuidString, mismatches: problems.map(\.description))
        }
        let now = environment.now()
        let source = original.record
        let link = ConsentWithdrawal(originalRecordID: source.id, originalSealSHA256: try original.sealSHA256(), withdrawnAt: now, reason: reason)
        return try seal(ConsentRecord(id: environment.makeUUID(), kind: .withdrawal, participantIdentifier: source.participantIdentifier,
                                      studyIdentifier: source.studyIdentifier, studyName: source.studyName,
                                      documentIdentifier: source.documentIdentifier, documentVersion: source.documentVersion,
                                      language: source.language, html: html, signatures: signatures, answers: answers,
                                      createdAt: now, withdrawal: link))
    }
}
