import Foundation

/// Builds a ``FHIRPathSyntax`` tree from FHIRPath text by recursive descent, one function per level of the
/// specification's operator precedence (lowest first: `implies`; `or`/`xor`; `and`; `in`/`contains`;
/// equality; comparison; `|`; `is`/`as`; `+ - &`; `* / div mod`; unary `+ -`; `.` and `[]`).
struct FHIRPathParser {
    private let tokens: [FHIRPathLexer.Token]
    private var position = 0
    /// How deep the syntax tree is at this point: nested parentheses, arguments, indexers and unary signs, and
    /// the operators and path steps in a row (each makes the left-leaning tree one level deeper).
    private var depth = 0
    /// A deeper tree is refused, so hostile input cannot exhaust the stack when it is parsed or evaluated.
    private static let maximumDepth = 200

    /// Counts one more level; an error past ``maximumDepth``.
    private mutating func descend(at offset: Int) throws(FHIRPathError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw FHIRPathError(.syntax, "the expression is nested more than \(Self.maximumDepth) levels deep", at: offset)
        }
    }

    /// Parses the whole of `text` as one expression.
    static func parse(_ text: String) throws(FHIRPathError) -> FHIRPathSyntax {
        var lexer = FHIRPathLexer(text)
        var parser = FHIRPathParser(tokens: try lexer.tokenize())
        guard parser.current.kind != .end else { throw FHIRPathError(.syntax, "the expression is empty", at: 0) }
        let syntax = try parser.parseExpression()
        guard parser.current.kind == .end else {
            throw FHIRPathError(.syntax, "unexpected \(parser.describe(parser.current)) after a complete expression", at: parser.current.offset)
        }
        return syntax
    }

    private init(tokens: [FHIRPathLexer.Token]) {
        self.tokens = tokens
    }

    private var current: FHIRPathLexer.Token { tokens[position] }

    private mutating func parseExpression() throws(FHIRPathError) -> FHIRPathSyntax {
        try descend(at: current.offset)
        defer { depth -= 1 }
        return try parseBinary(level: 0)
    }

    /// The binary operators of each precedence level, lowest first.
    private static let levels: [[FHIRPathSyntax.BinaryOperator]] = [
        [.implies], [.or, .xor], [.and], [.in, .contains], [.equal, .notEqual, .equivalent, .notEquivalent],
        [.less, .lessOrEqual, .greater, .greaterOrEqual], [.union],
    ]
    private static let additive: [FHIRPathSyntax.BinaryOperator] = [.add, .subtract, .concatenate]
    private static let multiplicative: [FHIRPathSyntax.BinaryOperator] = [.multiply, .divide, .integerDivide, .modulo]

    /// Left-associative binary operators from `level` down to `|`, then `is`/`as`, additive and multiplicative.
    private mutating func parseBinary(level: Int) throws(FHIRPathError) -> FHIRPathSyntax {
        guard level < Self.levels.count else { return try parseTypeExpression() }
        var left = try parseBinary(level: level + 1)
        let startDepth = depth
        defer { depth = startDepth }
        while let op = binaryOperator(in: Self.levels[level]) {
            let operatorOffset = current.offset
            try descend(at: operatorOffset)
            position += 1
            let right = try parseOperand(after: op, level: level + 1)
            left = .binary(op, left: left, right: right, offset: operatorOffset)
        }
        return left
    }

    private mutating func parseOperand(after op: FHIRPathSyntax.BinaryOperator, level: Int) throws(FHIRPathError) -> FHIRPathSyntax {
        guard current.kind != .end else {
            throw FHIRPathError(.syntax, "expected an expression after '\(op.rawValue)'", at: current.offset)
        }
        return try parseBinary(level: level)
    }

    private mutating func parseTypeExpression() throws(FHIRPathError) -> FHIRPathSyntax {
        var operand = try parseAdditive()
        let startDepth = depth
        defer { depth = startDepth }
        while case .identifier(let word, delimited: false) = current.kind, word == "is" || word == "as" {
            let operatorOffset = current.offset
            try descend(at: operatorOffset)
            position += 1
            let typeName = try parseTypeSpecifier()
            operand = .typeOperator(isCast: word == "as", operand: operand, typeName: typeName, offset: operatorOffset)
        }
        return operand
    }

    private mutating func parseAdditive() throws(FHIRPathError) -> FHIRPathSyntax {
        var left = try parseMultiplicative()
        let startDepth = depth
        defer { depth = startDepth }
        while let op = binaryOperator(in: Self.additive) {
            let operatorOffset = current.offset
            try descend(at: operatorOffset)
            position += 1
            guard current.kind != .end else { throw FHIRPathError(.syntax, "expected an expression after '\(op.rawValue)'", at: current.offset) }
            left = .binary(op, left: left, right: try parseMultiplicative(), offset: operatorOffset)
        }
        return left
    }

    private mutating func parseMultiplicative() throws(FHIRPathError) -> FHIRPathSyntax {
        var left = try parsePolarity()
        let startDepth = depth
        defer { depth = startDepth }
        while let op = binaryOperator(in: Self.multiplicative) {
            let operatorOffset = current.offset
            try descend(at: operatorOffset)
            position += 1
            guard current.kind != .end else { throw FHIRPathError(.syntax, "expected an expression after '\(op.rawValue)'", at: current.offset) }
            left = .binary(op, left: left, right: try parsePolarity(), offset: operatorOffset)
        }
        return left
    }

    private mutating func parsePolarity() throws(FHIRPathError) -> FHIRPathSyntax {
        if case .symbol(let sign) = current.kind, sign == "-" || sign == "+" {
            let offset = current.offset
            position += 1
            try descend(at: offset)
            defer { depth -= 1 }
            return .polarity(negate: sign == "-", operand: try parsePolarity(), offset: offset)
        }
        return try parsePostfix()
    }

    /// A term followed by any number of `.member`, `.function(...)` and `[index]`.
    private mutating func parsePostfix() throws(FHIRPathError) -> FHIRPathSyntax {
        var expression = try parseTerm()
        let startDepth = depth
        defer { depth = startDepth }
        while true {
            if current.kind == .symbol(".") || current.kind == .symbol("[") { try descend(at: current.offset) }
            if current.kind == .symbol(".") {
                position += 1
                expression = try parseInvocation(base: expression)
            } else if current.kind == .symbol("[") {
                let offset = current.offset
                position += 1
                let index = try parseExpression()
                try expect("]", context: "to close the indexer")
                expression = .indexer(base: expression, index: index, offset: offset)
            } else {
                return expression
            }
        }
    }

    private mutating func parseTerm() throws(FHIRPathError) -> FHIRPathSyntax {
        let token = current
        switch token.kind {
        case .number(let text):
            position += 1
            return try parseNumberOrQuantity(text, offset: token.offset)
        case .string(let text):
            position += 1
            return .literal(.string(text), offset: token.offset)
        case .dateTime(let text):
            position += 1
            if let date = FHIRPathTemporal.date(text) { return .literal(.date(date), offset: token.offset) }
            if text.contains("T"), let dateTime = FHIRPathTemporal.dateTime(text) { return .literal(.dateTime(dateTime), offset: token.offset) }
            throw FHIRPathError(.syntax, "'@\(text)' is not a valid date or date-time", at: token.offset)
        case .time(let text):
            position += 1
            guard let time = FHIRPathTemporal.time(text) else {
                throw FHIRPathError(.syntax, "'@T\(text)' is not a valid time", at: token.offset)
            }
            return .literal(.time(time), offset: token.offset)
        case .variable(let name):
            position += 1
            return .variable(name, offset: token.offset)
        case .specialVariable(let name):
            position += 1
            return .specialVariable(name, offset: token.offset)
        case .symbol("("):
            position += 1
            let inner = try parseExpression()
            try expect(")", context: "to close the parenthesis opened at offset \(token.offset)")
            return inner
        case .symbol("{"):
            position += 1
            try expect("}", context: "after '{' (only the empty collection {} can be written)")
            return .emptyCollection(offset: token.offset)
        case .identifier(let name, let delimited):
            if !delimited, name == "true" || name == "false" {
                position += 1
                return .literal(.boolean(name == "true"), offset: token.offset)
            }
            return try parseInvocation(base: nil)
        case .end:
            throw FHIRPathError(.syntax, "unexpected end of the expression, expected a term", at: token.offset)
        case .symbol:
            throw FHIRPathError(.syntax, "unexpected \(describe(token)), expected a term", at: token.offset)
        }
    }

    /// A member name or a function call, on `base` (after a `.`) or on the focus.
    private mutating func parseInvocation(base: FHIRPathSyntax?) throws(FHIRPathError) -> FHIRPathSyntax {
        let token = current
        if base != nil, case .specialVariable = token.kind {
            throw FHIRPathError(.syntax, "expected a name after '.', found \(describe(token))", at: token.offset)
        }
        guard case .identifier(let name, _) = token.kind else {
            throw FHIRPathError(.syntax, "expected a name after '.', found \(describe(token))", at: token.offset)
        }
        position += 1
        guard current.kind == .symbol("(") else { return .member(base: base, name: name, offset: token.offset) }
        position += 1
        var arguments: [FHIRPathSyntax] = []
        if current.kind != .symbol(")") {
            while true {
                arguments.append(try parseExpression())
                if current.kind == .symbol(",") {
                    position += 1
                    continue
                }
                break
            }
        }
        try expect(")", context: "to close the arguments of \(name)()")
        return .function(base: base, name: name, arguments: arguments, offset: token.offset)
    }

    /// An integer, a decimal, or a quantity (a number followed by a unit string or a calendar word).
    private mutating func parseNumberOrQuantity(_ text: String, offset: Int) throws(FHIRPathError) -> FHIRPathSyntax {
        let number: FHIRPathValue
        if text.contains(".") {
            guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw FHIRPathError(.syntax, "'\(text)' is not a valid decimal", at: offset)
            }
            number = .decimal(value)
        } else {
            guard let value = Int(text) else { throw FHIRPathError(.syntax, "integer \(text) is too large", at: offset) }
            number = .integer(value)
        }
        let unit: String?
        switch current.kind {
        case .string(let text): unit = text
        case .identifier(let word, delimited: false) where FHIRPathQuantity.calendarWords.contains(word): unit = word
        default: unit = nil
        }
        guard let unit else { return .literal(number, offset: offset) }
        position += 1
        let value: Decimal = switch number {
        case .integer(let integer): Decimal(integer)
        case .decimal(let decimal): decimal
        default: 0
        }
        return .literal(.quantity(FHIRPathQuantity(value: value, unit: unit)), offset: offset)
    }

    /// `Name` or `Namespace.Name` after `is`, `as`, or inside `ofType()`.
    private mutating func parseTypeSpecifier() throws(FHIRPathError) -> String {
        guard case .identifier(var name, _) = current.kind else {
            throw FHIRPathError(.syntax, "expected a type name, found \(describe(current))", at: current.offset)
        }
        position += 1
        while current.kind == .symbol("."), case .identifier(let part, _) = tokens[position + 1].kind {
            name += "." + part
            position += 2
        }
        return name
    }

    private func binaryOperator(in operators: [FHIRPathSyntax.BinaryOperator]) -> FHIRPathSyntax.BinaryOperator? {
        let text: String
        switch current.kind {
        case .symbol(let symbol): text = symbol
        case .identifier(let word, delimited: false): text = word
        default: return nil
        }
        return operators.first { $0.rawValue == text }
    }

    private mutating func expect(_ symbol: String, context: String) throws(FHIRPathError) {
        guard current.kind == .symbol(symbol) else {
            throw FHIRPathError(.syntax, "expected '\(symbol)' \(context), found \(describe(current))", at: current.offset)
        }
        position += 1
    }

    private func describe(_ token: FHIRPathLexer.Token) -> String {
        switch token.kind {
        case .identifier(let name, _): "'\(name)'"
        case .variable(let name): "'%\(name)'"
        case .specialVariable(let name): "'$\(name)'"
        case .number(let text): "number \(text)"
        case .string(let text): "string '\(text)'"
        case .dateTime(let text): "'@\(text)'"
        case .time(let text): "'@T\(text)'"
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "the end of the expression"
        }
    }
}
