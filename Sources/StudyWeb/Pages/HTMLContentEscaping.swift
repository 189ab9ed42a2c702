import Mustache
import Research

/// The HTML escaping of every `{{variable}}` in the participant pages' templates: `&`, `<`, `>`, `"` and `'` become
/// character references, as in swift-mustache's own `HTML` content type, but byte by byte over UTF-8
/// (``HTMLEscaping/escape(_:)``, which the consent documents use too).
///
/// swift-mustache's escaping looks each `Character` up in a dictionary, which cost about a quarter of rendering a home
/// page; and a quote followed by a combining mark is one `Character` that its dictionary does not hold, so that quote
/// stayed raw and could end an attribute value.
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

    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references (``HTMLEscaping/escape(_:)``).
    static func escape(_ text: String) -> String {
        HTMLEscaping.escape(text)
    }
}
