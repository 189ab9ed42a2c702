/// The text of a consent section (or of its "learn more" page) in one of three forms.
///
/// In JSON each form has its own key: a section's body is `content` (plain text), `markdownContent` or
/// `htmlContent`; its "learn more" text is `learnMoreContent`, `learnMoreMarkdownContent` or
/// `learnMoreHTMLContent`. At most one key of each group may be present.
public enum ConsentContent: Hashable, Sendable {
    /// Plain text. Rendering escapes it and makes a paragraph of each run of lines between blank lines.
    case plainText(String)
    /// Markdown, rendered with Ink. Raw HTML inside it is shown as text, never interpreted.
    case markdown(String)
    /// HTML written by the study, inserted as it is: the study vouches for it.
    case html(String)

    /// The text as written, whatever its form.
    public var source: String {
        switch self {
        case .plainText(let text), .markdown(let text), .html(let text): text
        }
    }

    /// Whether the text holds nothing but white space.
    public var isBlank: Bool { source.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
}
