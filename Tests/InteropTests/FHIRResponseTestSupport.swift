import Foundation
import Interop
import Research
import Testing

/// Fixtures and helpers shared by the QuestionnaireResponse tests.
enum ResponseTestSupport {
    /// The HL7 SDC fixtures, read from the shared fixtures folder (see ``HL7Fixtures``).
    static let fixtures = HL7Fixtures.folder

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    static func questionnaire(fixture name: String) throws -> FHIRQuestionnaire {
        try FHIRQuestionnaire(fixture(name))
    }

    static func zone(_ identifier: String) -> TimeZone { TimeZone(identifier: identifier)! }

    /// `2026-03-08T06:30:00Z` and the like.
    static func instant(_ text: String) -> Date { ISO8601.date(from: text)! }

    /// A Questionnaire with every item type the importer asks, choices of every option kind, nested groups,
    /// an item the importer leaves out (attachment), and a group never answered.
    static let allKindsJSON = """
    {"resourceType": "Questionnaire", "id": "kinds", "url": "http://example.org/Questionnaire/kinds", "version": "2.0",
     "contained": [{"resourceType": "ValueSet", "id": "yn", "compose": {"include": [{"system": "http://example.org/yn",
       "concept": [{"code": "Y", "display": "Yes"}, {"code": "N", "display": "No"}]}]}}],
     "item": [
      {"linkId": "about", "type": "group", "text": "About you", "item": [
        {"linkId": "smoker", "type": "boolean", "text": "Do you smoke?"},
        {"linkId": "height", "type": "decimal", "text": "Height (m)"},
        {"linkId": "children", "type": "integer", "text": "Children"},
        {"linkId": "birth", "type": "date", "text": "Birth date"},
        {"linkId": "seen", "type": "dateTime", "text": "Last seen"},
        {"linkId": "wake", "type": "time", "text": "Wake-up time"},
        {"linkId": "name", "type": "string", "text": "Name", "maxLength": 40},
        {"linkId": "story", "type": "text", "text": "Your story"},
        {"linkId": "site", "type": "url", "text": "Web site"},
        {"linkId": "weight", "type": "quantity", "text": "Weight", "extension": [
          {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-unit",
           "valueCoding": {"system": "http://unitsofmeasure.org", "code": "kg", "display": "kilogram"}}]},
        {"linkId": "photo", "type": "attachment", "text": "A photo"},
        {"linkId": "details", "type": "group", "text": "Details", "item": [
          {"linkId": "colour", "type": "choice", "repeats": true, "text": "Colours", "answerOption": [
            {"valueCoding": {"system": "http://example.org/colours", "code": "r", "display": "Red"}},
            {"valueCoding": {"system": "http://example.org/colours", "code": "g", "display": "Green"}}]},
          {"linkId": "yn", "type": "choice", "text": "Yes or no", "answerValueSet": "#yn"},
          {"linkId": "score", "type": "choice", "text": "Score", "answerOption": [{"valueInteger": 1}, {"valueInteger": 2}]},
          {"linkId": "size", "type": "choice", "text": "Size", "answerOption": [{"valueString": "S"}, {"valueString": "M"}]},
          {"linkId": "day", "type": "choice", "text": "Day", "answerOption": [{"valueDate": "2026-01-01"}, {"valueDate": "2026-01-02"}]},
          {"linkId": "slot", "type": "choice", "text": "Slot", "answerOption": [{"valueTime": "09:00:00"}, {"valueTime": "14:30:00"}]},
          {"linkId": "pet", "type": "open-choice", "repeats": true, "text": "Pets", "answerOption": [
            {"valueCoding": {"code": "cat", "display": "Cat"}}, {"valueCoding": {"code": "dog", "display": "Dog"}}]}
        ]}
      ]},
      {"linkId": "note", "type": "string", "text": "Anything else?"},
      {"linkId": "later", "type": "group", "text": "Never answered", "item": [{"linkId": "unasked", "type": "string"}]}
     ]}
    """

    static func allKinds() throws -> FHIRQuestionnaire { try FHIRQuestionnaire(Data(allKindsJSON.utf8)) }

    /// One answer for every question of the all-kinds Questionnaire.
    static func everyAnswer(in zone: TimeZone) -> [String: Answer] {
        [
            "smoker": .boolean(false),
            "height": .number(Decimal(string: "1.75")!),
            "children": .number(2),
            "birth": .date(DateAnswer(year: 1990, month: 2, day: 28, timeZone: zone)!),
            "seen": .date(DateAnswer(date: instant("2026-05-03T18:45:10Z"), timeZone: zone, includesTime: true)),
            "wake": .timeOfDay(TimeOfDay(hour: 7, minute: 5)),
            "name": .text("Zoë \"Nan\" Ø\\"),
            "story": .text("Line one\nLine two\ttabbed"),
            "site": .text("https://example.org/zoë"),
            "weight": .number(Decimal(string: "72.5")!),
            "colour": .choices([ChoiceSelection(.string("g")), ChoiceSelection(.string("r"))]),
            "yn": .choices([ChoiceSelection(.string("Y"))]),
            "score": .choices([ChoiceSelection(.integer(2))]),
            "size": .choices([ChoiceSelection(.string("M"))]),
            "day": .choices([ChoiceSelection(.string("2026-01-02"))]),
            "slot": .choices([ChoiceSelection(.string("14:30:00"))]),
            "pet": .choices([ChoiceSelection(.string("cat")), ChoiceSelection(.string("other"), text: "Axolotl")]),
            "note": .text("Thanks"),
        ]
    }

    /// A result of `questionnaire`'s task built by hand: one step result per step with answers, in task
    /// order, each question result typed by the task's format and carrying its unit.
    static func result(_ questionnaire: FHIRQuestionnaire, _ answers: [String: Answer], runUUID: UUID = UUID(),
                       start: Date = instant("2026-05-04T09:00:00Z"), end: Date = instant("2026-05-04T09:12:30Z")) -> TaskResult {
        var used = Set<String>()
        let steps = questionnaire.task.steps.compactMap { step -> StepResult? in
            let results = step.questions.compactMap { question -> ResultItem? in
                guard let answer = answers[question.identifier] else { return nil }
                used.insert(question.identifier)
                return .question(QuestionResult(identifier: question.identifier, type: question.format.type, answer: answer,
                                                unit: question.format.unit))
            }
            return results.isEmpty ? nil : StepResult(identifier: step.identifier, startDate: start, endDate: end, results: results)
        }
        #expect(used == Set(answers.keys), "every hand-made answer belongs to a question of the task")
        return TaskResult(identifier: questionnaire.task.identifier, taskRunUUID: runUUID, startDate: start, endDate: end,
                          stepResults: steps)
    }

    /// The answers of a result, by question identifier (latest passes, skipped steps left out).
    static func answers(_ result: TaskResult) -> [String: Answer] {
        var answers: [String: Answer] = [:]
        for step in result.stepResults where !step.isPrevious && !step.skipped {
            for question in step.questionResults { answers[question.identifier] = question.answer }
        }
        return answers
    }

    /// Parses JSON into an object.
    static func object(_ data: Data) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: data)
        return try #require(value as? [String: Any])
    }

    /// The item tree as text: `a(b,c[answers])`, for comparing linkIds, nesting and answers at once.
    /// Codings are written `code|display` (system left out when `includeSystem` is false), quantities
    /// `value unit system code`, other values as they are.
    static func outline(_ items: Any?, includeSystem: Bool = true) -> String {
        guard let items = items as? [[String: Any]] else { return "" }
        return items.map { item -> String in
            let linkId = item["linkId"] as? String ?? "?"
            if let answers = item["answer"] as? [[String: Any]] {
                return "\(linkId)[" + answers.map { describe($0, includeSystem: includeSystem) }.joined(separator: ";") + "]"
            }
            return "\(linkId)(" + outline(item["item"], includeSystem: includeSystem) + ")"
        }.joined(separator: ",")
    }

    /// One answer as `key=value`.
    static func describe(_ answer: [String: Any], includeSystem: Bool) -> String {
        answer.keys.sorted().map { key -> String in
            let value = answer[key]!
            if let object = value as? [String: Any] {
                let parts = ["value", "unit", "system", "code", "display"].filter { includeSystem || $0 != "system" }
                return "\(key)=" + parts.compactMap { object[$0].map(scalar) }.joined(separator: "|")
            }
            return "\(key)=\(scalar(value))"
        }.joined(separator: "&")
    }

    /// A JSON scalar as text: strings as they are, numbers and booleans as JSON writes them.
    static func scalar(_ value: Any) -> String {
        if let text = value as? String { return text }
        guard let data = try? JSONSerialization.data(withJSONObject: [value]) else { return "\(value)" }
        return String(decoding: data, as: UTF8.self).dropFirst().dropLast().description
    }

    /// Every item's `text` by linkId.
    static func texts(_ items: Any?) -> [String: String] {
        var texts: [String: String] = [:]
        for item in items as? [[String: Any]] ?? [] {
            if let linkId = item["linkId"] as? String, let text = item["text"] as? String { texts[linkId] = text }
            texts.merge(Self.texts(item["item"])) { first, _ in first }
        }
        return texts
    }

    /// A QuestionnaireResponse to the all-kinds Questionnaire with the given top-level items (JSON text).
    static func response(_ items: String, questionnaire: String = "\"http://example.org/Questionnaire/kinds|2.0\"",
                         extra: String = "") -> Data {
        Data("""
        {"resourceType": "QuestionnaireResponse", "id": "r1", "questionnaire": \(questionnaire), "status": "completed",
         "authored": "2026-05-04T09:12:30+02:00"\(extra), "item": [\(items)]}
        """.utf8)
    }

    /// Reads `data` with the all-kinds Questionnaire and returns the issues it raises (none when it reads).
    static func issues(_ data: Data, questionnaire: FHIRQuestionnaire? = nil) throws -> [FHIRResponseIssue] {
        let reader = FHIRQuestionnaireResponseReader(questionnaire: try questionnaire ?? allKinds())
        do {
            _ = try reader.read(data, timeZone: zone("Europe/Berlin"), fallbackRunUUID: UUID())
            return []
        } catch {
            return error.issues
        }
    }
}
