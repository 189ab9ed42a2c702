import Foundation
import Research

/// Turns a signed consent — a document with its signatures applied, or a finished consent task run — into a
/// sealed ``ConsentRecord``: the review page rendered exactly as the participant's language shows it, every
/// signature with its meaning, the flow's answers, and the server's Ed25519 seal.
///
/// ```swift
/// let builder = ConsentRecordBuilder(studyIdentifier: "recover", studyName: "Recover", context: context)
/// let sealed = try builder.seal(run: session.result, finishReason: .completed, of: consentTask,
///                               participantIdentifier: "p-0042", signerTimeZone: zone, recorder: recorder)
/// ```
public struct ConsentRecordBuilder: Sendable {
    /// The study's identifier, kept in the record.
    public var studyIdentifier: String
    /// The study's name, kept in the record and printed on every page of its PDF.
    public var studyName: String
    /// Language, locale, time zone and strings the review page is rendered with.
    public var context: ConsentContext

    /// Creates a builder for one study and rendering context.
    public init(studyIdentifier: String, studyName: String, context: ConsentContext) {
        self.studyIdentifier = studyIdentifier
        self.studyName = studyName
        self.context = context
    }

    /// Seals `signedDocument` (signatures already applied, see ``ConsentDocument/applying(_:)``) for a participant.
    ///
    /// Every signature that carries a name or a drawing goes into the record, in the document's order, with its
    /// meaning and signing time (in `signerTimeZone`'s offset). Throws ``ConsentRecordBuildError`` when a signature
    /// the document requires is missing its name, drawing or date, naming the signature.
    public func seal(_ signedDocument: ConsentDocument, participantIdentifier: String, answers: [String: String],
                     signerTimeZone: TimeZone, recorder: ConsentRecorder) throws -> SealedConsentRecord {
        let signatures = try recordSignatures(of: signedDocument, timeZone: signerTimeZone)
        let html = ConsentReviewRenderer(context: context).page(for: signedDocument)
        return try recorder.sealConsent(participantIdentifier: participantIdentifier, studyIdentifier: studyIdentifier,
                                        studyName: studyName, documentIdentifier: signedDocument.identifier,
                                        documentVersion: signedDocument.version, language: context.language(for: signedDocument),
                                        html: html, signatures: signatures, answers: answers)
    }

    /// Seals the consent given in a finished run of `task`: its signatures applied to the document, and the
    /// sharing choice as the answer `sharing`. Throws ``ConsentRecordBuildError/notConsented`` when the run did
    /// not end in consent (declined, or stopped before signing).
    public func seal(run result: TaskResult, finishReason: FinishReason, of task: ConsentTask, participantIdentifier: String,
                     signerTimeZone: TimeZone, recorder: ConsentRecorder) throws -> SealedConsentRecord {
        let given = task.signatureResults(from: result, finishReason: finishReason)
        guard finishReason == .completed, !given.isEmpty, given.allSatisfy(\.consented) else {
            throw ConsentRecordBuildError.notConsented
        }
        let signed = try task.signedDocument(from: result, finishReason: finishReason)
        var answers: [String: String] = [:]
        if let choice = task.sharingChoice(from: result) { answers["sharing"] = choice.rawValue }
        return try seal(signed, participantIdentifier: participantIdentifier, answers: answers, signerTimeZone: signerTimeZone,
                        recorder: recorder)
    }

    /// The record's signatures: each document signature that was given (by the participant in the flow, or
    /// pre-filled for an investigator), checked against what the document requires.
    private func recordSignatures(of document: ConsentDocument, timeZone: TimeZone) throws -> [ConsentRecordSignature] {
        var signatures: [ConsentRecordSignature] = []
        // A signature the study team gives later in the console is not the participant's to give: it is sealed in a
        // countersignature record.
        for signature in document.signatures where !(signature.signedInConsole && !signature.isFilledIn) {
            let hasName = !(signature.givenName ?? "").isEmpty || !(signature.familyName ?? "").isEmpty
            let hasDrawing = signature.signature.map { !$0.isEmpty } ?? false
            guard hasName || hasDrawing else {
                throw ConsentRecordBuildError.unsigned(signature: signature.identifier)
            }
            if signature.requiresName && !hasName {
                throw ConsentRecordBuildError.missing("a name", signature: signature.identifier)
            }
            if signature.requiresSignatureImage && !hasDrawing {
                throw ConsentRecordBuildError.missing("a drawn signature", signature: signature.identifier)
            }
            for (field, name) in [("given name", signature.givenName), ("family name", signature.familyName)] {
                if let name, let scalar = FreeTextRules.forbiddenScalar(in: name, allowingLineBreaks: false) {
                    throw ConsentRecordBuildError.invalidName(field, signature: signature.identifier, character: FreeTextRules.describe(scalar))
                }
            }
            guard let signedDate = signature.signedDate else {
                throw ConsentRecordBuildError.missing("a signing date", signature: signature.identifier)
            }
            signatures.append(ConsentRecordSignature(identifier: signature.identifier, meaning: signature.meaning,
                                                     givenName: signature.givenName ?? "", familyName: signature.familyName ?? "",
                                                     drawing: signature.signature, signedAt: signedDate, timeZone: timeZone))
        }
        return signatures
    }
}

/// Why a consent could not be made into a record.
public enum ConsentRecordBuildError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The run ended without the participant's consent (declined, or stopped before signing).
    case notConsented
    /// A signature of the document was never given.
    case unsigned(signature: String)
    /// A signature lacks something the document requires of it (a name, a drawing, a date).
    case missing(String, signature: String)
    /// A signer's name holds a control or direction-changing character, which would print it differently than it is sealed.
    case invalidName(String, signature: String, character: String)

    /// A sentence naming the signature and what it lacks.
    public var description: String {
        switch self {
        case .notConsented: "the participant did not consent, so there is nothing to seal"
        case .unsigned(let signature): "signature '\(signature)' was not given"
        case .missing(let what, let signature): "signature '\(signature)' has no \(what.replacingOccurrences(of: "a ", with: ""))"
        case .invalidName(let field, let signature, let character):
            "the \(field) of signature '\(signature)' holds \(character), which would make the printed name differ from the sealed one"
        }
    }
}
