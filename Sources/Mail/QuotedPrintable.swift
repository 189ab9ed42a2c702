/// Quoted-printable (RFC 2045 §6.7), the transfer encoding of the message's text parts: printable ASCII stays
/// readable, every other byte of the UTF-8 text becomes `=XX`, and no line is longer than 76 characters.
enum QuotedPrintable {
    /// The longest encoded line, its soft line break (`=`) included.
    static let maximumLineLength = 76

    /// The encoded lines of `text`'s UTF-8 bytes, without their line ends. Each line break of `text` (CRLF, LF or a
    /// lone CR) ends a line (a hard line break, CRLF once the lines are joined); longer lines are split with soft
    /// line breaks. Spaces and tabs at the end of a line are encoded, so that no transport may strip them.
    static func encodedLines(_ text: String) -> [String] {
        hardLines(of: Array(text.utf8)).flatMap(encodedLines(ofLine:))
    }

    /// The lines of `bytes`, split at CRLF, LF and lone CR.
    private static func hardLines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex, index = bytes.startIndex
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "\r"):
                lines.append(bytes[start..<index])
                index += index + 1 < bytes.endIndex && bytes[index + 1] == UInt8(ascii: "\n") ? 2 : 1
                start = index
            case UInt8(ascii: "\n"):
                lines.append(bytes[start..<index])
                index += 1
                start = index
            default:
                index += 1
            }
        }
        lines.append(bytes[start..<bytes.endIndex])
        return lines
    }

    private static func encodedLines(ofLine line: ArraySlice<UInt8>) -> [String] {
        var lines: [String] = []
        var current: [UInt8] = []
        for index in line.indices {
            let byte = line[index]
            let isLast = index == line.index(before: line.endIndex)
            let isLiteral = (33...126).contains(byte) && byte != UInt8(ascii: "=")
                || (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")) && !isLast
            let token = isLiteral ? [byte] : [UInt8(ascii: "="), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            // Room is kept for the soft line break's "=".
            if current.count + token.count > maximumLineLength - 1 {
                lines.append(String(decoding: current + [UInt8(ascii: "=")], as: UTF8.self))
                current = []
            }
            current += token
        }
        lines.append(String(decoding: current, as: UTF8.self))
        return lines
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
