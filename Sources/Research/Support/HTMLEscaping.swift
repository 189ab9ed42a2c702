import Foundation

/// Turns text into HTML that shows it exactly, and HTML back into readable text.
public enum HTMLEscaping {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&#39;`: safe in
    /// element content and in quoted attribute values.
    ///
    /// The work is done byte by byte over UTF-8, not by `Character`: a quote or a `<` followed by a combining mark,
    /// or preceded by a prepended one (U+0600), is one `Character` with the mark, and a comparison by `Character`
    /// would let it through raw. The five ASCII characters never occur inside a multi-byte UTF-8 sequence, so
    /// replacing their bytes escapes exactly them. Text with none of them (most text) is returned without a copy.
    public static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.firstIndex(where: needsEscaping) else { return nil }
            var escaped: [UInt8] = []
            escaped.reserveCapacity(bytes.count + 16)
            escaped.append(contentsOf: bytes[..<first])
            appendEscaping(bytes[first...], to: &escaped)
            return String(decoding: escaped, as: UTF8.self)
        } ?? text
    }

    /// Appends `text`'s UTF-8, escaped as ``escape(_:)`` escapes it, to `html`: for a writer that builds a page as
    /// bytes, without a string made for each text.
    public static func append(escaping text: String, to html: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            guard let first = bytes.firstIndex(where: needsEscaping) else { return html.append(contentsOf: bytes) }
            html.append(contentsOf: bytes[..<first])
            appendEscaping(bytes[first...], to: &html)
        }
    }

    private static func appendEscaping(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, to escaped: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "&"): escaped.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): escaped.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): escaped.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): escaped.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): escaped.append(contentsOf: "&#39;".utf8)
            default: escaped.append(byte)
            }
        }
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "\"")
            || byte == UInt8(ascii: "'")
    }

    /// Plain text as escaped HTML paragraphs: each run of lines between blank lines becomes a `<p>`, and single
    /// line breaks inside it become `<br>`. Blank text gives an empty string.
    public static func paragraphs(fromPlainText text: String) -> String {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
        var paragraphs: [[String]] = [[]]
        for line in lines {
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                if !(paragraphs.last?.isEmpty ?? true) { paragraphs.append([]) }
            } else {
                paragraphs[paragraphs.count - 1].append(line.trimmingCharacters(in: .whitespaces))
            }
        }
        return paragraphs.filter { !$0.isEmpty }
            .map { "<p>" + $0.map(escape).joined(separator: "<br>\n") + "</p>" }
            .joined(separator: "\n")
    }

    /// A readable plain-text version of an HTML fragment, for front ends that cannot show HTML: tags are
    /// dropped (block ends become line breaks), `script` and `style` elements vanish with their content, and the
    /// common character references are decoded.
    public static func plainText(fromHTML html: String) -> String {
        var text = html
        for element in ["script", "style"] {
            while let open = text.range(of: "<\(element)", options: .caseInsensitive) {
                let close = text.range(of: "</\(element)>", options: .caseInsensitive, range: open.upperBound..<text.endIndex)
                text.removeSubrange(open.lowerBound..<(close?.upperBound ?? text.endIndex))
            }
        }
        text = text.replacingOccurrences(of: "<br\\s*/?>", with: "\n", options: [.regularExpression, .caseInsensitive])
        text = text.replacingOccurrences(of: "</(p|h[1-6]|li|div|tr|blockquote)>", with: "\n", options: [.regularExpression, .caseInsensitive])
        text = text.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
        text = decodeCharacterReferences(text)
        let lines = text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var result: [String] = []
        for line in lines where !(line.isEmpty && (result.last?.isEmpty ?? true)) { result.append(line) }
        return result.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `text` with numeric character references and the common named ones decoded; an unknown name is kept.
    public static func decodeCharacterReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
                                        "colon": ":", "tab": "\t", "newline": "\n"]
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            guard text[index] == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";") else {
                result.append(text[index])
                index = text.index(after: index)
                continue
            }
            let name = String(text[text.index(after: index)..<semicolon])
            var decoded: String?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else if name.hasPrefix("#") {
                decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else {
                decoded = named[name.lowercased()]
            }
            if let decoded {
                result += decoded
                index = text.index(after: semicolon)
            } else {
                result.append("&")
                index = text.index(after: index)
            }
        }
        return result
    }
}
