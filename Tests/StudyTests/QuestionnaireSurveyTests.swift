import Foundation
import Research
import StudyFHIR
import Testing
@testable import Study

@Suite("FHIR Questionnaires as study surveys")
struct QuestionnaireSurveyTests {
    func problems(in folder: URL) -> [String] {
        do {
            _ = try StudyLoader.load(folder: folder, surveyFormats: [FHIRSurveyFormat()])
            Issue.record("the study loaded, but it is broken")
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func recoversMoodCheckIsItsOwnPHQ9Questionnaire() throws {
        let study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let survey = try #require(study.survey(taskID: "mood"))
        #expect(survey.identifier == "recover-phq9")
        #expect(survey.steps.map(\.identifier) == ["phq9", "phq9-total"])
        #expect(survey.steps.first?.questions.count == 9)
        #expect(survey.steps.flatMap(\.calculatedItems).map(\.identifier) == ["phq9-total"])
        // The Questionnaire is kept for evaluating the score against it.
        let questionnaire = try #require(study.questionnaires[survey.identifier])
        #expect(String(decoding: questionnaire, as: UTF8.self).contains("%resource.item.where(linkId='phq9').item.answer.value.ordinal().sum()"))
        #expect(study.task(id: "mood")?.outcome.first?.question == "phq9-total.phq9-total")
    }

    @Test func anUnsupportedConstructFailsWithFileLinkIdAndReason() throws {
        let lines = try StudyFixtures.withRecoverCopy { folder in
            try StudyFixtures.edit("surveys/phq9.json", in: folder, replacing: #""linkId": "phq9-3","#,
                                   with: #""linkId": "phq9-3", "readOnly": true,"#)
            return problems(in: folder)
        }
        #expect(lines == ["surveys/phq9.json: item[0].item[2].readOnly: linkId 'phq9-3': read-only choice item left out: Research has no read-only questions"])
    }

    @Test func externalValueSetsResolveFromTheStudyFolderOnly() throws {
        let questionnaire = #"""
        {"resourceType": "Questionnaire", "id": "yesno", "item": [
          {"linkId": "q", "text": "Any swelling?", "type": "choice", "answerValueSet": "http://example.org/ValueSet/yes-no"}]}
        """#
        let valueSet = #"{"resourceType": "ValueSet", "url": "http://example.org/ValueSet/yes-no", "expansion": {"contains": [{"code": "y", "display": "Yes"}, {"code": "n", "display": "No"}]}}"#
        let missing = try StudyFixtures.withRecoverCopy { folder in
            try questionnaire.write(to: folder.appendingPathComponent("surveys/yesno.json"), atomically: true, encoding: .utf8)
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "survey: surveys/check-in.json", with: "survey: surveys/yesno.json")
            return problems(in: folder)
        }
        #expect(missing.count == 2, "\(missing)")
        #expect(missing.last == "surveys/yesno.json: item: no item could be imported")
        #expect(missing.first?.hasPrefix("surveys/yesno.json: item[0].answerValueSet: linkId 'q': answerValueSet http://example.org/ValueSet/yes-no is neither contained") == true)

        let survey = try StudyFixtures.withRecoverCopy { folder in
            try questionnaire.write(to: folder.appendingPathComponent("surveys/yesno.json"), atomically: true, encoding: .utf8)
            try valueSet.write(to: folder.appendingPathComponent("yes-no.json"), atomically: true, encoding: .utf8)
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "survey: surveys/check-in.json", with: "survey: surveys/yesno.json")
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "tasks:\n", with: "valueSets: [yes-no.json]\ntasks:\n")
            return try StudyLoader.load(folder: folder, surveyFormats: [FHIRSurveyFormat()]).survey(taskID: "checkIn")
        }
        guard case .textChoice(let format)? = survey?.steps.first?.questions.first?.format else {
            Issue.record("the yes/no question did not import: \(String(describing: survey))")
            return
        }
        #expect(format.choices.map(\.text) == ["Yes", "No"])
    }

    @Test func aCalculatedItemOutsideAQuestionnaireIsRefused() throws {
        let task = #"""
        {"identifier": "sum", "steps": [{"type": "form", "identifier": "f", "items": [
          {"identifier": "t", "text": "Total", "answerFormat": {"type": "numeric", "style": "integer"},
           "calculation": {"language": "text/fhirpath", "expression": "1 + 1"}}]}]}
        """#
        let lines = try StudyFixtures.withRecoverCopy { folder in
            try task.write(to: folder.appendingPathComponent("surveys/check-in.json"), atomically: true, encoding: .utf8)
            return problems(in: folder)
        }
        #expect(lines == ["surveys/check-in.json: steps[0].items[0].calculation: calculated items are evaluated in FHIR Questionnaire surveys only; list the Questionnaire itself as the survey"])
    }
}
