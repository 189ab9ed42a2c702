import Mustache

/// The HTML escaping of every `{{variable}}` in the participant pages' templates: `&`, `<`, `>`, `"` and `'` become
/// character references, as in swift-mustache's own `HTML` content type, but byte by byte over UTF-8.
///
/// swift-mustache's escaping looks each `Character` up in a dictionary, which cost about a quarter of rendering a home
/// page; and a quote followed by a combining mark is one `Character` that its dictionary does not hold, so that quote
/// stayed raw and could end an attribute value. The five ASCII characters never occur inside a multi-byte UTF-8
/// sequence, so replacing their bytes escapes exactly them, whatever follows. Text with none of them (most text) is
/// returned as it is, without a copy.
///
/// Every template starts with the pragma `{{% CONTENT_TYPE: StudyKitHTML }}`, which selects it for that template
/// (a partial starts again with the library's default, so each file names it); ``TemplateLibrary`` registers it
/// before parsing. A template without the pragma still escapes, with the library's slower escaping.
struct HTMLContentEscaping: MustacheContentType {
    /// The name the templates' pragma uses.
    static let name = "StudyKitHTML"

    func escapeText(_ text: String) -> String {
        Self.escape(text)
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&#39;`.
    static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.firstIndex(where: needsEscaping) else { return nil }
            var escaped: [UInt8] = []
            escaped.reserveCapacity(bytes.count + 16)
            escaped.append(contentsOf: bytes[..<first])
            for byte in bytes[first...] {
                switch byte {
                case UInt8(ascii: "&"): escaped.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): escaped.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): escaped.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\""): escaped.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'"): escaped.append(contentsOf: "&#39;".utf8)
                default: escaped.append(byte)
                }
            }
            return String(decoding: escaped, as: UTF8.self)
        } ?? text
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "\"")
            || byte == UInt8(ascii: "'")
    }
}
