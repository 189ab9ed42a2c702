import Foundation

/// One problem found while turning a task result into a QuestionnaireResponse or a QuestionnaireResponse
/// into a task result, with the item's `linkId` and where it is.
///
/// For a response being read, ``path`` is a JSON path in the QuestionnaireResponse, such as
/// `item[0].item[3].answer[0]`; for a result being written, it is a path in the task result's JSON, such as
/// `stepResults[2].results[0]`.
public struct FHIRResponseIssue: Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The data is not a JSON QuestionnaireResponse, or a resource-level element (`status`, `authored`,
        /// `subject`, `author`, `item`) is missing or malformed.
        case invalidResource
        /// The response's `questionnaire` does not name this Questionnaire (its `url`, and `version` when given).
        case questionnaireMismatch
        /// The task result is the result of another task.
        case taskMismatch
        /// An item (or a question result) names a linkId the Questionnaire does not have.
        case unknownLinkId
        /// An item names a linkId of the Questionnaire, but not where the Questionnaire has it.
        case misplacedItem
        /// Two sibling items share a linkId (FHIR `qrs-2`: repeated answers go in one item), or a repeating group
        /// appears more often than the task asks it.
        case duplicateItem
        /// A group or display item is given answers; only questions take answers.
        case notAQuestion
        /// The item is a question of the Questionnaire that the task does not ask (the import left it out,
        /// see ``FHIRQuestionnaire/importIssues``), or is nested under a question.
        case itemNotInTask
        /// An item breaks the QuestionnaireResponse structure: no `linkId`, both `answer` and `item` (FHIR
        /// `qrs-1`), or an answer without exactly one `value[x]`.
        case invalidItem
        /// The answer's type does not fit the item's type (such as `valueString` for a boolean item, a partial
        /// date, or text for a number question), or cannot be written in FHIR (such as "I don't know").
        case wrongValueType
        /// A choice answer is not among the item's options (a Coding whose code or system is not listed).
        case unknownOption
        /// A question that does not repeat has more than one answer.
        case tooManyAnswers
        /// A quantity answer is in a unit other than the one the Questionnaire gives.
        case mismatchedUnit
        /// The answer does not pass the task's checks for the question (such as a `maxLength` or a URL
        /// pattern); the message is the one the participant would have seen.
        case invalidAnswer
        /// An item is answered although its `enableWhen` is not met, so it is disabled.
        case disabledItem
        /// A `completed` response leaves a required question unanswered, where it is enabled (in each repetition of
        /// a repeating group that the response holds).
        case missingAnswer
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The linkId of the item concerned; nil for a resource-level problem.
    public var linkId: String?
    /// Where the problem is: a JSON path in the response being read, or in the task result being written.
    public var path: String
    /// What is wrong.
    public var message: String

    /// Creates an issue; see the properties for each part.
    public init(kind: Kind, linkId: String?, path: String, message: String) {
        self.kind = kind
        self.linkId = linkId
        self.path = path
        self.message = message
    }

    /// `path (linkId 'x'): message`.
    public var description: String {
        let name = linkId.map { " (linkId '\($0)')" } ?? ""
        return "\(path.isEmpty ? "QuestionnaireResponse" : path)\(name): \(message)"
    }
}
