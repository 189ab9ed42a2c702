/// A FHIRPath expression, parsed once and evaluated on any number of resources.
///
/// ```swift
/// let score = try FHIRPathExpression("%resource.answers().value.ordinal().sum()")
/// let result = try score.evaluate(on: response, environment: ["questionnaire": [.resource(questionnaire)]])
/// // [.decimal(10)]
/// ```
///
/// ## The subset
///
/// - Navigation by element name, with FHIR choice elements (`value` finds `valueCoding`, `valueQuantity`…),
///   a leading resource type (`QuestionnaireResponse.item`), `[index]`, `$this`, `$index`, `$total`, and the
///   variables `%resource`, `%rootResource`, `%context`, `%questionnaire`, `%ucum`, `%sct`, `%loinc` and any
///   user variable of the environment.
/// - Literals: `{}`, Booleans, Integers, Decimals, strings with escapes, `@` dates, date-times and times, and
///   quantities (`5 'mg'`, `3 days`).
/// - Operators, by the specification's precedence: `*` `/` `div` `mod`; `+` `-` `&`; `is` `as`; `|`;
///   `<` `<=` `>` `>=`; `=` `!=` `~` `!~`; `in` `contains`; `and`; `or` `xor`; `implies`. Empty operands give an
///   empty result (except `&`, and the three-valued `and`, `or`, `implies`); an operand of more than one item is
///   an error; Integer division, `div` and `mod` by zero are empty; Integer with Decimal gives Decimal, computed
///   in `Decimal`; dates compare at their precision (an empty result when it decides nothing).
/// - Functions: `empty`, `exists`, `all`, `allTrue`, `anyTrue`, `allFalse`, `anyFalse`, `count`, `distinct`,
///   `isDistinct`, `where`, `select`, `repeat`, `ofType`, `first`, `last`, `tail`, `skip`, `take`, `single`,
///   `intersect`, `exclude`, `union`, `combine`, `iif`, `not`, `is`, `as`, `toInteger`, `toDecimal`,
///   `toString`, `toBoolean`, `length`, `upper`, `lower`, `trim`, `toChars`, `contains`, `startsWith`,
///   `endsWith`, `matches`, `indexOf`, `substring`, `replace`, `abs`, `ceiling`, `floor`, `truncate`, `round`,
///   `sum`, `min`, `max`, `avg`, `aggregate`, `children`, `descendants`, `trace`, and SDC's `answers()` and
///   `ordinal()` (also as `weight()`). `sum()` of nothing is 0, as SDC defines it (`aggregate($this + $total, 0)`).
///
/// `answers()` returns every `answer` of the QuestionnaireResponse items below its input, in document order.
/// `ordinal()` gives, for each Coding, the `ordinalValue` (or `itemWeight`) extension on the Coding itself, else
/// on the matching `answerOption` or contained `answerValueSet` concept of its item in `%questionnaire`, else on
/// the concept of a CodeSystem contained there; nothing for other types (Integers and Quantities included, as
/// SDC says) or when no score is defined; an error when `%questionnaire`, the item, or a contained value set it
/// names is missing.
///
/// Any other function makes evaluation throw a ``FHIRPathError`` of kind
/// ``FHIRPathError/Kind/unsupportedFunction`` naming it. Without the FHIR model, element types are known from
/// choice suffixes, resource types and a few common elements (see ``FHIRPathNode/fhirType``); strings of unknown
/// type are read as dates when compared with dates. Primitive extensions (`_name` members) are not navigated.
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
