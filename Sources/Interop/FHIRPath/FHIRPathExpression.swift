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
/// HL7's R4 test suite (`tests-fhir-r4.xml`) runs in the tests: 690 of its 711 cases pass, and each of the others is
/// listed with its reason in `Tests/InteropTests/FHIRPathSuiteExclusions.txt` (strict-mode and profile checks, and
/// cases where the suite disagrees with the specification).
///
/// - Navigation by element name, with FHIR choice elements (`value` finds `valueCoding`, `valueQuantity`…),
///   a leading resource type (`QuestionnaireResponse.item`), `[index]`, `$this`, `$index`, `$total`, the
///   variables `%resource`, `%rootResource`, `%context`, `%questionnaire`, `%ucum`, `%sct`, `%loinc`,
///   `%vs-name` and `%ext-name`, and any user variable of the environment. A primitive's `id` and `extension`
///   are read from its `_name` member (`birthDate.extension(url)`).
/// - Element types from the R4 definitions of the resources questionnaires meet (Questionnaire,
///   QuestionnaireResponse, Patient, Observation, ValueSet) and their data types, so `birthDate` is a date and
///   `gender` a code (see `FHIRElementTypes`); other elements are typed by their choice suffix where they have one.
/// - Literals: `{}`, Booleans, Integers, Decimals, strings with escapes, `@` dates, date-times and times, and
///   quantities (`5 'mg'`, `3 days`).
/// - Operators, by the specification's precedence: `*` `/` `div` `mod`; `+` `-` `&`; `is` `as`; `|`;
///   `<` `<=` `>` `>=`; `=` `!=` `~` `!~`; `in` `contains`; `and`; `or` `xor`; `implies`. Empty operands give an
///   empty result (except `&`, and the three-valued `and`, `or`, `implies`); an operand of more than one item is
///   an error; Integer division, `div` and `mod` by zero are empty; Integer with Decimal gives Decimal, computed
///   in `Decimal`; dates compare at their precision (an empty result when it decides nothing); a date or time
///   plus or minus a time quantity moves it (`today() - 18 years`); quantities in different UCUM units compare,
///   add, multiply and divide after conversion (`4 'g' = 4000 'mg'`, see `FHIRPathUnit`).
/// - Functions: `empty`, `exists`, `all`, `allTrue`, `anyTrue`, `allFalse`, `anyFalse`, `count`, `distinct`,
///   `isDistinct`, `subsetOf`, `supersetOf`, `where`, `select`, `repeat`, `ofType`, `first`, `last`, `tail`,
///   `skip`, `take`, `single`, `intersect`, `exclude`, `union`, `combine`, `iif`, `not`, `is`, `as`, `type`,
///   `toInteger`, `toDecimal`, `toString`, `toBoolean`, `toQuantity`, `toDate`, `toDateTime`, `toTime` and each
///   `convertsTo…`, `length`, `upper`, `lower`, `trim`, `toChars`, `contains`, `startsWith`, `endsWith`,
///   `matches`, `replaceMatches`, `indexOf`, `substring`, `replace`, `split`, `join`, `encode`, `decode`,
///   `escape`, `unescape`, `abs`, `ceiling`, `floor`, `truncate`, `round`, `sqrt`, `exp`, `ln`, `log`, `power`,
///   `sum`, `min`, `max`, `avg`, `aggregate`, `children`, `descendants`, `extension`, `trace`, `now`, `today`,
///   `timeOfDay` (given the moment of evaluation: ``FHIRPathInstant``), and SDC's `answers()` and `ordinal()`
///   (also as `weight()`). `sum()` of nothing is 0, as SDC defines it (`aggregate($this + $total, 0)`).
///
/// `answers()` returns every `answer` of the QuestionnaireResponse items below its input, in document order.
/// `ordinal()` gives, for each Coding, the `ordinalValue` (or `itemWeight`) extension on the Coding itself, else
/// on the matching `answerOption` or contained `answerValueSet` concept of its item in `%questionnaire`, else on
/// the concept of a CodeSystem contained there; nothing for other types (Integers and Quantities included, as
/// SDC says) or when no score is defined; an error when `%questionnaire`, the item, or a contained value set it
/// names is missing.
///
/// Any other function (`resolve()`, `memberOf()`, `conformsTo()`, which need other resources or a terminology
/// server) makes evaluation throw a ``FHIRPathError`` of kind ``FHIRPathError/Kind/unsupportedFunction`` naming it.
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
    ///   - now: The moment of evaluation and the time zone `now()`, `today()` and `timeOfDay()` give it in; the
    ///     same for the whole expression. Without it those functions are an error.
    /// - Returns: The result collection, in order.
    /// - Throws: ``FHIRPathError`` when an operator meets more than one item, types do not fit, a variable is
    ///   undefined, a function is not supported, or `ordinal()` cannot resolve what it needs.
    public func evaluate(on resource: FHIRJSON, environment: [String: FHIRPathCollection] = [:], now: FHIRPathInstant? = nil)
        throws(FHIRPathError) -> FHIRPathCollection
    {
        let evaluator = FHIRPathEvaluator(resource: resource, environment: environment, now: now)
        return try evaluator.evaluate(syntax)
    }

    /// The expression text.
    public var description: String { text }
}
