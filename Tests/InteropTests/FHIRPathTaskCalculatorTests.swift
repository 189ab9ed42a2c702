import Foundation
import StudyKitEnvironment
import Interop
import Research
import Testing

@Suite("Calculated items through FHIRPath")
struct FHIRPathTaskCalculatorTests {
    static let folder = HL7Fixtures.folder
    static let codes = ["Not-at-all", "Several-days", "More than half the days", "Nearly every day"]

    /// A fixed clock in Kiritimati (UTC+14).
    var environment: StudyKitEnvironment {
        var environment = StudyKitEnvironment(now: { Date(timeIntervalSince1970: 1_790_000_000) }, makeUUID: { UUID() })
        environment.timeZone = TimeZone(identifier: "Pacific/Kiritimati")!
        return environment
    }

    /// Takes the PHQ-9 with these answers (an ordinal 0–3 per question, nil to leave it unanswered) and returns the score
    /// shown on the score step and the one stored in the result.
    func score(_ ordinals: [Int?]) throws -> (shown: Answer?, stored: Answer?) {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("sdc-phq9-questionnaire.json"))
        let calculator = try FHIRPathTaskCalculator(questionnaires: [data])
        let task = try FHIRQuestionnaireImporter().importQuestionnaire(data).requireComplete()
        var session = try TaskSession(task: task, environment: environment, calculator: calculator)
        for (index, ordinal) in ordinals.enumerated() {
            if let ordinal { try session.setAnswer(.choices([ChoiceSelection(.string(Self.codes[ordinal]))]), for: "H1/T1/Q\(index + 1)") }
        }
        try session.goForward()
        #expect(session.currentStep?.identifier == "H1/TS")
        #expect(session.calculationErrors.isEmpty, "\(session.calculationErrors)")
        let shown = session.answer(for: "H1/TS")
        try session.goForward()
        #expect(session.finishReason == .completed)
        let stored = session.result.stepResults.flatMap(\.questionResults).first { $0.identifier == "H1/TS" }?.answer
        return (shown, stored)
    }

    /// Answer sets scored by hand: the PHQ-9 total is the sum of the nine items' ordinals (0–3 each).
    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent), arguments: [
        ([0, 0, 0, 0, 0, 0, 0, 0, 0], 0),
        ([3, 3, 3, 3, 3, 3, 3, 3, 3], 27),
        ([0, 0, 0, 1, 2, 1, 3, 2, 1], 10),   // the answers of HL7's example response (which states 13 for them)
        ([3, 2, 1, 0, 3, 2, 1, 0, 3], 15),
        ([1, 1, 1, 1, 1, 1, 1, 1, 2], 10),
    ] as [([Int], Int)])
    func phq9TotalsAreTheSumOfTheOrdinals(_ ordinals: [Int], _ total: Int) throws {
        let (shown, stored) = try score(ordinals)
        #expect(shown == .number(Decimal(total)))
        #expect(stored == .number(Decimal(total)))
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func unansweredItemsCountForNothing() throws {
        #expect(try score([3, 1, nil, nil, nil, nil, nil, nil, nil]).stored == .number(4))
        #expect(try score(Array(repeating: nil, count: 9)).stored == .number(0), "SDC's sum() of nothing is 0")
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func theScoreGoesIntoTheResponseAsTheQuestionnaireTypesIt() throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("sdc-phq9-questionnaire.json"))
        let calculator = try FHIRPathTaskCalculator(questionnaires: [data])
        let questionnaire = try FHIRQuestionnaire(data)
        var session = try TaskSession(task: questionnaire.task, environment: environment, calculator: calculator)
        for index in 1...9 { try session.setAnswer(.choices([ChoiceSelection(.string(Self.codes[index % 4]))]), for: "H1/T1/Q\(index)") }
        try session.goForward()
        try session.goForward()
        let response = try FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire)
            .response(for: session.result, status: .completed, timeZone: TimeZone(identifier: "Pacific/Kiritimati")!)
        let json = try FHIRJSON(data: response)
        let total = try FHIRPathExpression("repeat(item).where(linkId='H1/TS').answer.value.value").evaluate(on: json)
        // 1+2+3+0+1+2+3+0+1 = 13
        #expect(total.map(\.json.decimalValue) == [Decimal(13)])
    }

    @Test func variablesAreEvaluatedFirstAndInOrder() throws {
        let questionnaire = #"""
        {"resourceType": "Questionnaire", "id": "bmi", "url": "http://example.org/Questionnaire/bmi",
         "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/variable",
           "valueExpression": {"name": "weight", "language": "text/fhirpath", "expression": "%resource.item.where(linkId='w').answer.value"}}],
         "item": [
          {"linkId": "w", "type": "decimal", "text": "Weight (kg)"},
          {"linkId": "h", "type": "decimal", "text": "Height (m)"},
          {"linkId": "g", "type": "group", "text": "Result",
           "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/variable",
             "valueExpression": {"name": "height", "language": "text/fhirpath", "expression": "%resource.item.where(linkId='h').answer.value"}}],
           "item": [{"linkId": "bmi", "type": "decimal", "text": "BMI",
             "extension": [{"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression",
               "valueExpression": {"language": "text/fhirpath", "expression": "(%weight / (%height * %height)).round(1)"}}]}]}
         ]}
        """#
        let data = Data(questionnaire.utf8)
        let calculator = try FHIRPathTaskCalculator(questionnaires: [data])
        let task = try FHIRQuestionnaireImporter().importQuestionnaire(data).requireComplete()
        var session = try TaskSession(task: task, environment: environment, calculator: calculator)
        try session.setAnswer(.number(72), for: "w")
        try session.setAnswer(Answer.number(Decimal(string: "1.8")!), for: "h")
        try session.goForward()
        #expect(session.currentStep?.calculatedItems.map(\.identifier) == ["bmi"])
        #expect(session.answer(for: "bmi") == .number(Decimal(string: "22.2")!))
    }

    @Test func anExpressionThatDoesNotParseIsNamedWhenTheQuestionnaireIsRead() throws {
        let questionnaire = #"""
        {"resourceType": "Questionnaire", "id": "broken", "item": [{"linkId": "a", "type": "integer"},
          {"linkId": "t", "type": "integer", "extension": [{"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression",
            "valueExpression": {"language": "text/fhirpath", "expression": "%resource.answers().value.sum("}}]}]}
        """#
        #expect {
            _ = try FHIRPathTaskCalculator(questionnaires: [Data(questionnaire.utf8)])
        } throws: { error in
            guard let error = error as? FHIRImportError, let issue = error.issues.first else { return false }
            return issue.linkId == "t" && issue.path == "item[1].extension[0].valueExpression.expression"
                && issue.message.hasPrefix("the FHIRPath expression does not parse")
        }
    }

    /// A Questionnaire whose total reads `expression`, with a launchContext `patient` and a root variable `base`.
    func scored(_ expression: String) -> Data {
        Data(#"""
        {"resourceType": "Questionnaire", "id": "checked", "extension": [
          {"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-launchContext", "extension": [
            {"url": "name", "valueCoding": {"system": "http://hl7.org/fhir/uv/sdc/CodeSystem/launchContext", "code": "patient"}},
            {"url": "type", "valueCode": "Patient"}]},
          {"url": "http://hl7.org/fhir/StructureDefinition/variable", "valueExpression": {"name": "base", "language": "text/fhirpath", "expression": "10"}}],
         "item": [{"linkId": "a", "type": "integer"},
          {"linkId": "t", "type": "string", "text": "Total", "extension": [{"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression",
            "valueExpression": {"language": "text/fhirpath", "expression": "\#(expression)"}}]}]}
        """#.utf8)
    }

    @Test(arguments: [
        ("%resource.item.answer.value.resolve()", "the function resolve() is not supported by this FHIRPath subset (at offset 28)"),
        ("%score + 1", "%score is not defined here (at offset 0)"),
        ("%resource.item.where(linkId = 'b').answer.value", "no item of the Questionnaire has the linkId 'b' (at offset 28)"),
    ])
    func anExpressionThatCannotWorkIsRefusedWhenTheQuestionnaireIsRead(expression: String, why: String) throws {
        #expect {
            _ = try FHIRPathTaskCalculator(questionnaires: [scored(expression)])
        } throws: { error in
            guard let issue = (error as? FHIRImportError)?.issues.first else { return false }
            return issue.linkId == "t" && issue.path == "item[1].extension[0].valueExpression.expression"
                && issue.message == "the FHIRPath expression '\(expression)' cannot work: \(why)"
        }
    }

    @Test func qitemLaunchContextAndTheQuestionnairesVariablesAreDefined() throws {
        // An expression that reads %patient: a calculator launched for a participant hands them over; one launched for
        // nobody reads the variable as empty.
        let launched = scored("%patient.name.given.first()")
        let task = try FHIRQuestionnaireImporter().importQuestionnaire(launched).requireComplete()
        var first = try TaskSession(task: task, environment: environment, calculator: try FHIRPathTaskCalculator(questionnaires: [launched]))
        try first.setAnswer(.number(5), for: "a")
        try first.goForward()
        #expect(first.calculationErrors.isEmpty && first.answer(for: "t") == nil)
        let forAnn = try FHIRPathTaskCalculator(questionnaires: [launched]).launched(for: ParticipantDetails(patientID: "p1", givenName: "Ann"))
        var named = try TaskSession(task: task, environment: environment, calculator: forAnn)
        try named.setAnswer(.number(5), for: "a")
        try named.goForward()
        #expect(named.answer(for: "t") == .text("Ann"))

        let plain = scored("%qitem.text + ' ' + (%base + %resource.item.where(linkId = 'a').answer.value).toString()")
        var second = try TaskSession(task: try FHIRQuestionnaireImporter().importQuestionnaire(plain).requireComplete(), environment: environment,
                                     calculator: try FHIRPathTaskCalculator(questionnaires: [plain]))
        try second.setAnswer(.number(5), for: "a")
        try second.goForward()
        #expect(second.answer(for: "t") == .text("Total 15"))
    }

    @Test func everyFunctionNamedAsSupportedIsImplemented() throws {
        for name in FHIRPathExpression.functionNames.sorted() {
            do {
                _ = try FHIRPathExpression("{}.\(name)()").evaluate(on: .object(FHIRJSONObject()))
            } catch {
                #expect(error.kind != .unsupportedFunction, "\(name)(): \(error)")
            }
        }
        #expect(throws: FHIRPathError.self) { try FHIRPathExpression("{}.resolve()").evaluate(on: .object(FHIRJSONObject())) }
    }

    @Test func aValueOfTheWrongTypeIsReported() throws {
        let questionnaire = #"""
        {"resourceType": "Questionnaire", "id": "wrong", "item": [{"linkId": "a", "type": "string"},
          {"linkId": "t", "type": "integer", "extension": [{"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression",
            "valueExpression": {"language": "text/fhirpath", "expression": "%resource.item.where(linkId='a').answer.value"}}]}]}
        """#
        let data = Data(questionnaire.utf8)
        let task = try FHIRQuestionnaireImporter().importQuestionnaire(data).requireComplete()
        var session = try TaskSession(task: task, environment: environment, calculator: try FHIRPathTaskCalculator(questionnaires: [data]))
        try session.setAnswer(.text("seven"), for: "a")
        try session.goForward()
        #expect(session.calculationErrors["t"]?.message == #"the expression gives "seven", not a number"#)
        // The participant goes on; the result keeps the item unanswered and says why.
        try session.goForward()
        let total = session.result.stepResults.flatMap(\.questionResults).first { $0.identifier == "t" }
        #expect(total?.answer == nil && total?.calculationError == #"the expression gives "seven", not a number"#)
    }

    @Test func enableWhenExpressionsShowAndHideItems() throws {
        let questionnaire = #"""
        {"resourceType": "Questionnaire", "id": "followup",
         "item": [
          {"linkId": "pain", "type": "integer", "text": "Pain today, 0 to 10"},
          {"linkId": "why", "type": "string", "text": "What made it worse?",
           "extension": [{"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-enableWhenExpression",
             "valueExpression": {"language": "text/fhirpath", "expression": "%resource.item.where(linkId='pain').answer.value >= 7"}}]},
          {"linkId": "end", "type": "boolean", "text": "Anything else?"}
         ]}
        """#
        let data = Data(questionnaire.utf8)
        let imported = try FHIRQuestionnaireImporter().importQuestionnaire(data)
        #expect(imported.issues.isEmpty, "\(imported.issues)")
        let calculator = try FHIRPathTaskCalculator(questionnaires: [data])
        func asked(pain: Int?) throws -> [String] {
            var session = try TaskSession(task: imported.task, environment: environment, calculator: calculator)
            var seen: [String] = []
            while let step = session.currentStep {
                seen += step.questions.map(\.identifier)
                if step.questions.contains(where: { $0.identifier == "pain" }), let pain { try session.setAnswer(.number(Decimal(pain)), for: "pain") }
                try session.goForward()
            }
            return seen
        }
        // Both sides of the comparison, and an unanswered question (the expression gives nothing: not enabled).
        #expect(try asked(pain: 8) == ["pain", "why", "end"])
        #expect(try asked(pain: 7) == ["pain", "why", "end"])
        #expect(try asked(pain: 6) == ["pain", "end"])
        #expect(try asked(pain: nil) == ["pain", "end"])
        // Without a calculator the condition cannot hold, so the item stays hidden rather than shown unchecked.
        var plain = try TaskSession(task: imported.task)
        try plain.setAnswer(.number(9), for: "pain")
        try plain.goForward()
        #expect(plain.currentStep?.questions.map(\.identifier) == ["end"])
    }

    @Test func aHiddenScoreIsStoredWithTheQuestionsItReads() throws {
        let questionnaire = #"""
        {"resourceType": "Questionnaire", "id": "hidden", "item": [
          {"linkId": "a", "type": "integer"}, {"linkId": "b", "type": "integer"},
          {"linkId": "sum", "type": "integer", "extension": [
            {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", "valueBoolean": true},
            {"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression",
             "valueExpression": {"language": "text/fhirpath", "expression": "%resource.item.answer.value.sum()"}}]}]}
        """#
        let data = Data(questionnaire.utf8)
        let imported = try FHIRQuestionnaireImporter().importQuestionnaire(data)
        #expect(imported.issues.isEmpty)
        let hidden = try #require(imported.task.steps.flatMap(\.calculatedItems).first)
        #expect(hidden.isHidden)
        #expect(imported.task.steps.count == 1, "the hidden sum has no step of its own")
        var session = try TaskSession(task: imported.task, environment: environment, calculator: try FHIRPathTaskCalculator(questionnaires: [data]))
        // The hidden sum stays on the step of the questions it reads and is computed as that step is left.
        while let step = session.currentStep {
            for question in step.questions where !step.calculatedItems.contains(where: { $0.identifier == question.identifier }) {
                try session.setAnswer(.number(question.identifier == "a" ? 4 : 5), for: question.identifier)
            }
            try session.goForward()
        }
        let sum = session.result.stepResults.flatMap(\.questionResults).first { $0.identifier == "sum" }
        #expect(sum?.answer == .number(9))
    }
}
