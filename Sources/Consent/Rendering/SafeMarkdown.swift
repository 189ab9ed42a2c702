import Foundation
import Ink
import Research

/// Markdown to HTML with Ink, for text a study wrote: formatting works, but nothing in the source can add
/// markup of its own.
///
/// Before Ink sees the source, `<` and `"` become character references, so raw HTML (`<script>`) is shown as
/// text and no attribute can be broken out of; `&` is left alone, so entities such as `&nbsp;` still work.
/// Links and images keep only safe addresses (`http`, `https`, `mailto`, `tel`, relative ones, and `data:image/`
/// for images): a `javascript:` link becomes its bare text. Inside code spans and blocks the references are
/// restored, so code shows `<` as written.
///
/// Ink reads a block that opens the text between two `---` lines as metadata and does not show it.
public enum SafeMarkdown {
    /// The HTML for `markdown`; `headingOffset` moves headings down (with 2, `#` gives `<h3>`), never below `<h6>`,
    /// so that headings inside a section stay under the section's own heading.
    public static func html(from markdown: String, headingOffset: Int = 0) -> String {
        let neutralized = markdown.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "\"", with: "&quot;")
        var parser = MarkdownParser()
        parser.addModifier(Modifier(target: .links) { input in sanitizeLink(input.html) })
        parser.addModifier(Modifier(target: .images) { input in sanitizeImage(input.html) })
        let restoreCode = { (input: Modifier.Input) -> String in
            input.html.replacingOccurrences(of: "&amp;lt;", with: "&lt;").replacingOccurrences(of: "&amp;quot;", with: "&quot;")
        }
        parser.addModifier(Modifier(target: .inlineCode, closure: restoreCode))
        parser.addModifier(Modifier(target: .codeBlocks, closure: restoreCode))
        if headingOffset != 0 {
            parser.addModifier(Modifier(target: .headings) { input in shiftHeading(input.html, by: headingOffset) })
        }
        return parser.html(from: neutralized)
    }

    /// `<hN>…</hN>` as produced by Ink, with N moved by `offset` and kept within 1…6.
    private static func shiftHeading(_ html: String, by offset: Int) -> String {
        guard html.hasPrefix("<h"), let level = html.dropFirst(2).first?.wholeNumberValue else { return html }
        let shifted = min(6, max(1, level + offset))
        return "<h\(shifted)" + html.dropFirst(3).dropLast(5) + "</h\(shifted)>"
    }

    /// `<a href="URL">inner</a>` as produced by Ink: kept when the URL is safe, otherwise only `inner`.
    private static func sanitizeLink(_ html: String) -> String {
        let prefix = "<a href=\""
        guard html.hasPrefix(prefix), html.hasSuffix("</a>"),
              let quote = html[html.index(html.startIndex, offsetBy: prefix.count)...].firstIndex(of: "\""),
              let close = html[quote...].firstIndex(of: ">") else { return HTMLEscaping.escape(HTMLEscaping.plainText(fromHTML: html)) }
        let url = String(html[html.index(html.startIndex, offsetBy: prefix.count)..<quote])
        let inner = String(html[html.index(after: close)..<html.index(html.endIndex, offsetBy: -4)])
        return isSafe(url, allowingImageData: false) ? html : inner
    }

    /// `<img src="URL" alt="…"/>` as produced by Ink: kept when the URL is safe, otherwise dropped.
    private static func sanitizeImage(_ html: String) -> String {
        let prefix = "<img src=\""
        guard html.hasPrefix(prefix),
              let quote = html[html.index(html.startIndex, offsetBy: prefix.count)...].firstIndex(of: "\"") else { return "" }
        let url = String(html[html.index(html.startIndex, offsetBy: prefix.count)..<quote])
        return isSafe(url, allowingImageData: true) ? html : ""
    }

    /// Whether a link address (as it stands in the attribute) is relative or uses an allowed scheme, after
    /// decoding character references and dropping the white space and control characters browsers ignore.
    static func isSafe(_ url: String, allowingImageData: Bool) -> Bool {
        let decoded = HTMLEscaping.decodeCharacterReferences(url)
        if decoded.range(of: "&[A-Za-z0-9#]+;", options: .regularExpression) != nil {
            return false // a reference that could not be decoded might hide a scheme
        }
        let compact = String(decoded.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }.map(Character.init)).lowercased()
        guard let colon = compact.firstIndex(of: ":") else { return true }
        if let boundary = compact.firstIndex(where: { "/?#".contains($0) }), boundary < colon { return true }
        let scheme = compact[..<colon]
        if ["http", "https", "mailto", "tel"].contains(scheme) { return true }
        return allowingImageData && compact.hasPrefix("data:image/")
    }
}
