/// A FHIRPath expression, parsed once and evaluated on any number of resources.
///
/// ```swift
/// let score = try FHIRPathExpression("%resource.answers().value.ordinal().sum()")
/// let result = try score.evaluate(on: response, environment: ["questionnaire": [.resource(questionnaire)]])
/// // [.decimal(10)]
/// ```
///
/// The subset implemented, the SDC functions `answers()` and `ordinal()`, and where it departs from other
/// engines are described in `Sources/Interop/FHIRPath/README.md`. A function outside the subset makes
/// evaluation throw a ``FHIRPathError`` of kind ``FHIRPathError/Kind/unsupportedFunction`` naming it.
public struct FHIRPathExpression: Sendable, CustomStringConvertible {
    /// The expression text as given.
    public let text: String
    let syntax: FHIRPathSyntax

    /// Parses `text`.
    ///
    /// - Throws: ``FHIRPathError`` of kind ``FHIRPathError/Kind/syntax`` saying what is wrong and at which
    ///   `Character` offset (from 0).
    public init(_ text: String) throws(FHIRPathError) {
        self.text = text
        syntax = try FHIRPathParser.parse(text)
    }

    /// Evaluates the expression on `resource`.
    ///
    /// - Parameters:
    ///   - resource: The resource the expression runs on: `%resource` and `%rootResource`, and (unless the
    ///     environment sets `context`) `%context` and the starting focus.
    ///   - environment: Variables by name without the `%`: `questionnaire` (the `%questionnaire` that
    ///     `ordinal()` reads), `context` (the focus, such as the QuestionnaireResponse item an SDC expression is
    ///     evaluated on), `resource` (to override `%resource`) and any user variables. `%ucum`, `%sct` and
    ///     `%loinc` are always defined.
    /// - Returns: The result collection, in order.
    /// - Throws: ``FHIRPathError`` when an operator meets more than one item, types do not fit, a variable is
    ///   undefined, a function is not supported, or `ordinal()` cannot resolve what it needs.
    public func evaluate(on resource: FHIRJSON, environment: [String: FHIRPathCollection] = [:]) throws(FHIRPathError)
        -> FHIRPathCollection
    {
        let evaluator = FHIRPathEvaluator(resource: resource, environment: environment)
        return try evaluator.evaluate(syntax)
    }

    /// The expression text.
    public var description: String { text }
}
