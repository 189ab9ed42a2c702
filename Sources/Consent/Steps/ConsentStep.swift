import Foundation
import Research

/// A consent step as written in a task: it expands into ordinary Research steps, so every runner shows it
/// without knowing about consent.
///
/// JSON: an object whose `type` is `visualConsent`, `consentSharing`, `consentReview` or `consentDocument`,
/// with that step's keys beside it.
public enum ConsentStep: Hashable, Sendable {
    /// One instruction page per section (``VisualConsentStep``).
    case visualConsent(VisualConsentStep)
    /// The data-sharing question (``ConsentSharingStep``).
    case sharing(ConsentSharingStep)
    /// Document, name and signature (``ConsentReviewStep``).
    case review(ConsentReviewStep)
    /// Name, then the document with the signature pad after it (``ConsentDocumentStep``).
    case document(ConsentDocumentStep)

    /// The `type` names of consent steps in task JSON.
    public static let types: Set<String> = ["visualConsent", "consentSharing", "consentReview", "consentDocument"]

    /// The identifier the step has in the task.
    public var identifier: String {
        switch self {
        case .visualConsent(let step): step.identifier
        case .sharing(let step): step.identifier
        case .review(let step): step.identifier
        case .document(let step): step.identifier
        }
    }

    /// The step's `type` in JSON.
    public var type: String {
        switch self {
        case .visualConsent: "visualConsent"
        case .sharing: "consentSharing"
        case .review: "consentReview"
        case .document: "consentDocument"
        }
    }

    /// The faults that keep the step from being built for `document`, with paths inside the step object.
    public func problems(for document: ConsentDocument) -> [ConsentDefinitionError] {
        switch self {
        case .visualConsent(let step): step.problems(for: document)
        case .sharing(let step): step.problems(for: document)
        case .review(let step): step.problems(for: document)
        case .document(let step): step.problems(for: document)
        }
    }

    /// The Research steps the step expands into, in order.
    public func steps(for document: ConsentDocument, context: ConsentContext) throws(ConsentValidationFailure) -> [Step] {
        switch self {
        case .visualConsent(let step): try step.steps(for: document, context: context)
        case .sharing(let step): try step.steps(for: document, context: context)
        case .review(let step): try step.steps(for: document, context: context)
        case .document(let step): try step.steps(for: document, context: context)
        }
    }

    /// The signature result a review or document step collected; nil for other steps, or when the document
    /// step was never shown.
    public func signatureResult(from result: TaskResult, finishReason: FinishReason, document: ConsentDocument) -> ConsentSignatureResult? {
        switch self {
        case .review(let step): step.signatureResult(from: result, finishReason: finishReason, document: document)
        case .document(let step): step.signatureResult(from: result, finishReason: finishReason, document: document)
        case .visualConsent, .sharing: nil
        }
    }

    /// The keys a step object of `type` may have, `type` included; nil for a type that is not a consent step.
    static func knownKeys(type: String) -> [String]? {
        let keys: [String]
        switch type {
        case "visualConsent": keys = VisualConsentStep.CodingKeys.allCases.map(\.stringValue)
        case "consentSharing": keys = ConsentSharingStep.CodingKeys.allCases.map(\.stringValue)
        case "consentReview": keys = ConsentReviewStep.CodingKeys.allCases.map(\.stringValue)
        case "consentDocument": keys = ConsentDocumentStep.CodingKeys.allCases.map(\.stringValue)
        default: return nil
        }
        return ["type"] + keys
    }
}

extension ConsentStep: Codable {
    private enum CodingKeys: String, CodingKey { case type }

    /// Reads a consent step; `type` picks the kind, whose keys sit beside it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "visualConsent": self = .visualConsent(try VisualConsentStep(from: decoder))
        case "consentSharing": self = .sharing(try ConsentSharingStep(from: decoder))
        case "consentReview": self = .review(try ConsentReviewStep(from: decoder))
        case "consentDocument": self = .document(try ConsentDocumentStep(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription:
                "'\(type)' is not a consent step; expected one of \(ConsentStep.types.sorted().joined(separator: ", "))")
        }
    }

    /// Writes the step with its `type` beside its own keys.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        switch self {
        case .visualConsent(let step): try step.encode(to: encoder)
        case .sharing(let step): try step.encode(to: encoder)
        case .review(let step): try step.encode(to: encoder)
        case .document(let step): try step.encode(to: encoder)
        }
    }
}
