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

    /// A Questionnaire without an `id`, with an optional `url`.
    static func form(_ question: String, url: String? = nil) -> String {
        let reference = url.map { #""url": "\#($0)", "#} ?? ""
        return #"{"resourceType": "Questionnaire", \#(reference)"status": "active", "item": [{"linkId": "q", "text": "\#(question)", "type": "string"}]}"#
    }

    /// Writes the two forms as the check-in survey and a new `sleep` task's survey.
    static func writeTwoForms(_ first: String, _ second: String, in folder: URL) throws {
        try first.write(to: folder.appendingPathComponent("surveys/check-in.json"), atomically: true, encoding: .utf8)
        try second.write(to: folder.appendingPathComponent("surveys/sleep.json"), atomically: true, encoding: .utf8)
        try StudyFixtures.edit("study.yaml", in: folder, replacing: "  - id: mood\n", with: """
              - id: sleep
                title: Sleep
                survey: surveys/sleep.json
                impactsAdherence: false
                schedule:
                  - once: {day: 14, at: "10:00"}
                    duration: allDay

              - id: mood

            """)
    }

    @Test func formsWithoutAnIdAreKnownByTheirFilesAndASharedURLIsRefusedNamingBoth() throws {
        let study = try StudyFixtures.withRecoverCopy { folder in
            try Self.writeTwoForms(Self.form("How are you?"), Self.form("How did you sleep?"), in: folder)
            return try StudyLoader.load(folder: folder, surveyFormats: [FHIRSurveyFormat()])
        }
        #expect(study.survey(taskID: "checkIn")?.identifier == "check-in")
        #expect(study.survey(taskID: "sleep")?.identifier == "sleep")
        #expect(Set(study.questionnaires.keys).isSuperset(of: ["check-in", "sleep"]))
        // The calculator finds each by the task identifier the study gave it.
        _ = try #require(try study.makeCalculator())

        let lines = try StudyFixtures.withRecoverCopy { folder in
            try Self.writeTwoForms(Self.form("How are you?", url: "http://example.org/Questionnaire/daily"),
                                   Self.form("How did you sleep?", url: "http://example.org/Questionnaire/daily"), in: folder)
            return problems(in: folder)
        }
        #expect(lines == ["surveys/sleep.json: url: Questionnaire http://example.org/Questionnaire/daily is also in surveys/check-in.json; each survey must be listed once"])
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
