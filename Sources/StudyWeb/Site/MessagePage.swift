/// A page that only says something: an error (not found, an expired invitation, a refused request) or the end
/// of a run, with an optional link onwards.
///
/// ```swift
/// let page = MessagePage(title: "Page not found", text: "This address does not lead anywhere.",
///                        link: (label: "Go to today's tasks", url: "/"))
/// ```
public struct MessagePage: Sendable {
    /// The page's heading, also in the document title.
    public var title: String
    /// The message; each line is a paragraph.
    public var text: String
    /// A link onwards, shown as a button; nil for none.
    public var link: (label: String, url: String)?

    /// Creates a message page; see the properties for each part.
    public init(title: String, text: String, link: (label: String, url: String)?) {
        self.title = title
        self.text = text
        self.link = link
    }
}
