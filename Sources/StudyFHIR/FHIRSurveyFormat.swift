import Foundation
import Interop
import Research
import Study

/// FHIR R4 Questionnaires as a study's surveys: what `StudyLoader` reads through this format, with the study's
/// ValueSets for `answerValueSet`. A Questionnaire must come over whole: every construct the importer cannot carry is
/// a problem naming the item's linkId and path, and every calculated expression must parse, so that no score fails on
/// a participant's phone. Extensions the importer only notes (accepted without effect, or ordinary extensions it does
/// not know; see `FHIRExtensionPolicy`) do not keep it out.
///
/// ```swift
/// let study = try StudyLoader.load(folder: folder, surveyFormats: [FHIRSurveyFormat()])
/// let calculator = try study.makeCalculator()
/// ```
public struct FHIRSurveyFormat: StudySurveyFormat {
    /// The format's name in problems.
    public let name = "Questionnaire"

    /// Creates the format.
    public init() {}

    /// Whether `data` is a JSON object whose `resourceType` is `Questionnaire`.
    public func recognizes(_ data: Data) -> Bool {
        FHIRQuestionnaireImporter.isQuestionnaire(data)
    }

    /// The Questionnaire as a survey with the importer's notes, or every refusal that keeps it out.
    public func importSurvey(_ data: Data, taskIdentifier: String, valueSets: [String: Data])
        -> (task: ResearchTask?, problems: [(path: String, message: String)], notes: [(path: String, message: String)]) {
        func problem(_ issue: FHIRImportIssue) -> (path: String, message: String) {
            (issue.path, issue.linkId.map { "linkId '\($0)': \(issue.message)" } ?? issue.message)
        }
        let imported: FHIRQuestionnaireImport
        do {
            imported = try FHIRQuestionnaireImporter(valueSets: valueSets).importQuestionnaire(data, taskIdentifier: taskIdentifier)
        } catch {
            return (nil, error.issues.map(problem), [])
        }
        let refusals = imported.refusals
        guard refusals.isEmpty else { return (nil, refusals.map(problem), []) }
        do {
            _ = try FHIRPathTaskCalculator(questionnairesByTask: [taskIdentifier: data], valueSets: valueSets)
        } catch {
            return (nil, error.issues.map(problem), [])
        }
        return (imported.task, [], imported.notes.map(problem))
    }
}
