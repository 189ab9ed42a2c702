import Foundation
import Research

/// A FHIR R4 Questionnaire read once, with the task imported from it: what
/// ``FHIRQuestionnaireResponseBuilder`` and ``FHIRQuestionnaireResponseReader`` need to turn task results into
/// QuestionnaireResponses and back.
///
/// The value is `Sendable` and immutable: build it once per Questionnaire and share it between tasks. It keeps
/// the Questionnaire's canonical identity (``url``, ``version``), its item tree (linkIds, nesting, texts, types,
/// answer options, units) and the ``task`` that ``FHIRQuestionnaireImporter`` builds from it, whose form items
/// carry the linkIds.
///
/// ```swift
/// let questionnaire = try FHIRQuestionnaire(questionnaireJSON)
/// let json = try FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire)
///     .response(for: result, status: .completed, timeZone: .current)
/// ```
public struct FHIRQuestionnaire: Sendable {
    /// The Questionnaire's canonical `url`; nil when it has none.
    public let url: String?
    /// The Questionnaire's business `version`; nil when it has none.
    public let version: String?
    /// The Questionnaire's logical `id`; nil when it has none.
    public let logicalId: String?
    /// The task imported from the Questionnaire; its form items are identified by linkId.
    public let task: ResearchTask
    /// What the import did not carry over (see ``FHIRQuestionnaireImport/issues``): items listed there are
    /// not asked, so responses cannot answer them.
    public let importIssues: [FHIRImportIssue]

    /// Every item by linkId, groups and display items included.
    let items: [String: FHIRQuestionnaireItemDefinition]
    /// The linkIds of the top-level items, in order.
    let topLevelLinkIds: [String]
    /// The identifier of the step that asks each question of the task, by linkId (the first repetition's, in a
    /// repeating group).
    let stepIdentifiers: [String: String]
    /// The identifier of the step that asks each question in each repetition of the repeating groups around it.
    let stepOfQuestion: [FHIRQuestionPlace: String]
    /// Which steps of ``task`` belong to which repetition of a repeating group, and which ask "Add another".
    public let repetitions: FHIRRepetitionLayout
    /// The answer format of each question of the task, by linkId.
    let formats: [String: AnswerFormat]

    /// The reference a response's `questionnaire` carries: `url|version`, or `url` when there is no version;
    /// without a `url`, the ``fallbackCanonical`` the reader was given (nil when none).
    public var canonical: String? {
        guard let url else { return fallbackCanonical }
        return version.map { "\(url)|\($0)" } ?? url
    }

    /// What a response names the Questionnaire by when it has no `url`: a study gives its own URN.
    public var fallbackCanonical: String?

    /// Reads a Questionnaire and imports its task with ``FHIRQuestionnaireImporter``, resolving `answerValueSet`
    /// URLs from `valueSets` (ValueSet JSON by canonical URL, as the importer takes them).
    ///
    /// Throws what the importer throws: when the data is not a JSON Questionnaire or no step could be built.
    /// Items the import leaves out are listed in ``importIssues``; a response that answers them is refused.
    ///
    /// - Parameters:
    ///   - taskIdentifier: The task's identifier, as ``FHIRQuestionnaireImporter/importQuestionnaire(_:taskIdentifier:)`` takes it.
    ///   - fallbackCanonical: What responses name the Questionnaire by when it has no `url` (see ``canonical``).
    public init(_ data: Data, valueSets external: [String: Data] = [:], taskIdentifier: String? = nil,
                fallbackCanonical: String? = nil) throws(FHIRImportError) {
        let imported = try FHIRQuestionnaireImporter(valueSets: external).importQuestionnaire(data, taskIdentifier: taskIdentifier)
        self.fallbackCanonical = fallbackCanonical
        let resource: FHIRJSONValue
        do {
            resource = try FHIRJSONValue(parsing: data)
        } catch {
            throw FHIRImportError(issues: [FHIRImportIssue(kind: .unsupportedProperty, linkId: nil, path: "",
                                                           message: "not valid JSON: \(error.localizedDescription)")])
        }
        url = resource["url"]?.string
        version = resource["version"]?.string
        logicalId = resource["id"]?.string
        task = imported.task
        importIssues = imported.issues

        // Contained ValueSets by `#id`, the others by canonical URL.
        var valueSets: [String: FHIRJSONValue] = [:]
        for contained in resource["contained"]?.array ?? [] where contained["resourceType"]?.string == "ValueSet" {
            if let id = contained["id"]?.string { valueSets["#" + id] = contained }
        }
        for (url, data) in external { valueSets[url] = try? FHIRJSONValue(parsing: data) }
        var items: [String: FHIRQuestionnaireItemDefinition] = [:]
        topLevelLinkIds = Self.collect(resource["item"]?.array ?? [], parent: nil, path: "", valueSets: valueSets,
                                       into: &items)
        self.items = items

        var steps: [String: String] = [:]
        var places: [FHIRQuestionPlace: String] = [:]
        var formats: [String: AnswerFormat] = [:]
        repetitions = imported.repetitions
        for step in imported.task.steps where imported.repetitions.addAnotherSteps[step.identifier] == nil {
            let stepRepetitions = imported.repetitions.repetitions(ofStep: step.identifier)
            for question in step.questions {
                if steps[question.identifier] == nil { steps[question.identifier] = step.identifier }
                places[FHIRQuestionPlace(linkId: question.identifier, repetitions: stepRepetitions)] = step.identifier
                formats[question.identifier] = question.format
            }
        }
        stepIdentifiers = steps
        stepOfQuestion = places
        self.formats = formats
    }

    /// The item with this linkId, when the Questionnaire has one.
    func item(_ linkId: String) -> FHIRQuestionnaireItemDefinition? { items[linkId] }

    /// Whether the task asks the question `linkId` (the importer may have left it out).
    func isAsked(_ linkId: String) -> Bool { stepIdentifiers[linkId] != nil }

    /// The most repetitions the task asks of `linkId`; nil when it is not a repeating group the task asks.
    func repetitionLimit(of linkId: String) -> Int? { repetitions.limits[linkId] }

    /// Records `elements` (the children of `parent`, at `path`) and their descendants; returns their linkIds.
    /// A linkId used twice (which FHIR forbids) keeps its first item.
    private static func collect(_ elements: [FHIRJSONValue], parent: String?, path: String,
                                valueSets: [String: FHIRJSONValue],
                                into items: inout [String: FHIRQuestionnaireItemDefinition]) -> [String] {
        var linkIds: [String] = []
        for (index, element) in elements.enumerated() {
            guard element.object != nil else { continue }
            let itemPath = path.isEmpty ? "item[\(index)]" : "\(path).item[\(index)]"
            let linkId = element["linkId"]?.string ?? itemPath
            guard items[linkId] == nil else { continue }
            let type = element["type"]?.string ?? "?"
            var definition = FHIRQuestionnaireItemDefinition(
                linkId: linkId, text: element["text"]?.string, type: type, repeats: element["repeats"]?.bool == true,
                path: itemPath, parentLinkId: parent, childLinkIds: [],
                answerOptions: FHIRItemType.takesAnswerList(type, options: element["answerOption"]?.array?.count ?? 0)
                    ? answerOptions(of: element, valueSets: valueSets) : [],
                unit: type == "quantity" ? unit(of: element) : nil)
            items[linkId] = definition
            definition.childLinkIds = collect(element["item"]?.array ?? [], parent: linkId, path: itemPath,
                                              valueSets: valueSets, into: &items)
            items[linkId] = definition
            linkIds.append(linkId)
        }
        return linkIds
    }

    /// The options of a choice item, read as the importer reads them: `answerOption` values, or the concepts of
    /// a contained ValueSet (`#id`) with their include's system, or its expansion when it lists no concepts.
    private static func answerOptions(of item: FHIRJSONValue, valueSets: [String: FHIRJSONValue]) -> [FHIRAnswerOption] {
        if let options = item["answerOption"]?.array, !options.isEmpty {
            return options.compactMap { option -> FHIRAnswerOption? in
                if let coding = FHIRAnswerCoding(option["valueCoding"]), let code = coding.code { return .coding(coding, code: code) }
                if let number = option["valueInteger"]?.number, let value = FHIRValueText.integer(number) { return .integer(value) }
                if let value = option["valueString"]?.string { return .string(value) }
                if let value = option["valueDate"]?.string { return .date(value) }
                if let value = option["valueTime"]?.string { return .time(value) }
                return nil
            }
        }
        guard let reference = item["answerValueSet"]?.string,
              let valueSet = valueSets[reference.hasPrefix("#") ? reference : String(reference.split(separator: "|").first ?? "")] else {
            return []
        }
        // As the importer reads them: the expansion when it lists codes, else the compose's concepts.
        var options: [FHIRAnswerOption] = []
        for entry in valueSet["expansion"]?["contains"]?.array ?? [] {
            if let coding = FHIRAnswerCoding(entry), let code = coding.code { options.append(.coding(coding, code: code)) }
        }
        if options.isEmpty {
            for include in valueSet["compose"]?["include"]?.array ?? [] {
                let system = include["system"]?.string
                for concept in include["concept"]?.array ?? [] {
                    if let coding = FHIRAnswerCoding(concept, defaultSystem: system), let code = coding.code {
                        options.append(.coding(coding, code: code))
                    }
                }
            }
        }
        return options
    }

    /// The Coding of a quantity item's `questionnaire-unit` extension.
    private static func unit(of item: FHIRJSONValue) -> FHIRAnswerCoding? {
        let unitURL = "http://hl7.org/fhir/StructureDefinition/questionnaire-unit"
        let unitExtension = item["extension"]?.array?.first { $0["url"]?.string == unitURL }
        return FHIRAnswerCoding(unitExtension?["valueCoding"])
    }
}

/// Where a question is answered: its linkId, in a repetition of each repeating group around it (outermost first).
struct FHIRQuestionPlace: Hashable, Sendable {
    /// The question's linkId.
    var linkId: String
    /// The repetitions of the repeating groups around it; empty outside every repeating group.
    var repetitions: [FHIRGroupRepetition]
}
