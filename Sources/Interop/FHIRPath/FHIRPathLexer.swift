import Foundation

/// Splits FHIRPath text into tokens, each with its `Character` offset.
struct FHIRPathLexer {
    /// One token of a FHIRPath expression.
    struct Token: Sendable {
        enum Kind: Sendable, Equatable {
            /// A name (`item`, `where`, `and`); `delimited` when written in backticks, so never a keyword.
            case identifier(String, delimited: Bool)
            /// `%name`, `%\`name\`` or `%'name'`.
            case variable(String)
            /// `$this`, `$index`, `$total`.
            case specialVariable(String)
            /// An integer or decimal literal as written.
            case number(String)
            /// A string literal with its escapes resolved.
            case string(String)
            /// `@2020-01-01`, `@2020-01-01T10:00Z` (the text after `@`).
            case dateTime(String)
            /// `@T10:30` (the text after `@T`).
            case time(String)
            /// Punctuation and symbolic operators: `.`, `(`, `)`, `[`, `]`, `{`, `}`, `,`, and `+ - * / & | = != ~ !~ < <= > >=`.
            case symbol(String)
            /// The end of the text.
            case end
        }

        let kind: Kind
        let offset: Int
    }

    private let characters: [Character]
    private var position = 0

    init(_ text: String) {
        characters = Array(text)
    }

    /// All tokens, ending with `.end`.
    mutating func tokenize() throws(FHIRPathError) -> [Token] {
        var tokens: [Token] = []
        while true {
            try skipWhitespaceAndComments()
            guard position < characters.count else {
                tokens.append(Token(kind: .end, offset: position))
                return tokens
            }
            tokens.append(try nextToken())
        }
    }

    private mutating func nextToken() throws(FHIRPathError) -> Token {
        let start = position
        let character = characters[position]
        if character.isLetter || character == "_" {
            return Token(kind: .identifier(scanName(), delimited: false), offset: start)
        }
        if character.isASCII, character.isNumber {
            return Token(kind: .number(scanNumber()), offset: start)
        }
        switch character {
        case "`":
            return Token(kind: .identifier(try scanQuoted(closing: "`", what: "delimited identifier"), delimited: true), offset: start)
        case "'":
            return Token(kind: .string(try scanQuoted(closing: "'", what: "string")), offset: start)
        case "%":
            position += 1
            guard position < characters.count else { throw FHIRPathError(.syntax, "expected a variable name after '%'", at: start) }
            if characters[position] == "`" { return Token(kind: .variable(try scanQuoted(closing: "`", what: "variable name")), offset: start) }
            if characters[position] == "'" { return Token(kind: .variable(try scanQuoted(closing: "'", what: "variable name")), offset: start) }
            guard characters[position].isLetter || characters[position] == "_" else {
                throw FHIRPathError(.syntax, "expected a variable name after '%'", at: start)
            }
            return Token(kind: .variable(scanName(allowingHyphens: true)), offset: start)
        case "$":
            position += 1
            let name = scanName()
            guard ["this", "index", "total"].contains(name) else {
                throw FHIRPathError(.syntax, "unknown special variable '$\(name)' (expected $this, $index or $total)", at: start)
            }
            return Token(kind: .specialVariable(name), offset: start)
        case "@":
            return try scanDateTime()
        default:
            break
        }
        let twoCharacters = position + 1 < characters.count ? String(characters[position...position + 1]) : ""
        if ["<=", ">=", "!=", "!~"].contains(twoCharacters) {
            position += 2
            return Token(kind: .symbol(twoCharacters), offset: start)
        }
        if ".()[]{},+-*/&|=~<>".contains(character) {
            position += 1
            return Token(kind: .symbol(String(character)), offset: start)
        }
        throw FHIRPathError(.syntax, "unexpected character '\(character)'", at: start)
    }

    private mutating func skipWhitespaceAndComments() throws(FHIRPathError) {
        while position < characters.count {
            if characters[position].isWhitespace {
                position += 1
            } else if characters[position] == "/", position + 1 < characters.count, characters[position + 1] == "/" {
                while position < characters.count, !characters[position].isNewline { position += 1 }
            } else if characters[position] == "/", position + 1 < characters.count, characters[position + 1] == "*" {
                let start = position
                position += 2
                while position + 1 < characters.count, !(characters[position] == "*" && characters[position + 1] == "/") { position += 1 }
                guard position + 1 < characters.count else { throw FHIRPathError(.syntax, "unterminated comment", at: start) }
                position += 2
            } else {
                return
            }
        }
    }

    private mutating func scanName(allowingHyphens: Bool = false) -> String {
        let start = position
        while position < characters.count,
            characters[position].isLetter || characters[position] == "_" || (characters[position].isASCII && characters[position].isNumber)
                || (allowingHyphens && characters[position] == "-")
        {
            position += 1
        }
        return String(characters[start..<position])
    }

    /// Digits, then a fraction only when a digit follows the point (so `2.abs()` is `2` then `.abs()`).
    private mutating func scanNumber() -> String {
        let start = position
        while position < characters.count, characters[position].isASCII, characters[position].isNumber { position += 1 }
        if position + 1 < characters.count, characters[position] == ".", characters[position + 1].isASCII, characters[position + 1].isNumber {
            position += 1
            while position < characters.count, characters[position].isASCII, characters[position].isNumber { position += 1 }
        }
        return String(characters[start..<position])
    }

    /// A `'string'` or `` `name` `` with FHIRPath escapes: `\'`, `\"`, `` \` ``, `\\`, `\/`, `\f`, `\n`, `\r`, `\t`, `\uXXXX`.
    private mutating func scanQuoted(closing: Character, what: String) throws(FHIRPathError) -> String {
        let start = position
        position += 1
        var text = ""
        while true {
            guard position < characters.count else { throw FHIRPathError(.syntax, "unterminated \(what)", at: start) }
            let character = characters[position]
            position += 1
            if character == closing { return text }
            guard character == "\\" else {
                text.append(character)
                continue
            }
            guard position < characters.count else { throw FHIRPathError(.syntax, "unterminated \(what)", at: start) }
            let escape = characters[position]
            position += 1
            switch escape {
            case "'", "\"", "`", "\\", "/": text.append(escape)
            case "f": text.append("\u{0C}")
            case "n": text.append("\n")
            case "r": text.append("\r")
            case "t": text.append("\t")
            case "u":
                guard position + 4 <= characters.count, let value = UInt32(String(characters[position..<position + 4]), radix: 16),
                    let scalar = Unicode.Scalar(value)
                else {
                    throw FHIRPathError(.syntax, "expected four hex digits after \\u in a \(what)", at: position - 2)
                }
                text.unicodeScalars.append(scalar)
                position += 4
            default:
                throw FHIRPathError(.syntax, "invalid escape '\\\(escape)' in a \(what)", at: position - 2)
            }
        }
    }

    /// `@` then a date, date-time or (`@T`) time; the parts are checked when the literal is parsed.
    private mutating func scanDateTime() throws(FHIRPathError) -> Token {
        let start = position
        position += 1
        let isTime = position < characters.count && characters[position] == "T"
        if isTime { position += 1 }
        let bodyStart = position
        // Digits, '-', ':', 'T', 'Z', '+' and a '.' followed by a digit (fractions of seconds).
        while position < characters.count {
            let character = characters[position]
            if character.isASCII && character.isNumber || "-:TZ+".contains(character) {
                position += 1
            } else if character == ".", position + 1 < characters.count, characters[position + 1].isASCII, characters[position + 1].isNumber {
                position += 1
            } else {
                break
            }
        }
        let body = String(characters[bodyStart..<position])
        guard !body.isEmpty else { throw FHIRPathError(.syntax, "expected a date or time after '@'", at: start) }
        return Token(kind: isTime ? .time(body) : .dateTime(body), offset: start)
    }
}
