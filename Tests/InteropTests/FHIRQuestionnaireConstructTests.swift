import Foundation
import Interop
import Research
import Testing

@Suite("FHIR Questionnaire import: constructs")
struct FHIRQuestionnaireConstructTests {
    func load(_ json: String) throws -> FHIRQuestionnaireImport {
        try FHIRQuestionnaireImporter().importQuestionnaire(Data(json.utf8))
    }

    /// Runs the task, answering from `answers`, and returns the linkIds asked.
    func asked(_ task: ResearchTask, _ answers: [String: Answer]) throws -> Set<String> {
        var session = try TaskSession(task: task)
        var result = Set<String>()
        for _ in 0..<100 {
            guard let step = session.currentStep else { break }
            for question in step.questions {
                result.insert(question.identifier)
                if let answer = answers[question.identifier] { try session.setAnswer(answer, for: question.identifier) }
            }
            if session.canGoForward { try session.goForward() } else { try session.skip() }
        }
        return result
    }

    let conditional = """
    {"resourceType": "Questionnaire", "id": "cond", "item": [
      {"linkId": "score", "type": "choice", "answerOption": [{"valueInteger": 1}, {"valueInteger": 2}, {"valueInteger": 3}]},
      {"linkId": "note", "type": "string"},
      {"linkId": "g", "type": "group", "text": "Follow-up", "item": [
        {"linkId": "ifNote", "type": "string", "enableWhen": [{"question": "note", "operator": "exists", "answerBoolean": true}]},
        {"linkId": "ifNoNote", "type": "string", "enableWhen": [{"question": "note", "operator": "exists", "answerBoolean": false}]},
        {"linkId": "notTwo", "type": "string", "enableWhen": [{"question": "score", "operator": "!=", "answerInteger": 2}]},
        {"linkId": "atLeastTwo", "type": "string", "enableWhen": [{"question": "score", "operator": ">=", "answerInteger": 2}]},
        {"linkId": "anyOf", "type": "boolean", "enableBehavior": "any", "enableWhen": [
          {"question": "score", "operator": "=", "answerInteger": 1}, {"question": "note", "operator": "=", "answerString": "x"}]},
        {"linkId": "allOf", "type": "boolean", "enableBehavior": "all", "enableWhen": [
          {"question": "score", "operator": "<", "answerInteger": 3}, {"question": "note", "operator": "=", "answerString": "x"}]}
      ]}
    ]}
    """

    @Test func existsBothSides() throws {
        let task = try load(conditional).task
        let withNote = try asked(task, ["note": .text("hello")])
        #expect(withNote.contains("ifNote") && !withNote.contains("ifNoNote"))
        let without = try asked(task, [:])
        #expect(!without.contains("ifNote") && without.contains("ifNoNote"))
    }

    @Test func integerChoiceOperatorsAndBehaviors() throws {
        let result = try load(conditional)
        #expect(result.issues.isEmpty)
        #expect(TaskValidator.problems(in: result.task).isEmpty)
        func score(_ value: Int) -> Answer { .choices([ChoiceSelection(.integer(value))]) }
        let one = try asked(result.task, ["score": score(1)])
        #expect(one.isSuperset(of: ["notTwo", "anyOf"]) && one.isDisjoint(with: ["atLeastTwo", "allOf"]))
        let two = try asked(result.task, ["score": score(2), "note": .text("x")])
        #expect(two.isSuperset(of: ["atLeastTwo", "anyOf", "allOf"]) && !two.contains("notTwo"))
        let three = try asked(result.task, ["score": score(3), "note": .text("y")])
        #expect(three.isSuperset(of: ["notTwo", "atLeastTwo"]) && three.isDisjoint(with: ["anyOf", "allOf"]))
        // R4: `!=` is true when no answer equals the value, so an unanswered question enables the item.
        #expect(try asked(result.task, [:]).contains("notTwo"))
    }

    @Test func formatsAndReportedConstructs() throws {
        let result = try load("""
        {"resourceType": "Questionnaire", "id": "kinds", "contained": [
          {"resourceType": "ValueSet", "id": "yn", "compose": {"include": [{"system": "http://example.org",
            "concept": [{"code": "Y", "display": "Yes"}, {"code": "N"}]}]}}],
         "item": [{"linkId": "g", "type": "group", "text": "All", "item": [
          {"linkId": "intro", "type": "display", "text": "Welcome"},
          {"linkId": "weight", "type": "quantity", "required": true, "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-unit",
            "valueCoding": {"system": "http://unitsofmeasure.org", "code": "kg"}}]},
          {"linkId": "name", "type": "string", "maxLength": 20, "initial": [{"valueString": "Ann"}]},
          {"linkId": "site", "type": "url"},
          {"linkId": "colour", "type": "open-choice", "repeats": true, "answerOption": [
            {"valueCoding": {"code": "r", "display": "Red"}, "initialSelected": true}, {"valueCoding": {"code": "other"}}]},
          {"linkId": "yn", "type": "choice", "answerValueSet": "#yn"},
          {"linkId": "count", "type": "integer", "initial": [{"valueInteger": 4}]},
          {"linkId": "computed", "type": "decimal", "readOnly": true},
          {"linkId": "who", "type": "reference"},
          {"linkId": "early", "type": "string", "enableWhen": [{"question": "late", "operator": "exists", "answerBoolean": true}]},
          {"linkId": "late", "type": "string"},
          {"linkId": "ordered", "type": "string", "enableWhen": [{"question": "yn", "operator": ">", "answerCoding": {"code": "Y"}}]}
         ]}]}
        """)
        #expect(TaskValidator.problems(in: result.task).isEmpty)
        let formats = Dictionary(uniqueKeysWithValues: result.task.steps.flatMap(\.questions).map { ($0.identifier, $0) })
        #expect(formats["weight"]?.format == .numeric(NumericFormat(style: .decimal, unit: "kg")))
        #expect(formats["weight"]?.isOptional == false)
        #expect(formats["name"]?.format == .text(TextFormat(maximumLength: 20, defaultValue: "Ann")))
        #expect(formats["count"]?.format == .numeric(NumericFormat(style: .integer, defaultValue: 4)))
        guard case .text(let url)? = formats["site"]?.format else { Issue.record("url is not text"); return }
        #expect(url.validationPattern != nil)
        guard case .textChoice(let colour)? = formats["colour"]?.format else { Issue.record("open-choice is not a choice"); return }
        #expect(colour.style == .multiple)
        #expect(colour.choices.map(\.value) == [.string("r"), .string("other"), .string("other_")])
        #expect(colour.choices.last?.other != nil)
        guard case .textChoice(let yn)? = formats["yn"]?.format else { Issue.record("ValueSet choice is not a choice"); return }
        #expect(yn.choices.map(\.text) == ["Yes", "N"])
        #expect(formats["computed"] == nil && formats["who"] == nil)

        let issues = Dictionary(grouping: result.issues, by: { $0.linkId ?? "" })
        #expect(issues["computed"]?.map(\.kind) == [.readOnlySkipped])
        #expect(issues["who"]?.map(\.kind) == [.unsupportedItem])
        // An option's initialSelected pre-selects it: a constant the session evaluates when the step is first shown.
        #expect(issues["colour"] == nil)
        let colourItem = result.task.steps.compactMap { step -> FormItem? in
            guard case .form(let form) = step.kind else { return nil }
            return form.items.first { $0.identifier == "colour" }
        }.first
        #expect(colourItem?.initialValue == ItemCalculation(language: "text/fhirpath", expression: "'r'"))
        #expect(issues["early"]?.map(\.kind) == [.unsupportedCondition])
        #expect(issues["early"]?.first?.otherLinkId == "late")
        #expect(issues["ordered"]?.map(\.kind) == [.unsupportedCondition])
        #expect(Set(issues.keys) == ["computed", "who", "early", "ordered"])
        // Items whose condition is reported are always shown.
        #expect(try asked(result.task, ["weight": .number(70)]).isSuperset(of: ["early", "ordered"]))
    }

    @Test func nestedRepeatingGroupsWithoutALimitAreAskedUpToTenTimesWithANote() throws {
        let result = try load("""
        {"resourceType": "Questionnaire", "item": [{"linkId": "outer", "type": "group", "repeats": true, "item": [
          {"linkId": "inner", "type": "group", "repeats": true, "item": [{"linkId": "q", "type": "string"}]}]}]}
        """)
        #expect(result.task.identifier == "questionnaire")
        let asked = result.task.steps.flatMap(\.questions).map(\.identifier)
        // Ten outer repetitions of ten inner ones, with "Add another" between them.
        #expect(asked.filter { $0 == "q" }.count == 100)
        #expect(asked.filter { $0.hasPrefix("inner-another-") }.count == 90)
        #expect(asked.filter { $0.hasPrefix("outer-another-") }.count == 9)
        #expect(result.refusals.isEmpty)
        #expect(result.issues.map(\.path) == ["item[0].repeats", "item[0].item[0].repeats"])
        #expect(result.issues.map(\.kind) == [.repetitionLimit, .repetitionLimit])
        #expect(result.issues.map(\.linkId) == ["outer", "inner"])
    }

    @Test func notAQuestionnaire() {
        #expect(throws: FHIRImportError.self) { try load(#"{"resourceType": "Patient"}"#) }
        #expect(throws: FHIRImportError.self) { try load("not json") }
        #expect(throws: FHIRImportError.self) {
            try load(#"{"resourceType": "Questionnaire", "item": [{"linkId": "a", "type": "reference"}]}"#)
        }
    }
}

@Suite("FHIR Questionnaire import: answer lists and quantity bounds are kept")
struct FHIRAnswerListTests {
    let json = #"""
    {"resourceType": "Questionnaire", "id": "lists", "status": "active", "item": [
      {"linkId": "count", "type": "integer", "text": "Cups a day", "answerOption": [{"valueInteger": 0}, {"valueInteger": 1}, {"valueInteger": 2}]},
      {"linkId": "day", "type": "date", "text": "Visit day", "answerOption": [{"valueDate": "2026-12-01"}, {"valueDate": "2026-12-08"}]},
      {"linkId": "slot", "type": "time", "text": "Slot", "answerOption": [{"valueTime": "09:00:00"}, {"valueTime": "14:30:00"}]},
      {"linkId": "size", "type": "string", "text": "Size", "answerOption": [{"valueString": "S"}, {"valueString": "M"}, {"valueString": "L"}],
       "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl",
                      "valueCodeableConcept": {"coding": [{"system": "http://hl7.org/fhir/questionnaire-item-control", "code": "drop-down"}]}}]},
      {"linkId": "dose", "type": "quantity", "text": "Dose", "extension": [
        {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-unit", "valueCoding": {"system": "http://unitsofmeasure.org", "code": "g"}},
        {"url": "http://hl7.org/fhir/StructureDefinition/minValue", "valueQuantity": {"value": 1, "code": "g", "system": "http://unitsofmeasure.org"}},
        {"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-maxQuantity", "valueQuantity": {"value": 100, "code": "g"}}]},
      {"linkId": "height", "type": "quantity", "text": "Height", "extension": [
        {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-unit", "valueCoding": {"system": "http://unitsofmeasure.org", "code": "cm"}},
        {"url": "http://hl7.org/fhir/StructureDefinition/maxValue", "valueQuantity": {"value": 3, "code": "m"}}]}
    ]}
    """#

    @Test func aFixedListIsAskedAsAChoiceOfItsValuesAndExportedInTheItemsType() throws {
        let imported = try FHIRQuestionnaireImporter().importQuestionnaire(Data(json.utf8))
        let formats = Dictionary(uniqueKeysWithValues: imported.task.steps.flatMap(\.questions).map { ($0.identifier, $0.format) })
        guard case .textChoice(let count)? = formats["count"] else { Issue.record("integer list is \(String(describing: formats["count"]))"); return }
        #expect(count.choices.map(\.value) == [.integer(0), .integer(1), .integer(2)])
        guard case .textChoice(let day)? = formats["day"], case .textChoice(let slot)? = formats["slot"],
              case .valuePicker(let size)? = formats["size"] else { Issue.record("lists are not choices: \(formats)"); return }
        #expect(day.choices.map(\.value) == [.string("2026-12-01"), .string("2026-12-08")])
        #expect(slot.choices.map(\.text) == ["09:00:00", "14:30:00"])
        #expect(size.choices.map(\.value) == ["S", "M", "L"].map { .string($0) })
        // A value off the list is refused, as for any choice.
        var session = try TaskSession(task: imported.task)
        #expect(throws: TaskSessionError.self) { try session.setAnswer(.choices([ChoiceSelection(.integer(7))]), for: "count") }

        // Answered, the response carries each value in its item's type, and reads back to the same answers.
        let answers: [String: Answer] = ["count": .choices([ChoiceSelection(.integer(2))]), "day": .choices([ChoiceSelection(.string("2026-12-08"))]),
                                         "slot": .choices([ChoiceSelection(.string("14:30:00"))]), "size": .choices([ChoiceSelection(.string("M"))])]
        while let step = session.currentStep {
            for question in step.questions { if let answer = answers[question.identifier] { try session.setAnswer(answer, for: question.identifier) } }
            try session.goForward()
        }
        let questionnaire = try FHIRQuestionnaire(Data(json.utf8))
        let response = try FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire)
            .response(for: session.result, status: .completed, timeZone: TimeZone(identifier: "UTC")!)
        let text = String(decoding: response, as: UTF8.self)
        for member in [#""valueInteger":2"#, #""valueDate":"2026-12-08""#, #""valueTime":"14:30:00""#, #""valueString":"M""#] {
            #expect(text.contains(member), "\(member) in \(text)")
        }
        let read = try FHIRQuestionnaireResponseReader(questionnaire: questionnaire)
            .read(response, timeZone: TimeZone(identifier: "UTC")!, fallbackRunUUID: UUID())
        let readAnswers = read.result.stepResults.flatMap { $0.questionResults }
        for (linkId, answer) in answers {
            #expect(readAnswers.first { $0.identifier == linkId }?.answer == answer, "\(linkId)")
        }
    }

    @Test func aQuantitysBoundsAreCheckedAndABoundInAnotherUnitIsReported() throws {
        let imported = try FHIRQuestionnaireImporter().importQuestionnaire(Data(json.utf8))
        let formats = Dictionary(uniqueKeysWithValues: imported.task.steps.flatMap(\.questions).map { ($0.identifier, $0.format) })
        guard case .numeric(let dose)? = formats["dose"] else { Issue.record("dose is \(String(describing: formats["dose"]))"); return }
        #expect(dose.minimum == 1 && dose.maximum == 100 && dose.unit == "g")
        #expect(throws: AnswerValidationError.self) { try AnswerFormat.numeric(dose).validate(.number(500)) }
        let issues = imported.issues.filter { $0.linkId == "height" }
        #expect(issues.map(\.message) == ["the upper bound is in m, not in the item's unit cm; it is not applied"])
    }
}

@Suite("FHIR Questionnaire import: answer option extensions and decimal places")
struct FHIRAnswerOptionExtensionTests {
    @Test func exclusivePrefixedAndScoredOptionsAreKeptAndOthersReported() throws {
        let json = #"""
        {"resourceType": "Questionnaire", "id": "symptoms", "status": "active", "item": [
          {"linkId": "which", "type": "choice", "repeats": true, "text": "Which symptoms?", "answerOption": [
            {"valueCoding": {"code": "fever", "display": "Fever"}, "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-optionPrefix", "valueString": "a)"},
              {"url": "http://hl7.org/fhir/StructureDefinition/ordinalValue", "valueDecimal": 2}]},
            {"valueCoding": {"code": "cough", "display": "Cough", "_display": {"extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/rendering-xhtml", "valueString": "<b>Cough</b>"}]}}},
            {"valueCoding": {"code": "none", "display": "None of the above"}, "extension": [
              {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-optionExclusive", "valueBoolean": true},
              {"url": "http://example.org/unknown", "valueString": "x"}]}]},
          {"linkId": "temp", "type": "decimal", "text": "Temperature", "extension": [
            {"url": "http://hl7.org/fhir/StructureDefinition/maxDecimalPlaces", "valueInteger": 1}]}]}
        """#
        let imported = try FHIRQuestionnaireImporter().importQuestionnaire(Data(json.utf8))
        let formats = Dictionary(uniqueKeysWithValues: imported.task.steps.flatMap(\.questions).map { ($0.identifier, $0.format) })
        guard case .textChoice(let which)? = formats["which"], case .numeric(let temp)? = formats["temp"] else {
            Issue.record("formats: \(formats)"); return
        }
        #expect(which.choices.map(\.text) == ["a) Fever", "Cough", "None of the above"])
        #expect(which.choices.map(\.exclusive) == [false, false, true])
        // "None of the above" cannot be chosen with another symptom.
        #expect(throws: AnswerValidationError.self) {
            try AnswerFormat.textChoice(which).validate(.choices([ChoiceSelection(.string("fever")), ChoiceSelection(.string("none"))]))
        }
        #expect(temp.maximumFractionDigits == 1)
        #expect(throws: AnswerValidationError.self) { try AnswerFormat.numeric(temp).validate(.number(Decimal(string: "37.25")!)) }
        // The formatted text and the unknown extension are notes: the plain text is shown, the unknown one is ignored.
        #expect(imported.refusals.isEmpty, "\(imported.refusals)")
        #expect(imported.issues.map(\.path).sorted() == ["item[0].answerOption[1].valueCoding._display.extension[0]", "item[0].answerOption[2].extension[1]"])
        #expect(imported.issues.first { $0.path.hasSuffix("extension[1]") }?.message.hasPrefix("http://example.org/unknown is not an extension StudyKit knows") == true)
    }
}

@Suite("FHIR Questionnaire import: items nested under a question")
struct FHIRNestedItemTests {
    let json = #"""
    {"resourceType": "Questionnaire", "id": "smoking", "status": "active", "item": [
      {"linkId": "smokes", "type": "boolean", "text": "Do you smoke?", "item": [
        {"linkId": "perDay", "type": "integer", "text": "How many a day?"}]},
      {"linkId": "other", "type": "string", "text": "Anything else?"}]}
    """#

    func run(_ answers: [String: Answer]) throws -> (asked: [String], result: TaskResult, task: ResearchTask) {
        let task = try FHIRQuestionnaireImporter().importQuestionnaire(Data(json.utf8)).requireComplete()
        var session = try TaskSession(task: task)
        var asked: [String] = []
        while let step = session.currentStep {
            for question in step.questions {
                asked.append(question.identifier)
                if let answer = answers[question.identifier] { try session.setAnswer(answer, for: question.identifier) }
            }
            try session.goForward()
        }
        return (asked, session.result, task)
    }

    @Test func askedRightAfterTheQuestionOnceItHasAnAnswerAndWrittenUnderIt() throws {
        #expect(try run([:]).asked == ["smokes", "other"])
        let answered = try run(["smokes": .boolean(true), "perDay": .number(5), "other": .text("no")])
        #expect(answered.asked == ["smokes", "perDay", "other"])
        let questionnaire = try FHIRQuestionnaire(Data(json.utf8))
        let response = try FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire)
            .response(for: answered.result, status: .completed, timeZone: TimeZone(identifier: "UTC")!)
        let text = String(decoding: response, as: UTF8.self)
        #expect(text.contains(#"{"linkId":"smokes","text":"Do you smoke?","answer":[{"valueBoolean":true,"item":[{"linkId":"perDay","text":"How many a day?","answer":[{"valueInteger":5}]}]}]}"#), "\(text)")
        // Read back: the nested answer comes back to its question.
        let read = try FHIRQuestionnaireResponseReader(questionnaire: questionnaire)
            .read(response, timeZone: TimeZone(identifier: "UTC")!, fallbackRunUUID: UUID())
        #expect(read.result.stepResults.flatMap { $0.questionResults }.first { $0.identifier == "perDay" }?.answer == .number(5))
        // A nested item written at the top level is refused, naming where it belongs.
        let misplaced = #"{"resourceType": "QuestionnaireResponse", "status": "completed", "item": [{"linkId": "perDay", "answer": [{"valueInteger": 5}]}]}"#
        #expect(throws: FHIRResponseError.self) {
            _ = try FHIRQuestionnaireResponseReader(questionnaire: questionnaire)
                .read(Data(misplaced.utf8), timeZone: TimeZone(identifier: "UTC")!, fallbackRunUUID: UUID())
        }
    }
}
