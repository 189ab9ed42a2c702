import Research

/// The body of a mail the study sends (an address's confirmation, a reminder), as plain text and as HTML from the same
/// parts: paragraphs, one link shown as a button, and a footer. Every part is escaped in the HTML; the plain text
/// writes the link's URL in full on its own line, so any mail program can open it.
///
/// ```swift
/// let body = ReminderMailBody(language: "en", paragraphs: ["One question about your knee."],
///                             link: (label: "Open the task", url: "https://study.example.org/tasks/pain/3"),
///                             footer: ["You get this because you turned on reminders."])
/// let (text, html) = (body.text, body.html)
/// ```
public struct ReminderMailBody: Sendable {
    /// The language of the text (the HTML's `lang`).
    public var language: String
    /// The message, paragraph by paragraph.
    public var paragraphs: [String]
    /// The link the message is for; nil for none.
    public var link: (label: String, url: String)?
    /// The small print: why the participant gets it and how to stop it.
    public var footer: [String]

    /// Creates a body; see the properties.
    public init(language: String, paragraphs: [String], link: (label: String, url: String)?, footer: [String]) {
        self.language = language
        self.paragraphs = paragraphs
        self.link = link
        self.footer = footer
    }

    /// The plain-text part.
    public var text: String {
        var lines = paragraphs
        if let link { lines.append("\(link.label):\n\(link.url)") }
        if !footer.isEmpty { lines.append("--\n" + footer.joined(separator: "\n")) }
        return lines.joined(separator: "\n\n") + "\n"
    }

    /// The HTML part: a small document with inline styles only (mail programs drop style sheets).
    public var html: String {
        func escaped(_ text: String) -> String { HTMLEscaping.escape(text) }
        var html = "<!DOCTYPE html><html lang=\"\(escaped(language))\"><head><meta charset=\"utf-8\"></head>"
            + "<body style=\"font-family:sans-serif;font-size:16px;line-height:1.5;color:#1a1a1a\">"
        for paragraph in paragraphs { html += "<p>\(escaped(paragraph))</p>" }
        if let link {
            html += "<p><a href=\"\(escaped(link.url))\" style=\"display:inline-block;padding:10px 16px;background:#1F6FB2;color:#fff;"
                + "text-decoration:none;border-radius:6px\">\(escaped(link.label))</a></p>"
        }
        if !footer.isEmpty {
            html += "<hr style=\"border:none;border-top:1px solid #ccc\">"
            for line in footer { html += "<p style=\"font-size:13px;color:#555\">\(escaped(line))</p>" }
        }
        return html + "</body></html>"
    }
}
