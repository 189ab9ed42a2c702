import Foundation
import Research

/// Asks whether the participant's data may be shared beyond the investigators: a required single-choice
/// question whose answer is ``ConsentSharingChoice/shareWidely`` or ``ConsentSharingChoice/investigatorsOnly``.
///
/// It expands to one question step with the same identifier, so conditions can read it directly
/// (`consentSharing == "shareWidely"`).
///
/// JSON in a task's steps:
/// `{"type": "consentSharing", "identifier": "sharing", "investigatorShortDescription": "the Recover team",
///   "investigatorLongDescription": "the Recover team and its partner clinics", "learnMoreHTML": "<p>…</p>"}`.
public struct ConsentSharingStep: Hashable, Sendable {
    /// The step's identifier.
    public var identifier: String
    /// Who the investigators are, in a few words; fills the two choices ("Only share my data with %@").
    public var investigatorShortDescription: String
    /// Who the investigators are, in full; fills the explanation under the title.
    public var investigatorLongDescription: String
    /// HTML the step's "learn more" link shows; nil for no link.
    public var learnMoreHTML: String?

    /// Creates a sharing step; see the properties for each setting.
    public init(identifier: String, investigatorShortDescription: String, investigatorLongDescription: String, learnMoreHTML: String? = nil) {
        self.identifier = identifier
        self.investigatorShortDescription = investigatorShortDescription
        self.investigatorLongDescription = investigatorLongDescription
        self.learnMoreHTML = learnMoreHTML
    }

    /// The faults that keep the step from being built, with paths inside the step object.
    public func problems(for document: ConsentDocument) -> [ConsentDefinitionError] {
        var problems: [ConsentDefinitionError] = []
        func blank(_ text: String) -> Bool { text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        if blank(identifier) { problems.append(ConsentDefinitionError(path: "identifier", message: "must not be empty")) }
        if blank(investigatorShortDescription) {
            problems.append(ConsentDefinitionError(path: "investigatorShortDescription", message: "must not be empty"))
        }
        if blank(investigatorLongDescription) {
            problems.append(ConsentDefinitionError(path: "investigatorLongDescription", message: "must not be empty"))
        }
        if let html = learnMoreHTML, blank(html) {
            problems.append(ConsentDefinitionError(path: "learnMoreHTML", message: "must not be empty; leave it out for no link"))
        }
        return problems
    }

    /// The question step; throws ``ConsentValidationFailure`` with ``problems(for:)``.
    public func steps(for document: ConsentDocument, context: ConsentContext) throws(ConsentValidationFailure) -> [Step] {
        let problems = problems(for: document)
        guard problems.isEmpty else { throw ConsentValidationFailure(problems: problems) }
        let short = investigatorShortDescription
        let format = TextChoiceFormat(style: .single, choices: [
            TextChoice(text: context.string(.sharingShareWidely, for: document, short),
                       value: .string(ConsentSharingChoice.shareWidely.rawValue)),
            TextChoice(text: context.string(.sharingInvestigatorsOnly, for: document, short),
                       value: .string(ConsentSharingChoice.investigatorsOnly.rawValue)),
        ])
        let learnMore = learnMoreHTML.map {
            LearnMoreItem(linkText: context.string(.learnMore, for: document), text: HTMLEscaping.plainText(fromHTML: $0), html: $0)
        }
        return [Step(identifier: identifier, kind: .question(.textChoice(format)), title: context.string(.sharingTitle, for: document),
                     detailText: context.string(.sharingText, for: document, investigatorLongDescription), isOptional: false,
                     learnMore: learnMore)]
    }

    /// The participant's choice in `result`; nil when the step was not answered.
    public func choice(from result: TaskResult) -> ConsentSharingChoice? {
        guard case .choices(let selections)? = result.answer(step: identifier), let first = selections.first,
              case .string(let value) = first.value else { return nil }
        return ConsentSharingChoice(rawValue: value)
    }
}

extension ConsentSharingStep: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, investigatorShortDescription, investigatorLongDescription, learnMoreHTML
    }
}
