import Foundation
import Research

/// Turns a FHIR R4 Questionnaire (JSON) into a Research ``ResearchTask``.
///
/// Layout: each top-level `group` becomes one or more form steps titled with the group's text; a nested
/// group becomes a section title inside the form; a `display` item inside a group becomes a section title,
/// and a step made only of display items becomes an instruction step. Top-level questions outside a group
/// become form steps of their own. Form items keep the FHIR `linkId` as their identifier.
///
/// `enableWhen` becomes a skip rule: an item (or group) with an `enableWhen` is put on a step of its own,
/// and the task's ``ResearchTask/skipRules`` skip that step unless the condition holds, so a disabled item
/// is neither asked nor answered. Conditions of enclosing groups are combined with `and`. FHIR semantics are
/// kept as R4 defines them: a comparison with an unanswered question is false, except `!=`, which holds when no
/// answer equals the value (so also when there is no answer); `exists` tests whether it has an answer; `=` on a
/// repeating choice holds when any chosen answer is equal.
///
/// Items are typed as follows: boolean → yes/no; decimal and integer → numeric; quantity → decimal numeric
/// with the `questionnaire-unit` unit; date, dateTime, time → date, date-time, time of day; string, url →
/// one-line text (url checks for `http(s)://`); text → multi-line text; choice → text choice (multiple when
/// `repeats`), from `answerOption` or a contained ValueSet (`answerValueSet: "#id"`), a Coding's `code` being
/// the stored value and its `display` the text; open-choice → the same plus an "Other" choice with free text.
/// `required` makes the item non-optional, `maxLength` limits text, `initial` sets the default where the
/// format has one; on choices and yes/no items, `initial` and `initialSelected` become the item's
/// ``FormItem/initialValue`` (a constant FHIRPath expression), which pre-selects the answer. `readOnly` items are
/// left out (Research has no read-only questions), with a note.
///
/// Everything not carried over is listed in ``FHIRQuestionnaireImport/issues`` with its linkId and path:
/// reference items, external ValueSets, an `initial` answer that is not one of the item's options, extensions ``FHIRExtensionPolicy`` refuses, and conditions that cannot be evaluated or
/// whose answer type does not fit the question they name. Extensions the policy accepts without effect, and ordinary
/// extensions it does not know, are listed as notes, which do not refuse the form
/// (``FHIRQuestionnaireImport/refusals``).
public struct FHIRQuestionnaireImporter: Sendable {
    /// ValueSets that `answerValueSet` may name by canonical URL, by that URL (without a version): the
    /// importer never fetches anything, so a Questionnaire whose answers come from a terminology server can be
    /// run by handing it the ValueSets (their `compose` concepts or `expansion`) it names.
    public var valueSets: [String: Data]

    /// Creates an importer; `valueSets` are ValueSet resources (JSON) by canonical URL, for `answerValueSet`
    /// references that are not contained in the Questionnaire.
    public init(valueSets: [String: Data] = [:]) {
        self.valueSets = valueSets
    }

    /// Whether `data` is a JSON object with `"resourceType": "Questionnaire"`: how a study folder or `studykit run`
    /// tells a Questionnaire from a task file.
    public static func isQuestionnaire(_ data: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["resourceType"] as? String == "Questionnaire"
    }

    /// ValueSet resources (JSON) keyed by their `url`, for ``init(valueSets:)``; throws an error naming the
    /// position of the first that is not a ValueSet with a `url`.
    public static func valueSetsByURL(_ resources: [Data]) throws(FHIRImportError) -> [String: Data] {
        var byURL: [String: Data] = [:]
        for (index, data) in resources.enumerated() {
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            guard object?["resourceType"] as? String == "ValueSet", let url = object?["url"] as? String else {
                throw FHIRImportError(issues: [FHIRImportIssue(kind: .unsupportedProperty, linkId: nil, path: "[\(index)]",
                                                               message: "not a FHIR ValueSet with a url")])
            }
            byURL[url] = data
        }
        return byURL
    }

    /// Reads a Questionnaire and builds its task. Throws when the data is not a JSON Questionnaire or no
    /// step could be built; everything else that was not carried over is in the outcome's issues.
    ///
    /// - Parameter taskIdentifier: The task's identifier; nil to take the Questionnaire's `id`, else its `name`,
    ///   else `questionnaire`. A study gives the name of the Questionnaire's file to a form that has no `id`.
    public func importQuestionnaire(_ data: Data, taskIdentifier: String? = nil) throws(FHIRImportError) -> FHIRQuestionnaireImport {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw FHIRImportError(issues: [FHIRImportIssue(kind: .unsupportedProperty, linkId: nil, path: "",
                                                           message: "not valid JSON: \(error.localizedDescription)")])
        }
        guard let resource = object as? [String: Any], resource["resourceType"] as? String == "Questionnaire" else {
            throw FHIRImportError(issues: [FHIRImportIssue(kind: .unsupportedProperty, linkId: nil, path: "resourceType",
                                                           message: "not a FHIR Questionnaire")])
        }
        var external: [String: [String: Any]] = [:]
        for (url, data) in valueSets {
            if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] { external[url] = object }
        }
        var builder = QuestionnaireTaskBuilder(resource: resource, externalValueSets: external)
        return try builder.build(taskIdentifier: taskIdentifier)
    }
}

/// One form row in reading order, with the chain of items whose `enableWhen` governs it.
private struct LayoutEntry {
    /// The form row (a question or a section title).
    var formItem: FormItem
    /// linkIds of the enclosing items (outermost first) that carry an `enableWhen`, the item itself included.
    var chain: [String]
    /// The top-level group this row belongs to; nil for a top-level question.
    var topGroup: String?
    /// The linkId of the item the row was made from.
    var linkId: String
    /// Whether the row is a calculated item (a score), which goes on a step of its own after the questions it reads.
    var isCalculated = false
    /// The repeating groups the row is inside, outermost first (a repeating group's own title row included).
    var repeatingGroups: [String] = []
    /// Once repetitions are laid out: the repetition the row belongs to, outermost first.
    var repetitions: [FHIRGroupRepetition] = []
    /// For an "Add another" row: the repetition it follows; the row is a yes/no step of its own.
    var addsAnotherAfter: [FHIRGroupRepetition]?

    /// Whether two rows may share a step: the same top-level group, conditions, repetition and kind of row.
    func sharesStep(with other: LayoutEntry) -> Bool {
        chain == other.chain && topGroup == other.topGroup && isCalculated == other.isCalculated
            && repetitions == other.repetitions && addsAnotherAfter == nil && other.addsAnotherAfter == nil
    }
}

/// Where the steps of an import are: their identifiers, and the step of each question in each repetition.
private struct StepPlan {
    /// The step identifiers, in order.
    var identifiers: [String] = []
    /// For each question's linkId, the steps that ask it, with the repetition each belongs to.
    var stepsOfLinkId: [String: [(repetitions: [FHIRGroupRepetition], step: Int)]] = [:]
    /// The "Add another" step of each synthetic condition owner (see ``LayoutEntry/chain``).
    var addAnotherStepOfOwner: [String: Int] = [:]

    /// The step that asks `linkId` as seen from a step in `repetitions`: the one in the same repetition or an
    /// enclosing one (R4: the nearest ancestor), else the first that asks it.
    func step(asking linkId: String, from repetitions: [FHIRGroupRepetition]) -> Int? {
        guard let candidates = stepsOfLinkId[linkId] else { return nil }
        let enclosing = candidates.filter { repetitions.starts(with: $0.repetitions) }
        return (enclosing.max { $0.repetitions.count < $1.repetitions.count } ?? candidates.first)?.step
    }
}

/// One `enableWhen` clause read: the condition it becomes, or why it cannot become one.
private enum ClauseOutcome {
    /// The clause as a Research condition.
    case condition(Condition)
    /// The clause read in a way the note explains (a Coding question compared with a code written as text or a number).
    case interpreted(Condition, note: FHIRImportIssue)
    /// Why the clause is not evaluated.
    case issue(FHIRImportIssue)
}

/// What the builder knows about an item that became a question.
private struct ImportedQuestion {
    /// The FHIR item type.
    var type: String
    /// Whether the item repeats.
    var repeats: Bool
    /// For choice items: the kind of `answerOption` value (`Coding`, `Integer`, `String`, `Date`, `Time`).
    var optionKind: String?
    /// For choice items with Coding options: each option's code.
    var optionCodes: [String] = []
}

/// Builds one task from one Questionnaire; collects issues as it goes.
private struct QuestionnaireTaskBuilder {
    let resource: [String: Any]
    var issues: [FHIRImportIssue] = []
    var questions: [String: ImportedQuestion] = [:]
    /// Every item's linkId and path, imported or not, for naming them in condition issues.
    var allItems: [String: String] = [:]
    /// The `enableWhenExpression` of each item that has one in FHIRPath.
    var enableExpressions: [String: ItemCalculation] = [:]
    /// The `enableWhen` clauses and behavior of each item that has them, with the item's path.
    var enableWhens: [String: (clauses: [[String: Any]], behavior: String?, path: String)] = [:]
    /// The name shown for each repeating group ("Add another …?"), by linkId.
    var repeatingGroupNames: [String: String] = [:]
    /// The chain of conditions each repeating group is asked under, by linkId.
    var repeatingGroupChains: [String: [String]] = [:]
    /// The most repetitions asked of each repeating group, by linkId.
    var repetitionLimits: [String: Int] = [:]
    /// The options marked `initialSelected`, by the item's linkId.
    var initialSelections: [String: [ChoiceValue]] = [:]
    /// The `initial` answers of list and yes/no items as constant FHIRPath expressions (`'a' | 'b'`, `true`), by linkId.
    var initialLiterals: [String: String] = [:]
    let valueSets: [String: [String: Any]]
    /// ValueSets given to the importer, by canonical URL.
    let externalValueSets: [String: [String: Any]]

    init(resource: [String: Any], externalValueSets: [String: [String: Any]]) {
        self.externalValueSets = externalValueSets
        self.resource = resource
        var sets: [String: [String: Any]] = [:]
        for case let contained as [String: Any] in resource["contained"] as? [Any] ?? []
        where contained["resourceType"] as? String == "ValueSet" {
            if let id = contained["id"] as? String { sets[id] = contained }
        }
        valueSets = sets
    }

    mutating func build(taskIdentifier: String?) throws(FHIRImportError) -> FHIRQuestionnaireImport {
        // Every extension, wherever it sits, is classified by the policy; the supported ones are read where they apply.
        issues += FHIRExtensionReview(resource: resource).issues
        let items = resource["item"] as? [Any] ?? []
        var entries: [LayoutEntry] = []
        var groupTitles: [String: String] = [:]
        for (index, element) in items.enumerated() {
            guard let item = element as? [String: Any] else { continue }
            let path = "item[\(index)]"
            let linkId = item["linkId"] as? String ?? path
            if item["type"] as? String == "group" {
                groupTitles[linkId] = item["text"] as? String
                checkFlags(item, linkId: linkId, path: path)
                noteMalformed(FHIRItemExtensions(item), linkId: linkId, path: path)
                noteControl(FHIRItemExtensions(item), type: "group", linkId: linkId, path: path)
                let chain = registerEnableWhen(item, linkId: linkId, path: path) ? [linkId] : []
                let repeating = registerRepeatingGroup(item, linkId: linkId, path: path, chain: chain) ? [linkId] : []
                layout(item["item"] as? [Any] ?? [], path: path, chain: chain, topGroup: linkId, repeating: repeating, into: &entries)
            } else {
                layout([item], path: nil, chain: [], topGroup: nil, into: &entries, paths: [path])
            }
        }

        // Nested repeating groups multiply: a form whose repetitions would make an unreasonable task is refused unexpanded.
        let rowCount = repeatedRowCount(entries)
        guard rowCount <= Self.largestRowCount else {
            throw FHIRImportError(issues: issues + [FHIRImportIssue(kind: .unsupportedProperty, linkId: nil, path: "item",
                message: "the repeating groups would be laid out as \(rowCount) questions and titles, more than \(Self.largestRowCount); lower their questionnaire-maxOccurs")])
        }
        entries = layOutRepetitions(entries)

        // Chunk consecutive rows that share a top-level group, a condition chain and a repetition into steps.
        var chunks: [[LayoutEntry]] = []
        for entry in entries {
            if let last = chunks.last?.last, last.sharesStep(with: entry) {
                chunks[chunks.count - 1].append(entry)
            } else {
                chunks.append([entry])
            }
        }
        var usedIdentifiers = Set<String>()
        var plan = StepPlan()
        var repetitionLayout = FHIRRepetitionLayout(limits: repetitionLimits)
        for (index, chunk) in chunks.enumerated() {
            let first = chunk[0]
            // A later repetition's steps are named after the first's, with the repetition numbers: `family-2`.
            let suffix = first.repetitions.contains { $0.index > 1 } || first.addsAnotherAfter != nil
                ? first.repetitions.map { "-\($0.index)" }.joined() : ""
            var identifier: String
            if let after = first.addsAnotherAfter, let group = after.last {
                identifier = "\(group.linkId)-another" + suffix
            } else if let group = first.repetitions.last?.linkId ?? first.topGroup, !usedIdentifiers.contains(group + suffix) {
                // In a repeating group nested in another group, the steps are named after the repeating group.
                identifier = group + suffix
            } else {
                identifier = first.linkId + suffix
            }
            while !usedIdentifiers.insert(identifier).inserted { identifier += "-step" }
            plan.identifiers.append(identifier)
            if let after = first.addsAnotherAfter {
                plan.addAnotherStepOfOwner[first.linkId] = index
                repetitionLayout.addAnotherSteps[identifier] = after
            } else if !first.repetitions.isEmpty {
                repetitionLayout.repetitionsOfStep[identifier] = first.repetitions
            }
            for entry in chunk where entry.addsAnotherAfter == nil {
                plan.stepsOfLinkId[entry.linkId, default: []].append((entry.repetitions, index))
            }
        }

        var steps: [Step] = []
        var skipRules: [String: Condition] = [:]
        for (index, chunk) in chunks.enumerated() {
            let identifier = plan.identifiers[index]
            var title = chunk[0].topGroup.flatMap { groupTitles[$0] }
            if let top = chunk[0].repetitions.first, top.linkId == chunk[0].topGroup, let shown = title {
                title = "\(shown) (\(top.index))"
            }
            let formItems = chunk.map(\.formItem)
            if let after = chunk[0].addsAnotherAfter, let group = after.last {
                let name = repeatingGroupNames[group.linkId] ?? group.linkId
                steps.append(Step(identifier: identifier, kind: .question(.boolean(BooleanFormat())), title: title,
                                  text: "Add another “\(name)”?",
                                  detailText: "You have given \(group.index) of at most \(repetitionLimits[group.linkId] ?? group.index)."))
            } else if formItems.allSatisfy(\.isSectionTitle) {
                let text = formItems.compactMap { [$0.text, $0.detailText].compactMap { $0 }.joined(separator: "\n") }
                steps.append(Step(identifier: identifier, kind: .instruction, title: title, text: text.joined(separator: "\n\n")))
            } else {
                // A step of calculated values cannot be skipped: leaving it is what stores them.
                let required = formItems.contains { !$0.isSectionTitle && (!$0.isOptional || $0.isCalculated) }
                steps.append(Step(identifier: identifier, kind: .form(FormContent(items: formItems)), title: title,
                                  isOptional: !required))
            }
            var parts: [Condition] = []
            var usable = true
            for owner in chunk[0].chain {
                if let condition = enableCondition(of: owner, stepIndex: index, repetitions: chunk[0].repetitions, plan: plan) {
                    parts.append(condition)
                } else {
                    usable = false
                }
            }
            if usable, !parts.isEmpty {
                skipRules[identifier] = .not(parts.count == 1 ? parts[0] : .and(parts))
            }
        }
        guard !steps.isEmpty else {
            throw FHIRImportError(issues: issues + [FHIRImportIssue(kind: .unsupportedItem, linkId: nil, path: "item",
                                                                   message: "no item could be imported")])
        }
        let identifier = taskIdentifier ?? resource["id"] as? String ?? resource["name"] as? String ?? "questionnaire"
        let title = resource["title"] as? String ?? resource["name"] as? String
        do {
            let task = try ResearchTask(identifier: identifier, title: title, steps: steps, skipRules: skipRules)
            // A repeating group's rows are laid out once per repetition, so their conditions' issues are found once per repetition.
            var seen = Set<FHIRImportIssue>()
            let distinct = issues.filter { seen.insert($0).inserted }
            return FHIRQuestionnaireImport(task: task, issues: Self.inDocumentOrder(distinct), repetitions: repetitionLayout)
        } catch {
            throw FHIRImportError(issues: issues + [FHIRImportIssue(kind: .unsupportedProperty, linkId: nil, path: error.path,
                                                                   message: error.message)])
        }
    }

    /// Lays out items (the children of `path`, or top-level items at `paths`) as form rows.
    mutating func layout(_ items: [Any], path: String?, chain: [String], topGroup: String?, repeating: [String] = [],
                         into entries: inout [LayoutEntry], paths: [String]? = nil) {
        for (index, element) in items.enumerated() {
            guard let item = element as? [String: Any] else { continue }
            let itemPath = paths?[index] ?? "\(path ?? "").item[\(index)]"
            let linkId = item["linkId"] as? String ?? itemPath
            allItems[linkId] = itemPath
            checkFlags(item, linkId: linkId, path: itemPath)
            let type = item["type"] as? String ?? "?"
            let extensions = FHIRItemExtensions(item)
            if jsonBool(item["readOnly"]) == true, extensions.calculated == nil {
                issues.append(FHIRImportIssue(kind: .readOnlySkipped, linkId: linkId, path: "\(itemPath).readOnly",
                                              message: "read-only \(type) item left out: Research has no read-only questions"))
                continue
            }
            var itemChain = chain
            if registerEnableWhen(item, linkId: linkId, path: itemPath) { itemChain.append(linkId) }
            let text = [item["prefix"] as? String, item["text"] as? String].compactMap { $0 }.joined(separator: " ")
            switch type {
            case "group":
                noteMalformed(extensions, linkId: linkId, path: itemPath)
                noteControl(extensions, type: type, linkId: linkId, path: itemPath)
                let groupRepeating = repeating + (registerRepeatingGroup(item, linkId: linkId, path: itemPath, chain: itemChain) ? [linkId] : [])
                entries.append(LayoutEntry(formItem: FormItem(sectionTitle: text.isEmpty ? linkId : text), chain: itemChain,
                                           topGroup: topGroup, linkId: linkId, repeatingGroups: groupRepeating))
                layout(item["item"] as? [Any] ?? [], path: itemPath, chain: itemChain, topGroup: topGroup, repeating: groupRepeating,
                       into: &entries)
            case "display":
                noteMalformed(extensions, linkId: linkId, path: itemPath)
                noteControl(extensions, type: type, linkId: linkId, path: itemPath)
                entries.append(LayoutEntry(formItem: FormItem(sectionTitle: text), chain: itemChain, topGroup: topGroup, linkId: linkId,
                                           repeatingGroups: repeating))
            default:
                if extensions.hidden, extensions.calculated == nil {
                    issues.append(FHIRImportIssue(kind: .unsupportedProperty, linkId: linkId, path: "\(itemPath).extension",
                                                  message: "hidden \(type) item left out: it is not asked and no value is recorded for it"))
                    continue
                }
                guard let format = answerFormat(item, type: type, linkId: linkId, path: itemPath, extensions: extensions) else { continue }
                let shownText: String? = text.isEmpty ? nil : text
                var formItem: FormItem
                if let calculated = extensions.calculated {
                    guard calculated.language == "text/fhirpath" else {
                        issues.append(FHIRImportIssue(kind: .unsupportedExtension, linkId: linkId, path: "\(itemPath).extension",
                                                      message: "calculatedExpression in \(calculated.language) is not supported (only text/fhirpath); the item is left out"))
                        continue
                    }
                    formItem = FormItem(identifier: linkId, text: shownText, detailText: calculated.description, answerFormat: format,
                                        calculation: ItemCalculation(language: calculated.language, expression: calculated.expression,
                                                                     description: calculated.description))
                    formItem.isHidden = extensions.hidden
                } else {
                    let required = jsonBool(item["required"]) == true
                    formItem = FormItem(identifier: linkId, text: shownText, answerFormat: format, isOptional: !required,
                                        placeholder: extensions.entryFormat)
                    if let literal = initialLiterals[linkId], extensions.initialExpression == nil {
                        formItem.initialValue = ItemCalculation(language: "text/fhirpath", expression: literal)
                    }
                    if let initial = extensions.initialExpression {
                        if initial.language == "text/fhirpath" {
                            formItem.initialValue = ItemCalculation(language: initial.language, expression: initial.expression)
                        } else {
                            issues.append(FHIRImportIssue(kind: .unsupportedExtension, linkId: linkId, path: "\(itemPath).extension",
                                                          message: "initialExpression in \(initial.language) is not evaluated (only text/fhirpath)"))
                        }
                    }
                }
                // A shown value gets a step of its own after the questions it reads; a hidden one stays on the questions'
                // step, computed again as that step is left.
                entries.append(LayoutEntry(formItem: formItem, chain: itemChain, topGroup: topGroup, linkId: linkId,
                                           isCalculated: formItem.isCalculated && !formItem.isHidden, repeatingGroups: repeating))
                if let children = item["item"] as? [Any], !children.isEmpty {
                    // Items nested under a question belong to its answer: they are asked right after it, once it has one.
                    let answered = "\(linkId) (answered)"
                    enableWhens[answered] = ([["question": linkId, "operator": "exists", "answerBoolean": true]], nil, "\(itemPath).item")
                    if jsonBool(item["repeats"]) == true {
                        unsupported(linkId, "\(itemPath).item", "the items nested under a repeating question are asked once, for its first answer")
                    }
                    layout(children, path: itemPath, chain: itemChain + [answered], topGroup: topGroup, repeating: repeating,
                           into: &entries)
                }
            }
        }
    }

    /// Records a group that repeats: its name, the most repetitions to ask (`questionnaire-maxOccurs`, else
    /// ``FHIRRepetitionLayout/defaultLimit``, with a note) and the conditions it is asked under; true when it repeats.
    mutating func registerRepeatingGroup(_ item: [String: Any], linkId: String, path: String, chain: [String]) -> Bool {
        guard jsonBool(item["repeats"]) == true else { return false }
        let text = [item["prefix"] as? String, item["text"] as? String].compactMap { $0 }.joined(separator: " ")
        repeatingGroupNames[linkId] = text.isEmpty ? linkId : text
        repeatingGroupChains[linkId] = chain
        var limit = FHIRRepetitionLayout.defaultLimit
        if let maxOccurs = FHIRItemExtensions(item).maxOccurs {
            // A malformed value is reported with the item's other malformed extensions.
            if let value = maxOccurs.value {
                limit = min(value, FHIRRepetitionLayout.largestLimit)
                if value > limit {
                    issues.append(FHIRImportIssue(kind: .repetitionLimit, linkId: linkId, path: "\(path).extension[\(maxOccurs.index)]",
                                                  message: "the group is asked at most \(limit) times, not \(value)"))
                }
            }
        } else {
            issues.append(FHIRImportIssue(kind: .repetitionLimit, linkId: linkId, path: "\(path).repeats",
                                          message: "the group repeats without questionnaire-maxOccurs; it is asked at most \(limit) times"))
        }
        repetitionLimits[linkId] = limit
        return true
    }

    /// The most rows (questions, titles, "Add another" steps) a Questionnaire's repeating groups may be laid out as.
    static let largestRowCount = 10_000

    /// How many rows ``layOutRepetitions(_:depth:repetitions:owners:)`` would lay out, counted without laying them out.
    func repeatedRowCount(_ entries: [LayoutEntry], depth: Int = 0) -> Int {
        Self.segments(entries, depth: depth).reduce(0) { count, segment in
            guard let group = segment.group else { return count + segment.rows.count }
            let limit = repetitionLimits[group] ?? 1
            // Saturating: a count past the limit need not be exact.
            return min(count + limit * repeatedRowCount(segment.rows, depth: depth + 1) + (limit - 1), Int.max / 64)
        }
    }

    /// `entries` cut into runs: each run of rows inside the same repeating group at `depth` (with the group's linkId),
    /// and each row outside one (with none).
    static func segments(_ entries: [LayoutEntry], depth: Int) -> [(group: String?, rows: [LayoutEntry])] {
        var segments: [(group: String?, rows: [LayoutEntry])] = []
        for entry in entries {
            let group = entry.repeatingGroups.count > depth ? entry.repeatingGroups[depth] : nil
            if let group, segments.last?.group == group {
                segments[segments.count - 1].rows.append(entry)
            } else {
                segments.append((group, [entry]))
            }
        }
        return segments
    }

    /// Lays out each repeating group's rows once per repetition, up to its limit, with an "Add another" row after
    /// each repetition but the last. Repetition *k*+1, and its "Add another" row, are asked only when every "Add
    /// another" before them was answered yes: their rows' chains name those rows (as synthetic owners, which
    /// ``enableCondition(of:stepIndex:repetitions:plan:)`` resolves to the "Add another" steps).
    func layOutRepetitions(_ entries: [LayoutEntry], depth: Int = 0, repetitions: [FHIRGroupRepetition] = [],
                           owners: [String] = []) -> [LayoutEntry] {
        var laidOut: [LayoutEntry] = []
        for segment in Self.segments(entries, depth: depth) {
            guard let group = segment.group else {
                var placed = segment.rows[0]
                placed.repetitions = repetitions
                placed.chain = owners + placed.chain
                laidOut.append(placed)
                continue
            }
            let limit = repetitionLimits[group] ?? 1
            var repetitionOwners = owners
            for number in 1...limit {
                let repetition = repetitions + [FHIRGroupRepetition(linkId: group, index: number)]
                var rows = layOutRepetitions(segment.rows, depth: depth + 1, repetitions: repetition, owners: repetitionOwners)
                // The group's own title row says which repetition this is.
                for row in rows.indices where rows[row].linkId == group && rows[row].formItem.isSectionTitle {
                    rows[row].formItem.text = "\(repeatingGroupNames[group] ?? group) (\(number))"
                }
                laidOut += rows
                guard number < limit else { break }
                let owner = "\(group) (add another after \(repetition.map(\.description).joined(separator: "/")))"
                var another = LayoutEntry(formItem: FormItem(sectionTitle: ""), chain: repetitionOwners + (repeatingGroupChains[group] ?? []),
                                          topGroup: segment.rows[0].topGroup, linkId: owner, repeatingGroups: [])
                another.repetitions = repetition
                another.addsAnotherAfter = repetition
                laidOut.append(another)
                repetitionOwners.append(owner)
            }
        }
        return laidOut
    }

    /// Records an item's `enableWhen` and `enableWhenExpression`; true when it has either.
    mutating func registerEnableWhen(_ item: [String: Any], linkId: String, path: String) -> Bool {
        var registered = false
        if let expression = FHIRItemExtensions(item).enableWhenExpression {
            if expression.language == "text/fhirpath" {
                enableExpressions[linkId] = ItemCalculation(language: expression.language, expression: expression.expression)
                registered = true
            } else {
                issues.append(FHIRImportIssue(kind: .unsupportedCondition, linkId: linkId, path: "\(path).extension",
                                              message: "enableWhenExpression in \(expression.language) is not evaluated (only text/fhirpath); the item is always shown"))
            }
        }
        if let clauses = item["enableWhen"] as? [Any], !clauses.isEmpty {
            enableWhens[linkId] = (clauses.compactMap { $0 as? [String: Any] }, item["enableBehavior"] as? String, path)
            registered = true
        }
        return registered
    }

    /// Refuses an item whose `repeats`, `required` or `readOnly` is not a JSON `true` or `false` (such as the string
    /// `"true"`), which would otherwise be read as false without a word.
    mutating func checkFlags(_ item: [String: Any], linkId: String, path: String) {
        for key in ["repeats", "required", "readOnly"] where item[key] != nil && jsonBool(item[key]) == nil {
            unsupported(linkId, "\(path).\(key)", "\(key) must be true or false")
        }
    }

    /// Notes the `itemControl` of a group or display item: its items are asked, or its text shown, as usual (a group as
    /// steps of questions, not as a table or tabs; a display item as a section title, not as help behind a button).
    mutating func noteControl(_ extensions: FHIRItemExtensions, type: String, linkId: String, path: String) {
        guard let control = extensions.itemControl else { return }
        let usual = type == "group" ? "its items are asked on steps as usual" : "its text is shown as a section title"
        issues.append(FHIRImportIssue(kind: .shownDifferently, linkId: linkId, path: "\(path).extension",
                                      message: "itemControl '\(control)' is not supported for a \(type) item; \(usual)"))
    }

    /// Reports the supported extensions of an item that are malformed (every other extension is classified by
    /// ``FHIRExtensionReview``).
    mutating func noteMalformed(_ extensions: FHIRItemExtensions, linkId: String, path: String) {
        for (index, message) in extensions.malformed {
            issues.append(FHIRImportIssue(kind: .unsupportedExtension, linkId: linkId, path: "\(path).extension[\(index)]", message: message))
        }
    }

    /// `issues` in the order of their paths in the Questionnaire: an element's own parts before its child items, and
    /// items by number (`item[2]` before `item[10]`); issues at the same path keep their order.
    static func inDocumentOrder(_ issues: [FHIRImportIssue]) -> [FHIRImportIssue] {
        func parts(_ path: String) -> [(isItem: Bool, name: String, index: Int)] {
            path.split(separator: ".").map { part in
                guard let open = part.firstIndex(of: "["), part.hasSuffix("]"),
                      let index = Int(part[part.index(after: open)..<part.index(before: part.endIndex)]) else {
                    return (false, String(part), -1)
                }
                let name = String(part[..<open])
                return (name == "item", name, index)
            }
        }
        func precedes(_ left: [(isItem: Bool, name: String, index: Int)], _ right: [(isItem: Bool, name: String, index: Int)]) -> Bool {
            for (a, b) in zip(left, right) where a != b {
                if a.isItem != b.isItem { return b.isItem }
                return a.name != b.name ? a.name < b.name : a.index < b.index
            }
            return left.count < right.count
        }
        let keyed = issues.enumerated().map { (parts($0.element.path), $0.offset, $0.element) }
        return keyed.sorted { precedes($0.0, $1.0) || (!precedes($1.0, $0.0) && $0.1 < $1.1) }.map(\.2)
    }

    /// Reports extensions that were read but do not apply to an item of this type.
    mutating func noteMisplaced(_ extensions: FHIRItemExtensions, type: String, linkId: String, path: String) {
        func misplaced(_ present: Bool, _ name: String, _ types: Set<String>) {
            guard present, !types.contains(type) else { return }
            unsupported(linkId, "\(path).extension", "\(name) does not apply to a \(type) item and was not used")
        }
        let numeric: Set<String> = ["integer", "decimal", "quantity"]
        let texts: Set<String> = ["string", "text", "url", "open-choice"]
        misplaced(extensions.minValue != nil || extensions.maxValue != nil, "minValue/maxValue", numeric.union(["date", "dateTime"]))
        misplaced(extensions.minLength != nil, "minLength", texts)
        misplaced(extensions.regex != nil, "regex", texts)
        misplaced(extensions.sliderStep != nil, "sliderStepValue", ["integer", "decimal"])
        misplaced(extensions.unit != nil, "questionnaire-unit", numeric)
        misplaced(!extensions.mimeTypes.isEmpty || extensions.maxSize != nil, "mimeType/maxSize", ["attachment"])
        misplaced(extensions.maxDecimalPlaces != nil, "maxDecimalPlaces", numeric)
        misplaced(extensions.openLabel != nil, "openLabel", ["open-choice"])
    }

    mutating func unsupported(_ linkId: String, _ path: String, _ message: String) {
        issues.append(FHIRImportIssue(kind: .unsupportedProperty, linkId: linkId, path: path, message: message))
    }

    /// The answer format of a question item, or nil (with an issue) when it cannot be asked.
    mutating func answerFormat(_ item: [String: Any], type: String, linkId: String, path: String,
                               extensions: FHIRItemExtensions) -> AnswerFormat? {
        noteMalformed(extensions, linkId: linkId, path: path)
        noteMisplaced(extensions, type: type, linkId: linkId, path: path)
        let control = extensions.itemControl
        func controlNotUsed(_ allowed: Set<String>) {
            if let control, !allowed.contains(control) {
                issues.append(FHIRImportIssue(kind: .shownDifferently, linkId: linkId, path: "\(path).extension",
                                              message: "itemControl '\(control)' is not supported for a \(type) item; the usual control is shown"))
            }
        }
        // A number's bounds; a quantity's (`valueQuantity`) in the item's unit. A bound that cannot be applied is reported.
        func numericBound(_ bound: (key: String, value: Any)?, _ name: String) -> Decimal? {
            guard let bound, ["decimal", "integer", "quantity"].contains(type) else { return nil }
            if bound.key == "valueQuantity", let quantity = bound.value as? [String: Any] {
                let unit = quantity["code"] as? String ?? quantity["unit"] as? String
                if let unit, let itemUnit = extensions.unitCode ?? extensions.unit, unit != itemUnit, unit != extensions.unit {
                    unsupported(linkId, "\(path).extension", "\(name) is in \(unit), not in the item's unit \(itemUnit); it is not applied")
                    return nil
                }
                if let value = decimal(quantity["value"]) { return value }
            } else if let value = decimal(bound.value) {
                return value
            }
            unsupported(linkId, "\(path).extension", "\(name) \(bound.key) is not a number; it is not applied")
            return nil
        }
        let low = numericBound(extensions.minValue, "the lower bound")
        let high = numericBound(extensions.maxValue, "the upper bound")
        let initials = (item["initial"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        if initials.count > 1, !(jsonBool(item["repeats"]) == true && ["choice", "open-choice"].contains(type)) {
            unsupported(linkId, "\(path).initial", "only one initial value is supported; the first is used")
        }
        let initial = initials.first
        let maxLength = item["maxLength"] as? Int
        let repeats = jsonBool(item["repeats"]) == true
        if repeats, type != "choice", type != "open-choice" {
            unsupported(linkId, "\(path).repeats", "repeated answers are only supported for choice items; one answer is asked")
        }
        if repeats, let index = extensions.maxOccurs?.index {
            unsupported(linkId, "\(path).extension[\(index)]",
                        "questionnaire-maxOccurs on a repeating question caps its answers, which StudyKit does not check")
        }
        if maxLength != nil, !["string", "text", "url", "open-choice"].contains(type) {
            unsupported(linkId, "\(path).maxLength", "maxLength applies to text answers only")
        }
        func noInitial(_ why: String) {
            if initial != nil { unsupported(linkId, "\(path).initial", why) }
        }
        // The answers a list or yes/no question starts with (`initial`, an option's `initialSelected`), as a constant
        // FHIRPath expression the session evaluates when the step is first shown, as it does an `initialExpression`.
        func initialChoices(_ choices: [TextChoice]) {
            var values = initialSelections[linkId] ?? []
            for (index, entry) in initials.enumerated() {
                let value: ChoiceValue?
                if let code = (entry["valueCoding"] as? [String: Any])?["code"] as? String {
                    value = .string(code)
                } else if jsonBool(entry["valueInteger"]) == nil, let number = entry["valueInteger"] as? Int {
                    value = .integer(number)
                } else {
                    value = ["valueString", "valueDate", "valueTime"].lazy.compactMap { entry[$0] as? String }.first.map { .string($0) }
                }
                guard let value, choices.contains(where: { $0.value == value }) else {
                    unsupported(linkId, "\(path).initial[\(index)]", "the initial answer is not one of the item's options")
                    continue
                }
                if !values.contains(value) { values.append(value) }
            }
            guard !values.isEmpty else { return }
            guard repeats || values.count == 1 else {
                unsupported(linkId, "\(path).initial", "\(values.count) initial answers for an item that does not repeat")
                return
            }
            initialLiterals[linkId] = values.map { value -> String in
                switch value {
                case .integer(let number): String(number)
                case .string(let text): "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
                default: "{}"
                }
            }.joined(separator: " | ")
        }
        var question = ImportedQuestion(type: type, repeats: repeats)
        let optionCount = (item["answerOption"] as? [Any])?.count ?? 0
        if let expectedKind = FHIRItemType.listTypes[type], FHIRItemType.takesAnswerList(type, options: optionCount) {
            // A fixed answer list on an integer, date, time or string item: the participant picks one of its values.
            controlNotUsed(["radio-button", "drop-down", "autocomplete"])
            guard let (choices, kind) = choiceOptions(item, linkId: linkId, path: path, repeats: false) else { return nil }
            guard kind == expectedKind else {
                unsupported(linkId, "\(path).answerOption", "a \(type) item's answer options must be value\(expectedKind), not value\(kind); the item is left out")
                return nil
            }
            initialChoices(choices)
            question.optionKind = kind
            questions[linkId] = question
            return control == "drop-down" || control == "autocomplete"
                ? .valuePicker(ValuePickerFormat(choices: choices)) : .textChoice(TextChoiceFormat(style: .single, choices: choices))
        }
        let format: AnswerFormat
        switch type {
        case "boolean":
            controlNotUsed(["radio-button", "check-box"])
            if let initial {
                if let flag = jsonBool(initial["valueBoolean"]) {
                    initialLiterals[linkId] = flag ? "true" : "false"
                } else {
                    unsupported(linkId, "\(path).initial", "the initial answer of a yes/no item needs valueBoolean")
                }
            }
            format = .boolean(BooleanFormat())
        case "decimal", "integer":
            controlNotUsed(["slider", "spinner"])
            let key = type == "decimal" ? "valueDecimal" : "valueInteger"
            let initialValue = initial.flatMap { decimal($0[key]) }
            // An integer has no decimal places, whatever maxDecimalPlaces says.
            let numeric = NumericFormat(style: type == "decimal" ? .decimal : .integer, unit: extensions.unit, minimum: low, maximum: high,
                                        maximumFractionDigits: type == "decimal" ? extensions.maxDecimalPlaces : nil,
                                        defaultValue: initialValue, placeholder: extensions.entryFormat)
            if control == "slider" {
                format = slider(numeric, step: extensions.sliderStep, linkId: linkId, path: path)
            } else {
                format = .numeric(numeric)
            }
        case "quantity":
            controlNotUsed(["spinner"])
            let value = (initial?["valueQuantity"] as? [String: Any]).flatMap { decimal($0["value"]) }
            format = .numeric(NumericFormat(style: .decimal, unit: extensions.unit, minimum: low, maximum: high,
                                            maximumFractionDigits: extensions.maxDecimalPlaces, defaultValue: value,
                                            placeholder: extensions.entryFormat))
        case "date":
            controlNotUsed([])
            let value = (initial?["valueDate"] as? String).flatMap(Self.day)
            if initial != nil, value == nil { unsupported(linkId, "\(path).initial", "initial valueDate is not a full day YYYY-MM-DD") }
            format = .date(DateFormat(minimum: dateBound(extensions.minValue, linkId: linkId, path: path),
                                      maximum: dateBound(extensions.maxValue, linkId: linkId, path: path), defaultValue: value))
        case "dateTime":
            controlNotUsed([])
            let value = (initial?["valueDateTime"] as? String).flatMap(Self.instant)
            if initial != nil, value == nil {
                unsupported(linkId, "\(path).initial", "initial valueDateTime is not a date-time with offset")
            }
            format = .dateTime(DateFormat(minimum: dateBound(extensions.minValue, linkId: linkId, path: path),
                                          maximum: dateBound(extensions.maxValue, linkId: linkId, path: path), defaultValue: value))
        case "time":
            let value = (initial?["valueTime"] as? String).flatMap { TimeOfDay(parsing: $0) }
            if initial != nil, value == nil { unsupported(linkId, "\(path).initial", "initial valueTime is not HH:MM:SS") }
            format = .timeOfDay(TimeOfDayFormat(defaultValue: value))
        case "string", "text":
            controlNotUsed([])
            let (pattern, message) = textPattern(extensions, base: nil, baseMessage: nil)
            format = .text(TextFormat(maximumLength: maxLength, multipleLines: type == "text", validationPattern: pattern,
                                      invalidMessage: message, placeholder: extensions.entryFormat,
                                      defaultValue: initial?["valueString"] as? String))
        case "url":
            controlNotUsed([])
            let (pattern, message) = textPattern(extensions, base: "https?://\\S+",
                                                 baseMessage: "Enter a web address starting with http:// or https://")
            format = .text(TextFormat(maximumLength: maxLength, validationPattern: pattern, invalidMessage: message,
                                      placeholder: extensions.entryFormat, defaultValue: initial?["valueUri"] as? String))
        case "choice", "open-choice":
            controlNotUsed(["radio-button", "check-box", "drop-down", "autocomplete"])
            guard let (choices, kind) = choiceOptions(item, linkId: linkId, path: path, repeats: repeats) else { return nil }
            question.optionKind = kind
            if kind == "Coding" {
                question.optionCodes = choices.compactMap { choice -> String? in if case .string(let code) = choice.value { code } else { nil } }
            }
            initialChoices(choices)
            var all = choices
            if type == "open-choice" {
                var value = "other"
                while all.contains(where: { $0.value == .string(value) }) { value += "_" }
                all.append(TextChoice(text: extensions.openLabel ?? "Other", value: .string(value),
                                      other: OtherChoice(textRequired: true)))
            }
            if (control == "drop-down" || control == "autocomplete"), !repeats, type == "choice" {
                format = .valuePicker(ValuePickerFormat(choices: all))
            } else {
                if control == "drop-down" || control == "autocomplete" {
                    issues.append(FHIRImportIssue(kind: .shownDifferently, linkId: linkId, path: "\(path).extension",
                                                  message: "a \(control!) list is shown as \(repeats ? "check boxes" : "radio buttons") for \(repeats ? "a repeating" : "an open-choice") item"))
                }
                format = .textChoice(TextChoiceFormat(style: repeats ? .multiple : .single, choices: all))
            }
        case "attachment":
            controlNotUsed([])
            var file = FileFormat(allowedContentTypes: extensions.mimeTypes)
            if let size = extensions.maxSize {
                let bytes = NSDecimalNumber(decimal: size).intValue
                if bytes < 1 || bytes > FileFormat.largestMaximumBytes {
                    unsupported(linkId, "\(path).extension", "maxSize \(size) is outside 1 byte to 50 MB; files up to \(FileFormat.largestMaximumBytes) bytes are accepted")
                    file.maximumBytes = FileFormat.largestMaximumBytes
                } else {
                    file.maximumBytes = bytes
                }
            }
            noInitial("an initial attachment is not supported")
            format = .file(file)
        case "reference":
            issues.append(FHIRImportIssue(kind: .unsupportedItem, linkId: linkId, path: path,
                                          message: "reference items are not supported; the item is left out"))
            return nil
        default:
            issues.append(FHIRImportIssue(kind: .unsupportedItem, linkId: linkId, path: "\(path).type",
                                          message: "unknown item type '\(type)'; the item is left out"))
            return nil
        }
        questions[linkId] = question
        return format
    }

    /// A slider for a number item: a scale for integers, a continuous scale for decimals; both need minValue and
    /// maxValue (and a step that fits), else the number field stays, with an issue.
    mutating func slider(_ numeric: NumericFormat, step: Decimal?, linkId: String, path: String) -> AnswerFormat {
        guard let low = numeric.minimum, let high = numeric.maximum, low < high else {
            unsupported(linkId, "\(path).extension", "a slider needs minValue and maxValue; a number field is shown")
            return .numeric(numeric)
        }
        if numeric.style == .integer {
            let lowInt = NSDecimalNumber(decimal: low).intValue, highInt = NSDecimalNumber(decimal: high).intValue
            let stepInt = step.map { NSDecimalNumber(decimal: $0).intValue } ?? 1
            let scale = ScaleFormat(minimum: lowInt, maximum: highInt, step: max(stepInt, 1),
                                    defaultValue: numeric.defaultValue.map { NSDecimalNumber(decimal: $0).intValue })
            let problems = AnswerFormat.scale(scale).constructionProblems()
            guard problems.isEmpty else {
                unsupported(linkId, "\(path).extension", "the slider's range and step do not make a scale (\(problems.map(\.message).joined(separator: "; "))); a number field is shown")
                return .numeric(numeric)
            }
            return .scale(scale)
        }
        let digits = min(step.map { max(0, -$0.exponent) } ?? 2, numeric.maximumFractionDigits ?? .max)
        let scale = ContinuousScaleFormat(minimum: NSDecimalNumber(decimal: low).doubleValue, maximum: NSDecimalNumber(decimal: high).doubleValue,
                                          maximumFractionDigits: min(digits, 4),
                                          defaultValue: numeric.defaultValue.map { NSDecimalNumber(decimal: $0).doubleValue })
        if step != nil { unsupported(linkId, "\(path).extension", "a decimal slider moves in steps of its fraction digits, not by sliderStepValue") }
        return .continuousScale(scale)
    }

    /// A date bound from minValue/maxValue (`valueDate` or `valueDateTime`); nil (with an issue for other kinds).
    mutating func dateBound(_ bound: (key: String, value: Any)?, linkId: String, path: String) -> Date? {
        guard let bound else { return nil }
        let text = bound.value as? String ?? ""
        let date = bound.key == "valueDate" ? Self.day(text) : bound.key == "valueDateTime" ? Self.instant(text) : nil
        if date == nil { unsupported(linkId, "\(path).extension", "the date bound \(bound.key) '\(text)' is not a date or date-time; it is not applied") }
        return date
    }

    /// The validation pattern and message of a text item from `regex` and `minLength` (and a pattern the type
    /// itself needs, such as a URL's): every part must hold, so they are joined with lookaheads.
    func textPattern(_ extensions: FHIRItemExtensions, base: String?, baseMessage: String?) -> (String?, String?) {
        var parts: [String] = []
        var messages: [String] = []
        if let base { parts.append(base); messages.append(baseMessage ?? "") }
        if let regex = extensions.regex {
            parts.append(regex)
            messages.append(extensions.entryFormat.map { "Use the format \($0)." } ?? "Check the format of your answer.")
        }
        if let length = extensions.minLength, length > 0 {
            parts.append("(?s).{\(length),}")
            messages.append("Enter at least \(length) \(length == 1 ? "character" : "characters").")
        }
        guard let last = parts.last else { return (nil, nil) }
        let pattern = parts.dropLast().map { "(?=(?:\($0))$)" }.joined() + "(?:\(last))"
        return (parts.count == 1 ? parts[0] : pattern, messages.joined(separator: " "))
    }

    /// The choices of a choice item and the kind of their values, or nil (with an issue). An option's
    /// `questionnaire-optionPrefix` goes before its text; `questionnaire-optionExclusive` (also as a
    /// `modifierExtension`) makes it exclusive when the item `repeats` (with one answer, every option already is).
    mutating func choiceOptions(_ item: [String: Any], linkId: String, path: String, repeats: Bool) -> ([TextChoice], String)? {
        if let options = item["answerOption"] as? [Any], !options.isEmpty {
            var choices: [TextChoice] = []
            var kinds = Set<String>()
            for (index, element) in options.enumerated() {
                let option = element as? [String: Any] ?? [:]
                let optionPath = "\(path).answerOption[\(index)]"
                let selected = jsonBool(option["initialSelected"]) == true
                let optionExtensions = ((option["extension"] as? [Any] ?? []) + (option["modifierExtension"] as? [Any] ?? []))
                    .compactMap { $0 as? [String: Any] }
                func optionValue(of url: String) -> Any? {
                    optionExtensions.first { FHIRExtensionPolicy.canonicalURL(of: $0["url"] as? String ?? "") == url }
                        .flatMap { found in found.first { $0.key.hasPrefix("value") }?.value }
                }
                let prefix = (optionValue(of: FHIRItemExtensions.optionPrefixURL) as? String).map { $0.trimmingCharacters(in: .whitespaces) }
                func shown(_ text: String) -> String { prefix.map { $0.isEmpty ? text : "\($0) \(text)" } ?? text }
                let exclusive = repeats && jsonBool(optionValue(of: FHIRItemExtensions.optionExclusiveURL)) == true
                defer { if selected, let last = choices.last { initialSelections[linkId, default: []].append(last.value) } }
                if let coding = option["valueCoding"] as? [String: Any], let code = coding["code"] as? String {
                    choices.append(TextChoice(text: shown(coding["display"] as? String ?? code), value: .string(code), exclusive: exclusive))
                    kinds.insert("Coding")
                } else if jsonBool(option["valueInteger"]) == nil, let value = option["valueInteger"] as? Int {
                    choices.append(TextChoice(text: shown(String(value)), value: .integer(value), exclusive: exclusive))
                    kinds.insert("Integer")
                } else if let key = ["valueString", "valueDate", "valueTime"].first(where: { option[$0] is String }),
                          let value = option[key] as? String {
                    choices.append(TextChoice(text: shown(value), value: .string(value), exclusive: exclusive))
                    kinds.insert(String(key.dropFirst("value".count)))
                } else {
                    unsupported(linkId, optionPath, "answer option has no valueCoding with a code, valueInteger, valueString, valueDate or valueTime")
                    return nil
                }
            }
            guard kinds.count == 1, let kind = kinds.first else {
                unsupported(linkId, "\(path).answerOption", "answer options mix value types (\(kinds.sorted().joined(separator: ", ")))")
                return nil
            }
            return (choices, kind)
        }
        guard let reference = item["answerValueSet"] as? String else {
            unsupported(linkId, path, "choice item has neither answerOption nor answerValueSet; the item is left out")
            return nil
        }
        let canonical = String(reference.split(separator: "|", maxSplits: 1).first ?? "")
        guard let valueSet = reference.hasPrefix("#") ? valueSets[String(reference.dropFirst())] : externalValueSets[canonical] else {
            unsupported(linkId, "\(path).answerValueSet",
                        "answerValueSet \(reference) is neither contained nor among the ValueSets given; external ValueSets are not fetched, the item is left out")
            return nil
        }
        // An expansion lists the codes as given; otherwise the compose's listed concepts are read (a whole code
        // system or a filter would need a terminology server).
        var choices: [TextChoice] = []
        let expansion = valueSet["expansion"] as? [String: Any]
        for case let entry as [String: Any] in expansion?["contains"] as? [Any] ?? [] {
            if let code = entry["code"] as? String {
                choices.append(TextChoice(text: entry["display"] as? String ?? code, value: .string(code)))
            }
        }
        let compose = valueSet["compose"] as? [String: Any]
        let includes = choices.isEmpty ? (compose?["include"] as? [Any] ?? []).compactMap { $0 as? [String: Any] } : []
        for include in includes {
            guard let concepts = include["concept"] as? [Any] else {
                unsupported(linkId, "\(path).answerValueSet",
                            "ValueSet \(reference) includes a whole code system or a filter and has no expansion; only listed concepts are supported")
                return nil
            }
            for case let concept as [String: Any] in concepts {
                if let code = concept["code"] as? String {
                    choices.append(TextChoice(text: concept["display"] as? String ?? code, value: .string(code)))
                }
            }
        }
        guard !choices.isEmpty else {
            unsupported(linkId, "\(path).answerValueSet", "ValueSet \(reference) lists no codes; the item is left out")
            return nil
        }
        return (choices, "Coding")
    }

    /// The enable condition of an item, or nil when it cannot be built (each problem reported).
    mutating func enableCondition(of owner: String, stepIndex: Int, repetitions: [FHIRGroupRepetition], plan: StepPlan) -> Condition? {
        if let step = plan.addAnotherStepOfOwner[owner] {
            return .comparison(AnswerReference(step: plan.identifiers[step]), .equal, .boolean(true))
        }
        let expression = enableExpressions[owner].map(Condition.expression)
        guard let (clauses, behavior, path) = enableWhens[owner] else { return expression }
        var conditions: [Condition] = []
        var failed = false
        for (index, clause) in clauses.enumerated() {
            let clausePath = "\(path).enableWhen[\(index)]"
            switch clauseCondition(clause, owner: owner, path: clausePath, stepIndex: stepIndex, repetitions: repetitions, plan: plan) {
            case .condition(let condition): conditions.append(condition)
            case .interpreted(let condition, let note):
                conditions.append(condition)
                issues.append(note)
            case .issue(let issue):
                issues.append(issue)
                failed = true
            }
        }
        if clauses.count > 1, behavior != "all", behavior != "any" {
            issues.append(FHIRImportIssue(kind: .unsupportedCondition, linkId: owner, path: "\(path).enableBehavior",
                                          message: "several enableWhen need enableBehavior 'all' or 'any'; the item is always shown"))
            return nil
        }
        if failed { return nil }
        let clauseCondition = conditions.count == 1 ? conditions[0] : behavior == "any" ? .or(conditions) : .and(conditions)
        // An item with both must satisfy both (SDC allows only one of them; this keeps the stricter reading).
        return expression.map { .and([clauseCondition, $0]) } ?? clauseCondition
    }

    /// One `enableWhen` clause as a condition.
    func clauseCondition(_ clause: [String: Any], owner: String, path: String, stepIndex: Int,
                         repetitions: [FHIRGroupRepetition], plan: StepPlan) -> ClauseOutcome {
        let questionId = clause["question"] as? String ?? ""
        let operatorText = clause["operator"] as? String ?? ""
        func fail(_ kind: FHIRImportIssue.Kind, _ message: String) -> ClauseOutcome {
            .issue(FHIRImportIssue(kind: kind, linkId: owner, otherLinkId: questionId, path: path,
                                     message: "\(message); the condition is not evaluated and item '\(owner)' is always shown"))
        }
        guard let question = questions[questionId], let questionStep = plan.step(asking: questionId, from: repetitions) else {
            let why = allItems[questionId] == nil ? "names no item" : "names an item that was not imported as a question"
            return fail(.unsupportedCondition, "enableWhen of '\(owner)' \(why): '\(questionId)'")
        }
        guard questionStep < stepIndex else {
            return fail(.unsupportedCondition, "enableWhen of '\(owner)' names '\(questionId)', which is not asked on an earlier step")
        }
        let reference = AnswerReference(step: plan.identifiers[questionStep], item: questionId)
        guard let answerKey = clause.keys.first(where: { $0.hasPrefix("answer") }) else {
            return fail(.unsupportedCondition, "enableWhen of '\(owner)' on '\(questionId)' has no answer[x]")
        }
        let answerType = String(answerKey.dropFirst("answer".count))
        if operatorText == "exists" {
            guard let exists = jsonBool(clause[answerKey]), answerType == "Boolean" else {
                return fail(.mismatchedCondition, "enableWhen of '\(owner)' uses exists on '\(questionId)' with \(answerKey) instead of answerBoolean")
            }
            return .condition(exists ? .answered(reference) : .not(.answered(reference)))
        }
        let comparisons: [String: ComparisonOperator] = ["=": .equal, "!=": .notEqual, ">": .greater, "<": .less,
                                                         ">=": .greaterOrEqual, "<=": .lessOrEqual]
        guard let comparison = comparisons[operatorText] else {
            return fail(.unsupportedCondition, "enableWhen of '\(owner)' has unknown operator '\(operatorText)'")
        }
        let isChoice = question.type == "choice" || question.type == "open-choice"
        let expected = FHIRItemType.answerSuffix(question.type) ?? question.optionKind ?? "?"
        if expected == "Coding", ["String", "Integer", "Decimal"].contains(answerType), !question.optionCodes.isEmpty {
            return codeCondition(clause[answerKey], answerKey: answerKey, comparison: comparison, operatorText: operatorText,
                                 reference: reference, question: question, questionId: questionId, owner: owner, path: path)
        }
        guard answerType == expected else {
            let described = isChoice ? "a \(question.type) question with \(expected) options" : "a \(question.type) question"
            return fail(.mismatchedCondition,
                        "enableWhen of '\(owner)' compares '\(questionId)' (\(described), answers answer\(expected)) with \(answerKey)")
        }
        let value: ConditionValue
        let raw = clause[answerKey]
        switch answerType {
        case "Boolean":
            guard let flag = jsonBool(raw) else { return fail(.mismatchedCondition, "\(answerKey) is not a boolean") }
            guard comparison == .equal || comparison == .notEqual else {
                return fail(.unsupportedCondition, "enableWhen of '\(owner)' orders yes/no answers of '\(questionId)' with \(operatorText)")
            }
            value = .boolean(flag)
        case "Decimal", "Integer":
            guard let number = decimal(raw) else { return fail(.mismatchedCondition, "\(answerKey) is not a number") }
            value = .number(number)
        case "Quantity":
            guard let number = decimal((raw as? [String: Any])?["value"]) else {
                return fail(.mismatchedCondition, "answerQuantity has no value")
            }
            value = .number(number)
        case "Coding":
            guard let code = (raw as? [String: Any])?["code"] as? String else {
                return fail(.mismatchedCondition, "answerCoding has no code")
            }
            value = .string(code)
        default:
            guard let text = raw as? String else { return fail(.mismatchedCondition, "\(answerKey) is not a string") }
            value = .string(text)
        }
        if isChoice {
            switch comparison {
            case .equal: return .condition(.contains(reference, value))
            case .notEqual: return .condition(.not(.contains(reference, value)))
            default:
                guard answerType != "Coding", !question.repeats else {
                    return fail(.unsupportedCondition,
                                "enableWhen of '\(owner)' orders the answers of '\(questionId)' with \(operatorText), which needs a single non-Coding answer")
                }
            }
        }
        if comparison == .notEqual {
            // R4: "true if no answer has a value that is equal to the enableWhen answer", so true when unanswered.
            return .condition(.or([.not(.answered(reference)), .comparison(reference, .notEqual, value)]))
        }
        return .condition(.comparison(reference, comparison, value))
    }

    /// An `enableWhen` that compares a question with Coding options with `answerString`, `answerInteger` or `answerDecimal`,
    /// as forms written for renderers that compare the chosen Coding's code do: the value is compared with each option's
    /// code (as text for a string; as a number for a number, when every code is one), and the condition holds when an
    /// option that compares so is chosen (for `!=`: when none equal to the value is chosen, as R4 defines `!=`).
    func codeCondition(_ raw: Any?, answerKey: String, comparison: ComparisonOperator, operatorText: String,
                       reference: AnswerReference, question: ImportedQuestion, questionId: String, owner: String,
                       path: String) -> ClauseOutcome {
        let codes = question.optionCodes
        let matching: [String]
        if answerKey == "answerString" {
            guard let text = raw as? String, comparison == .equal || comparison == .notEqual else {
                return .issue(FHIRImportIssue(kind: .mismatchedCondition, linkId: owner, otherLinkId: questionId, path: path,
                                              message: "enableWhen of '\(owner)' orders the codes of '\(questionId)' with \(operatorText) and \(answerKey); the condition is not evaluated and item '\(owner)' is always shown"))
            }
            matching = codes.filter { $0 == text }
        } else {
            let numbers = codes.map { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }
            guard let value = decimal(raw), numbers.allSatisfy({ $0 != nil }) else {
                return .issue(FHIRImportIssue(kind: .mismatchedCondition, linkId: owner, otherLinkId: questionId, path: path,
                                              message: "enableWhen of '\(owner)' compares '\(questionId)', whose codes are not all numbers, with \(answerKey); the condition is not evaluated and item '\(owner)' is always shown"))
            }
            let compare: (Decimal) -> Bool = switch comparison {
            case .equal, .notEqual: { $0 == value }
            case .less: { $0 < value }
            case .lessOrEqual: { $0 <= value }
            case .greater: { $0 > value }
            case .greaterOrEqual: { $0 >= value }
            }
            matching = zip(codes, numbers).filter { compare($0.1!) }.map(\.0)
        }
        let anyChosen: Condition = matching.isEmpty ? .constant(false)
            : matching.count == 1 ? .contains(reference, .string(matching[0])) : .or(matching.map { .contains(reference, .string($0)) })
        let note = FHIRImportIssue(kind: .interpretedCondition, linkId: owner, otherLinkId: questionId, path: path,
                                   message: "enableWhen of '\(owner)' compares '\(questionId)', which has Coding options, with \(answerKey); it is read as a test of the chosen option's code (\(matching.isEmpty ? "no code matches" : "codes " + matching.joined(separator: ", ")))")
        return .interpreted(comparison == .notEqual ? .not(anyChosen) : anyChosen, note: note)
    }

    /// A JSON number as a `Decimal`, read from its text so that 2.1 stays 2.1.
    func decimal(_ value: Any?) -> Decimal? {
        guard let number = value as? NSNumber, jsonBool(value) == nil else { return nil }
        return Decimal(string: number.stringValue, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// A JSON `true` or `false`; nil for anything else, numbers included (which Foundation would bridge to `Bool`).
    func jsonBool(_ value: Any?) -> Bool? {
        guard let number = value as? NSNumber else { return value as? Bool }
        return String(cString: number.objCType) == "c" ? number.boolValue : nil
    }

    /// A FHIR date `YYYY-MM-DD` as the start of that day in UTC.
    static func day(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.date(from: text)
    }

    /// A FHIR dateTime with offset, with or without fractional seconds.
    static func instant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
