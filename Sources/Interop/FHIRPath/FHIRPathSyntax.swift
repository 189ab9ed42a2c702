/// A parsed FHIRPath expression: the tree ``FHIRPathParser`` builds and ``FHIRPathEvaluator`` walks.
/// Every node keeps the `Character` offset where it starts in the text, for error messages.
indirect enum FHIRPathSyntax: Sendable {
    /// A binary operator, in the order of the specification's precedence table (highest first).
    enum BinaryOperator: String, Sendable {
        case multiply = "*", divide = "/", integerDivide = "div", modulo = "mod"
        case add = "+", subtract = "-", concatenate = "&"
        case union = "|"
        case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case equal = "=", notEqual = "!=", equivalent = "~", notEquivalent = "!~"
        case `in` = "in", contains = "contains"
        case and = "and"
        case or = "or", xor = "xor"
        case implies = "implies"
    }

    /// A literal value (`1`, `'a'`, `true`, `@2020-01-01`, `5 'mg'`).
    case literal(FHIRPathValue, offset: Int)
    /// `{}`.
    case emptyCollection(offset: Int)
    /// `%name`.
    case variable(String, offset: Int)
    /// `$this`, `$index` or `$total`.
    case specialVariable(String, offset: Int)
    /// A member name: on `base`, or (base nil) on the current focus.
    case member(base: FHIRPathSyntax?, name: String, offset: Int)
    /// A function call: on `base`, or (base nil) on the current focus.
    case function(base: FHIRPathSyntax?, name: String, arguments: [FHIRPathSyntax], offset: Int)
    /// `base[index]`.
    case indexer(base: FHIRPathSyntax, index: FHIRPathSyntax, offset: Int)
    /// Unary `-` (negate true) or `+`.
    case polarity(negate: Bool, operand: FHIRPathSyntax, offset: Int)
    /// `left op right`.
    case binary(FHIRPathSyntax.BinaryOperator, left: FHIRPathSyntax, right: FHIRPathSyntax, offset: Int)
    /// `operand is Type` (isCast false) or `operand as Type` (isCast true).
    case typeOperator(isCast: Bool, operand: FHIRPathSyntax, typeName: String, offset: Int)

    /// Where this part is in the expression text: where it starts, or for operators where the operator is.
    var offset: Int {
        switch self {
        case .literal(_, let offset), .emptyCollection(let offset), .variable(_, let offset),
            .specialVariable(_, let offset), .member(_, _, let offset), .function(_, _, _, let offset),
            .indexer(_, _, let offset), .polarity(_, _, let offset), .binary(_, _, _, let offset),
            .typeOperator(_, _, _, let offset):
            offset
        }
    }
}
