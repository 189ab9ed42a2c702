import Foundation

/// One repetition of a repeating group: the group's linkId and which repetition it is, counting from 1.
public struct FHIRGroupRepetition: Hashable, Sendable, CustomStringConvertible {
    /// The repeating group's `linkId`.
    public var linkId: String
    /// Which repetition: 1 for the first.
    public var index: Int

    /// Creates a reference to repetition `index` (from 1) of the group `linkId`.
    public init(linkId: String, index: Int) {
        self.linkId = linkId
        self.index = index
    }

    /// `linkId#index`, as import issues and tests name a repetition.
    public var description: String { "\(linkId)#\(index)" }
}

/// How an imported task asks a Questionnaire's repeating groups (`type: group`, `repeats: true`).
///
/// A repeating group is asked as the participant needs it, up to ``limits`` times: its steps are laid out once per
/// repetition, and after each repetition but the last a yes/no step asks "Add another …?". The steps of repetition
/// *k*+1 (and its own "Add another" step) are skipped unless every "Add another" step before them was answered yes,
/// so a participant with one relative answers one repetition and says no once.
///
/// The task keeps each question's `linkId` as its form item identifier in every repetition; this layout says which
/// repetition each step belongs to, so that ``FHIRQuestionnaireResponseBuilder`` writes one response item per
/// repetition (sibling items with the group's linkId, as R4 wants a repeating group) and
/// ``FHIRQuestionnaireResponseReader`` reads them back to the right steps.
public struct FHIRRepetitionLayout: Hashable, Sendable {
    /// For each step inside a repeating group, the repetitions it belongs to, outermost group first; a step
    /// outside every repeating group is not listed.
    public var repetitionsOfStep: [String: [FHIRGroupRepetition]]
    /// The "Add another" steps: for each, the repetition it follows (outermost first, the repeating group last).
    public var addAnotherSteps: [String: [FHIRGroupRepetition]]
    /// The most repetitions the task asks of each repeating group, by linkId.
    public var limits: [String: Int]

    /// Creates a layout; an empty one for a Questionnaire without repeating groups.
    public init(repetitionsOfStep: [String: [FHIRGroupRepetition]] = [:], addAnotherSteps: [String: [FHIRGroupRepetition]] = [:],
                limits: [String: Int] = [:]) {
        self.repetitionsOfStep = repetitionsOfStep
        self.addAnotherSteps = addAnotherSteps
        self.limits = limits
    }

    /// The repetitions a step belongs to; empty for a step outside every repeating group.
    public func repetitions(ofStep identifier: String) -> [FHIRGroupRepetition] {
        repetitionsOfStep[identifier] ?? []
    }

    /// How many times a repeating group may be asked when no `questionnaire-maxOccurs` says otherwise.
    public static let defaultLimit = 10

    /// The most repetitions `questionnaire-maxOccurs` may ask for; a larger value is asked this many times, with a note.
    public static let largestLimit = 50
}
