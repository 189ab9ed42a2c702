import Foundation
import Interop
import Research
import StudyKitEnvironment
import Testing

@Suite("FHIR Questionnaire import: repeating groups")
struct FHIRRepeatingGroupTests {
    /// A family history: a repeating group of relatives (at most 3), each with a condition that reads an answer of the
    /// same relative, and a repeating group of conditions nested in each relative (no limit given: the default).
    static let familyJSON = """
    {"resourceType": "Questionnaire", "id": "family", "url": "http://example.org/Questionnaire/family", "status": "active",
     "item": [
      {"linkId": "name", "type": "string", "text": "Your name"},
      {"linkId": "relative", "type": "group", "text": "Relative", "repeats": true, "extension": [
        {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-maxOccurs", "valueInteger": 3}], "item": [
        {"linkId": "relation", "type": "choice", "text": "Relation", "required": true, "answerOption": [
          {"valueCoding": {"system": "http://example.org/rel", "code": "mother", "display": "Mother"}},
          {"valueCoding": {"system": "http://example.org/rel", "code": "father", "display": "Father"}}]},
        {"linkId": "alive", "type": "boolean", "text": "Living?"},
        {"linkId": "age", "type": "integer", "text": "Age at death",
         "enableWhen": [{"question": "alive", "operator": "=", "answerBoolean": false}]},
        {"linkId": "condition", "type": "group", "text": "Condition", "repeats": true, "item": [
          {"linkId": "cname", "type": "string", "text": "Condition name"}]}
      ]},
      {"linkId": "end", "type": "boolean", "text": "All told?"}
     ]}
    """

    static func family() throws -> FHIRQuestionnaire { try FHIRQuestionnaire(Data(familyJSON.utf8)) }

    /// Runs `task`: on each step, the answers `script` gives for that step (by item identifier, or by the step's
    /// identifier for a question step); unanswered steps are skipped. Returns the steps shown, in order, and the result.
    func run(_ task: ResearchTask, _ script: [String: [String: Answer]]) throws -> (shown: [String], result: TaskResult, totals: [Int]) {
        var session = try TaskSession(task: task, environment: StudyKitEnvironment(now: { Date(timeIntervalSince1970: 1_790_000_000) },
                                                                             makeUUID: { UUID(uuidString: "00000000-0000-4000-8000-000000000001")! }))
        var shown: [String] = []
        var totals: [Int] = []
        for _ in 0..<200 {
            guard let step = session.currentStep else { break }
            shown.append(step.identifier)
            for (item, answer) in script[step.identifier] ?? [:] {
                try session.setAnswer(answer, for: item == step.identifier ? nil : item)
            }
            if let total = session.progress?.total { totals.append(total) }
            if session.canGoForward { try session.goForward() } else { try session.skip() }
        }
        return (shown, session.result, totals)
    }

    func coding(_ code: String) -> Answer { .choices([ChoiceSelection(.string(code))]) }

    /// Answers by step: a living mother with asthma and gout, then "Add another", a father who died at 71 with no
    /// condition given, and no third parent.
    var twoParents: [String: [String: Answer]] {
        [
            "relative": ["relation": coding("mother"), "alive": .boolean(true)],
            "condition": ["cname": .text("asthma")],
            "condition-another-1-1": ["condition-another-1-1": .boolean(true)],
            "condition-1-2": ["cname": .text("gout")],
            "condition-another-1-2": ["condition-another-1-2": .boolean(false)],
            "relative-another-1": ["relative-another-1": .boolean(true)],
            "relative-2": ["relation": coding("father"), "alive": .boolean(false)],
            "age-2": ["age": .number(71)],
            "condition-another-2-1": ["condition-another-2-1": .boolean(false)],
            "relative-another-2": ["relative-another-2": .boolean(false)],
        ]
    }

    @Test func eachRepetitionIsAskedWhileTheParticipantAddsAnother() throws {
        let questionnaire = try Self.family()
        let task = questionnaire.task
        #expect(TaskValidator.problems(in: task).isEmpty)
        let steps = task.steps.map(\.identifier)
        // Three relatives at most: no "Add another" after the third.
        #expect(steps.contains("relative-another-1") && steps.contains("relative-another-2") && !steps.contains("relative-another-3"))
        #expect(steps.contains("relative-3") && !steps.contains("relative-4"))
        // Conditions: ten at most by default, with a note saying so.
        #expect(steps.contains("condition-1-10") && !steps.contains("condition-1-11"))
        #expect(questionnaire.importIssues.map(\.kind) == [.repetitionLimit])
        #expect(questionnaire.importIssues.first?.path == "item[1].item[3].repeats")

        var script = twoParents
        script["name"] = ["name": .text("Ann")]
        script["condition-2-1"] = ["cname": .text("stroke")]
        script["end"] = ["end": .boolean(true)]
        let (shown, _, totals) = try run(task, script)
        #expect(shown == ["name", "relative", "condition", "condition-another-1-1", "condition-1-2", "condition-another-1-2",
                          "relative-another-1", "relative-2", "age-2", "condition-2-1", "condition-another-2-1",
                          "relative-another-2", "end"])
        // The first relative is living, so her age at death is not asked; the second's is, in his own repetition.
        #expect(!shown.contains("age"))
        // "Step x of y" counts only the steps the answers so far lead to: it grows as repetitions are added.
        #expect(totals.first! < totals.last!)
        #expect(totals.last == shown.count)
    }

    @Test func theResponseHoldsOneItemPerRepetitionAndReadsBack() throws {
        let questionnaire = try Self.family()
        let (_, result, _) = try run(questionnaire.task, twoParents)
        let utc = TimeZone(identifier: "UTC")!
        let data = try FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire).response(for: result, status: .completed, timeZone: utc)
        let response = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let items = try #require(response["item"] as? [[String: Any]])
        // `name` and `end` were not answered; the two relatives are sibling items with the group's linkId.
        #expect(items.map { $0["linkId"] as? String } == ["relative", "relative"])
        func answers(_ item: [String: Any]) -> [String: [Any]] {
            var found: [String: [Any]] = [:]
            for child in item["item"] as? [[String: Any]] ?? [] {
                let linkId = child["linkId"] as! String
                if let answer = child["answer"] as? [[String: Any]] {
                    found[linkId, default: []] += answer.map { $0.first { $0.key.hasPrefix("value") }!.value }
                } else {
                    found[linkId, default: []].append(answers(child))
                }
            }
            return found
        }
        let mother = answers(items[0])
        #expect((mother["relation"]?.first as? [String: Any])?["code"] as? String == "mother")
        #expect(mother["alive"]?.first as? Bool == true)
        #expect(mother["age"] == nil)
        let conditions = try #require(mother["condition"] as? [[String: [Any]]])
        #expect(conditions.map { $0["cname"]?.first as? String } == ["asthma", "gout"])
        let father = answers(items[1])
        #expect((father["relation"]?.first as? [String: Any])?["code"] as? String == "father")
        #expect(father["age"]?.first as? Int == 71)
        // The second relative gave no condition, so his repetition holds no condition group.
        #expect(father["condition"] == nil)
        #expect(!String(decoding: data, as: UTF8.self).contains("another"))

        // Read back, the response gives the same answers in the same repetitions, "Add another" included.
        let read = try FHIRQuestionnaireResponseReader(questionnaire: questionnaire).read(data, timeZone: utc, fallbackRunUUID: UUID())
        let again = try FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire).response(for: read.result, status: .completed, timeZone: utc)
        #expect(again == data)
        let byStep = Dictionary(uniqueKeysWithValues: read.result.stepResults.map { ($0.identifier, $0) })
        #expect(byStep["relative-another-1"]?.questionResults.first?.answer == .boolean(true))
        #expect(byStep["relative-another-2"]?.questionResults.first?.answer == .boolean(false))
        #expect(byStep["condition-1-2"]?.questionResults.first?.answer == .text("gout"))
        #expect(byStep["age-2"]?.questionResults.first?.answer == .number(71))
    }

    @Test func aResponseWithMoreRepetitionsThanTheLimitIsRefused() throws {
        let questionnaire = try Self.family()
        let relative = #"{"linkId": "relative", "item": [{"linkId": "alive", "answer": [{"valueBoolean": true}]}]}"#
        let response = """
        {"resourceType": "QuestionnaireResponse", "questionnaire": "http://example.org/Questionnaire/family",
         "status": "in-progress", "authored": "2026-11-26T10:00:00Z", "item": [\(Array(repeating: relative, count: 4).joined(separator: ","))]}
        """
        let reader = FHIRQuestionnaireResponseReader(questionnaire: questionnaire)
        let utc = TimeZone(identifier: "UTC")!
        #expect(throws: FHIRResponseError.self) {
            try reader.read(Data(response.utf8), timeZone: utc, fallbackRunUUID: UUID())
        }
        do {
            _ = try reader.read(Data(response.utf8), timeZone: utc, fallbackRunUUID: UUID())
        } catch {
            #expect(error.issues.map(\.path) == ["item[3]"])
            #expect(error.issues.first?.message.contains("at most 3 times") == true)
        }
        // A group that does not repeat may still appear only once.
        let once = try FHIRQuestionnaire(Data("""
        {"resourceType": "Questionnaire", "id": "once", "item": [{"linkId": "g", "type": "group", "item": [{"linkId": "q", "type": "string"}]}]}
        """.utf8))
        let twice = """
        {"resourceType": "QuestionnaireResponse", "status": "completed", "authored": "2026-11-26T10:00:00Z", "item": [
          {"linkId": "g", "item": [{"linkId": "q", "answer": [{"valueString": "a"}]}]},
          {"linkId": "g", "item": [{"linkId": "q", "answer": [{"valueString": "b"}]}]}]}
        """
        do {
            _ = try FHIRQuestionnaireResponseReader(questionnaire: once).read(Data(twice.utf8), timeZone: utc, fallbackRunUUID: UUID())
            Issue.record("a non-repeating group given twice was read")
        } catch {
            #expect(error.issues.map(\.kind) == [.duplicateItem])
        }
    }

    @Test func aCompletedResponseNeedsEveryRequiredAnswerInEachRepetitionItHolds() throws {
        // A form renderers test with (a repeating group whose second instance lacks a required answer): the problem is
        // named in that repetition, and only a completed response must have it.
        let questionnaire = try FHIRQuestionnaire(Data("""
        {"resourceType": "Questionnaire", "id": "guardians", "item": [
          {"linkId": "consented", "type": "boolean", "required": true},
          {"linkId": "guardian", "type": "group", "repeats": true, "extension": [
            {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-maxOccurs", "valueInteger": 4}], "item": [
            {"linkId": "nickname", "type": "string"},
            {"linkId": "name", "type": "string", "required": true}]}]}
        """.utf8))
        func response(_ status: String, consented: Bool = true) -> Data {
            let first = consented ? #"{"linkId": "consented", "answer": [{"valueBoolean": true}]},"# : ""
            return Data("""
            {"resourceType": "QuestionnaireResponse", "status": "\(status)", "authored": "2026-11-26T10:00:00+13:00", "item": [\(first)
              {"linkId": "guardian", "item": [{"linkId": "nickname", "answer": [{"valueString": "Mo"}]}, {"linkId": "name", "answer": [{"valueString": "Mona"}]}]},
              {"linkId": "guardian", "item": [{"linkId": "nickname", "answer": [{"valueString": "Bo"}]}]}]}
            """.utf8)
        }
        let reader = FHIRQuestionnaireResponseReader(questionnaire: questionnaire)
        let zone = TimeZone(identifier: "Pacific/Auckland")!
        do {
            _ = try reader.read(response("completed", consented: false), timeZone: zone, fallbackRunUUID: UUID())
            Issue.record("a completed response without its required answers was read")
        } catch {
            #expect(error.issues.map(\.kind) == [.missingAnswer, .missingAnswer])
            #expect(error.issues.map(\.path) == ["item", "item[1]"])
            #expect(error.issues.map(\.linkId) == ["consented", "name"])
            #expect(error.issues.last?.message == "the response is completed, but the required 'name' has no answer in repetition 2 of 'guardian'")
        }
        // In progress, the same answers read; the two repetitions are kept apart.
        let read = try reader.read(response("in-progress"), timeZone: zone, fallbackRunUUID: UUID())
        let byStep = Dictionary(uniqueKeysWithValues: read.result.stepResults.map { ($0.identifier, $0.questionResults.map(\.answer)) })
        #expect(byStep["guardian"] == [.text("Mo"), .text("Mona")])
        #expect(byStep["guardian-2"] == [.text("Bo")])
        #expect(byStep["guardian-another-1"] == [.boolean(true)] && byStep["guardian-another-2"] == [.boolean(false)])
        // The repetitions not given (3 and 4) are not asked, so their required names are not missing.
        do {
            _ = try reader.read(response("completed"), timeZone: zone, fallbackRunUUID: UUID())
            Issue.record("a completed response without the second guardian's name was read")
        } catch {
            #expect(error.issues.map(\.path) == ["item[2]"])
        }
    }

    @Test func maxOccursIsCheckedAndCapped() throws {
        func group(_ maxOccurs: String) -> String {
            """
            {"resourceType": "Questionnaire", "id": "g", "item": [{"linkId": "g", "type": "group", "repeats": true, "text": "G",
              "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-maxOccurs", \(maxOccurs)}],
              "item": [{"linkId": "q", "type": "string"}]}]}
            """
        }
        let importer = FHIRQuestionnaireImporter()
        let one = try importer.importQuestionnaire(Data(group(#""valueInteger": 1"#).utf8))
        #expect(one.issues.isEmpty)
        #expect(one.task.steps.map(\.identifier) == ["g"])
        let many = try importer.importQuestionnaire(Data(group(#""valueInteger": 500"#).utf8))
        #expect(many.refusals.isEmpty)
        #expect(many.notes.map(\.message) == ["the group is asked at most 50 times, not 500"])
        #expect(many.repetitions.limits["g"] == 50)
        let wrong = try importer.importQuestionnaire(Data(group(#""valueString": "3""#).utf8))
        #expect(wrong.refusals.map(\.path) == ["item[0].extension[0]"])
        // On a repeating question, maxOccurs would cap its answers, which is not checked: refused.
        let choice = try importer.importQuestionnaire(Data("""
        {"resourceType": "Questionnaire", "id": "c", "item": [{"linkId": "c", "type": "choice", "repeats": true,
          "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-maxOccurs", "valueInteger": 2}],
          "answerOption": [{"valueString": "a"}, {"valueString": "b"}, {"valueString": "c"}]}]}
        """.utf8))
        #expect(choice.refusals.map(\.path) == ["item[0].extension[0]"])
    }

    @Test func flagsThatAreNotBooleansAreRefusedNotReadAsFalse() throws {
        let result = try FHIRQuestionnaireImporter().importQuestionnaire(Data("""
        {"resourceType": "Questionnaire", "id": "flags", "item": [
          {"linkId": "g", "type": "group", "repeats": "true", "item": [{"linkId": "q", "type": "string", "required": 1}]},
          {"linkId": "r", "type": "string", "readOnly": "no"}]}
        """.utf8))
        #expect(result.refusals.map(\.path) == ["item[0].repeats", "item[0].item[0].required", "item[1].readOnly"])
        #expect(result.refusals.allSatisfy { $0.message.hasSuffix("must be true or false") })
    }

    @Test func nestedRepetitionsThatWouldMakeAHugeTaskAreRefusedUnexpanded() throws {
        // Five levels of 50 repetitions would be 312,500,000 questions: refused at once, naming the count.
        var item = #"{"linkId": "q", "type": "string"}"#
        for level in (1...5).reversed() {
            item = #"{"linkId": "g\#(level)", "type": "group", "repeats": true, "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-maxOccurs", "valueInteger": 50}], "item": [\#(item)]}"#
        }
        do {
            _ = try FHIRQuestionnaireImporter().importQuestionnaire(Data(#"{"resourceType": "Questionnaire", "id": "deep", "item": [\#(item)]}"#.utf8))
            Issue.record("a form of 312,500,000 questions was imported")
        } catch {
            #expect(error.issues.last?.message.hasPrefix("the repeating groups would be laid out as ") == true)
            #expect(error.issues.last?.message.hasSuffix("more than 10000; lower their questionnaire-maxOccurs") == true)
        }
    }

    @Test func aRepeatingGroupUnderAConditionIsAskedOnlyWhenItHolds() throws {
        let questionnaire = try FHIRQuestionnaire(Data("""
        {"resourceType": "Questionnaire", "id": "meds", "item": [
          {"linkId": "takes", "type": "boolean", "text": "Do you take medicines?"},
          {"linkId": "med", "type": "group", "text": "Medicine", "repeats": true,
           "enableWhen": [{"question": "takes", "operator": "=", "answerBoolean": true}],
           "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-maxOccurs", "valueInteger": 2}],
           "item": [{"linkId": "drug", "type": "string", "text": "Name"}]}]}
        """.utf8))
        let no = try run(questionnaire.task, ["takes": ["takes": .boolean(false)]])
        #expect(no.shown == ["takes"])
        let yes = try run(questionnaire.task, ["takes": ["takes": .boolean(true)], "med": ["drug": .text("a")],
                                               "med-another-1": ["med-another-1": .boolean(true)], "med-2": ["drug": .text("b")]])
        #expect(yes.shown == ["takes", "med", "med-another-1", "med-2"])
        #expect(yes.shown.map { questionnaire.task.step(withIdentifier: $0)?.title } == [nil, "Medicine (1)", "Medicine (1)", "Medicine (2)"])
    }
}
