import Foundation
import Interop
import Research
import Testing

private typealias Support = ResponseTestSupport

@Suite("FHIR QuestionnaireResponse: reading responses")
struct FHIRQuestionnaireResponseReaderTests {
    let berlin = Support.zone("Europe/Berlin")

    func read(_ data: Data, zone: TimeZone? = nil, fallback: UUID = UUID()) throws -> FHIRReadQuestionnaireResponse {
        try FHIRQuestionnaireResponseReader(questionnaire: Support.allKinds()).read(data, timeZone: zone ?? berlin,
                                                                                   fallbackRunUUID: fallback)
    }

    /// The (kind, linkId, path) of each issue.
    func problems(_ data: Data, questionnaire: FHIRQuestionnaire? = nil) throws -> [String] {
        try Support.issues(data, questionnaire: questionnaire).map { "\($0.kind.rawValue) \($0.linkId ?? "-") \($0.path)" }
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func phq9FixtureBecomesAResultInTaskOrder() throws {
        let questionnaire = try Support.questionnaire(fixture: "sdc-phq9-questionnaire.json")
        let fallback = UUID()
        let read = try FHIRQuestionnaireResponseReader(questionnaire: questionnaire)
            .read(Support.fixture("sdc-phq9-response.json"), timeZone: Support.zone("UTC"), fallbackRunUUID: fallback)
        #expect(read.status == .completed)
        #expect(read.subject == FHIRReference(reference: "http://hl7.org/fhir/Patient/proband"))
        #expect(read.author == read.subject)
        let result = read.result
        #expect(result.identifier == questionnaire.task.identifier)
        #expect(result.taskRunUUID == fallback, "the fixture's id is not a UUID")
        #expect(result.startDate == result.endDate)
        #expect(abs(result.endDate.timeIntervalSince(Support.instant("2019-08-21T20:36:57.544Z"))) < 0.001)
        // The total score is a calculated item on a step of its own after the nine questions.
        #expect(result.stepResults.map(\.identifier) == ["H1/T1", "H1/TS"])
        let questions = result.stepResults[0].questionResults
        #expect(questions.map(\.identifier) == (1...9).map { "H1/T1/Q\($0)" })
        #expect(questions[4].answer == .choices([ChoiceSelection(.string("More than half the days"))]))
        #expect(questions[4].type == .textChoice)
        let total = try #require(result.stepResults[1].questionResults.first)
        #expect(total.answer == .number(13) && total.unit == "{score}" && total.type == .numeric)
    }

    @Test func runUUIDComesFromAnIdThatIsAUUID() throws {
        let fallback = UUID()
        let withUUID = Support.response(#"{"linkId": "note", "answer": [{"valueString": "x"}]}"#)
        let text = String(decoding: withUUID, as: UTF8.self).replacingOccurrences(of: #""id": "r1""#,
                                                                                 with: #""id": "8D3A1C2E-0F4B-4A51-9E0B-2C7A5D1E9F00""#)
        #expect(try read(Data(text.utf8), fallback: fallback).result.taskRunUUID == UUID(uuidString: "8d3a1c2e-0f4b-4a51-9e0b-2c7a5d1e9f00"))
        #expect(try read(withUUID, fallback: fallback).result.taskRunUUID == fallback)
    }

    @Test func inProgressStatusIsReported() throws {
        let text = String(decoding: Support.response(#"{"linkId": "note", "answer": [{"valueString": "x"}]}"#), as: UTF8.self)
            .replacingOccurrences(of: #""completed""#, with: #""in-progress""#)
        #expect(try read(Data(text.utf8)).status == .inProgress)
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func questionnaireMustBeThisOne() throws {
        let items = #"{"linkId": "note", "answer": [{"valueString": "x"}]}"#
        #expect(try problems(Support.response(items, questionnaire: #""http://example.org/Questionnaire/kinds""#)).isEmpty)
        #expect(try problems(Support.response(items, questionnaire: #""http://example.org/Questionnaire/other|2.0""#))
                == ["questionnaireMismatch - questionnaire"])
        #expect(try problems(Support.response(items, questionnaire: #""http://example.org/Questionnaire/kinds|1.0""#))
                == ["questionnaireMismatch - questionnaire"])
        let missing = Data(String(decoding: Support.response(items), as: UTF8.self)
            .replacingOccurrences(of: #""questionnaire": "http://example.org/Questionnaire/kinds|2.0","#, with: "").utf8)
        #expect(try problems(missing) == ["questionnaireMismatch - questionnaire"])
        // A Questionnaire without url: no questionnaire, or a reference to it by id.
        let dataTypes = try Support.questionnaire(fixture: "sdc-all-data-types.json")
        let group = #"{"linkId": "02a7536f-06b2-4dee-94e1-f5cfcb0e8622", "item": [{"linkId": "id-boolean", "answer": [{"valueBoolean": true}]}]}"#
        #expect(try problems(Support.response(group, questionnaire: #""Questionnaire/questionnaire-sdc-test-all-data-types""#),
                             questionnaire: dataTypes).isEmpty)
        #expect(try problems(Support.response(group, questionnaire: #""Questionnaire/other""#), questionnaire: dataTypes)
                == ["questionnaireMismatch - questionnaire"])
    }

    @Test func unknownLinkIdIsReportedWithItsPath() throws {
        let data = Support.response(#"{"linkId": "about", "item": [{"linkId": "smoker", "answer": [{"valueBoolean": true}]},"#
                                    + #"{"linkId": "mystery", "answer": [{"valueBoolean": true}]}]}"#)
        let issues = try Support.issues(data)
        #expect(issues.map(\.kind) == [.unknownLinkId])
        #expect(issues.first?.linkId == "mystery" && issues.first?.path == "item[0].item[1]")
        #expect(issues.first?.description.contains("item[0].item[1] (linkId 'mystery')") == true)
    }

    @Test func wrongValueTypes() throws {
        let data = Support.response("""
        {"linkId": "about", "item": [
          {"linkId": "smoker", "answer": [{"valueString": "yes"}]},
          {"linkId": "height", "answer": [{"valueDecimal": "1.75"}]},
          {"linkId": "children", "answer": [{"valueInteger": 2.5}]},
          {"linkId": "birth", "answer": [{"valueDate": "1990-02"}]},
          {"linkId": "seen", "answer": [{"valueDateTime": "2026-05-03T18:45:10"}]},
          {"linkId": "wake", "answer": [{"valueTime": "07:05"}]},
          {"linkId": "weight", "answer": [{"valueDecimal": 72}]},
          {"linkId": "details", "item": [{"linkId": "score", "answer": [{"valueCoding": {"code": "2"}}]}]}
        ]}
        """)
        #expect(try problems(data) == [
            "wrongValueType smoker item[0].item[0].answer[0]",
            "wrongValueType height item[0].item[1].answer[0].valueDecimal",
            "wrongValueType children item[0].item[2].answer[0].valueInteger",
            "wrongValueType birth item[0].item[3].answer[0].valueDate",
            "wrongValueType seen item[0].item[4].answer[0].valueDateTime",
            "wrongValueType wake item[0].item[5].answer[0].valueTime",
            "wrongValueType weight item[0].item[6].answer[0]",
            "wrongValueType score item[0].item[7].item[0].answer[0]",
        ])
    }

    @Test func codingsMustBeAmongTheOptions() throws {
        let data = Support.response("""
        {"linkId": "about", "item": [{"linkId": "details", "item": [
          {"linkId": "colour", "answer": [{"valueCoding": {"system": "http://example.org/colours", "code": "r"}},
                                          {"valueCoding": {"code": "b"}}]},
          {"linkId": "yn", "answer": [{"valueCoding": {"system": "http://example.org/other", "code": "Y"}}]},
          {"linkId": "score", "answer": [{"valueInteger": 3}]},
          {"linkId": "pet", "answer": [{"valueCoding": {"code": "hamster"}}]}
        ]}]}
        """)
        #expect(try problems(data) == [
            "unknownOption colour item[0].item[0].item[0].answer[1].valueCoding",
            "unknownOption yn item[0].item[0].item[1].answer[0].valueCoding",
            "unknownOption score item[0].item[0].item[2].answer[0].valueInteger",
            "unknownOption pet item[0].item[0].item[3].answer[0].valueCoding",
        ])
        // Without a system, the code decides; an open-choice string that is not an option is the "other" text.
        let lenient = Support.response("""
        {"linkId": "about", "item": [{"linkId": "details", "item": [
          {"linkId": "yn", "answer": [{"valueCoding": {"code": "N", "display": "Nope"}}]},
          {"linkId": "pet", "answer": [{"valueCoding": {"code": "dog"}}, {"valueString": "Hamster"}]}
        ]}]}
        """)
        let answers = Support.answers(try read(lenient).result)
        #expect(answers["yn"] == .choices([ChoiceSelection(.string("N"))]))
        #expect(answers["pet"] == .choices([ChoiceSelection(.string("dog")), ChoiceSelection(.string("other"), text: "Hamster")]))
    }

    @Test func moreThanOneAnswerOnANonRepeatingItem() throws {
        let data = Support.response("""
        {"linkId": "note", "answer": [{"valueString": "a"}, {"valueString": "b"}]},
        {"linkId": "about", "item": [{"linkId": "details", "item": [
          {"linkId": "yn", "answer": [{"valueCoding": {"code": "Y"}}, {"valueCoding": {"code": "N"}}]}]}]}
        """)
        let issues = try Support.issues(data)
        #expect(issues.map(\.kind) == [.tooManyAnswers, .tooManyAnswers])
        #expect(issues.map(\.path) == ["item[0].answer[1]", "item[1].item[0].item[0].answer[1]"])
        #expect(issues.map(\.linkId) == ["note", "yn"])
    }

    @Test func structureRules() throws {
        let data = Support.response("""
        {"linkId": "smoker", "answer": [{"valueBoolean": true}]},
        {"linkId": "about", "answer": [{"valueString": "x"}]},
        {"linkId": "note", "answer": [{"valueString": "a"}], "item": [{"linkId": "smoker"}]},
        {"linkId": "later", "item": [{"linkId": "unasked", "answer": [{"valueString": "b"}]}]},
        {"linkId": "later", "item": []},
        {"answer": [{"valueString": "no linkId"}]},
        {"linkId": "about", "item": [
          {"linkId": "photo", "answer": [{"valueAttachment": {"url": "http://example.org/p.png"}}]},
          {"linkId": "height", "answer": [{"valueDecimal": 1.8, "valueString": "tall"}]},
          {"linkId": "children", "answer": [{"valueInteger": 1, "item": [{"linkId": "x"}]}]},
          {"linkId": "birth", "answer": [{}]}
        ]}
        """)
        #expect(try problems(data) == [
            "misplacedItem smoker item[0]",
            "notAQuestion about item[1].answer",
            "invalidItem note item[2]",
            "duplicateItem later item[4]",
            "invalidItem - item[5]",
            "duplicateItem about item[6]",
        ])
        // The second `about` is a duplicate; read alone, its items show the answer-level rules.
        let inner = Support.response("""
        {"linkId": "about", "item": [
          {"linkId": "photo", "answer": [{"valueAttachment": {"url": "http://example.org/p.png"}}]},
          {"linkId": "height", "answer": [{"valueDecimal": 1.8, "valueString": "tall"}]},
          {"linkId": "children", "answer": [{"valueInteger": 1, "item": [{"linkId": "x"}]}]},
          {"linkId": "birth", "answer": [{}]},
          {"linkId": "name"}
        ]}
        """)
        #expect(try problems(inner) == [
            "wrongValueType photo item[0].item[0].answer[0].valueAttachment",
            "invalidItem height item[0].item[1].answer[0]",
            "itemNotInTask children item[0].item[2].answer[0].item",
            "invalidItem birth item[0].item[3].answer[0]",
        ])
    }

    @Test func quantityUnitMustBeTheQuestionnaires() throws {
        func weight(_ quantity: String) -> Data {
            Support.response(#"{"linkId": "about", "item": [{"linkId": "weight", "answer": [{"valueQuantity": \#(quantity)}]}]}"#)
        }
        #expect(try problems(weight(#"{"value": 72, "unit": "lb", "system": "http://unitsofmeasure.org", "code": "[lb_av]"}"#))
                == ["mismatchedUnit weight item[0].item[0].answer[0].valueQuantity"])
        #expect(try problems(weight(#"{"value": 72, "unit": "pounds"}"#)) == ["mismatchedUnit weight item[0].item[0].answer[0].valueQuantity"])
        for same in [#"{"value": 72, "unit": "kg"}"#, #"{"value": 72, "system": "http://unitsofmeasure.org", "code": "kg"}"#, #"{"value": 72}"#] {
            let question = try #require(try read(weight(same)).result.stepResults.first?.questionResult("weight"))
            #expect(question.answer == .number(72) && question.unit == "kilogram")
        }
    }

    @Test func answersTheTaskRefusesAreReported() throws {
        let data = Support.response(#"{"linkId": "about", "item": [{"linkId": "site", "answer": [{"valueUri": "ftp://example.org"}]},"#
                                    + #"{"linkId": "name", "answer": [{"valueString": "\#(String(repeating: "a", count: 41))"}]}]}"#)
        let issues = try Support.issues(data)
        #expect(issues.map(\.kind) == [.invalidAnswer, .invalidAnswer])
        #expect(issues.map(\.linkId) == ["site", "name"])
        #expect(issues.first?.message.contains("http") == true)
    }

    @Test func everyProblemIsCollected() throws {
        let data = Data("""
        {"resourceType": "QuestionnaireResponse", "questionnaire": "http://example.org/other", "status": "done",
         "subject": "Patient/1", "item": [
          {"linkId": "mystery", "answer": [{"valueString": "?"}]},
          {"linkId": "about", "item": [{"linkId": "smoker", "answer": [{"valueBoolean": "yes"}]}]}
        ]}
        """.utf8)
        #expect(try problems(data) == [
            "questionnaireMismatch - questionnaire",
            "invalidResource - status",
            "invalidResource - authored",
            "invalidResource - subject",
            "unknownLinkId mystery item[0]",
            "wrongValueType smoker item[1].item[0].answer[0].valueBoolean",
        ])
    }

    @Test func notAQuestionnaireResponse() throws {
        #expect(try problems(Data("not json".utf8)).map { $0.prefix(15) } == ["invalidResource"])
        #expect(try problems(Data(#"{"resourceType": "Questionnaire"}"#.utf8)) == ["invalidResource - resourceType"])
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func disabledItemsMustNotBeAnswered() throws {
        let questionnaire = try Support.questionnaire(fixture: "sdc-enablewhen.json")
        let q1 = "83d5c1a6-5dc3-44d0-9d9e-d687c72e143e"
        let hidden = "e5da17a7-7546-45c5-9bcd-d0b09a74cc14"
        func response(q1 answer: Bool) -> Data {
            Data("""
            {"resourceType": "QuestionnaireResponse", "status": "completed", "authored": "2026-05-04T09:00:00Z",
             "item": [{"linkId": "3239e619-e2b9-492c-bf05-88b314fbe3e4", "item": [
               {"linkId": "\(q1)", "answer": [{"valueBoolean": \(answer)}]},
               {"linkId": "\(hidden)", "answer": [{"valueString": "shown?"}]}]}]}
            """.utf8)
        }
        #expect(try problems(response(q1: true), questionnaire: questionnaire).isEmpty)
        #expect(try problems(response(q1: false), questionnaire: questionnaire) == ["disabledItem \(hidden) item[0].item[1]"])
    }

    @Test func dateTimesKeepTheirOffsetAcrossClockChanges() throws {
        let newYork = Support.zone("America/New_York")
        func seen(_ text: String, zone: TimeZone) throws -> DateAnswer? {
            let data = Support.response(#"{"linkId": "about", "item": [{"linkId": "seen", "answer": [{"valueDateTime": "\#(text)"}]}]}"#)
            guard case .date(let answer)? = Support.answers(try read(data, zone: zone).result)["seen"] else { return nil }
            return answer
        }
        // Both offsets of New York are New York's own…
        let winter = try #require(try seen("2026-03-08T01:30:00-05:00", zone: newYork))
        let summer = try #require(try seen("2026-03-08T03:30:00-04:00", zone: newYork))
        #expect(winter.timeZone == newYork && summer.timeZone == newYork)
        #expect(summer.date.timeIntervalSince(winter.date) == 3600)
        let firstOneThirty = try #require(try seen("2026-11-01T01:30:00-04:00", zone: newYork))
        let secondOneThirty = try #require(try seen("2026-11-01T01:30:00-05:00", zone: newYork))
        #expect(secondOneThirty.date.timeIntervalSince(firstOneThirty.date) == 3600)
        // …while an offset New York does not have then is kept as a fixed offset, as is Kiritimati's +14:00.
        let elsewhere = try #require(try seen("2026-07-01T12:00:00-05:00", zone: newYork))
        #expect(elsewhere.timeZone.secondsFromGMT(for: elsewhere.date) == -5 * 3600 && elsewhere.timeZone != newYork)
        let kiritimati = try #require(try seen("2026-01-02T00:30:00+14:00", zone: Support.zone("Pacific/Kiritimati")))
        #expect(kiritimati.timeZone == Support.zone("Pacific/Kiritimati"))
        #expect(kiritimati.date == Support.instant("2026-01-01T10:30:00Z"))
    }
}
