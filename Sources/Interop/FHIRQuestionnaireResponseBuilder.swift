import Crypto
import Foundation
import Research

/// Writes a run of a Questionnaire's task as a FHIR R4 QuestionnaireResponse (JSON).
///
/// The response carries `resourceType`, `id` (the run's UUID, lowercased), `questionnaire` (the
/// Questionnaire's ``FHIRQuestionnaire/canonical`` reference, left out when it has no `url`), `status`,
/// `subject` and `author` when given, `authored` (the result's end date, with the offset of the time zone
/// passed in) and an item tree that mirrors the Questionnaire: each item has the Questionnaire's `linkId` and
/// `text`, groups contain their children, and only answered questions appear, inside the groups that contain
/// them; a repeating group gives one item per repetition answered, in order (see ``FHIRRepetitionLayout``). A group
/// with nothing answered inside is left out, and so is the whole `item` list when nothing was
/// answered: FHIR wants no empty items, no item with both `answer` and `item` (`qrs-1`) and one item per
/// question, holding all its answers (`qrs-2`).
///
/// Answers are typed by the Questionnaire item: boolean → `valueBoolean`, decimal → `valueDecimal`, integer →
/// `valueInteger`, date → `valueDate` (the day in the answer's time zone), dateTime → `valueDateTime` (with the
/// offset of the answer's own time zone), time → `valueTime` (`hh:mm:ss`), string and text → `valueString`,
/// url → `valueUri`, quantity → `valueQuantity` (`value` and `unit`, with `system` and `code` when the
/// `questionnaire-unit` extension gives a Coding for that unit), choice and open-choice → the option's own
/// value (`valueCoding` with system, code and display, or `valueInteger`, `valueString`, `valueDate`,
/// `valueTime`), an open-choice "other" → `valueString` with the text typed, attachment → `valueAttachment`
/// (`contentType`, `size`, `title`, and `data` with its SHA-1 `hash` when ``fileContents`` finds the file). A
/// repeating choice gives one answer per chosen option, in the order chosen.
///
/// Skipped steps, earlier passes of revisited steps, unanswered questions and empty texts are left out.
/// Results that cannot be written (a linkId the Questionnaire does not have, a question the task does not
/// ask, an answer of the wrong kind, a value not among the options, several choices on a question that does
/// not repeat, "I don't know") are all reported together in one ``FHIRResponseError``.
public struct FHIRQuestionnaireResponseBuilder: Sendable {
    /// The Questionnaire the responses answer.
    public let questionnaire: FHIRQuestionnaire
    /// The bytes of an attached file (from the run's output folder); nil when they are not at hand, and the
    /// attachment then describes the file without its data.
    public let fileContents: (@Sendable (FileAnswer) -> Data?)?

    /// Creates a builder for responses to `questionnaire`; `fileContents` reads attached files so that their
    /// data goes into the response.
    public init(questionnaire: FHIRQuestionnaire, fileContents: (@Sendable (FileAnswer) -> Data?)? = nil) {
        self.questionnaire = questionnaire
        self.fileContents = fileContents
    }

    /// The QuestionnaireResponse for `result`, as UTF-8 JSON.
    ///
    /// - Parameters:
    ///   - result: A result of the Questionnaire's task (``FHIRQuestionnaire/task``).
    ///   - status: ``FHIRQuestionnaireResponseStatus/completed`` for a finished run,
    ///     ``FHIRQuestionnaireResponseStatus/inProgress`` for a saved one.
    ///   - timeZone: The time zone whose offset `authored` is written with.
    ///   - subject: Who or what the answers are about, usually the participant (`Patient/…`); nil leaves it out.
    ///   - author: Who recorded the answers; nil leaves it out.
    ///   - prettyPrinted: Indents the JSON by two spaces; otherwise it is compact. Members are in FHIR's order
    ///     either way, so the same result always gives the same bytes.
    /// - Throws: ``FHIRResponseError`` listing every result that cannot be written.
    public func response(for result: TaskResult, status: FHIRQuestionnaireResponseStatus, timeZone: TimeZone,
                         subject: FHIRReference? = nil, author: FHIRReference? = nil,
                         prettyPrinted: Bool = false) throws(FHIRResponseError) -> Data {
        try responseValue(for: result, status: status, timeZone: timeZone, subject: subject, author: author)
            .serialized(prettyPrinted: prettyPrinted)
    }

    /// The response as ``FHIRJSON``, for evaluating FHIRPath on it without writing and parsing it again.
    func responseJSON(for result: TaskResult, status: FHIRQuestionnaireResponseStatus,
                      timeZone: TimeZone) throws(FHIRResponseError) -> FHIRJSON {
        try responseValue(for: result, status: status, timeZone: timeZone, subject: nil, author: nil).fhirJSON
    }

    private func responseValue(for result: TaskResult, status: FHIRQuestionnaireResponseStatus, timeZone: TimeZone,
                               subject: FHIRReference?, author: FHIRReference?) throws(FHIRResponseError) -> FHIRJSONValue {
        var issues: [FHIRResponseIssue] = []
        if result.identifier != questionnaire.task.identifier {
            issues.append(FHIRResponseIssue(kind: .taskMismatch, linkId: nil, path: "identifier",
                                            message: "the result is of task '\(result.identifier)', not of the Questionnaire's task '\(questionnaire.task.identifier)'"))
        }
        var answers: [FHIRQuestionPlace: [FHIRJSONValue]] = [:]
        for (stepIndex, step) in result.stepResults.enumerated() where !step.isPrevious && !step.skipped {
            // "Add another" answers say how many repetitions there are; the response shows that by the items themselves.
            guard questionnaire.repetitions.addAnotherSteps[step.identifier] == nil else { continue }
            let repetitions = questionnaire.repetitions.repetitions(ofStep: step.identifier)
            for (index, item) in step.results.enumerated() {
                guard case .question(let question) = item, let answer = question.answer else { continue }
                let path = "stepResults[\(stepIndex)].results[\(index)]"
                if let values = answerValues(answer, of: question, path: path, issues: &issues), !values.isEmpty {
                    answers[FHIRQuestionPlace(linkId: question.identifier, repetitions: repetitions)] = values
                }
            }
        }
        guard issues.isEmpty else { throw FHIRResponseError(issues: issues) }

        var resource: [String: FHIRJSONValue] = [
            "resourceType": .string("QuestionnaireResponse"),
            "id": .string(result.taskRunUUID.uuidString.lowercased()),
            "status": .string(status.rawValue),
            "authored": .string(FHIRValueText.dateTime(result.endDate, in: timeZone)),
        ]
        if let canonical = questionnaire.canonical { resource["questionnaire"] = .string(canonical) }
        if let subject = subject?.json { resource["subject"] = subject }
        if let author = author?.json { resource["author"] = author }
        let items = responseItems(questionnaire.topLevelLinkIds, in: [], answers: answers)
        if !items.isEmpty { resource["item"] = .array(items) }
        return FHIRJSONValue.object(resource)
    }

    /// The response items for the Questionnaire items `linkIds` inside `repetitions`: answered questions, and
    /// groups with something answered inside; a repeating group gives one item per repetition with answers.
    private func responseItems(_ linkIds: [String], in repetitions: [FHIRGroupRepetition],
                               answers: [FHIRQuestionPlace: [FHIRJSONValue]]) -> [FHIRJSONValue] {
        linkIds.flatMap { linkId -> [FHIRJSONValue] in
            guard let definition = questionnaire.item(linkId) else { return [] }
            var members: [String: FHIRJSONValue] = ["linkId": .string(linkId)]
            if let text = definition.text { members["text"] = .string(text) }
            if definition.type == "group" {
                let each = questionnaire.repetitionLimit(of: linkId).map { limit in
                    (1...limit).map { repetitions + [FHIRGroupRepetition(linkId: linkId, index: $0)] }
                } ?? [repetitions]
                return each.compactMap { inner -> FHIRJSONValue? in
                    let children = responseItems(definition.childLinkIds, in: inner, answers: answers)
                    guard !children.isEmpty else { return nil }
                    var group = members
                    group["item"] = .array(children)
                    return .object(group)
                }
            }
            guard var values = answers[FHIRQuestionPlace(linkId: linkId, repetitions: repetitions)] else { return [] }
            // Items nested under a question go under its (first) answer.
            let children = responseItems(definition.childLinkIds, in: repetitions, answers: answers)
            if !children.isEmpty, case .object(var first)? = values.first {
                first["item"] = .array(children)
                values[0] = .object(first)
            }
            members["answer"] = .array(values)
            return [.object(members)]
        }
    }

    /// The `answer` objects for one question result; nil (with issues) when it cannot be written.
    private func answerValues(_ answer: Answer, of question: QuestionResult, path: String,
                              issues: inout [FHIRResponseIssue]) -> [FHIRJSONValue]? {
        let linkId = question.identifier
        func fail(_ kind: FHIRResponseIssue.Kind, _ message: String) -> [FHIRJSONValue]? {
            issues.append(FHIRResponseIssue(kind: kind, linkId: linkId, path: path, message: message))
            return nil
        }
        guard let item = questionnaire.item(linkId) else {
            return fail(.unknownLinkId, "the Questionnaire has no item '\(linkId)'")
        }
        guard item.isQuestion else {
            return fail(.notAQuestion, "'\(linkId)' is a \(item.type) item of the Questionnaire, which takes no answers")
        }
        guard questionnaire.isAsked(linkId) else {
            return fail(.itemNotInTask, "'\(linkId)' is not a question of the task (the import left it out)")
        }
        if answer == .dontKnow {
            return fail(.wrongValueType, "\"I don't know\" has no FHIR answer value")
        }
        func single(_ key: String, _ value: FHIRJSONValue) -> [FHIRJSONValue] { [.object([key: value])] }
        func mismatch() -> [FHIRJSONValue]? {
            fail(.wrongValueType, "a \(answer.kind.rawValue) answer does not fit the \(item.type) item")
        }
        switch (item.type, answer) {
        case ("boolean", .boolean(let value)):
            return single("valueBoolean", .bool(value))
        case ("decimal", .number(let value)):
            guard !value.isNaN else { return mismatch() }
            return single("valueDecimal", .number(value))
        case ("integer", .number(let value)):
            guard let integer = FHIRValueText.integer(value) else {
                return fail(.wrongValueType, "\(value) is not a FHIR integer (a whole number of 32 bits)")
            }
            return single("valueInteger", .number(Decimal(integer)))
        case ("quantity", .number(let value)):
            guard !value.isNaN else { return mismatch() }
            return single("valueQuantity", quantity(value, unit: question.unit, item: item))
        case ("date", .date(let value)) where !value.includesTime:
            return single("valueDate", .string(FHIRValueText.date(value)))
        case ("dateTime", .date(let value)) where value.includesTime:
            return single("valueDateTime", .string(FHIRValueText.dateTime(value.date, in: value.timeZone)))
        case ("time", .timeOfDay(let value)):
            return single("valueTime", .string(FHIRValueText.time(value)))
        case ("string", .text(let value)), ("text", .text(let value)):
            return value.isEmpty ? [] : single("valueString", .string(value))
        case ("url", .text(let value)):
            return value.isEmpty ? [] : single("valueUri", .string(value))
        case ("attachment", .file(let file)):
            var members: [String: FHIRJSONValue] = ["contentType": .string(file.contentType), "size": .number(Decimal(file.byteCount))]
            if let title = file.title { members["title"] = .string(title) }
            if let data = fileContents?(file) {
                members["data"] = .string(data.base64EncodedString())
                members["hash"] = .string(Data(Insecure.SHA1.hash(data: data)).base64EncodedString())
            }
            return single("valueAttachment", .object(members))
        case (_, .choices(let selections)) where item.answersFromList:
            guard selections.count <= 1 || item.repeats else {
                return fail(.tooManyAnswers, "\(selections.count) choices for '\(linkId)', which does not repeat")
            }
            var values: [FHIRJSONValue] = []
            for selection in selections {
                if let option = item.option(for: selection.value) {
                    let member = option.answerMember
                    values.append(.object([member.key: member.value]))
                } else if item.type == "open-choice", let text = selection.text, !text.isEmpty {
                    values.append(.object(["valueString": .string(text)]))
                } else {
                    let other = item.type == "open-choice" ? " (an \"other\" answer needs its text)" : ""
                    return fail(.unknownOption, "'\(selection.value)' is not an option of '\(linkId)'\(other)")
                }
            }
            return values
        default:
            return mismatch()
        }
    }

    /// A Quantity: the value, the unit text, and `system`/`code` when the Questionnaire's unit Coding is that unit.
    private func quantity(_ value: Decimal, unit: String?, item: FHIRQuestionnaireItemDefinition) -> FHIRJSONValue {
        var members: [String: FHIRJSONValue] = ["value": .number(value)]
        let questionnaireUnit = item.unit
        let unitText = unit ?? questionnaireUnit?.display ?? questionnaireUnit?.code
        if let unitText { members["unit"] = .string(unitText) }
        if let coding = questionnaireUnit, let code = coding.code,
           unitText == nil || unitText == coding.display || unitText == code {
            if let system = coding.system { members["system"] = .string(system) }
            members["code"] = .string(code)
        }
        return .object(members)
    }
}
