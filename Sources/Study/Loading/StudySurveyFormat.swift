import Foundation
import Research

/// Survey files in a standard other than StudyKit's task JSON, which a study folder may list as surveys: FHIR
/// Questionnaires, through StudyFHIR's `FHIRSurveyFormat`. The loader asks each format it is given whether it
/// recognizes a survey file, and the first that does imports it.
///
/// ```swift
/// let study = try StudyLoader.load(folder: folder, surveyFormats: [FHIRSurveyFormat()])
/// ```
///
/// Keeping formats behind this protocol keeps `Study` free of any one standard's code: an app that needs no FHIR
/// does not carry it.
public protocol StudySurveyFormat: Sendable {
    /// The format's name in problems, such as `FHIR Questionnaire`.
    var name: String { get }
    /// Whether `data` is a survey in this format.
    func recognizes(_ data: Data) -> Bool
    /// The survey in `data`, or the problems that keep it out, each with its path in the file. It must come over
    /// whole: a construct the format cannot carry is a problem, never dropped silently. What it leaves aside without
    /// changing what is asked or how answers are checked comes back as notes, which `studykit validate` shows.
    /// `taskIdentifier` is the task's identifier (the loader gives the file's name to a survey that has no `id` of its
    /// own); `valueSets` are the study's shared answer lists by canonical URL.
    func importSurvey(_ data: Data, taskIdentifier: String, valueSets: [String: Data])
        -> (task: ResearchTask?, problems: [(path: String, message: String)], notes: [(path: String, message: String)])
}
