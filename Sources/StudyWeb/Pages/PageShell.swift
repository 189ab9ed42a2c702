import Foundation

/// What every participant page's frame shows, whatever its content: language, document title, the theme tint,
/// the stylesheet and script (inline or linked), and an optional skip link. The `layout` template reads it.
struct PageShell {
    let lang: String
    let documentTitle: String
    let tint: String?
    let inlineCSS: String?
    let inlineJS: String?
    let cssURL: String?
    let jsURL: String?
    /// The text of the "skip to content" link before the header; nil for pages whose header holds no links.
    let skipLink: String?
    /// What the page says when the study's own texts on it may be in another language; nil when they are not.
    let languageNotice: String?
    /// The class of the page's `body`: `console` for the study team's pages, which use the width of a desk's screen;
    /// nil for a participant's.
    let bodyClass: String?

    /// The frame of a page in `language` titled `documentTitle`; `themeTint` is used only when it is a hex colour.
    init(language: String, documentTitle: String, themeTint: String?, assets: AssetDelivery, skipLink: String? = nil,
         languageNotice: String? = nil, bodyClass: String? = nil) {
        self.lang = language
        self.bodyClass = bodyClass
        self.documentTitle = documentTitle
        self.tint = Self.validatedTint(themeTint)
        self.skipLink = skipLink
        self.languageNotice = languageNotice
        switch assets {
        case .inline:
            inlineCSS = WebAssets.stylesheet
            inlineJS = WebAssets.script
            cssURL = nil
            jsURL = nil
        case .linked(let base):
            let root = base.hasSuffix("/") ? String(base.dropLast()) : base
            inlineCSS = nil
            inlineJS = nil
            cssURL = "\(root)/studykit.css?v=\(WebAssets.version)"
            jsURL = "\(root)/studykit.js?v=\(WebAssets.version)"
        }
    }

    /// `tint` when it is a CSS hex colour of 3, 4, 6 or 8 digits; nil otherwise, so nothing else reaches the style sheet.
    static func validatedTint(_ tint: String?) -> String? {
        guard var tint else { return nil }
        // Bytes, not characters: a hex digit is ASCII, and the check runs for every page.
        if !isHexColour(tint.utf8) { tint = tint.trimmingCharacters(in: .whitespaces) }
        return isHexColour(tint.utf8) ? tint : nil
    }

    /// `#` and 3, 4, 6 or 8 hex digits.
    private static func isHexColour(_ bytes: String.UTF8View) -> Bool {
        switch bytes.count {
        case 4, 5, 7, 9: bytes.first == UInt8(ascii: "#") && bytes.dropFirst().allSatisfy(isHexDigit)
        default: false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }
}
