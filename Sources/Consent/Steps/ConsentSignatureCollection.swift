import Foundation
import JSONDiagnostics
import Research

/// What the review and document steps share: checking the signature they collect, the name form, and
/// reading a ``ConsentSignatureResult`` back from a task result.
enum ConsentSignatureCollection {
    /// The identifiers of the given-name and family-name fields of the name form.
    static let givenNameItem = "givenName", familyNameItem = "familyName"

    /// The faults of the `signature` reference of a step object.
    static func problems(identifier: String, signatureIdentifier: String, document: ConsentDocument) -> [ConsentDefinitionError] {
        var problems: [ConsentDefinitionError] = []
        if identifier.trimmingCharacters(in: .whitespaces).isEmpty {
            problems.append(ConsentDefinitionError(path: "identifier", message: "must not be empty"))
        }
        if document.signature(withIdentifier: signatureIdentifier)?.signedInConsole == true {
            problems.append(ConsentDefinitionError(path: "signature",
                message: "signature '\(signatureIdentifier)' is given by the study team in the console, not by the participant in a step"))
        }
        if document.signature(withIdentifier: signatureIdentifier) == nil {
            let known = document.signatures.map(\.identifier)
            let suggestion = JSONDiagnostics.closestKey(to: signatureIdentifier, among: known).map { "; did you mean '\($0)'?" }
                ?? (known.isEmpty ? "; it asks for no signature" : "; it has \(known.map { "'\($0)'" }.joined(separator: ", "))")
            problems.append(ConsentDefinitionError(path: "signature",
                message: "document '\(document.identifier)' has no signature '\(signatureIdentifier)'\(suggestion)"))
        }
        return problems
    }

    /// The required form for the signer's given and family names, family name first where the language writes it first.
    static func nameForm(identifier: String, document: ConsentDocument, context: ConsentContext) -> Step {
        let given = FormItem(identifier: givenNameItem, text: context.string(.givenName, for: document),
                             answerFormat: .text(TextFormat(maximumLength: 200)), isOptional: false)
        let family = FormItem(identifier: familyNameItem, text: context.string(.familyName, for: document),
                              answerFormat: .text(TextFormat(maximumLength: 200)), isOptional: false)
        let items = PrintedName.isFamilyNameFirst(language: context.language(for: document)) ? [family, given] : [given, family]
        return Step(identifier: identifier, kind: .form(FormContent(items: items)), title: context.string(.nameStepTitle, for: document),
                    text: context.string(.nameStepText, for: document), isOptional: false)
    }

    /// Reads what the steps collected for `signature` from `result`.
    ///
    /// The participant agreed when they left `documentStep` forward: a later step follows it in the result, or the
    /// run completed on it. Leaving by early termination (the Disagree button), saving or discarding there is
    /// not agreeing. Consent also needs both names when the signature requires a name, and a drawing when it
    /// requires one. A declined result carries no name, drawing or date. Nil when `documentStep` was never shown.
    static func signatureResult(for signature: ConsentSignature, documentStep: String, nameStep: String?, signatureStep: String?,
                                from result: TaskResult, finishReason: FinishReason) -> ConsentSignatureResult? {
        let visits = result.stepResults.filter { !$0.isPrevious }
        guard let documentIndex = visits.lastIndex(where: { $0.identifier == documentStep }) else { return nil }
        let agreed = documentIndex < visits.count - 1 || finishReason == .completed
        func text(_ item: String) -> String? {
            guard let nameStep, case .text(let value)? = result.answer(step: nameStep, item: item) else { return nil }
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
        let drawn = signatureStep.flatMap { step in
            result.stepResult(step)?.results.lazy.compactMap { item -> SignatureResult? in
                if case .signature(let signature) = item { return signature }
                return nil
            }.first
        }
        let givenName = text(givenNameItem), familyName = text(familyNameItem)
        let consented = agreed
            && (!signature.requiresName || (givenName != nil && familyName != nil))
            && (!signature.requiresSignatureImage || drawn != nil)
        guard consented else { return ConsentSignatureResult(signatureIdentifier: signature.identifier, consented: false) }
        let lastStep = [documentStep, nameStep, signatureStep].compactMap { $0 }.compactMap(result.stepResult).map(\.endDate).max()
        return ConsentSignatureResult(signatureIdentifier: signature.identifier, givenName: givenName, familyName: familyName,
                                      signature: drawn?.signature, signedDate: drawn?.signedDate ?? lastStep, consented: true)
    }
}
