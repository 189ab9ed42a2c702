import Foundation
import Research

/// What the QuestionnaireResponse code needs to know about one Questionnaire item: where it sits, its type,
/// and for choices and quantities the values answers may take.
struct FHIRQuestionnaireItemDefinition: Hashable, Sendable {
    /// The item's `linkId` (its JSON path when it has none, as the importer does).
    var linkId: String
    /// The item's `text`, copied into the response.
    var text: String?
    /// The FHIR item type: `group`, `display`, `boolean`, `choice`, `quantity`…
    var type: String
    /// Whether the item takes several answers.
    var repeats: Bool
    /// Where the item is in the Questionnaire JSON, such as `item[0].item[3]`.
    var path: String
    /// The enclosing item's linkId; nil at the top level.
    var parentLinkId: String?
    /// The linkIds of the nested items, in order.
    var childLinkIds: [String]
    /// The allowed answers: of a choice or open-choice item, from `answerOption` or a contained ValueSet; of an
    /// integer, date, time or string item, from `answerOption` when it has a fixed list (empty otherwise).
    var answerOptions: [FHIRAnswerOption]
    /// For quantity items: the unit the `questionnaire-unit` extension gives.
    var unit: FHIRAnswerCoding?

    /// Whether the item is asked (not a group or display item).
    var isQuestion: Bool { type != "group" && type != "display" }

    /// Whether the answer is picked from a list (a choice item, or another item with a fixed `answerOption` list).
    var answersFromList: Bool { type == "choice" || type == "open-choice" || !answerOptions.isEmpty }

    /// The option an answer's chosen value stands for; options compare by their stored value.
    func option(for value: ChoiceValue) -> FHIRAnswerOption? {
        answerOptions.first { $0.choiceValue == value }
    }
}
