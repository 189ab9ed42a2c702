/// What can be known about an expression before it runs: the functions it calls, the variables it reads and the
/// items it names, checked when a study loads so that no participant meets an expression that cannot work.
extension FHIRPathExpression {
    /// Every function this evaluator implements, by name (``FHIRPathExpression`` lists them with their meaning).
    public static let functionNames: Set<String> = [
        "empty", "exists", "all", "allTrue", "anyTrue", "allFalse", "anyFalse", "count", "distinct", "isDistinct",
        "where", "select", "repeat", "ofType", "first", "last", "tail", "skip", "take", "single", "intersect",
        "subsetOf", "supersetOf", "exclude", "union", "combine", "iif", "not", "is", "as", "type",
        "toInteger", "toDecimal", "toString", "toBoolean", "toQuantity", "toDate", "toDateTime", "toTime",
        "convertsToInteger", "convertsToDecimal", "convertsToString", "convertsToBoolean", "convertsToQuantity",
        "convertsToDate", "convertsToDateTime", "convertsToTime",
        "length", "upper", "lower", "trim", "toChars", "contains", "startsWith", "endsWith", "matches", "indexOf",
        "substring", "replace", "encode", "decode", "escape", "unescape", "split", "join", "replaceMatches",
        "abs", "ceiling", "floor", "truncate", "round", "sqrt", "exp", "ln", "log", "power",
        "sum", "min", "max", "avg", "aggregate", "children", "descendants", "trace", "now", "today", "timeOfDay",
        "extension", "answers", "ordinal", "weight",
    ]

    /// The variables every evaluation defines.
    static let builtInVariables: Set<String> = ["resource", "rootResource", "context", "ucum", "sct", "loinc"]

    /// Why the expression cannot work where it is used, each with its offset: a function this evaluator does not
    /// implement, a `%variable` that is neither built in nor in `variables`, or a comparison `linkId = 'x'` whose
    /// `x` is not in `linkIds`. Empty when nothing is wrong.
    ///
    /// - Parameters:
    ///   - variables: The names (without `%`) the expression may read besides the built-in ones (`%resource`,
    ///     `%context`, `%ucum`…, `%vs-…`, `%ext-…`): the Questionnaire's own variables, `questionnaire`, `qitem`.
    ///   - linkIds: The linkIds of the Questionnaire's items.
    public func problems(variables: Set<String>, linkIds: Set<String>) -> [FHIRPathError] {
        var problems: [FHIRPathError] = []
        func walk(_ syntax: FHIRPathSyntax?) {
            guard let syntax else { return }
            switch syntax {
            case .literal, .emptyCollection, .specialVariable:
                break
            case .variable(let name, let offset):
                if !Self.builtInVariables.contains(name), !variables.contains(name), !name.hasPrefix("vs-"), !name.hasPrefix("ext-") {
                    problems.append(FHIRPathError(.undefinedVariable, "%\(name) is not defined here", at: offset))
                }
            case .member(let base, _, _):
                walk(base)
            case .function(let base, let name, let arguments, let offset):
                if !Self.functionNames.contains(name) {
                    problems.append(FHIRPathError(.unsupportedFunction, "the function \(name)() is not supported by this FHIRPath subset", at: offset))
                }
                walk(base)
                // The argument of ofType, is and as is a type name, not a path.
                if !["ofType", "is", "as"].contains(name) { arguments.forEach(walk) }
            case .indexer(let base, let index, _):
                walk(base)
                walk(index)
            case .polarity(_, let operand, _), .typeOperator(_, let operand, _, _):
                walk(operand)
            case .binary(let op, let left, let right, let offset):
                if op == .equal || op == .notEqual || op == .equivalent, let named = Self.namedLinkId(left, right) ?? Self.namedLinkId(right, left),
                   !linkIds.contains(named) {
                    problems.append(FHIRPathError(.evaluation, "no item of the Questionnaire has the linkId '\(named)'", at: offset))
                }
                walk(left)
                walk(right)
            }
        }
        walk(syntax)
        return problems
    }

    /// The string in `linkId = 'x'` when `member` is a `linkId` element and `literal` a string.
    private static func namedLinkId(_ member: FHIRPathSyntax, _ literal: FHIRPathSyntax) -> String? {
        guard case .member(_, "linkId", _) = member, case .literal(.string(let text), _) = literal else { return nil }
        return text
    }
}
