import Foundation
import Research
import StudyKitEnvironment

/// Evaluates the calculated items of tasks imported from FHIR Questionnaires (SDC `calculatedExpression`, in
/// `text/fhirpath`) the way an SDC form filler does: against a QuestionnaireResponse made from the answers so far.
///
/// For each value the run's result so far becomes an in-progress QuestionnaireResponse
/// (``FHIRQuestionnaireResponseBuilder``), which is `%resource` and the starting focus; the Questionnaire is
/// `%questionnaire`, so that `ordinal()` finds the options' `ordinalValue`s. The Questionnaire's own `variable`
/// extensions, then those of the item's enclosing items and of the item itself, are evaluated in that order first
/// and are visible by name (`%score`) to the ones after them and to the expression. The expression must give
/// nothing (no value yet) or one value of the item's type: a number for numeric items (an integer, a decimal or a
/// quantity's value), text for text items, true or false for yes/no items.
///
/// ```swift
/// let calculator = try FHIRPathTaskCalculator(questionnaires: [phq9Data])
/// let session = try TaskSession(task: phq9Task, environment: .live, calculator: calculator)
/// ```
public struct FHIRPathTaskCalculator: TaskCalculator {
    /// One Questionnaire, read once, with its expressions parsed once.
    struct Entry: Sendable {
        let questionnaire: FHIRQuestionnaire
        let json: FHIRJSON
        /// `variable` extensions of the Questionnaire root, then by linkId those of each item, each as (name, expression).
        let rootVariables: [(String, FHIRPathExpression)]
        let itemVariables: [String: [(String, FHIRPathExpression)]]
        /// The linkIds of each item's enclosing items, outermost first.
        let ancestors: [String: [String]]
        /// The calculated and enableWhen expressions, parsed, by their text.
        let expressions: [String: FHIRPathExpression]
        /// Each item's JSON by linkId (`%qitem`).
        let items: [String: FHIRJSON]
        /// The `launchContext` variables the Questionnaire declares; each is empty (nothing is launched with it).
        let launchContext: Set<String>
    }

    let entries: [String: Entry]
    /// The participant the runs are for, as the Patient `%patient` reads; nil until ``launched(for:)``.
    let patient: FHIRJSON?

    /// Reads Questionnaires (JSON) and parses every `variable` and `calculatedExpression` in them; their tasks are
    /// found by the task identifier the importer gives them. `valueSets` resolve `answerValueSet` URLs as the importer does.
    ///
    /// - Throws: ``FHIRImportError`` naming the linkId and path of the first expression that does not parse (with
    ///   the parser's message and offset), or of a Questionnaire that does not import.
    public init(questionnaires: [Data], valueSets: [String: Data] = [:]) throws(FHIRImportError) {
        try self.init(questionnaires: questionnaires.map { (nil, $0) }, valueSets: valueSets)
    }

    /// Reads Questionnaires (JSON) as ``init(questionnaires:valueSets:)`` does, each with the task identifier its
    /// task was imported with (a study's, for a form without an `id`), by that identifier.
    public init(questionnairesByTask: [String: Data], valueSets: [String: Data] = [:]) throws(FHIRImportError) {
        try self.init(questionnaires: questionnairesByTask.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, valueSets: valueSets)
    }

    private init(questionnaires: [(taskIdentifier: String?, data: Data)], valueSets: [String: Data]) throws(FHIRImportError) {
        var entries: [String: Entry] = [:]
        for (taskIdentifier, data) in questionnaires {
            let questionnaire = try FHIRQuestionnaire(data, valueSets: valueSets, taskIdentifier: taskIdentifier)
            let json: FHIRJSON
            do { json = try FHIRJSON(data: data) } catch {
                throw FHIRImportError(issues: [FHIRImportIssue(kind: .unsupportedProperty, linkId: nil, path: "", message: "\(error)")])
            }
            var scan = ExpressionScan()
            scan.variables(of: json, linkId: nil, path: "")
            scan.items(json["item"]?.arrayValue ?? [], ancestors: [], path: "")
            if let failure = scan.failure { throw FHIRImportError(issues: [failure]) }
            let launchContext = Self.launchContextNames(json)
            let problems = scan.problems(launchContext: launchContext)
            if !problems.isEmpty { throw FHIRImportError(issues: problems) }
            // The constant expressions the importer writes for `initial` answers (`'a' | 'b'`, `true`).
            let formItems = questionnaire.task.steps.flatMap { step -> [FormItem] in
                if case .form(let form) = step.kind { form.items } else { [] }
            }
            for item in formItems {
                guard let text = item.initialValue?.expression, scan.calculated[text] == nil else { continue }
                do {
                    scan.calculated[text] = try FHIRPathExpression(text)
                } catch {
                    throw FHIRImportError(issues: [FHIRImportIssue(kind: .unsupportedProperty, linkId: item.identifier, path: "initial",
                                                                   message: "the initial answer '\(text)' does not parse: \(error)")])
                }
            }
            entries[questionnaire.task.identifier] = Entry(questionnaire: questionnaire, json: json, rootVariables: scan.root,
                                                           itemVariables: scan.byItem, ancestors: scan.ancestors,
                                                           expressions: scan.calculated, items: scan.itemJSON,
                                                           launchContext: launchContext)
        }
        self.entries = entries
        self.patient = nil
    }

    private init(entries: [String: Entry], patient: FHIRJSON?) {
        self.entries = entries
        self.patient = patient
    }

    /// This calculator for one participant's runs: `%patient` is a Patient with the participant's `id`, `name` (given
    /// and family, as signed on the consent), `birthDate` and `gender`, each part only when known.
    public func launched(for participant: ParticipantDetails) -> any TaskCalculator {
        FHIRPathTaskCalculator(entries: entries, patient: Self.patient(participant))
    }

    /// The Patient resource for `participant`.
    static func patient(_ participant: ParticipantDetails) -> FHIRJSON {
        var members: [String: FHIRJSONValue] = ["resourceType": .string("Patient"), "id": .string(participant.patientID)]
        var name: [String: FHIRJSONValue] = [:]
        if let given = participant.givenName, !given.isEmpty {
            name["given"] = .array(given.split(separator: " ").map { .string(String($0)) })
        }
        if let family = participant.familyName, !family.isEmpty { name["family"] = .string(family) }
        if !name.isEmpty { members["name"] = .array([.object(name)]) }
        if let birthDate = participant.birthDate { members["birthDate"] = .string(birthDate) }
        if let gender = participant.gender { members["gender"] = .string(gender) }
        return FHIRJSONValue.object(members).fhirJSON
    }

    /// The names of the Questionnaire's SDC `launchContext` extensions (`patient`, `user`…): variables a form filler
    /// supplies. StudyKit supplies none yet, so an expression that reads one gives nothing where it reads it.
    static func launchContextNames(_ json: FHIRJSON) -> Set<String> {
        let url = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-launchContext"
        var names: Set<String> = []
        for context in json["extension"]?.arrayValue ?? [] where context["url"]?.stringValue == url {
            for part in context["extension"]?.arrayValue ?? [] where part["url"]?.stringValue == "name" {
                if let name = part["valueCoding"]?["code"]?.stringValue ?? part["valueId"]?.stringValue { names.insert(name) }
            }
        }
        return names
    }

    /// The value of `item` from the answers in `result`; see the type's description for how it is computed.
    public func value(of item: FormItem, calculation: ItemCalculation, task: ResearchTask,
                      result: TaskResult, environment runEnvironment: StudyKitEnvironment) throws(TaskCalculationError) -> Answer? {
        let linkId = item.identifier ?? ""
        func fail(_ message: String) -> TaskCalculationError { TaskCalculationError(item: linkId, message: message) }
        guard calculation.language == "text/fhirpath" else { throw fail("only text/fhirpath expressions are evaluated here") }
        guard let entry = entries[task.identifier] else { throw fail("task '\(task.identifier)' comes from no Questionnaire this calculator read") }
        let response: FHIRJSON
        do {
            response = try FHIRQuestionnaireResponseBuilder(questionnaire: entry.questionnaire)
                .responseJSON(for: result, status: .inProgress, timeZone: TimeZone(identifier: "UTC")!)
        } catch {
            throw fail("the answers so far do not make a QuestionnaireResponse: \(error.issues.map(\.description).joined(separator: "; "))")
        }
        var environment: [String: FHIRPathCollection] = ["questionnaire": [.resource(entry.json, root: "questionnaire")]]
        if let item = entry.items[linkId] { environment["qitem"] = [.resource(item, root: "qitem")] }
        for name in entry.launchContext { environment[name] = [] }
        if let patient, entry.launchContext.contains("patient") { environment["patient"] = [.resource(patient, root: "patient")] }
        let now = FHIRPathInstant(date: runEnvironment.now(), timeZone: runEnvironment.timeZone)
        let scopes = [entry.rootVariables] + (entry.ancestors[linkId] ?? []).map { entry.itemVariables[$0] ?? [] } + [entry.itemVariables[linkId] ?? []]
        do {
            for (name, expression) in scopes.joined() {
                environment[name] = try expression.evaluate(on: response, environment: environment, now: now)
            }
            guard let expression = entry.expressions[calculation.expression] else {
                throw fail("the expression is not one of the Questionnaire's expressions")
            }
            let values = try expression.evaluate(on: response, environment: environment, now: now)
            return try answer(values, for: item, timeZone: runEnvironment.timeZone, fail: fail)
        } catch let error as FHIRPathError {
            throw fail("\(error)")
        } catch let error as TaskCalculationError {
            throw error
        } catch {
            throw fail("\(error)")
        }
    }

    /// Whether an `enableWhenExpression` holds: it is evaluated as a calculated expression is (on the answers so far,
    /// with the Questionnaire's variables), and must give `true` or `false`; nothing counts as false, as SDC says.
    public func holds(_ condition: ItemCalculation, task: ResearchTask, result: TaskResult,
                      environment: StudyKitEnvironment) throws(TaskCalculationError) -> Bool {
        let item = FormItem(identifier: "enableWhenExpression", text: nil, answerFormat: .boolean(BooleanFormat()), calculation: condition)
        switch try value(of: item, calculation: condition, task: task, result: result, environment: environment) {
        case .boolean(let flag)?: return flag
        case nil: return false
        default: throw TaskCalculationError(item: "enableWhenExpression", message: "the expression does not give true or false")
        }
    }

    /// One value as the answer the item's format takes.
    private func answer(_ values: FHIRPathCollection, for item: FormItem, timeZone: TimeZone,
                        fail: (String) -> TaskCalculationError) throws(TaskCalculationError) -> Answer? {
        guard let value = values.first else { return nil }
        if values.count > 1, case .textChoice(let choices)? = item.answerFormat, choices.style == .multiple {
            // Several options of a multiple choice: each value names one.
            var selections: [ChoiceSelection] = []
            for each in values {
                guard case .choices(let one)? = try answer([each], for: item, timeZone: timeZone, fail: fail) else { continue }
                selections += one
            }
            return .choices(selections)
        }
        guard values.count == 1 else { throw fail("the expression gives \(values.count) values; a calculated item holds one") }
        let json = value.json
        switch item.answerFormat?.type.answerKind {
        case .date?:
            if let text = json.stringValue, let day = FHIRValueText.dateAnswer(text, timeZone: timeZone) ?? FHIRValueText.dateTimeAnswer(text, timeZone: timeZone) {
                return .date(day)
            }
            throw fail("the expression gives \(json.jsonString()), not a date")
        case .choices?:
            // A code, string or integer names the option with that value; a Coding by its code.
            if let code = json["code"]?.stringValue ?? json.stringValue { return .choices([ChoiceSelection(.string(code))]) }
            if let number = json.decimalValue, let integer = FHIRValueText.integer(number) { return .choices([ChoiceSelection(.integer(integer))]) }
            throw fail("the expression gives \(json.jsonString()), not an option's value")
        case .number?:
            if let number = json.decimalValue ?? json["value"]?.decimalValue { return .number(number) }
            throw fail("the expression gives \(json.jsonString()), not a number")
        case .text?:
            if let text = json.stringValue { return .text(text) }
            throw fail("the expression gives \(json.jsonString()), not text")
        case .boolean?:
            if let flag = json.boolValue { return .boolean(flag) }
            throw fail("the expression gives \(json.jsonString()), not true or false")
        default:
            throw fail("a calculated item of this format cannot be filled by FHIRPath")
        }
    }
}

/// Finds and parses the `variable`, `calculatedExpression`, `enableWhenExpression` and `initialExpression` extensions of a
/// Questionnaire, noting where each item is.
private struct ExpressionScan {
    var root: [(String, FHIRPathExpression)] = []
    var byItem: [String: [(String, FHIRPathExpression)]] = [:]
    var ancestors: [String: [String]] = [:]
    var calculated: [String: FHIRPathExpression] = [:]
    /// Every expression read, with the item it is on and its path, to check once the whole Questionnaire is known.
    var all: [(expression: FHIRPathExpression, linkId: String?, path: String)] = []
    /// Each item's JSON by linkId: `%qitem` of its expressions.
    var itemJSON: [String: FHIRJSON] = [:]
    var failure: FHIRImportIssue?

    /// Why expressions cannot work in this Questionnaire (a function not implemented, a variable never defined, a
    /// linkId no item has), one issue per problem; `launchContext` names the variables the form filler supplies.
    func problems(launchContext: Set<String>) -> [FHIRImportIssue] {
        var variables = Set(["questionnaire", "qitem"]).union(launchContext).union(root.map(\.0))
        for list in byItem.values { variables.formUnion(list.map(\.0)) }
        let linkIds = Set(ancestors.keys)
        return all.flatMap { entry in
            entry.expression.problems(variables: variables, linkIds: linkIds).map { problem in
                FHIRImportIssue(kind: .unsupportedExtension, linkId: entry.linkId, path: entry.path,
                                message: "the FHIRPath expression '\(entry.expression.text)' cannot work: \(problem)")
            }
        }
    }

    mutating func variables(of element: FHIRJSON, linkId: String?, path: String) {
        for (index, ext) in (element["extension"]?.arrayValue ?? []).enumerated() {
            let url = ext["url"]?.stringValue.map(FHIRExtensionPolicy.canonicalURL(of:))
            guard url == FHIRItemExtensions.variableURL || url == FHIRItemExtensions.calculatedExpressionURL
                    || url == FHIRItemExtensions.enableWhenExpressionURL || url == FHIRItemExtensions.initialExpressionURL,
                  let expression = ext["valueExpression"], expression["language"]?.stringValue == "text/fhirpath",
                  let text = expression["expression"]?.stringValue else { continue }
            let extensionPath = (path.isEmpty ? "" : path + ".") + "extension[\(index)].valueExpression.expression"
            let parsed: FHIRPathExpression
            do {
                parsed = try FHIRPathExpression(text)
            } catch {
                if failure == nil {
                    failure = FHIRImportIssue(kind: .unsupportedExtension, linkId: linkId, path: extensionPath,
                                              message: "the FHIRPath expression does not parse: \(error)")
                }
                continue
            }
            all.append((parsed, linkId, extensionPath))
            if url != FHIRItemExtensions.variableURL {
                calculated[text] = parsed
            } else if let name = expression["name"]?.stringValue {
                if let linkId { byItem[linkId, default: []].append((name, parsed)) } else { root.append((name, parsed)) }
            } else if failure == nil {
                failure = FHIRImportIssue(kind: .unsupportedExtension, linkId: linkId, path: extensionPath, message: "a variable needs a name")
            }
        }
    }

    mutating func items(_ items: [FHIRJSON], ancestors chain: [String], path: String) {
        for (index, item) in items.enumerated() {
            let itemPath = (path.isEmpty ? "" : path + ".") + "item[\(index)]"
            guard let linkId = item["linkId"]?.stringValue else { continue }
            ancestors[linkId] = chain
            itemJSON[linkId] = item
            variables(of: item, linkId: linkId, path: itemPath)
            self.items(item["item"]?.arrayValue ?? [], ancestors: chain + [linkId], path: itemPath)
        }
    }
}
