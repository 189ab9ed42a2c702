import Foundation
import Research

/// Renders a consent document as HTML: one complete, print-ready page (title, sections, signature page), or
/// only the document body for the review step.
///
/// Everything the study wrote as text is escaped; Markdown goes through ``SafeMarkdown``; only the study's
/// own HTML (`htmlContent`, `reviewHTML`) is inserted as it is. Dates use the context's locale, time zone and
/// calendar, and names follow the participant's language (``PrintedName``).
///
/// ```swift
/// let renderer = ConsentReviewRenderer(context: ConsentContext(locale: locale, timeZone: zone, calendar: calendar))
/// let page = renderer.page(for: try document.applying(signatureResult))
/// ```
public struct ConsentReviewRenderer: Hashable, Sendable {
    /// The strings, language, locale, time zone and calendar used.
    public var context: ConsentContext

    /// Creates a renderer for `context`.
    public init(context: ConsentContext) { self.context = context }

    /// The whole document as one HTML page: `<!doctype html>`, the language, UTF-8, a print stylesheet for A4
    /// with fonts for the language, the document body, then the signature page.
    public func page(for document: ConsentDocument) -> String {
        let language = context.language(for: document)
        return """
        <!doctype html>
        <html lang="\(HTMLEscaping.escape(language))">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLEscaping.escape(document.title))</title>
        <style>
        \(Self.stylesheet(language: language))
        </style>
        </head>
        <body>
        \(documentBody(for: document))
        \(signaturePage(for: document))
        </body>
        </html>

        """
    }

    /// The document without its signature page, as an `<article>` fragment for the review step: the study's
    /// ``ConsentDocument/reviewHTML`` when set, otherwise the title and every section not omitted from the document.
    public func documentBody(for document: ConsentDocument) -> String {
        let language = context.language(for: document)
        var html = "<article class=\"consent-document\" lang=\"\(HTMLEscaping.escape(language))\">\n"
        if let reviewHTML = document.reviewHTML {
            html += reviewHTML + "\n"
        } else {
            html += "<h1>\(HTMLEscaping.escape(document.title))</h1>\n"
            for section in document.documentSections {
                html += "<section class=\"consent-section consent-section-\(section.type.rawValue)\">\n"
                if let title = section.documentTitle(language: language, strings: context.strings) {
                    html += "<h2>\(HTMLEscaping.escape(title))</h2>\n"
                }
                if let content = section.content {
                    html += content.html + "\n"
                } else if let summary = section.summary {
                    html += HTMLEscaping.paragraphs(fromPlainText: summary) + "\n"
                }
                html += "</section>\n"
            }
        }
        return html + "</article>"
    }

    /// The signature page: its title (or the localized default), its content, and one block per signature with
    /// the signature's title, the drawing as inline SVG, the printed name and the date. A signature not yet
    /// signed shows empty lines to sign on paper.
    public func signaturePage(for document: ConsentDocument) -> String {
        let language = context.language(for: document)
        let strings = context.strings
        let title = document.signaturePageTitle ?? strings.string(.signaturePageTitle, language: language)
        var html = "<section class=\"signature-page\" lang=\"\(HTMLEscaping.escape(language))\">\n"
        html += "<h2>\(HTMLEscaping.escape(title))</h2>\n"
        if let content = document.signaturePageContent {
            html += HTMLEscaping.paragraphs(fromPlainText: content) + "\n"
        }
        for signature in document.signatures {
            html += "<div class=\"signature-block\" data-signature=\"\(HTMLEscaping.escape(signature.identifier))\">\n"
            if let heading = signature.title {
                html += "<h3>\(HTMLEscaping.escape(heading))</h3>\n"
            }
            let name = PrintedName.format(givenName: signature.givenName, familyName: signature.familyName, language: language)
            if signature.requiresSignatureImage {
                let label = strings.string(.signatureLabel, language: language)
                html += "<div class=\"signature-drawing\">"
                if let drawing = signature.signature, !drawing.isEmpty {
                    html += SignatureSVG.svg(for: drawing, label: name.isEmpty ? label : "\(label): \(name)")
                } else {
                    html += "<div class=\"signature-blank\"></div>"
                }
                html += "</div>\n<p class=\"signature-caption\">\(HTMLEscaping.escape(label))</p>\n"
            }
            html += "<dl class=\"signature-details\">\n"
            if signature.requiresName {
                html += "<dt>\(HTMLEscaping.escape(strings.string(.printedNameLabel, language: language)))</dt>"
                html += "<dd class=\"signature-name\">\(HTMLEscaping.escape(name))</dd>\n"
            }
            html += "<dt>\(HTMLEscaping.escape(strings.string(.meaningLabel, language: language)))</dt>"
            html += "<dd class=\"signature-meaning\">\(HTMLEscaping.escape(signature.meaning))</dd>\n"
            html += "<dt>\(HTMLEscaping.escape(strings.string(.dateLabel, language: language)))</dt>"
            html += "<dd class=\"signature-date\">\(signature.signedDate.map { HTMLEscaping.escape(formattedDate($0, format: signature.dateFormat)) } ?? "")</dd>\n"
            html += "</dl>\n</div>\n"
        }
        return html + "</section>"
    }

    /// `date` as the signature page shows it: with the Unicode date pattern `format` (such as `yyyy-MM-dd HH:mm`),
    /// or the locale's medium date style when nil; in the context's locale, time zone and calendar.
    public func formattedDate(_ date: Date, format: String?) -> String {
        let formatter = DateFormatter()
        var calendar = context.calendar
        calendar.timeZone = context.timeZone
        formatter.locale = context.locale
        formatter.calendar = calendar
        formatter.timeZone = context.timeZone
        if let format {
            formatter.dateFormat = format
        } else {
            formatter.dateStyle = .medium
            formatter.timeStyle = .none
        }
        return formatter.string(from: date)
    }

    /// The font families for `language`, best first: the Noto CJK face of the language for Chinese, Japanese and
    /// Korean (Debian's fonts-noto-cjk), common system faces, then a generic family.
    public static func fontStack(language: String) -> String {
        let tag = ConsentStrings.normalize(language)
        let parts = tag.split(separator: "-").map(String.init)
        let subtags = Set(parts.dropFirst())
        switch parts.first ?? "" {
        case "ja": return "\"Noto Sans CJK JP\", \"Noto Sans JP\", \"Hiragino Sans\", \"Yu Gothic\", sans-serif"
        case "ko": return "\"Noto Sans CJK KR\", \"Noto Sans KR\", \"Apple SD Gothic Neo\", \"Malgun Gothic\", sans-serif"
        case "zh":
            if !subtags.isDisjoint(with: ["Hant", "TW", "MO"]) {
                return "\"Noto Sans CJK TC\", \"Noto Sans TC\", \"PingFang TC\", \"Microsoft JhengHei\", sans-serif"
            }
            if subtags.contains("HK") { return "\"Noto Sans CJK HK\", \"Noto Sans CJK TC\", \"PingFang HK\", sans-serif" }
            return "\"Noto Sans CJK SC\", \"Noto Sans SC\", \"PingFang SC\", \"Microsoft YaHei\", sans-serif"
        default:
            return "\"Noto Sans\", \"Helvetica Neue\", Arial, \"Noto Sans CJK JP\", sans-serif"
        }
    }

    /// The page's CSS: readable on a phone, and on paper A4 with margins, the signature page on a page of its
    /// own, and no signature block split across pages.
    public static func stylesheet(language: String) -> String {
        """
        @page { size: A4; margin: 20mm 18mm 24mm 18mm; }
        html { color: #111; background: #fff; }
        body { font-family: \(fontStack(language: language)); font-size: 11pt; line-height: 1.6; max-width: 44em; margin: 0 auto; padding: 1.25em; }
        h1 { font-size: 1.6em; line-height: 1.25; margin: 0 0 0.8em; }
        h2 { font-size: 1.2em; margin: 1.4em 0 0.4em; break-after: avoid; }
        h3 { font-size: 1.05em; margin: 0 0 0.4em; }
        p, li { orphans: 2; widows: 2; }
        img { max-width: 100%; height: auto; }
        .signature-page { break-before: page; }
        .signature-block { break-inside: avoid; margin-top: 1.6em; padding-top: 0.8em; border-top: 1px solid #888; }
        .signature-drawing { width: 70mm; max-width: 100%; border-bottom: 1px solid #111; }
        .signature-drawing svg { display: block; width: 100%; height: auto; color: #0a1f5c; }
        .signature-blank { height: 20mm; }
        .signature-caption { margin: 0.2em 0 0.6em; font-size: 0.85em; color: #444; }
        .signature-details { display: grid; grid-template-columns: max-content 1fr; gap: 0.3em 1em; margin: 0; }
        .signature-details dt { color: #444; }
        .signature-details dd { margin: 0; min-height: 1.4em; border-bottom: 1px dotted #888; }
        @media print { body { max-width: none; padding: 0; } a { color: inherit; } }
        """
    }
}
