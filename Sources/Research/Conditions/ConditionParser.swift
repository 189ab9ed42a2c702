import Foundation

/// A mistake in the text form of a condition, with the column where it was found.
///
/// The column counts characters (grapheme clusters) from 1, so that an editor or a command-line tool
/// can point at the spot: `column 9: expected a value after '>='`.
public struct ConditionSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, in words meant for a study author.
    public var message: String
    /// The 1-based character column of the mistake; one past the last character when the text ends too early.
    public var column: Int

    /// Creates an error with the given message at the given 1-based character column.
    public init(message: String, column: Int) {
        self.message = message
        self.column = column
    }

    /// The column and the message, as in `column 9: expected a value after '>='`.
    public var description: String { "column \(column): \(message)" }
}

extension Condition {
    /// Parses the one-line text form of a condition, such as `pain >= 7 and not answered(meds)`.
    ///
    /// Grammar, loosest binding first:
    ///
    /// ```
    /// condition  := or
    /// or         := and ("or" and)*
    /// and        := not ("and" not)*
    /// not        := "not" not | primary
    /// primary    := "(" or ")" | "true" | "false"
    ///             | "answered" "(" reference ")" | "dontKnow" "(" reference ")"
    ///             | "expression" "(" string "," string ")"
    ///             | reference ("==" | "!=" | "<" | "<=" | ">" | ">=") value
    ///             | reference "in" value "..." value
    ///             | reference "contains" value
    ///             | reference "matches" string
    /// reference  := [identifier ":"] identifier ["." identifier]
    /// value      := number | string | "true" | "false"
    /// ```
    ///
    /// A chain of the same operator becomes one node: `a and b and c` is `.and([a, b, c])`. Parenthesised
    /// groups of the same operator are merged into the enclosing chain too (`a and (b and c)` is also
    /// `.and([a, b, c])`), since grouping does not change their meaning; this keeps one tree, and so one
    /// printed form, per meaning. Parentheses around an `or` inside an `and`, or around an `and`/`or`
    /// after `not`, are kept as the structure of the tree.
    ///
    /// Identifiers are written bare when they match `[A-Za-z_][A-Za-z0-9_-]*` and are not keywords
    /// (`and`, `or`, `not`, `in`, `contains`, `matches`, `true`, `false`, `answered`, `dontKnow`);
    /// any other identifier goes in backticks, with a backtick inside doubled. Numbers are decimals
    /// without exponent, read exactly as ``Decimal``; strings are in double quotes with the escapes
    /// `\"`, `\\`, `\n`, `\t` and `\u{…}`. The pattern after `matches` must be a valid Swift `Regex`.
    ///
    /// - Throws: ``ConditionSyntaxError`` with the column of the first mistake.
    public init(parsing text: String) throws(ConditionSyntaxError) {
        var parser = try ConditionParser(text)
        self = try parser.parseWholeCondition()
    }
}

extension AnswerReference {
    /// Parses the text form of a lone reference: `step`, `step.item`, `task:step` or `task:step.item`,
    /// with identifiers in backticks where they are not plain words (as in conditions).
    ///
    /// JSON uses this form for the `ref` of a condition.
    ///
    /// - Throws: ``ConditionSyntaxError`` with the column of the first mistake.
    public init(parsing text: String) throws(ConditionSyntaxError) {
        var parser = try ConditionParser(text)
        self = try parser.parseWholeReference()
    }
}

/// The words and identifier rule shared by the parser and the printer of conditions.
enum ConditionSyntax {
    /// Words with a meaning in the grammar; as identifiers they must be written in backticks.
    static let keywords: Set<String> = ["and", "or", "not", "in", "contains", "matches", "true", "false", "answered", "dontKnow",
                                        "expression"]

    /// Whether the scalar may start a bare identifier: an ASCII letter or `_`.
    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// Whether the scalar may continue a bare identifier: an ASCII letter or digit, `_` or `-`.
    static func isIdentifierContinuation(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || isDigit(scalar) || scalar == "-"
    }

    /// Whether the scalar is an ASCII digit.
    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    /// Whether the identifier can be written without backticks.
    static func isBareIdentifier(_ identifier: String) -> Bool {
        let scalars = identifier.unicodeScalars
        guard let first = scalars.first, isIdentifierStart(first) else { return false }
        return scalars.dropFirst().allSatisfy(isIdentifierContinuation) && !keywords.contains(identifier)
    }
}

/// One token of the text form, with the column where it starts and its spelling in the text.
struct ConditionToken {
    /// What a token is.
    enum Kind: Equatable {
        /// A bare word: an identifier or a keyword.
        case word(String)
        /// An identifier written in backticks; never a keyword.
        case quotedIdentifier(String)
        case number(Decimal)
        case string(String)
        case symbol(Symbol)
        /// The end of the text.
        case end
    }

    /// The punctuation and operators of the grammar.
    enum Symbol: String {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case openParenthesis = "("
        case closeParenthesis = ")"
        case dot = "."
        case colon = ":"
        case range = "..."
        case comma = ","
    }

    var kind: Kind
    /// The 1-based character column of the token's first character.
    var column: Int
    /// The token as written, for messages.
    var text: String

    /// Whether the token is the bare word `word` (a keyword check; backticked identifiers never are).
    func isWord(_ word: String) -> Bool { kind == .word(word) }

    /// The identifier the token spells, when it is one: a bare non-keyword word or a backticked name.
    var identifier: String? {
        switch kind {
        case .word(let word) where !ConditionSyntax.keywords.contains(word): word
        case .quotedIdentifier(let name): name
        default: nil
        }
    }

    /// Whether the token is a literal value: a number or a string (`true`/`false` are words).
    var isLiteral: Bool {
        switch kind {
        case .number, .string: true
        default: false
        }
    }
}

/// Splits the text form into tokens, one at a time, so the first mistake in reading order is reported.
///
/// It works on Unicode scalars (so a combining mark after a quote cannot hide the quote) and reports
/// character columns.
struct ConditionLexer {
    private let scalars: [Unicode.Scalar]
    /// The character column of each scalar, plus one entry for the end of the text.
    private let columns: [Int]
    private var position = 0

    init(_ text: String) {
        var scalars: [Unicode.Scalar] = []
        var columns: [Int] = []
        var column = 1
        for character in text {
            for scalar in character.unicodeScalars {
                scalars.append(scalar)
                columns.append(column)
            }
            column += 1
        }
        columns.append(column)
        self.scalars = scalars
        self.columns = columns
    }

    /// The character column where the text ends (one past its last character).
    var endColumn: Int { columns[scalars.count] }

    private func scalar(at index: Int) -> Unicode.Scalar? {
        index < scalars.count ? scalars[index] : nil
    }

    private func error(_ message: String, at index: Int) -> ConditionSyntaxError {
        ConditionSyntaxError(message: message, column: columns[min(index, scalars.count)])
    }

    private func spelling(from start: Int, to end: Int) -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[start..<end])
        return String(text)
    }

    /// Reads the next token, skipping white space; returns an `.end` token at the end of the text.
    mutating func next() throws(ConditionSyntaxError) -> ConditionToken {
        while let scalar = scalar(at: position), scalar.properties.isWhitespace { position += 1 }
        let start = position
        guard let first = scalar(at: start) else {
            return ConditionToken(kind: .end, column: endColumn, text: "")
        }
        let kind: ConditionToken.Kind
        if ConditionSyntax.isIdentifierStart(first) {
            while let scalar = scalar(at: position), ConditionSyntax.isIdentifierContinuation(scalar) { position += 1 }
            kind = .word(spelling(from: start, to: position))
        } else if ConditionSyntax.isDigit(first) || (first == "-" && scalar(at: start + 1).map(ConditionSyntax.isDigit) == true) {
            kind = .number(try readNumber())
        } else if first == "\"" {
            kind = .string(try readString())
        } else if first == "`" {
            kind = .quotedIdentifier(try readQuotedIdentifier())
        } else {
            kind = .symbol(try readSymbol())
        }
        return ConditionToken(kind: kind, column: columns[start], text: spelling(from: start, to: position))
    }

    /// Reads `-?digits(.digits)?` as an exact decimal.
    private mutating func readNumber() throws(ConditionSyntaxError) -> Decimal {
        let start = position
        if scalar(at: position) == "-" { position += 1 }
        while let scalar = scalar(at: position), ConditionSyntax.isDigit(scalar) { position += 1 }
        if scalar(at: position) == ".", scalar(at: position + 1) != "." {
            guard let digit = scalar(at: position + 1), ConditionSyntax.isDigit(digit) else {
                throw error("expected digits after the decimal point", at: position + 1)
            }
            position += 1
            while let scalar = scalar(at: position), ConditionSyntax.isDigit(scalar) { position += 1 }
        }
        if let next = scalar(at: position), ConditionSyntax.isIdentifierStart(next) {
            let following = scalar(at: position + 1)
            if next == "e" || next == "E", let following, ConditionSyntax.isDigit(following) || following == "-" || following == "+" {
                throw error("write numbers without an exponent, with all their digits", at: position)
            }
            var end = position
            while let scalar = scalar(at: end), ConditionSyntax.isIdentifierContinuation(scalar) { end += 1 }
            throw error("'\(spelling(from: start, to: end))' is not a number; write an identifier that starts with a digit in backticks", at: start)
        }
        let text = spelling(from: start, to: position)
        guard let value = Decimal(exactLiteral: text) else {
            throw error("the number \(text) has too many digits to be held exactly", at: start)
        }
        return value
    }

    /// Reads a double-quoted string with its escapes; `position` is at the opening quote.
    private mutating func readString() throws(ConditionSyntaxError) -> String {
        let open = position
        position += 1
        var value = String.UnicodeScalarView()
        while true {
            guard let scalar = scalar(at: position) else {
                throw error("the string has no closing '\"'", at: open)
            }
            switch scalar {
            case "\"":
                position += 1
                return String(value)
            case "\\":
                value.append(try readEscape())
            default:
                value.append(scalar)
                position += 1
            }
        }
    }

    /// Reads one escape sequence; `position` is at the backslash.
    private mutating func readEscape() throws(ConditionSyntaxError) -> Unicode.Scalar {
        let backslash = position
        guard let letter = scalar(at: position + 1) else {
            throw error("the string has no closing '\"'", at: backslash)
        }
        position += 2
        switch letter {
        case "\"": return "\""
        case "\\": return "\\"
        case "n": return "\n"
        case "t": return "\t"
        case "u":
            guard scalar(at: position) == "{" else {
                throw error("write a Unicode escape as \\u{…} with 1 to 8 hexadecimal digits", at: backslash)
            }
            var digits = ""
            position += 1
            while let scalar = scalar(at: position), scalar != "}" {
                guard scalar.properties.isASCIIHexDigit, digits.count < 8 else {
                    throw error("write a Unicode escape as \\u{…} with 1 to 8 hexadecimal digits", at: backslash)
                }
                digits.unicodeScalars.append(scalar)
                position += 1
            }
            guard scalar(at: position) == "}", !digits.isEmpty else {
                throw error("write a Unicode escape as \\u{…} with 1 to 8 hexadecimal digits", at: backslash)
            }
            position += 1
            guard let code = UInt32(digits, radix: 16), let value = Unicode.Scalar(code) else {
                throw error("\\u{\(digits)} is not a Unicode scalar value", at: backslash)
            }
            return value
        default:
            throw error("unknown escape '\\\(Character(letter))' in a string; use \\\", \\\\, \\n, \\t or \\u{…}", at: backslash)
        }
    }

    /// Reads a backticked identifier, where a doubled backtick stands for one; `position` is at the opening backtick.
    private mutating func readQuotedIdentifier() throws(ConditionSyntaxError) -> String {
        let open = position
        position += 1
        var value = String.UnicodeScalarView()
        while true {
            guard let scalar = scalar(at: position) else {
                throw error("the identifier has no closing '`'", at: open)
            }
            position += 1
            if scalar == "`" {
                if self.scalar(at: position) == "`" {
                    value.append("`")
                    position += 1
                } else {
                    break
                }
            } else {
                value.append(scalar)
            }
        }
        guard !value.isEmpty else { throw error("an identifier in backticks cannot be empty", at: open) }
        return String(value)
    }

    /// Reads an operator or punctuation mark, explaining the usual mistakes.
    private mutating func readSymbol() throws(ConditionSyntaxError) -> ConditionToken.Symbol {
        let start = position
        let first = scalars[start]
        let second = scalar(at: start + 1)
        let symbol: ConditionToken.Symbol
        switch first {
        case "(": symbol = .openParenthesis
        case ")": symbol = .closeParenthesis
        case ":": symbol = .colon
        case ",": symbol = .comma
        case ".":
            if second == ".", scalar(at: start + 2) == "." {
                symbol = .range
            } else if second == "." {
                throw error("write a range with three dots: lower...upper", at: start)
            } else {
                symbol = .dot
            }
        case "=":
            guard second == "=" else { throw error("use '==' to compare", at: start) }
            symbol = .equal
        case "!":
            guard second == "=" else { throw error("use 'not' to negate a condition, or '!=' to compare", at: start) }
            symbol = .notEqual
        case "<": symbol = second == "=" ? .lessOrEqual : .less
        case ">": symbol = second == "=" ? .greaterOrEqual : .greater
        case "&" where second == "&":
            throw error("use 'and' instead of '&&'", at: start)
        case "|" where second == "|":
            throw error("use 'or' instead of '||'", at: start)
        case "'":
            throw error("write strings in double quotes", at: start)
        default:
            throw error("unexpected character '\(Character(first))'; write identifiers with other characters in backticks", at: start)
        }
        position += symbol.rawValue.unicodeScalars.count
        return symbol
    }
}

extension Decimal {
    /// The decimal a plain number literal (`-?digits(.digits)?`) spells, when a ``Decimal`` holds it exactly.
    init?(exactLiteral literal: String) {
        guard let value = Decimal(string: literal, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
        var text = Substring(literal)
        let negative = text.hasPrefix("-")
        if negative { text = text.dropFirst() }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = parts[0].drop { $0 == "0" }
        let fraction = parts.count > 1 ? parts[1].reversed().drop { $0 == "0" }.reversed() : []
        var expected = integer.isEmpty ? "0" : String(integer)
        if !fraction.isEmpty { expected += "." + String(fraction) }
        if negative && expected != "0" { expected = "-" + expected }
        guard value.plainDescription == expected else { return nil }
        self = value
    }
}

/// A recursive-descent parser over ``ConditionLexer``'s tokens, with one token of look-ahead.
struct ConditionParser {
    private var lexer: ConditionLexer
    /// The token being looked at.
    private var token: ConditionToken
    /// The token before it, named in messages ("after '>='"); nil at the start.
    private var previous: ConditionToken?
    /// How many `(` and `not` enclose the current position; bounded so that hostile input cannot exhaust the stack.
    private var depth = 0

    /// What is being parsed, named when the text ends too early: "condition" or "reference".
    private var subject = "condition"

    /// The deepest nesting of parentheses and `not` the parser accepts.
    static let maximumDepth = 100

    init(_ text: String) throws(ConditionSyntaxError) {
        lexer = ConditionLexer(text)
        token = try lexer.next()
    }

    /// Moves on to the next token.
    private mutating func advance() throws(ConditionSyntaxError) {
        previous = token
        token = try lexer.next()
    }

    /// An error at the current token: `expected` plus where, with a note when the text ended too early.
    private func expected(_ what: String, after context: String? = nil, hint: String? = nil) -> ConditionSyntaxError {
        var message = "expected \(what)"
        if let context = context ?? previous.map({ "'\($0.text)'" }) { message += " after \(context)" }
        if token.kind == .end {
            message = "the \(subject) ends too early: " + message
        } else if let hint {
            message += "; " + hint
        }
        return ConditionSyntaxError(message: message, column: token.column)
    }

    // MARK: Entry points

    /// Parses the whole text as a condition.
    mutating func parseWholeCondition() throws(ConditionSyntaxError) -> Condition {
        guard token.kind != .end else {
            throw ConditionSyntaxError(message: "the condition is empty", column: 1)
        }
        let condition = try parseOr()
        try expectEnd(after: "a complete condition", joinHint: "; join conditions with 'and' or 'or'")
        return condition
    }

    /// Parses the whole text as a lone reference.
    mutating func parseWholeReference() throws(ConditionSyntaxError) -> AnswerReference {
        subject = "reference"
        guard token.kind != .end else {
            throw ConditionSyntaxError(message: "the reference is empty", column: 1)
        }
        let reference = try parseReference(what: "a step identifier")
        try expectEnd(after: "the reference", joinHint: "")
        return reference
    }

    /// Fails unless the whole text has been read.
    private func expectEnd(after what: String, joinHint: String) throws(ConditionSyntaxError) {
        switch token.kind {
        case .end:
            return
        case .symbol(.closeParenthesis):
            throw ConditionSyntaxError(message: "unmatched ')'", column: token.column)
        default:
            throw ConditionSyntaxError(message: "unexpected '\(token.text)' after \(what)\(joinHint)", column: token.column)
        }
    }

    // MARK: Conditions

    /// Goes one level deeper into parentheses or `not`, failing beyond ``maximumDepth``.
    private mutating func enter() throws(ConditionSyntaxError) {
        depth += 1
        guard depth <= ConditionParser.maximumDepth else {
            throw ConditionSyntaxError(message: "the condition nests parentheses and 'not' more than \(ConditionParser.maximumDepth) deep",
                                       column: token.column)
        }
    }

    private mutating func parseOr() throws(ConditionSyntaxError) -> Condition {
        var operands = [try parseAnd()]
        while token.isWord("or") {
            try advance()
            operands.append(try parseAnd())
        }
        guard operands.count > 1 else { return operands[0] }
        return .or(operands.flatMap { operand -> [Condition] in
            if case .or(let inner) = operand { inner } else { [operand] }
        })
    }

    private mutating func parseAnd() throws(ConditionSyntaxError) -> Condition {
        var operands = [try parseNot()]
        while token.isWord("and") {
            try advance()
            operands.append(try parseNot())
        }
        guard operands.count > 1 else { return operands[0] }
        return .and(operands.flatMap { operand -> [Condition] in
            if case .and(let inner) = operand { inner } else { [operand] }
        })
    }

    private mutating func parseNot() throws(ConditionSyntaxError) -> Condition {
        guard token.isWord("not") else { return try parsePrimary() }
        try enter()
        try advance()
        let operand = try parseNot()
        depth -= 1
        return .not(operand)
    }

    private mutating func parsePrimary() throws(ConditionSyntaxError) -> Condition {
        switch token.kind {
        case .symbol(.openParenthesis):
            let open = token
            try enter()
            try advance()
            let inner = try parseOr()
            depth -= 1
            guard token.kind == .symbol(.closeParenthesis) else {
                let message = token.kind == .end
                    ? "missing ')' to close the '(' at column \(open.column)"
                    : "expected ')' to close the '(' at column \(open.column)"
                throw ConditionSyntaxError(message: message, column: token.column)
            }
            try advance()
            return inner
        case .word("true"):
            try advance()
            return .constant(true)
        case .word("false"):
            try advance()
            return .constant(false)
        case .word("expression"):
            try advance()
            guard token.kind == .symbol(.openParenthesis) else { throw expected("'('") }
            try advance()
            guard case .string(let language) = token.kind else { throw expected("the expression's language in quotes, as in \"text/fhirpath\"") }
            try advance()
            guard token.kind == .symbol(.comma) else { throw expected("',' and the expression in quotes") }
            try advance()
            guard case .string(let text) = token.kind else { throw expected("the expression in quotes") }
            try advance()
            guard token.kind == .symbol(.closeParenthesis) else { throw expected("')'", after: "the expression") }
            try advance()
            return .expression(ItemCalculation(language: language, expression: text))
        case .word("answered"), .word("dontKnow"):
            let function = token.text
            try advance()
            guard token.kind == .symbol(.openParenthesis) else { throw expected("'('") }
            try advance()
            let reference = try parseReference(what: "a step identifier")
            guard token.kind == .symbol(.closeParenthesis) else {
                throw expected("')'", after: "the reference in '\(function)(…)'")
            }
            try advance()
            return function == "answered" ? .answered(reference) : .dontKnow(reference)
        default:
            guard token.identifier != nil else {
                throw expected("a condition",
                               hint: token.isLiteral ? "a comparison starts with the reference, as in 'pain >= 7'" : nil)
            }
            let reference = try parseReference(what: "a step identifier")
            return try parseTest(of: reference)
        }
    }

    /// Parses what follows a reference: a comparison, a range, `contains` or `matches`.
    private mutating func parseTest(of reference: AnswerReference) throws(ConditionSyntaxError) -> Condition {
        switch token.kind {
        case .symbol(let symbol):
            guard let comparison = ComparisonOperator(rawValue: symbol.rawValue) else { break }
            try advance()
            return .comparison(reference, comparison, try parseValue())
        case .word("in"):
            try advance()
            let lower = try parseValue()
            guard token.kind == .symbol(.range) else {
                throw expected("'...'", hint: "write a range as lower...upper")
            }
            try advance()
            return .inRange(reference, lower: lower, upper: try parseValue())
        case .word("contains"):
            try advance()
            return .contains(reference, try parseValue())
        case .word("matches"):
            try advance()
            guard case .string(let pattern) = token.kind else {
                throw expected("a regular expression in double quotes")
            }
            do {
                _ = try Regex(pattern)
            } catch {
                throw ConditionSyntaxError(message: "invalid regular expression: \(error)", column: token.column)
            }
            try advance()
            return .matches(reference, pattern: pattern)
        default:
            break
        }
        throw expected("a comparison (==, !=, <, <=, >, >=, in, contains or matches)", after: "'\(reference)'")
    }

    /// Parses a literal: a number, a string, `true` or `false`.
    private mutating func parseValue() throws(ConditionSyntaxError) -> ConditionValue {
        let value: ConditionValue
        switch token.kind {
        case .number(let number): value = .number(number)
        case .string(let string): value = .string(string)
        case .word("true"): value = .boolean(true)
        case .word("false"): value = .boolean(false)
        default:
            let hint = token.identifier.map { "write text in double quotes: \"\($0)\"" }
            throw expected("a value", hint: hint)
        }
        try advance()
        return value
    }

    /// Parses `step`, `step.item`, `task:step` or `task:step.item`.
    private mutating func parseReference(what: String) throws(ConditionSyntaxError) -> AnswerReference {
        var first = try parseIdentifier(what)
        var task: String?
        if token.kind == .symbol(.colon) {
            try advance()
            task = first
            first = try parseIdentifier("a step identifier")
        }
        var item: String?
        if token.kind == .symbol(.dot) {
            try advance()
            item = try parseIdentifier("an item identifier")
        }
        let reference = AnswerReference(task: task, step: first, item: item)
        if token.kind == .symbol(.colon) {
            throw ConditionSyntaxError(message: "a reference names at most one task, as in task:step.item", column: token.column)
        }
        if token.kind == .symbol(.dot) {
            throw ConditionSyntaxError(message: "a reference names at most one item, as in task:step.item", column: token.column)
        }
        return reference
    }

    private mutating func parseIdentifier(_ what: String) throws(ConditionSyntaxError) -> String {
        guard let identifier = token.identifier else {
            if case .word(let keyword) = token.kind {
                throw ConditionSyntaxError(message: "'\(keyword)' is a keyword; write `\(keyword)` in backticks to use it as an identifier",
                                           column: token.column)
            }
            throw expected(what)
        }
        try advance()
        return identifier
    }
}
