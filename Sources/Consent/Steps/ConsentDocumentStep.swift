import Foundation
import Research

/// The 2021 code-along's consent: the signer's name (when the signature requires one), then the document as
/// web content with the signature pad after it (when the signature requires a drawing), and Disagree to end
/// the task.
///
/// Expands to `<identifier>.name` (a form) and `<identifier>.document` (web content with
/// `showSignatureAfterContent`). Navigation rules and destinations that name `<identifier>` are moved to these
/// steps by ``ConsentTaskLoader``.
///
/// JSON in a task's steps: `{"type": "consentDocument", "identifier": "consent", "signature": "participant"}`.
public struct ConsentDocumentStep: Hashable, Sendable {
    /// Names the step in the task; the expanded steps' identifiers start with it.
    public var identifier: String
    /// The identifier of the document's signature this step collects.
    public var signatureIdentifier: String
    /// Require scrolling to the end of the document before signing. Defaults to false.
    public var requiresScrollToBottom: Bool

    /// Creates a document step; see the properties for each setting.
    public init(identifier: String, signatureIdentifier: String, requiresScrollToBottom: Bool = false) {
        self.identifier = identifier
        self.signatureIdentifier = signatureIdentifier
        self.requiresScrollToBottom = requiresScrollToBottom
    }

    /// The identifier of the web content step.
    public var documentStepIdentifier: String { "\(identifier).document" }
    /// The identifier of the name form.
    public var nameStepIdentifier: String { "\(identifier).name" }

    /// The faults that keep the step from being built for `document`, with paths inside the step object.
    public func problems(for document: ConsentDocument) -> [ConsentDefinitionError] {
        ConsentSignatureCollection.problems(identifier: identifier, signatureIdentifier: signatureIdentifier, document: document)
    }

    /// The name form and the web content step; throws ``ConsentValidationFailure`` with ``problems(for:)``.
    public func steps(for document: ConsentDocument, context: ConsentContext) throws(ConsentValidationFailure) -> [Step] {
        let problems = problems(for: document)
        guard problems.isEmpty, let signature = document.signature(withIdentifier: signatureIdentifier) else {
            throw ConsentValidationFailure(problems: problems)
        }
        var steps: [Step] = []
        if signature.requiresName {
            steps.append(ConsentSignatureCollection.nameForm(identifier: nameStepIdentifier, document: document, context: context))
        }
        let content = WebContent(html: ConsentReviewRenderer(context: context).documentBody(for: document),
                                 showSignatureAfterContent: signature.requiresSignatureImage,
                                 requiresScrollToBottom: requiresScrollToBottom)
        steps.append(Step(identifier: documentStepIdentifier, kind: .webContent(content), title: document.title,
                          text: context.string(.reviewInstruction, for: document), isOptional: false,
                          earlyTermination: EarlyTermination(buttonText: context.string(.disagree, for: document))))
        return steps
    }

    /// What the step collected in a finished run: nil when the document was never shown, a result with
    /// `consented == false` when the participant disagreed or did not finish, otherwise the names, drawing and date.
    public func signatureResult(from result: TaskResult, finishReason: FinishReason, document: ConsentDocument) -> ConsentSignatureResult? {
        guard let signature = document.signature(withIdentifier: signatureIdentifier) else { return nil }
        return ConsentSignatureCollection.signatureResult(
            for: signature, documentStep: documentStepIdentifier,
            nameStep: signature.requiresName ? nameStepIdentifier : nil,
            signatureStep: signature.requiresSignatureImage ? documentStepIdentifier : nil,
            from: result, finishReason: finishReason)
    }
}

extension ConsentDocumentStep: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, signatureIdentifier = "signature", requiresScrollToBottom
    }

    /// Reads a document step; `signature` names the document's signature and `requiresScrollToBottom` defaults to false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try c.decode(String.self, forKey: .identifier)
        signatureIdentifier = try c.decode(String.self, forKey: .signatureIdentifier)
        requiresScrollToBottom = try c.decodeIfPresent(Bool.self, forKey: .requiresScrollToBottom) ?? false
    }
}
