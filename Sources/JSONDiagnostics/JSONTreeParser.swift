import Foundation

/// Reads JSON text (RFC 8259) strictly into a ``JSONTree``: one value and nothing after it, no member name given
/// twice in an object, strings of valid UTF-8 with paired surrogates, at most 512 levels deep. Every error names the
/// line, column and byte offset, and the path of the value it was reading (`record.signatures[0]`).
///
/// The one JSON reader for documents whose every byte matters: FHIR resources (through `FHIRJSON`) and sealed consent
/// records, where a key given twice would let two readers see two different records.
struct JSONTreeParser {
    private let bytes: [UInt8]
    private var position = 0
    /// Where the parser is: member names (by where each starts: read again only for an error) and array indices from
    /// the root.
    private var path: [PathComponent] = []
    /// Nesting deeper than this is refused, so hostile input cannot exhaust the stack.
    private let maximumDepth = 512

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private enum PathComponent {
        case member(nameStart: Int)
        case index(Int)
    }

    /// One value with optional whitespace around it, and nothing else.
    mutating func parseDocument() throws(JSONSyntaxError) -> JSONTree {
        // A UTF-8 byte order mark, which editors on Windows write and RFC 8259 lets a reader ignore.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if position < bytes.count { throw error("unexpected '\(character(at: position))' after the JSON value") }
        return value
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONTree {
        guard depth < maximumDepth else { throw error("nested more than \(maximumDepth) levels deep") }
        guard position < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected '\(character(at: position))', expected a value")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONTree {
        position += 1
        var members: [JSONTree.Member] = []
        // Names seen, for a name given twice: the members themselves while they are few (most objects), a set after.
        var names = Set<String>()
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { position += 1; return .object(members) }
        members.reserveCapacity(8)
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw error("expected a member name in double quotes") }
            let keyStart = position
            let key = try parseString()
            let isNew: Bool
            if members.count < Self.membersSearchedInOrder {
                isNew = !members.contains { $0.key == key }
            } else {
                if names.isEmpty { names = Set(members.map(\.key)) }
                isNew = names.insert(key).inserted
            }
            guard isNew else { throw error("the member name \"\(key)\" is given twice", at: keyStart) }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after the member name \"\(key)\"") }
            position += 1
            skipWhitespace()
            path.append(.member(nameStart: keyStart))
            members.append(JSONTree.Member(key: key, value: try parseValue(depth: depth + 1)))
            path.removeLast()
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { position += 1; continue }
            if peek(UInt8(ascii: "}")) { position += 1; return .object(members) }
            throw error("expected ',' or '}' after an object member")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONTree {
        position += 1
        var elements: [JSONTree] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { position += 1; return .array(elements) }
        elements.reserveCapacity(4)
        while true {
            skipWhitespace()
            path.append(.index(elements.count))
            elements.append(try parseValue(depth: depth + 1))
            path.removeLast()
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { position += 1; continue }
            if peek(UInt8(ascii: "]")) { position += 1; return .array(elements) }
            throw error("expected ',' or ']' after an array element")
        }
    }

    /// Up to how many members an object's names are searched one by one for a name given twice (cheaper than hashing).
    private static let membersSearchedInOrder = 16

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position
        position += 1
        // Most strings have no escape: their bytes are the text, validated as UTF-8 in one go.
        var end = position
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            guard let text = String(validating: bytes[position..<end], as: UTF8.self) else {
                throw error("string is not valid UTF-8", at: start)
            }
            position = end + 1
            return text
        }
        var utf8: [UInt8] = []
        while true {
            guard position < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw error("string is not valid UTF-8", at: start)
                }
                return text
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { throw error("unterminated string", at: start) }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): utf8.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): utf8.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): utf8.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): utf8.append(contentsOf: try parseUnicodeEscape())
                default: throw error("invalid escape '\\\(character(at: position - 1))' in a string", at: position - 2)
                }
            case 0..<0x20:
                throw error("control character U+\(String(byte, radix: 16, uppercase: true)) must be escaped in a string")
            default:
                utf8.append(byte)
                position += 1
            }
        }
    }

    /// After `\u`: four hex digits, or a surrogate pair written as two escapes; returns the UTF-8 bytes.
    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> [UInt8] {
        let escapeStart = position - 2
        let first = try parseHexQuad()
        var scalarValue = first
        if (0xD800...0xDBFF).contains(first) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw error("unpaired surrogate \\u\(String(first, radix: 16)) in a string", at: escapeStart)
            }
            position += 2
            let second = try parseHexQuad()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw error("unpaired surrogate \\u\(String(first, radix: 16)) in a string", at: escapeStart)
            }
            scalarValue = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(first) {
            throw error("unpaired surrogate \\u\(String(first, radix: 16)) in a string", at: escapeStart)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw error("invalid \\u escape", at: escapeStart) }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func parseHexQuad() throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("expected four hex digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected four hex digits after \\u")
            }
            value = value * 16 + UInt32(digit)
            position += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONTree {
        let start = position
        if peek(UInt8(ascii: "-")) { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected a digit in a number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) { throw error("a number cannot have a leading zero", at: start) }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected a digit after the decimal point") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            position += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected a digit in the exponent") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        // Readers in other languages hold numbers as doubles: one they cannot hold means different things to each.
        guard let value = Double(text), value.isFinite else { throw error("the number \(text) is out of range", at: start) }
        return .number(text)
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        let expected = Array(word.utf8)
        guard position + expected.count <= bytes.count, Array(bytes[position..<position + expected.count]) == expected else {
            throw error("unexpected '\(character(at: position))', expected a value")
        }
        position += expected.count
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    private func peek(_ byte: UInt8) -> Bool {
        position < bytes.count && bytes[position] == byte
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private func character(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        return byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
    }

    private func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let offset = min(offset ?? position, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        var location = ""
        for component in path {
            switch component {
            case .member(let nameStart):
                var reader = self
                reader.position = nameStart
                let name = (try? reader.parseString()) ?? "?"
                location += location.isEmpty ? name : ".\(name)"
            case .index(let index): location += "[\(index)]"
            }
        }
        return JSONSyntaxError(message: message, path: location, offset: offset, line: line, column: offset - lineStart + 1)
    }
}
