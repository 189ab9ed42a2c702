import Foundation
import Research

/// A task whose consent steps were expanded, with what is needed to read the consent back from its results.
///
/// ```swift
/// let consentTask = try ConsentTaskLoader.load(taskData: data, document: document, context: context)
/// var session = try TaskSession(task: consentTask.task, environment: environment)
/// // … run it …
/// let signatures = consentTask.signatureResults(from: session.result, finishReason: session.finishReason!)
/// ```
public struct ConsentTask: Hashable, Sendable {
    /// The runnable task: ordinary Research steps only.
    public var task: ResearchTask
    /// The consent document the steps were built from.
    public var document: ConsentDocument
    /// The consent steps as written, in task order.
    public var consentSteps: [ConsentStep]
    /// The identifiers each consent step expanded into, by the consent step's identifier.
    public var expandedIdentifiers: [String: [String]]

    /// Creates a consent task from its parts; ``ConsentTaskLoader`` builds them from JSON.
    public init(task: ResearchTask, document: ConsentDocument, consentSteps: [ConsentStep], expandedIdentifiers: [String: [String]]) {
        self.task = task
        self.document = document
        self.consentSteps = consentSteps
        self.expandedIdentifiers = expandedIdentifiers
    }

    /// The signature results of every review and document step the run reached, in task order.
    public func signatureResults(from result: TaskResult, finishReason: FinishReason) -> [ConsentSignatureResult] {
        consentSteps.compactMap { $0.signatureResult(from: result, finishReason: finishReason, document: document) }
    }

    /// The answer to the first sharing step in the task; nil when there is none or it was not answered.
    public func sharingChoice(from result: TaskResult) -> ConsentSharingChoice? {
        for case .sharing(let step) in consentSteps {
            if let choice = step.choice(from: result) { return choice }
        }
        return nil
    }

    /// The document with every consented signature result of the run applied, ready to render or seal.
    public func signedDocument(from result: TaskResult, finishReason: FinishReason) throws(ConsentSignatureError) -> ConsentDocument {
        var signed = document
        for signature in signatureResults(from: result, finishReason: finishReason) where signature.consented {
            signed = try signed.applying(signature)
        }
        return signed
    }
}
