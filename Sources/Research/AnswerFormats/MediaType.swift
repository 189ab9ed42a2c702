import Foundation

/// A media (MIME) type as RFC 2045 writes it: `type/subtype`, each a token, then any number of `; attribute=value`
/// parameters, each value a token or a quoted string; white space is allowed around the separators.
///
/// ```swift
/// let type = try MediaType(parsing: "image/JPEG; quality=\"high\"")
/// type.description   // "image/jpeg; quality=\"high\""
/// ```
///
/// A file a participant attaches comes with the type the browser (or the client) says it is, and that text is stored
/// with the answer and shown in exports: it is read as a media type and nothing else, so it can hold no control
/// character, no formula (`=HYPERLINK(…)`) and no markup.
public struct MediaType: Hashable, Sendable, CustomStringConvertible {
    /// The top-level type, lowercased (`image`).
    public var type: String
    /// The subtype, lowercased (`jpeg`).
    public var subtype: String
    /// The parameters in order, each attribute lowercased and each value as written (a quoted string with its quotes).
    public var parameters: [(attribute: String, value: String)]

    /// The longest media type read, in UTF-8 bytes: RFC 6838 allows 127 characters for each of the type and subtype.
    public static let maximumLength = 255

    /// Reads `text` as a media type; throws ``MediaTypeError`` saying what is wrong and where.
    public init(parsing text: String) throws(MediaTypeError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw MediaTypeError("is empty") }
        guard bytes.count <= Self.maximumLength else { throw MediaTypeError("is \(bytes.count) bytes long; a media type has at most \(Self.maximumLength)") }
        var index = 0
        func skipSpace() { while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 } }
        func token(_ what: String) throws(MediaTypeError) -> String {
            let start = index
            while index < bytes.count, Self.isTokenByte(bytes[index]) { index += 1 }
            guard index > start else {
                if index < bytes.count { throw MediaTypeError("has \(Self.describe(bytes[index])) where its \(what) should be, at byte \(index + 1)") }
                throw MediaTypeError("ends where its \(what) should be")
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        skipSpace()
        let type = try token("type")
        guard index < bytes.count, bytes[index] == UInt8(ascii: "/") else {
            throw MediaTypeError(index < bytes.count ? "has \(Self.describe(bytes[index])) after its type, at byte \(index + 1), where a / should be"
                                                     : "has no / and subtype (a media type is type/subtype, such as image/jpeg)")
        }
        index += 1
        let subtype = try token("subtype")
        var parameters: [(attribute: String, value: String)] = []
        skipSpace()
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: ";") else {
                throw MediaTypeError("has \(Self.describe(bytes[index])) at byte \(index + 1), where a ; and a parameter should be")
            }
            index += 1
            skipSpace()
            // A trailing `;` (as some clients send) ends the type.
            if index == bytes.count { break }
            let attribute = try token("parameter's name")
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw MediaTypeError("has a parameter '\(attribute)' without =value")
            }
            index += 1
            let value: String
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                let start = index
                index += 1
                var closed = false
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "\\") {
                        // A quoted pair: any US-ASCII character but a control one (a tab aside), `"` and `\` included.
                        guard index + 1 < bytes.count, (bytes[index + 1] >= 0x20 && bytes[index + 1] < 0x7F) || bytes[index + 1] == 0x09 else {
                            throw MediaTypeError("has a \\ at byte \(index + 1) that escapes nothing it may")
                        }
                        index += 2
                        continue
                    }
                    if byte == UInt8(ascii: "\"") { closed = true; index += 1; break }
                    guard Self.isQuotedTextByte(byte) || byte == 0x09 else {
                        throw MediaTypeError("has \(Self.describe(byte)) inside a quoted value, at byte \(index + 1)")
                    }
                    index += 1
                }
                guard closed else { throw MediaTypeError("has a quoted value that is not closed") }
                value = String(decoding: bytes[start..<index], as: UTF8.self)
            } else {
                value = try token("parameter's value")
            }
            parameters.append((attribute.lowercased(), value))
            skipSpace()
        }
        self.type = type.lowercased()
        self.subtype = subtype.lowercased()
        self.parameters = parameters
    }

    /// `type/subtype`, then `; attribute=value` for each parameter.
    public var description: String {
        "\(type)/\(subtype)" + parameters.map { "; \($0.attribute)=\($0.value)" }.joined()
    }

    /// `type/subtype` without parameters.
    public var essence: String { "\(type)/\(subtype)" }

    public static func == (lhs: MediaType, rhs: MediaType) -> Bool { lhs.description == rhs.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// RFC 2045's token characters: visible US-ASCII except the specials `( ) < > @ , ; : \ " / [ ] ? =`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        return !#"()<>@,;:\"/[]?="#.utf8.contains(byte)
    }

    /// What a quoted value may hold unescaped: visible US-ASCII and space, except `"` and `\`.
    private static func isQuotedTextByte(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte == 0x20 { return "a space" }
        if byte >= 0x80 { return "a character that is not US-ASCII" }
        return String(format: "the control character U+%04X", byte)
    }
}

/// Why a text is not a media type (``MediaType/init(parsing:)``): what is wrong, and at which byte when it can tell.
public struct MediaTypeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, as the end of a sentence that starts with the text: "has no / and subtype …".
    public var reason: String

    /// An error with `reason`.
    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { "not a media type: it \(reason)" }
}
