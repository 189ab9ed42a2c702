import Foundation
import Interop
import Research
import Testing

private typealias Support = ResponseTestSupport

@Suite("FHIR QuestionnaireResponse: writing task results")
struct FHIRQuestionnaireResponseBuilderTests {
    let berlin = Support.zone("Europe/Berlin")

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func headerCarriesRunQuestionnaireStatusPeopleAndAuthored() throws {
        let questionnaire = try Support.allKinds()
        let run = UUID(uuidString: "8D3A1C2E-0F4B-4A51-9E0B-2C7A5D1E9F00")!
        let result = Support.result(questionnaire, ["smoker": .boolean(true)], runUUID: run)
        let data = try FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire).response(
            for: result, status: .completed, timeZone: berlin,
            subject: FHIRReference(reference: "Patient/p1"), author: FHIRReference(reference: "Patient/p1", display: "Ann"))
        let json = try Support.object(data)
        #expect(json["resourceType"] as? String == "QuestionnaireResponse")
        #expect(json["id"] as? String == "8d3a1c2e-0f4b-4a51-9e0b-2c7a5d1e9f00")
        #expect(json["questionnaire"] as? String == "http://example.org/Questionnaire/kinds|2.0")
        #expect(json["status"] as? String == "completed")
        #expect(json["subject"] as? [String: String] == ["reference": "Patient/p1"])
        #expect(json["author"] as? [String: String] == ["reference": "Patient/p1", "display": "Ann"])
        #expect(json["authored"] as? String == "2026-05-04T11:12:30+02:00")
        // FHIR's member order, and the same bytes every time.
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix(#"{"resourceType":"QuestionnaireResponse","id":"8d3a1c2e"#))
        let again = try FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire).response(
            for: result, status: .completed, timeZone: berlin,
            subject: FHIRReference(reference: "Patient/p1"), author: FHIRReference(reference: "Patient/p1", display: "Ann"))
        #expect(again == data)
    }

    @Test func aQuestionnaireWithoutAURLIsNamedByTheURNItsStudyGives() throws {
        let data = Data(#"{"resourceType": "Questionnaire", "status": "active", "item": [{"linkId": "q", "type": "string", "text": "Note"}]}"#.utf8)
        let questionnaire = try FHIRQuestionnaire(data, taskIdentifier: "notes", fallbackCanonical: "urn:studykit:recover:questionnaire:notes")
        #expect(questionnaire.task.identifier == "notes")
        let result = Support.result(questionnaire, ["q": .text("fine")], runUUID: UUID())
        let json = try Support.object(FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire).response(for: result, status: .completed, timeZone: berlin))
        #expect(json["questionnaire"] as? String == "urn:studykit:recover:questionnaire:notes")
        // Without one, a url-less form's response names no Questionnaire, and its task is `questionnaire`.
        let bare = try FHIRQuestionnaire(data)
        #expect(bare.task.identifier == "questionnaire" && bare.canonical == nil)
    }

    @Test func savedRunIsInProgressAndPeopleAreOptional() throws {
        let questionnaire = try Support.allKinds()
        let result = Support.result(questionnaire, ["smoker": .boolean(true)])
        let json = try Support.object(FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire)
            .response(for: result, status: .inProgress, timeZone: berlin))
        #expect(json["status"] as? String == "in-progress")
        #expect(json["subject"] == nil && json["author"] == nil)
    }

    @Test func everyItemTypeIsTypedByTheQuestionnaire() throws {
        let questionnaire = try Support.allKinds()
        let result = Support.result(questionnaire, Support.everyAnswer(in: berlin))
        let data = try FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire)
            .response(for: result, status: .completed, timeZone: berlin, prettyPrinted: true)
        let json = try Support.object(data)
        #expect(Support.outline(json["item"]) == [
            "about(smoker[valueBoolean=false]", "height[valueDecimal=1.75]", "children[valueInteger=2]",
            "birth[valueDate=1990-02-28]", "seen[valueDateTime=2026-05-03T20:45:10+02:00]", "wake[valueTime=07:05:00]",
            "name[valueString=Zoë \"Nan\" Ø\\]", "story[valueString=Line one\nLine two\ttabbed]",
            "site[valueUri=https://example.org/zoë]",
            "weight[valueQuantity=72.5|kilogram|http://unitsofmeasure.org|kg]",
            "details(colour[valueCoding=http://example.org/colours|g|Green;valueCoding=http://example.org/colours|r|Red]",
            "yn[valueCoding=http://example.org/yn|Y|Yes]", "score[valueInteger=2]", "size[valueString=M]",
            "day[valueDate=2026-01-02]", "slot[valueTime=14:30:00]", "pet[valueCoding=cat|Cat;valueString=Axolotl]))",
            "note[valueString=Thanks]",
        ].joined(separator: ","))
        #expect(json["item"].map { Support.texts($0) }?["weight"] == "Weight")
        // Booleans are JSON booleans, not 0/1, and decimals keep their digits.
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""valueBoolean": false"#))
        #expect(text.contains(#""valueDecimal": 1.75"#))
        #expect(text.contains("\n  \"id\": "))
    }

    @Test func onlyAnsweredItemsAndTheGroupsAroundThemAppear() throws {
        let questionnaire = try Support.allKinds()
        var result = Support.result(questionnaire, ["yn": .choices([ChoiceSelection(.string("N"))]), "note": .text("x")])
        // An earlier pass and a skipped step are not answers; neither is an empty text or an empty choice.
        let stepOfNote = try #require(result.stepResults.last)
        result.stepResults.insert(StepResult(identifier: stepOfNote.identifier, startDate: result.startDate, endDate: result.endDate,
                                             results: [.question(QuestionResult(identifier: "note", type: .text, answer: .text("old")))],
                                             isPrevious: true), at: 0)
        result.stepResults.append(StepResult(identifier: "later", startDate: result.startDate, endDate: result.endDate,
                                             results: [.question(QuestionResult(identifier: "unasked", type: .text, answer: .text("no")))],
                                             skipped: true))
        result.stepResults[1].results.append(.question(QuestionResult(identifier: "name", type: .text, answer: .text(""))))
        result.stepResults[1].results.append(.question(QuestionResult(identifier: "colour", type: .textChoice, answer: .choices([]))))
        result.stepResults[1].results.append(.question(QuestionResult(identifier: "smoker", type: .boolean, answer: nil)))
        let json = try Support.object(FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire)
            .response(for: result, status: .completed, timeZone: berlin))
        #expect(Support.outline(json["item"]) == "about(details(yn[valueCoding=http://example.org/yn|N|No])),note[valueString=x]")

        let empty = Support.result(questionnaire, [:])
        let nothing = try Support.object(FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire)
            .response(for: empty, status: .inProgress, timeZone: berlin))
        #expect(nothing["item"] == nil, "an empty item list is not valid FHIR JSON")
    }

    @Test func authoredAndDateTimeAnswersInKiritimati() throws {
        let kiritimati = Support.zone("Pacific/Kiritimati")
        let questionnaire = try Support.allKinds()
        let answers: [String: Answer] = [
            "seen": .date(DateAnswer(date: Support.instant("2026-01-01T10:30:00Z"), timeZone: kiritimati, includesTime: true)),
            // The 2nd of January starts in Kiritimati while it is still the 1st in UTC.
            "birth": .date(DateAnswer(year: 2026, month: 1, day: 2, timeZone: kiritimati)!),
        ]
        let result = Support.result(questionnaire, answers, end: Support.instant("2026-01-01T10:00:00Z"))
        let json = try Support.object(FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire)
            .response(for: result, status: .completed, timeZone: kiritimati))
        #expect(json["authored"] as? String == "2026-01-02T00:00:00+14:00")
        #expect(Support.outline(json["item"]) == "about(birth[valueDate=2026-01-02],seen[valueDateTime=2026-01-02T00:30:00+14:00])")
    }

    @Test func authoredAndDateTimeAnswersAcrossNewYorkClockChanges() throws {
        let newYork = Support.zone("America/New_York")
        let questionnaire = try Support.allKinds()
        let builder = FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire)
        // Spring forward (8 March 2026, 02:00 EST → 03:00 EDT): one hour apart on the clock is two.
        let spring = Support.result(questionnaire, [
            "seen": .date(DateAnswer(date: Support.instant("2026-03-08T07:30:00Z"), timeZone: newYork, includesTime: true)),
        ], end: Support.instant("2026-03-08T06:30:00Z"))
        let springJSON = try Support.object(builder.response(for: spring, status: .completed, timeZone: newYork))
        #expect(springJSON["authored"] as? String == "2026-03-08T01:30:00-05:00")
        #expect(Support.outline(springJSON["item"]) == "about(seen[valueDateTime=2026-03-08T03:30:00-04:00])")
        // Fall back (1 November 2026): 01:30 happens twice, and the offset tells which.
        let fall = Support.result(questionnaire, [
            "seen": .date(DateAnswer(date: Support.instant("2026-11-01T06:30:00Z"), timeZone: newYork, includesTime: true)),
        ], end: Support.instant("2026-11-01T05:30:00Z"))
        let fallJSON = try Support.object(builder.response(for: fall, status: .completed, timeZone: newYork))
        #expect(fallJSON["authored"] as? String == "2026-11-01T01:30:00-04:00")
        #expect(Support.outline(fallJSON["item"]) == "about(seen[valueDateTime=2026-11-01T01:30:00-05:00])")
    }

    @Test func resultForAnUnknownLinkIdThrowsNamingIt() throws {
        let questionnaire = try Support.allKinds()
        var result = Support.result(questionnaire, ["smoker": .boolean(true)])
        result.stepResults[0].results.append(.question(QuestionResult(identifier: "mystery", type: .boolean, answer: .boolean(true))))
        #expect {
            try FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire).response(for: result, status: .completed, timeZone: berlin)
        } throws: { error in
            let issues = (error as? FHIRResponseError)?.issues ?? []
            return issues.map(\.kind) == [.unknownLinkId] && issues.first?.linkId == "mystery"
                && issues.first?.path == "stepResults[0].results[1]" && "\(error)".contains("mystery")
        }
    }

    @Test func everyInexpressibleAnswerIsReportedTogether() throws {
        let questionnaire = try Support.allKinds()
        var result = Support.result(questionnaire, [
            "smoker": .text("yes"),
            "children": .number(Decimal(string: "2.5")!),
            "birth": .date(DateAnswer(date: Support.instant("2026-01-01T10:00:00Z"), timeZone: berlin, includesTime: true)),
            "yn": .choices([ChoiceSelection(.string("maybe"))]),
            "size": .choices([ChoiceSelection(.string("S")), ChoiceSelection(.string("M"))]),
            "pet": .choices([ChoiceSelection(.string("other"))]),
            "note": .dontKnow,
        ])
        result.identifier = "another-task"
        result.stepResults[0].results.append(.question(QuestionResult(identifier: "details", type: .text, answer: .text("x"))))
        result.stepResults[0].results.append(.question(QuestionResult(identifier: "photo", type: .text, answer: .text("x"))))
        do {
            _ = try FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire).response(for: result, status: .completed, timeZone: berlin)
            Issue.record("the result was written")
        } catch {
            let byLinkId = Dictionary(error.issues.map { ($0.linkId ?? "", $0.kind) }, uniquingKeysWith: { first, _ in first })
            #expect(byLinkId == [
                "": .taskMismatch, "smoker": .wrongValueType, "children": .wrongValueType, "birth": .wrongValueType,
                "yn": .unknownOption, "size": .tooManyAnswers, "pet": .unknownOption, "note": .wrongValueType,
                "details": .notAQuestion, "photo": .wrongValueType,
            ])
            #expect(error.issues.count == byLinkId.count)
        }
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func questionnaireWithoutURLLeavesQuestionnaireOut() throws {
        let questionnaire = try Support.questionnaire(fixture: "sdc-all-data-types.json")
        #expect(questionnaire.url == nil && questionnaire.canonical == nil)
        let result = Support.result(questionnaire, ["id-boolean": .boolean(true)])
        let json = try Support.object(FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire)
            .response(for: result, status: .completed, timeZone: berlin))
        #expect(json["questionnaire"] == nil)
        #expect(Support.outline(json["item"]) == "02a7536f-06b2-4dee-94e1-f5cfcb0e8622(id-boolean[valueBoolean=true])")
    }
}
