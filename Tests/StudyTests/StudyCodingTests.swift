import Foundation
import Study
import StudyFHIR
import Testing

/// Codes on tasks and outcome entries: read and checked by the loader (LOINC check digits included), and found for
/// the values they code.
@Suite struct StudyCodingTests {
    @Test func loincCheckDigits() {
        #expect(StudyCoding.isValidLOINC("72514-3"))
        #expect(StudyCoding.isValidLOINC("59284-0"))
        #expect(StudyCoding.isValidLOINC("57016-8"))
        #expect(StudyCoding.isValidLOINC("8867-4"))
        #expect(!StudyCoding.isValidLOINC("72514-4"))
        #expect(!StudyCoding.isValidLOINC("72514"))
        #expect(!StudyCoding.isValidLOINC("12345678-9"))
        #expect(!StudyCoding.isValidLOINC("7a514-3"))
        #expect(StudyCoding.loincCheckDigit(of: "72514") == 3)
    }

    @Test func recoversPainCheckIsCodedWithLOINC() throws {
        let study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let pain = try #require(study.task(id: "pain"))
        let expected = StudyCoding(system: "http://loinc.org", code: "72514-3",
                                   display: "Pain severity - 0-10 verbal numeric rating [Score] - Reported")
        #expect(pain.code == expected)
        #expect(pain.coding(forValueKind: "pain") == expected)
        #expect(pain.coding(forValueKind: "completed") == nil)
        #expect(study.task(id: "exercises")?.coding(forValueKind: "completed") == nil)
        #expect(study.task(id: "weekly")?.coding(forValueKind: "stairs") == nil)
    }

    @Test func codesOnOutcomeEntriesAndOnChecklists() throws {
        let study = try StudyFixtures.withRecoverCopy { folder in
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "- {question: function.stairs, kind: stairs}",
                                   with: "- {question: function.stairs, kind: stairs, code: {system: \"http://snomed.info/sct\", code: \"282097004\"}}")
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "    lateEntry: true\n",
                                   with: "    lateEntry: true\n    code: {system: \"urn:example:tasks\", code: exercises done}\n")
            return try StudyLoader.load(folder: folder, surveyFormats: [FHIRSurveyFormat()])
        }
        let weekly = try #require(study.task(id: "weekly"))
        #expect(weekly.coding(forValueKind: "stairs") == StudyCoding(system: "http://snomed.info/sct", code: "282097004"))
        #expect(weekly.coding(forValueKind: "walkingMinutes") == nil)
        #expect(study.task(id: "exercises")?.coding(forValueKind: "completed") == StudyCoding(system: "urn:example:tasks", code: "exercises done"))
    }

    @Test func badCodesAreNamedWithTheirPath() throws {
        let lines = try StudyFixtures.withRecoverCopy { folder in
            try StudyFixtures.edit("study.yaml", in: folder, replacing: #"code: "72514-3""#, with: #"code: "72514-4""#)
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "- {question: function.stairs, kind: stairs}",
                                   with: "- {question: function.stairs, kind: stairs, code: {system: loinc, code: \"8867-4\", dispaly: Heart rate}}")
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "- {question: function.walking, kind: walkingMinutes, units: min}",
                                   with: "- {question: function.walking, kind: walkingMinutes, units: min, code: {system: \"https://loinc.org\", code: \"55411-3\"}}\n    code: {system: \"http://loinc.org\", code: \"8867-4\"}")
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "survey: surveys/check-in.json\n    impactsAdherence: false\n",
                                   with: "survey: surveys/check-in.json\n    impactsAdherence: false\n    code: {system: \"urn:example\", code: \"two  spaces\"}\n")
            do {
                _ = try StudyLoader.load(folder: folder, surveyFormats: [FHIRSurveyFormat()])
                return [String]()
            } catch let failure as StudyValidationFailure {
                return failure.problems.map(\.description)
            }
        }
        let expected = [
            "study.yaml: tasks[1].code.code: '72514-4' is not a LOINC code (1 to 7 digits, a hyphen and a check digit); with these digits the check digit is 3 (72514-3)",
            "study.yaml: tasks[2].outcome[0].code.dispaly: unknown key 'dispaly'; did you mean 'display'? (known keys: system, code, display)",
            "study.yaml: tasks[2].outcome[0].code.system: 'loinc' is not a code system URI such as http://loinc.org; LOINC's is 'http://loinc.org'",
            "study.yaml: tasks[2].outcome[1].code.system: 'https://loinc.org' is not LOINC's URI; did you mean 'http://loinc.org'?",
            "study.yaml: tasks[2].code: this task records 2 outcome values (stairs, walkingMinutes); put a code on each outcome entry instead",
            "study.yaml: tasks[3].code.code: 'two  spaces' must not be empty, start or end with a space, or hold two spaces or other white space",
        ]
        for line in expected { #expect(lines.contains(line), "missing: \(line)\nall:\n\(lines.joined(separator: "\n"))") }
        #expect(lines.count == expected.count, "\(lines.joined(separator: "\n"))")
    }

    @Test func aCodeGivenTwiceIsRefused() throws {
        let lines = try StudyFixtures.withRecoverCopy { folder in
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "- {question: painLevel, kind: pain, units: NRS}",
                                   with: "- {question: painLevel, kind: pain, units: NRS, code: {system: \"http://loinc.org\", code: \"72514-3\"}}")
            do {
                _ = try StudyLoader.load(folder: folder, surveyFormats: [FHIRSurveyFormat()])
                return [String]()
            } catch let failure as StudyValidationFailure {
                return failure.problems.map(\.description)
            }
        }
        #expect(lines == ["study.yaml: tasks[1].code: the task's one outcome entry has its own code; give the code once"])
    }
}
