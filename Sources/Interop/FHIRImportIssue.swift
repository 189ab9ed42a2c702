import Foundation
import Research

/// Something in a FHIR Questionnaire that the importer could not carry over as written, or left aside.
///
/// Every construct the importer does not take is reported here with the item's `linkId` and a JSON path
/// (such as `item[0].item[3]`), so that nothing is dropped silently. Most issues refuse the form
/// (``refusesImport``); notes about extensions that do not change what is asked or how answers are checked do not
/// (see ``FHIRExtensionPolicy``).
public struct FHIRImportIssue: Hashable, Sendable, CustomStringConvertible {
    /// What kind of construct was not carried over.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// An item type the task cannot ask (`attachment`, `reference`, or an unknown type); the item is left out.
        case unsupportedItem
        /// An item property the task cannot express (such as `initial` on a boolean, or an external `answerValueSet`).
        case unsupportedProperty
        /// An extension whose omission would change what is asked or how answers are checked: one
        /// ``FHIRExtensionPolicy`` refuses, an accepted one under its refusal condition, a `modifierExtension` the
        /// importer does not read, or a supported one that is malformed or in a language it cannot evaluate.
        case unsupportedExtension
        /// An extension ``FHIRExtensionPolicy`` accepts without effect: left aside, with why. Does not refuse the form.
        case acceptedExtension
        /// An ordinary extension (not a `modifierExtension`) that the policy does not list, or that sits where it has no
        /// meaning: FHIR lets a reader ignore it, so it is ignored. Does not refuse the form.
        case ignoredExtension
        /// An `enableWhen` the importer cannot turn into a condition (unknown question, ordering a Coding, a
        /// forward reference); the item's whole condition is left out, so the item is always shown.
        case unsupportedCondition
        /// An `enableWhen` whose answer type does not fit the question it names; it is not evaluated, and the
        /// item's whole condition is left out, so the item is always shown.
        case mismatchedCondition
        /// A `readOnly` item: the task has no read-only questions, so the item is left out.
        case readOnlySkipped
        /// How many times a repeating group is asked at most, when the Questionnaire sets no limit or a larger one than
        /// ``FHIRRepetitionLayout/largestLimit``. Does not refuse the form.
        case repetitionLimit
        /// An item shown with another control than its `itemControl` asks for (a drop-down list as check boxes); what is
        /// asked and how answers are checked are the same. Does not refuse the form.
        case shownDifferently
        /// An `enableWhen` that compares a question with Coding options with a code written as `answerString`,
        /// `answerInteger` or `answerDecimal`: it is read as a test of the chosen options' codes. Does not refuse the form.
        case interpretedCondition

        /// Whether an issue of this kind keeps the Questionnaire from importing whole: every kind but the notes
        /// ``acceptedExtension``, ``ignoredExtension``, ``repetitionLimit``, ``shownDifferently`` and ``interpretedCondition``.
        public var refusesImport: Bool {
            switch self {
            case .acceptedExtension, .ignoredExtension, .repetitionLimit, .shownDifferently, .interpretedCondition: false
            case .unsupportedItem, .unsupportedProperty, .unsupportedExtension, .unsupportedCondition, .mismatchedCondition,
                 .readOnlySkipped: true
            }
        }
    }

    /// What kind of construct was not carried over.
    public var kind: Kind
    /// The `linkId` of the item concerned; nil for the Questionnaire itself.
    public var linkId: String?
    /// For a condition issue, the `linkId` of the question the `enableWhen` names.
    public var otherLinkId: String?
    /// Where in the Questionnaire JSON, such as `item[0].item[3].enableWhen[0]`.
    public var path: String
    /// Why it was not carried over.
    public var message: String
    /// For an extension issue, the extension's URL; nil otherwise.
    public var extensionURL: String?

    /// Creates an issue; see the properties for each part.
    public init(kind: Kind, linkId: String?, otherLinkId: String? = nil, path: String, message: String, extensionURL: String? = nil) {
        self.kind = kind
        self.linkId = linkId
        self.otherLinkId = otherLinkId
        self.path = path
        self.message = message
        self.extensionURL = extensionURL
    }

    /// Whether the issue keeps the Questionnaire from importing whole (see ``Kind/refusesImport``).
    public var refusesImport: Bool { kind.refusesImport }

    /// `path (linkId 'x'): message`.
    public var description: String {
        let name = linkId.map { " (linkId '\($0)')" } ?? ""
        return "\(path.isEmpty ? "Questionnaire" : path)\(name): \(message)"
    }
}

/// A FHIR Questionnaire that could not be imported, or (from ``FHIRQuestionnaireImport/requireComplete()``)
/// one that imported only in part.
public struct FHIRImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Each problem, naming the linkId and path where there is one.
    public var issues: [FHIRImportIssue]

    /// Creates an error from its problems.
    public init(issues: [FHIRImportIssue]) { self.issues = issues }

    /// The problems, one a line.
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}

/// The outcome of importing a Questionnaire: the task, and every construct that was not carried over or left aside.
public struct FHIRQuestionnaireImport: Hashable, Sendable {
    /// The task built from the Questionnaire's supported items.
    public var task: ResearchTask
    /// Everything left out, changed or left aside, in document order: the ``refusals`` and the ``notes``.
    public var issues: [FHIRImportIssue]
    /// Which steps of ``task`` ask which repetition of a repeating group, and which ask "Add another".
    public var repetitions: FHIRRepetitionLayout

    /// Creates an import outcome.
    public init(task: ResearchTask, issues: [FHIRImportIssue], repetitions: FHIRRepetitionLayout = FHIRRepetitionLayout()) {
        self.task = task
        self.issues = issues
        self.repetitions = repetitions
    }

    /// The issues that keep the Questionnaire from importing whole; empty when it came over whole.
    public var refusals: [FHIRImportIssue] { issues.filter(\.refusesImport) }

    /// The notes: extensions left aside and controls shown differently, because they do not change what is asked or how
    /// answers are checked; repetition limits; conditions read by their codes.
    public var notes: [FHIRImportIssue] { issues.filter { !$0.refusesImport } }

    /// The task, or an error listing every refusal when anything was left out: for callers that must run the
    /// Questionnaire as written or not at all. Notes do not stop it.
    public func requireComplete() throws(FHIRImportError) -> ResearchTask {
        let refusals = refusals
        guard refusals.isEmpty else { throw FHIRImportError(issues: refusals) }
        return task
    }
}
