import Interop
import Study

extension StudyDefinition {
    /// The calculator of the study's calculated items (the scores of its FHIR Questionnaires), given to the
    /// `TaskSession` of each run; nil when no survey is a Questionnaire. The loader has already parsed
    /// every expression, so this throws only for a definition built by hand with a broken Questionnaire.
    public func makeCalculator() throws(FHIRImportError) -> FHIRPathTaskCalculator? {
        guard !questionnaires.isEmpty else { return nil }
        return try FHIRPathTaskCalculator(questionnairesByTask: questionnaires, valueSets: valueSets)
    }
}
