import Foundation
import Research

extension ConsentContent {
    /// The content as an HTML fragment: plain text escaped into paragraphs, Markdown rendered by
    /// ``SafeMarkdown`` (raw HTML in it stays inert; its headings start at `<h3>`, under the section's `<h2>`),
    /// and the study's HTML as it is.
    public var html: String {
        switch self {
        case .plainText(let text): HTMLEscaping.paragraphs(fromPlainText: text)
        case .markdown(let text): SafeMarkdown.html(from: text, headingOffset: 2)
        case .html(let text): text
        }
    }

    /// The content as readable plain text, for front ends that cannot show HTML.
    public var plainText: String {
        switch self {
        case .plainText(let text): text
        case .markdown, .html: HTMLEscaping.plainText(fromHTML: html)
        }
    }
}
