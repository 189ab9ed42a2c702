import Foundation

/// Independent readers of what ``MailMessage`` writes, for the tests: a message split into header fields and body,
/// fields unfolded, encoded-words and quoted-printable decoded.
enum MIMEDecoding {
    /// The header fields (name and unfolded value, in order) and the body of a message with CRLF line ends.
    static func split(_ message: String) -> (fields: [(name: String, value: String)], body: String) {
        guard let end = message.range(of: "\r\n\r\n") else { return ([], message) }
        let header = String(message[..<end.lowerBound])
        // Unfolding (RFC 5322 §2.2.3): a CRLF followed by whitespace is removed.
        let unfolded = header.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: "\t")
        let fields = unfolded.components(separatedBy: "\r\n").map { line in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        return (fields, String(message[end.upperBound...]))
    }

    /// The encoded-words (`=?utf-8?B?…?=`, `=?utf-8?Q?…?=`) of an unfolded value decoded, the whitespace between
    /// adjacent encoded-words dropped (RFC 2047 §6.2).
    static func decodeEncodedWords(_ value: String) -> String {
        let pattern = try! NSRegularExpression(pattern: #"=\?([^?]+)\?([BbQq])\?([^?]*)\?="#)
        var result = "", position = value.startIndex, previousWasEncoded = false
        for match in pattern.matches(in: value, range: NSRange(value.startIndex..., in: value)) {
            let range = Range(match.range, in: value)!
            let between = String(value[position..<range.lowerBound])
            if !(previousWasEncoded && between.allSatisfy(\.isWhitespace)) { result += between }
            let encoding = value[Range(match.range(at: 2), in: value)!].uppercased()
            let text = String(value[Range(match.range(at: 3), in: value)!])
            let bytes = encoding == "B" ? Array(Data(base64Encoded: text) ?? Data()) : decodeQ(text)
            result += String(decoding: bytes, as: UTF8.self)
            position = range.upperBound
            previousWasEncoded = true
        }
        return result + value[position...]
    }

    private static func decodeQ(_ text: String) -> [UInt8] {
        decodeEscapes(Array(text.replacingOccurrences(of: "_", with: " ").utf8))
    }

    /// Quoted-printable text (CRLF line ends) decoded to the UTF-8 text it encodes, its line breaks as LF.
    static func decodeQuotedPrintable(_ text: String) -> String {
        var bytes: [UInt8] = []
        let lines = text.components(separatedBy: "\r\n")
        for (index, line) in lines.enumerated() {
            if line.hasSuffix("=") {
                bytes += decodeEscapes(Array(line.dropLast().utf8))
            } else {
                bytes += decodeEscapes(Array(line.utf8))
                if index < lines.count - 1 { bytes.append(UInt8(ascii: "\n")) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func decodeEscapes(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [], index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "="), index + 2 < bytes.count,
               let value = UInt8(String(decoding: bytes[index + 1...index + 2], as: UTF8.self), radix: 16) {
                output.append(value)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }
}
