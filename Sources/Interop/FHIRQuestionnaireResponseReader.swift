import Crypto
import Foundation
import Research

/// Reads a FHIR R4 QuestionnaireResponse (JSON) to a Questionnaire as a result of the Questionnaire's task.
///
/// The response must answer this Questionnaire: its `questionnaire` must be the Questionnaire's `url`, or
/// `url|version` with the Questionnaire's `version`. (When the Questionnaire has no `url`, the response may
/// leave `questionnaire` out, or name it `Questionnaire/<id>`.) Each answer is matched by linkId to the task's
/// form item and read as the ``Answer`` its answer format takes, the inverse of
/// ``FHIRQuestionnaireResponseBuilder``: `valueCoding` and the other option values become the chosen options,
/// an open-choice `valueString` that is not an option becomes the "other" choice with that text,
/// `valueDate` becomes a day in the time zone passed in, `valueDateTime` keeps its offset (as that time zone
/// when it has that offset then, else as a fixed offset), `valueQuantity` becomes a number with its unit.
///
/// The task result has the task's identifier; its run UUID is the response's `id` when that is a UUID, else
/// the one passed in; it starts and ends at `authored`. It has one step result per step with answers, in task
/// order, each holding the answered questions in form order.
///
/// Every problem is reported, all together, in one ``FHIRResponseError`` naming the JSON path (such as
/// `item[0].item[3].answer[0]`) and linkId: linkIds the Questionnaire does not have or has elsewhere, sibling
/// items with the same linkId (`qrs-2`; a repeating group may appear up to its limit), items with both `answer` and `item` (`qrs-1`), answers to groups,
/// display items and questions the task does not ask, values of the wrong type, choices not among the options
/// (a Coding matches an option by code, and by system when both give one), several answers to a question that
/// does not repeat, quantities in another unit, answers the task's format refuses, and answers to items whose
/// `enableWhen` is not met, and, in a `completed` response, required questions left unanswered where they are enabled
/// (in each repetition the response holds). Items without answers are allowed (R4 does not forbid them) and read as
/// unanswered.
public struct FHIRQuestionnaireResponseReader: Sendable {
    /// The Questionnaire the responses answer.
    public let questionnaire: FHIRQuestionnaire

    /// Creates a reader of responses to `questionnaire`.
    public init(questionnaire: FHIRQuestionnaire) {
        self.questionnaire = questionnaire
    }

    /// Reads a QuestionnaireResponse.
    ///
    /// - Parameters:
    ///   - data: The QuestionnaireResponse, as JSON.
    ///   - timeZone: The time zone days (`valueDate`) are read in, and that `valueDateTime` answers keep when
    ///     their offset is this zone's.
    ///   - fallbackRunUUID: The run UUID when the response's `id` is missing or not a UUID.
    /// - Throws: ``FHIRResponseError`` listing every problem found.
    public func read(_ data: Data, timeZone: TimeZone, fallbackRunUUID: UUID) throws(FHIRResponseError) -> FHIRReadQuestionnaireResponse {
        let resource: FHIRJSONValue
        do {
            resource = try FHIRJSONValue(parsing: data)
        } catch {
            throw FHIRResponseError(issues: [FHIRResponseIssue(kind: .invalidResource, linkId: nil, path: "",
                                                               message: "not valid JSON: \(error.localizedDescription)")])
        }
        guard resource["resourceType"]?.string == "QuestionnaireResponse" else {
            throw FHIRResponseError(issues: [FHIRResponseIssue(kind: .invalidResource, linkId: nil, path: "resourceType",
                                                               message: "not a FHIR QuestionnaireResponse")])
        }
        var reading = ResponseReading(questionnaire: questionnaire, timeZone: timeZone)
        reading.checkQuestionnaire(resource["questionnaire"])
        let status = reading.status(resource["status"])
        let authored = reading.authored(resource["authored"])
        let subject = reading.reference(resource["subject"], path: "subject")
        let author = reading.reference(resource["author"], path: "author")
        reading.readItems(resource["item"], path: "", parent: nil, repetitions: [])
        let stepResults = reading.stepResults(at: authored ?? Date(timeIntervalSince1970: 0))
        reading.checkEnabled(stepResults)
        if status == .completed { reading.checkRequired(stepResults) }
        guard reading.issues.isEmpty, let status, let authored else { throw FHIRResponseError(issues: reading.issues) }

        let runUUID = resource["id"]?.string.flatMap(UUID.init(uuidString:)) ?? fallbackRunUUID
        let result = TaskResult(identifier: questionnaire.task.identifier, taskRunUUID: runUUID, startDate: authored,
                                endDate: authored, stepResults: stepResults)
        var read = FHIRReadQuestionnaireResponse(result: result, status: status, subject: subject, author: author)
        read.files = reading.files
        return read
    }
}

/// One response being read: the answers found so far and the problems.
private struct ResponseReading {
    let questionnaire: FHIRQuestionnaire
    let timeZone: TimeZone
    var issues: [FHIRResponseIssue] = []
    /// The data of attachments that carry it, by the file name of their answer.
    var files: [String: Data] = [:]
    /// Each answered question's result, by where it is answered, with the path of its response item.
    var answered: [FHIRQuestionPlace: (result: QuestionResult, path: String)] = [:]
    /// The repetitions of repeating groups the response holds (as items, answered or not), with each one's path.
    var repetitionsGiven: [[FHIRGroupRepetition]: String] = [:]

    init(questionnaire: FHIRQuestionnaire, timeZone: TimeZone) {
        self.questionnaire = questionnaire
        self.timeZone = timeZone
    }

    mutating func report(_ kind: FHIRResponseIssue.Kind, _ linkId: String?, _ path: String, _ message: String) {
        issues.append(FHIRResponseIssue(kind: kind, linkId: linkId, path: path, message: message))
    }

    /// Checks that `questionnaire` names this Questionnaire.
    mutating func checkQuestionnaire(_ value: FHIRJSONValue?) {
        let expected = questionnaire.canonical ?? questionnaire.logicalId.map { "Questionnaire/\($0)" } ?? "?"
        guard let value else {
            if let url = questionnaire.url {
                report(.questionnaireMismatch, nil, "questionnaire", "the response does not say which Questionnaire it answers; expected \(url)")
            }
            return
        }
        guard let text = value.string else {
            report(.questionnaireMismatch, nil, "questionnaire", "questionnaire is \(value.typeDescription), not a canonical URL")
            return
        }
        let parts = text.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let matches: Bool
        if let url = questionnaire.url {
            let versionMatches = parts.count == 1 || parts[1] == questionnaire.version
            matches = parts[0] == url && versionMatches
        } else if let id = questionnaire.logicalId {
            matches = parts[0] == "Questionnaire/\(id)" || parts[0].hasSuffix("/Questionnaire/\(id)")
        } else {
            matches = false
        }
        if !matches {
            report(.questionnaireMismatch, nil, "questionnaire", "the response answers \(text), not \(expected)")
        }
    }

    /// The response's status; nil (with an issue) when missing or unknown.
    mutating func status(_ value: FHIRJSONValue?) -> FHIRQuestionnaireResponseStatus? {
        guard let text = value?.string, let status = FHIRQuestionnaireResponseStatus(rawValue: text) else {
            let known = FHIRQuestionnaireResponseStatus.allCases.map(\.rawValue).joined(separator: ", ")
            report(.invalidResource, nil, "status", "status must be one of \(known)")
            return nil
        }
        return status
    }

    /// When the answers were given; nil (with an issue) when missing or not a date-time with offset.
    mutating func authored(_ value: FHIRJSONValue?) -> Date? {
        guard let text = value?.string, let date = FHIRValueText.instant(text) else {
            report(.invalidResource, nil, "authored",
                   value == nil ? "authored is missing: the task result needs a date" : "authored is not a date-time with offset")
            return nil
        }
        return date
    }

    /// A Reference; nil when absent, and nil with an issue when it is not an object.
    mutating func reference(_ value: FHIRJSONValue?, path: String) -> FHIRReference? {
        guard let value else { return nil }
        guard let object = value.object else {
            report(.invalidResource, nil, path, "\(path) is \(value.typeDescription), not a Reference")
            return nil
        }
        return FHIRReference(reference: object["reference"]?.string, display: object["display"]?.string)
    }

    /// Reads the response items `value` (the `item` of the item at `path`, or the top-level items), which
    /// belong under the Questionnaire item `parent` (nil: at the top level) in `repetitions` of the repeating groups
    /// around them. A repeating group may appear up to its limit times, each a repetition of its own.
    mutating func readItems(_ value: FHIRJSONValue?, path: String, parent: String?, repetitions: [FHIRGroupRepetition]) {
        guard let value else { return }
        let listPath = path.isEmpty ? "item" : "\(path).item"
        guard let elements = value.array else {
            report(.invalidItem, parent, listPath, "item is \(value.typeDescription), not an array")
            return
        }
        let expected = parent.flatMap { questionnaire.item($0)?.childLinkIds } ?? questionnaire.topLevelLinkIds
        var seen: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            let itemPath = "\(listPath)[\(index)]"
            guard element.object != nil else {
                report(.invalidItem, nil, itemPath, "an item is \(element.typeDescription), not an object")
                continue
            }
            guard let linkId = element["linkId"]?.string else {
                report(.invalidItem, nil, itemPath, "the item has no linkId")
                continue
            }
            guard let definition = questionnaire.item(linkId) else {
                report(.unknownLinkId, linkId, itemPath, "the Questionnaire has no item '\(linkId)'")
                continue
            }
            guard expected.contains(linkId) else {
                let home = definition.parentLinkId.map { "under '\($0)'" } ?? "at the top level"
                let here = parent.map { "under '\($0)'" } ?? "at the top level"
                report(.misplacedItem, linkId, itemPath, "'\(linkId)' is \(here), but the Questionnaire has it \(home)")
                continue
            }
            let count = seen[linkId, default: 0] + 1
            seen[linkId] = count
            let limit = definition.type == "group" ? questionnaire.repetitionLimit(of: linkId) : nil
            guard count <= (limit ?? 1) else {
                let why = limit.map { "the task asks the group at most \($0) times" }
                    ?? (definition.type == "group" ? "the group does not repeat" : "all its answers belong in one item")
                report(.duplicateItem, linkId, itemPath, "'\(linkId)' appears \(count) times here: \(why) (qrs-2)")
                continue
            }
            var inner = repetitions
            if limit != nil {
                inner.append(FHIRGroupRepetition(linkId: linkId, index: count))
                repetitionsGiven[inner] = itemPath
            }
            readItem(element, definition: definition, path: itemPath, repetitions: inner)
        }
    }

    /// Reads one response item whose linkId is `definition`'s.
    mutating func readItem(_ element: FHIRJSONValue, definition: FHIRQuestionnaireItemDefinition, path: String,
                           repetitions: [FHIRGroupRepetition]) {
        let linkId = definition.linkId
        let answers = element["answer"]
        if answers != nil, element["item"] != nil {
            report(.invalidItem, linkId, path, "the item has both answer and item (qrs-1)")
            return
        }
        guard definition.isQuestion else {
            if answers != nil {
                report(.notAQuestion, linkId, "\(path).answer", "'\(linkId)' is a \(definition.type) item, which takes no answers")
            } else if definition.type == "group" {
                readItems(element["item"], path: path, parent: linkId, repetitions: repetitions)
            } else if element["item"] != nil {
                report(.invalidItem, linkId, "\(path).item", "'\(linkId)' is a display item, which has no nested items")
            }
            return
        }
        if element["item"] != nil {
            report(.invalidItem, linkId, "\(path).item", "items under a question belong in its answers (answer.item)")
            return
        }
        guard let answers else { return }
        guard let list = answers.array else {
            report(.invalidItem, linkId, "\(path).answer", "answer is \(answers.typeDescription), not an array")
            return
        }
        guard !list.isEmpty else { return }
        guard questionnaire.isAsked(linkId), let format = questionnaire.formats[linkId] else {
            report(.itemNotInTask, linkId, path, "'\(linkId)' is a \(definition.type) question the task does not ask (the import left it out)")
            return
        }
        if list.count > 1, !definition.repeats {
            report(.tooManyAnswers, linkId, "\(path).answer[1]", "'\(linkId)' does not repeat but has \(list.count) answers")
            return
        }
        var unit = format.unit
        var selections: [ChoiceSelection] = []
        var single: Answer?
        var failed = false
        for (index, entry) in list.enumerated() {
            let answerPath = "\(path).answer[\(index)]"
            guard entry.object != nil else {
                report(.invalidItem, linkId, answerPath, "an answer is \(entry.typeDescription), not an object")
                failed = true
                continue
            }
            if entry["item"] != nil {
                // The items nested under the question, answered once: under its first answer.
                guard !definition.childLinkIds.isEmpty, index == 0 else {
                    let why = definition.childLinkIds.isEmpty ? "'\(linkId)' has no nested items in the Questionnaire"
                        : "the task asks the items nested under '\(linkId)' once, under its first answer"
                    report(.itemNotInTask, linkId, "\(answerPath).item", why)
                    failed = true
                    continue
                }
                readItems(entry["item"], path: answerPath, parent: linkId, repetitions: repetitions)
            }
            let valueKeys = (entry.object ?? [:]).keys.filter { $0.hasPrefix("value") }.sorted()
            guard valueKeys.count == 1, let key = valueKeys.first, let value = entry[key] else {
                report(.invalidItem, linkId, answerPath,
                       valueKeys.isEmpty ? "the answer has no value[x]" : "the answer has several values: \(valueKeys.joined(separator: ", "))")
                failed = true
                continue
            }
            switch readValue(key, value, definition: definition, format: format, path: answerPath) {
            case .selection(let selection): selections.append(selection)
            case .answer(let answer, let answerUnit):
                single = answer
                if let answerUnit { unit = answerUnit }
            case nil: failed = true
            }
        }
        guard !failed else { return }
        let answer: Answer
        if definition.answersFromList {
            answer = .choices(selections)
        } else if let single {
            answer = single
        } else {
            return
        }
        do {
            try format.validate(answer)
        } catch {
            report(.invalidAnswer, linkId, "\(path).answer", "the task refuses this answer: \(error.message)")
            return
        }
        answered[FHIRQuestionPlace(linkId: linkId, repetitions: repetitions)] =
            (QuestionResult(identifier: linkId, type: format.type, answer: answer, unit: unit), path)
    }

    /// What one `value[x]` reads as.
    enum ReadValue {
        /// One chosen option of a choice item.
        case selection(ChoiceSelection)
        /// The answer of any other item, with the unit of a quantity.
        case answer(Answer, unit: String?)
    }

    /// Reads one `value[x]` of an answer to `definition`; nil (with an issue) when it does not fit.
    mutating func readValue(_ key: String, _ value: FHIRJSONValue, definition: FHIRQuestionnaireItemDefinition,
                            format: AnswerFormat, path: String) -> ReadValue? {
        let linkId = definition.linkId
        let type = definition.type
        let expectedKey = FHIRItemType.answerSuffix(type).map { "value" + $0 } ?? definition.answerOptions.first?.answerKey ?? "valueCoding"
        let isOpenChoiceText = type == "open-choice" && key == "valueString"
        guard key == expectedKey || isOpenChoiceText else {
            let other = type == "open-choice" && expectedKey != "valueString" ? " or valueString" : ""
            report(.wrongValueType, linkId, path, "a \(type) item answers with \(expectedKey)\(other), not \(key)")
            return nil
        }
        func wrong(_ what: String) -> ReadValue? {
            let given = value.string.map { "'\($0)'" } ?? value.typeDescription
            report(.wrongValueType, linkId, "\(path).\(key)", "\(key) is \(given), not \(what)")
            return nil
        }
        if definition.answersFromList, definition.type != "choice", definition.type != "open-choice" {
            // An integer, date, time or string item with a fixed list: its value must be one of the options.
            return choice(key, value, definition: definition, format: format, path: path)
        }
        switch key {
        case "valueBoolean":
            guard let flag = value.bool else { return wrong("true or false") }
            return .answer(.boolean(flag), unit: nil)
        case "valueDecimal":
            guard let number = value.number else { return wrong("a number") }
            return .answer(.number(number), unit: nil)
        case "valueInteger" where type == "integer":
            guard let number = value.number, let integer = FHIRValueText.integer(number) else { return wrong("a whole number") }
            return .answer(.number(Decimal(integer)), unit: nil)
        case "valueDate" where type == "date":
            guard let text = value.string, let day = FHIRValueText.dateAnswer(text, timeZone: timeZone) else {
                return wrong("a full date YYYY-MM-DD (a day answer has no partial dates)")
            }
            return .answer(.date(day), unit: nil)
        case "valueDateTime":
            guard let text = value.string, let answer = FHIRValueText.dateTimeAnswer(text, timeZone: timeZone) else {
                return wrong("a date and time with seconds and offset (a date-time answer needs the time)")
            }
            return .answer(.date(answer), unit: nil)
        case "valueTime" where type == "time":
            guard let text = value.string, let time = FHIRValueText.timeOfDay(text) else { return wrong("a time hh:mm:ss") }
            return .answer(.timeOfDay(time), unit: nil)
        case "valueString" where type == "string" || type == "text", "valueUri":
            guard let text = value.string else { return wrong("a string") }
            return .answer(.text(text), unit: nil)
        case "valueQuantity":
            return quantity(value, definition: definition, format: format, path: "\(path).valueQuantity")
        case "valueAttachment" where type == "attachment":
            return attachment(value, linkId: linkId, path: "\(path).valueAttachment")
        default:
            return choice(key, value, definition: definition, format: format, path: path)
        }
    }

    /// Reads an attachment as a file answer: its data (base64, checked against its SHA-1 `hash` when it has one) or
    /// at least its `size`, its `contentType` and `title`. The data is kept in ``files`` under the answer's file name.
    mutating func attachment(_ value: FHIRJSONValue, linkId: String, path: String) -> ReadValue? {
        guard value.object != nil else {
            report(.wrongValueType, linkId, path, "valueAttachment is not an object")
            return nil
        }
        var data: Data?
        if let text = value["data"]?.string {
            guard let decoded = Data(base64Encoded: text) else {
                report(.wrongValueType, linkId, "\(path).data", "the attachment's data is not base64")
                return nil
            }
            if let hash = value["hash"]?.string, Data(Insecure.SHA1.hash(data: decoded)).base64EncodedString() != hash {
                report(.invalidAnswer, linkId, "\(path).hash", "the attachment's data does not match its SHA-1 hash")
                return nil
            }
            data = decoded
        }
        guard let size = data?.count ?? value["size"]?.number.map({ NSDecimalNumber(decimal: $0).intValue }) else {
            report(.wrongValueType, linkId, path, "the attachment has neither data nor size")
            return nil
        }
        let title = value["title"]?.string
        let safeLinkId = String(linkId.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
        let fileName = "\(safeLinkId)-\(files.count + 1)" +
            (title.map { ($0 as NSString).pathExtension }.map { $0.isEmpty ? "" : ".\($0)" } ?? "")
        let sha256 = data.map { SHA256.hash(data: $0).map { String(format: "%02x", $0) }.joined() } ?? ""
        if let data { files[fileName] = data }
        let answer = FileAnswer(fileName: fileName, contentType: value["contentType"]?.string ?? "application/octet-stream",
                                byteCount: size, sha256: sha256, title: title)
        return .answer(.file(answer), unit: nil)
    }

    /// Reads a quantity: its value, and its unit, which must be the Questionnaire's when it gives one.
    mutating func quantity(_ value: FHIRJSONValue, definition: FHIRQuestionnaireItemDefinition, format: AnswerFormat,
                           path: String) -> ReadValue? {
        let linkId = definition.linkId
        guard value.object != nil, let number = value["value"]?.number else {
            report(.wrongValueType, linkId, path, "valueQuantity has no numeric value")
            return nil
        }
        let unitText = value["unit"]?.string
        let code = value["code"]?.string
        let system = value["system"]?.string
        guard let expected = definition.unit else {
            return .answer(.number(number), unit: unitText ?? code ?? format.unit)
        }
        let sameUnit: Bool
        if let code {
            sameUnit = code == expected.code && (system == nil || expected.system == nil || system == expected.system)
        } else if let unitText {
            sameUnit = unitText == expected.display || unitText == expected.code
        } else {
            sameUnit = true
        }
        guard sameUnit else {
            let given = [unitText, code.map { "code \($0)" }, system].compactMap { $0 }.joined(separator: ", ")
            let wanted = [expected.display, expected.code.map { "code \($0)" }, expected.system].compactMap { $0 }.joined(separator: ", ")
            report(.mismatchedUnit, linkId, path, "the quantity is in \(given), not in the Questionnaire's unit (\(wanted))")
            return nil
        }
        return .answer(.number(number), unit: format.unit)
    }

    /// Reads the value of a choice answer as one chosen option, or as the "other" choice's text.
    mutating func choice(_ key: String, _ value: FHIRJSONValue, definition: FHIRQuestionnaireItemDefinition,
                         format: AnswerFormat, path: String) -> ReadValue? {
        let linkId = definition.linkId
        let valuePath = "\(path).\(key)"
        let matched: FHIRAnswerOption?
        let given: String
        switch key {
        case "valueCoding":
            guard let coding = FHIRAnswerCoding(value), let code = coding.code else {
                report(.wrongValueType, linkId, valuePath, "valueCoding has no code")
                return nil
            }
            given = [coding.system, code].compactMap { $0 }.joined(separator: "#")
            matched = definition.answerOptions.first { option in
                guard case .coding(let known, let knownCode) = option, knownCode == code else { return false }
                return coding.system == nil || known.system == nil || coding.system == known.system
            }
        case "valueInteger":
            guard let number = value.number, let integer = FHIRValueText.integer(number) else {
                report(.wrongValueType, linkId, valuePath, "valueInteger is not a whole number")
                return nil
            }
            given = String(integer)
            matched = definition.answerOptions.first { $0 == .integer(integer) }
        default:
            guard let text = value.string else {
                report(.wrongValueType, linkId, valuePath, "\(key) is \(value.typeDescription), not a string")
                return nil
            }
            given = text
            matched = definition.answerOptions.first { $0.answerKey == key && $0.choiceValue == .string(text) }
            if matched == nil, definition.type == "open-choice", key == "valueString" {
                guard case .textChoice(let choices) = format, let other = choices.choices.first(where: { $0.other != nil }) else {
                    report(.itemNotInTask, linkId, path, "the task's question '\(linkId)' has no \"other\" choice")
                    return nil
                }
                return .selection(ChoiceSelection(other.value, text: text))
            }
        }
        guard let matched else {
            report(.unknownOption, linkId, valuePath, "\(given) is not an option of '\(linkId)'")
            return nil
        }
        return .selection(ChoiceSelection(matched.choiceValue))
    }

    /// The step results: one per step of the task with answers, in task order, answers in form order. An "Add
    /// another" step is answered yes when the response holds a later repetition of its group, no when it holds the
    /// repetition the step follows but none after.
    func stepResults(at date: Date) -> [StepResult] {
        questionnaire.task.steps.compactMap { step -> StepResult? in
            if let after = questionnaire.repetitions.addAnotherSteps[step.identifier], let last = after.last {
                let next = after.dropLast() + [FHIRGroupRepetition(linkId: last.linkId, index: last.index + 1)]
                let another: Bool
                if repetitionsGiven[Array(next)] != nil {
                    another = true
                } else if repetitionsGiven[after] != nil {
                    another = false
                } else {
                    return nil
                }
                let result = QuestionResult(identifier: step.identifier, type: .boolean, answer: .boolean(another))
                return StepResult(identifier: step.identifier, startDate: date, endDate: date, results: [.question(result)])
            }
            let repetitions = questionnaire.repetitions.repetitions(ofStep: step.identifier)
            let results = step.questions.compactMap { question in
                answered[FHIRQuestionPlace(linkId: question.identifier, repetitions: repetitions)].map { ResultItem.question($0.result) }
            }
            return results.isEmpty ? nil : StepResult(identifier: step.identifier, startDate: date, endDate: date, results: results)
        }
    }

    /// Reports the required questions a completed response leaves unanswered: on every step whose skip rule does not
    /// hold (its items are enabled), in the repetition of each repeating group the response holds, calculated items aside.
    mutating func checkRequired(_ stepResults: [StepResult]) {
        let context = ConditionContext(current: stepResults)
        for step in questionnaire.task.steps where questionnaire.repetitions.addAnotherSteps[step.identifier] == nil {
            if let rule = questionnaire.task.skipRules[step.identifier], rule.isSatisfied(by: context) { continue }
            let repetitions = questionnaire.repetitions.repetitions(ofStep: step.identifier)
            let path: String
            if repetitions.isEmpty {
                path = "item"
            } else if let given = repetitionsGiven[repetitions] {
                path = given
            } else {
                continue  // a repetition the response does not hold was not asked
            }
            let calculated = Set(step.calculatedItems.compactMap(\.identifier))
            for question in step.questions where !question.isOptional && !calculated.contains(question.identifier) {
                guard answered[FHIRQuestionPlace(linkId: question.identifier, repetitions: repetitions)] == nil else { continue }
                let which = repetitions.last.map { " in repetition \($0.index) of '\($0.linkId)'" } ?? ""
                report(.missingAnswer, question.identifier, path, "the response is completed, but the required '\(question.identifier)' has no answer\(which)")
            }
        }
    }

    /// Reports answers on steps whose skip rule holds, that is items whose `enableWhen` is not met.
    mutating func checkEnabled(_ stepResults: [StepResult]) {
        let context = ConditionContext(current: stepResults)
        for step in stepResults where questionnaire.repetitions.addAnotherSteps[step.identifier] == nil {
            guard let rule = questionnaire.task.skipRules[step.identifier], rule.isSatisfied(by: context) else { continue }
            let repetitions = questionnaire.repetitions.repetitions(ofStep: step.identifier)
            for question in step.questionResults {
                let place = FHIRQuestionPlace(linkId: question.identifier, repetitions: repetitions)
                report(.disabledItem, question.identifier, answered[place]?.path ?? "",
                       "'\(question.identifier)' is answered, but its enableWhen is not met, so it is disabled")
            }
        }
    }
}
