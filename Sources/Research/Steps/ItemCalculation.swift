import Foundation

/// How a read-only form item computes its value from the answers so far, such as a questionnaire's total
/// score.
///
/// Research keeps the expression as text and does not evaluate it: the ``TaskCalculator`` given to the
/// ``TaskSession`` does, for the languages it knows (the Interop module evaluates `text/fhirpath`,
/// the language of FHIR SDC's `calculatedExpression`). In JSON:
///
/// ```json
/// {"identifier": "total", "text": "Total score",
///  "answerFormat": {"type": "numeric", "style": "decimal"},
///  "calculation": {"language": "text/fhirpath", "expression": "%resource.answers().value.ordinal().sum()"}}
/// ```
public struct ItemCalculation: Hashable, Sendable, Codable {
    /// The expression's language as a media type, such as `text/fhirpath`.
    public var language: String
    /// The expression, in ``language``.
    public var expression: String
    /// What the value means, for people reading the task (FHIR's `Expression.description`); nil for none.
    public var description: String?

    /// Creates a calculation; see the properties for each part.
    public init(language: String, expression: String, description: String? = nil) {
        self.language = language
        self.expression = expression
        self.description = description
    }
}
