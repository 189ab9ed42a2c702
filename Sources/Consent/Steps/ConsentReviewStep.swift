import Foundation
import Research

/// The consent review: the whole document to read (with Agree, and Disagree to end the task), then the
/// signer's name, then a drawn signature under the study's reason for consent, as ResearchKit's review step.
///
/// Expands to `<identifier>.document` (web content), `<identifier>.name` (a form, when the signature requires a
/// name) and `<identifier>.signature` (when it requires a drawing). Navigation rules and destinations that name
/// `<identifier>` are moved to these steps by ``ConsentTaskLoader``.
///
/// JSON in a task's steps: `{"type": "consentReview", "identifier": "review", "signature": "participant",
/// "reasonForConsent": "…", "requiresScrollToBottom": true}`.
public struct ConsentReviewStep: Hashable, Sendable {
    /// Names the review in the task; the expanded steps' identifiers start with it.
    public var identifier: String
    /// The identifier of the document's signature this review collects.
    public var signatureIdentifier: String
    /// What the participant confirms by signing, shown on the signature step; nil for none.
    public var reasonForConsent: String?
    /// Require scrolling to the end of the document before Agree. Defaults to false.
    public var requiresScrollToBottom: Bool

    /// Creates a review step; see the properties for each setting.
    public init(identifier: String, signatureIdentifier: String, reasonForConsent: String? = nil, requiresScrollToBottom: Bool = false) {
        self.identifier = identifier
        self.signatureIdentifier = signatureIdentifier
        self.reasonForConsent = reasonForConsent
        self.requiresScrollToBottom = requiresScrollToBottom
    }

    /// The identifier of the document step.
    public var documentStepIdentifier: String { "\(identifier).document" }
    /// The identifier of the name form.
    public var nameStepIdentifier: String { "\(identifier).name" }
    /// The identifier of the signature step.
    public var signatureStepIdentifier: String { "\(identifier).signature" }

    /// The faults that keep the review from being built for `document`, with paths inside the step object.
    public func problems(for document: ConsentDocument) -> [ConsentDefinitionError] {
        var problems = ConsentSignatureCollection.problems(identifier: identifier, signatureIdentifier: signatureIdentifier, document: document)
        if let reason = reasonForConsent, reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problems.append(ConsentDefinitionError(path: "reasonForConsent", message: "must not be empty; leave it out for none"))
        }
        return problems
    }

    /// The document, name and signature steps; throws ``ConsentValidationFailure`` with ``problems(for:)``.
    public func steps(for document: ConsentDocument, context: ConsentContext) throws(ConsentValidationFailure) -> [Step] {
        let problems = problems(for: document)
        guard problems.isEmpty, let signature = document.signature(withIdentifier: signatureIdentifier) else {
            throw ConsentValidationFailure(problems: problems)
        }
        let html = ConsentReviewRenderer(context: context).documentBody(for: document)
        var steps = [Step(identifier: documentStepIdentifier,
                          kind: .webContent(WebContent(html: html, requiresScrollToBottom: requiresScrollToBottom)),
                          title: context.string(.reviewTitle, for: document), text: context.string(.reviewInstruction, for: document),
                          isOptional: false, earlyTermination: EarlyTermination(buttonText: context.string(.disagree, for: document)))]
        if signature.requiresName {
            steps.append(ConsentSignatureCollection.nameForm(identifier: nameStepIdentifier, document: document, context: context))
        }
        if signature.requiresSignatureImage {
            let title = reasonForConsent == nil ? context.string(.signatureLabel, for: document) : context.string(.reasonForConsentTitle, for: document)
            steps.append(Step(identifier: signatureStepIdentifier,
                              kind: .signature(SignatureContent(signatureLineText: context.string(.signatureLine, for: document))),
                              title: title, text: reasonForConsent, detailText: context.string(.signatureStepText, for: document),
                              isOptional: false))
        }
        return steps
    }

    /// What the review collected in a finished run: nil when the document step was never shown, a result with
    /// `consented == false` when the participant disagreed or did not finish, otherwise the names, drawing and date.
    public func signatureResult(from result: TaskResult, finishReason: FinishReason, document: ConsentDocument) -> ConsentSignatureResult? {
        guard let signature = document.signature(withIdentifier: signatureIdentifier) else { return nil }
        return ConsentSignatureCollection.signatureResult(
            for: signature, documentStep: documentStepIdentifier,
            nameStep: signature.requiresName ? nameStepIdentifier : nil,
            signatureStep: signature.requiresSignatureImage ? signatureStepIdentifier : nil,
            from: result, finishReason: finishReason)
    }
}

extension ConsentReviewStep: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, signatureIdentifier = "signature", reasonForConsent, requiresScrollToBottom
    }

    /// Reads a review step; `signature` names the document's signature and `requiresScrollToBottom` defaults to false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try c.decode(String.self, forKey: .identifier)
        signatureIdentifier = try c.decode(String.self, forKey: .signatureIdentifier)
        reasonForConsent = try c.decodeIfPresent(String.self, forKey: .reasonForConsent)
        requiresScrollToBottom = try c.decodeIfPresent(Bool.self, forKey: .requiresScrollToBottom) ?? false
    }
}
