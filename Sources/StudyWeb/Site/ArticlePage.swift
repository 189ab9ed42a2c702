/// A featured card's article on a page of its own: its title, its image, and its text as HTML.
public struct ArticlePage: Sendable {
    /// The article's title.
    public var title: String
    /// Its image's URL, if any.
    public var imageURL: String?
    /// Its text as HTML, which the caller made safe (the server renders the study's Markdown with SafeMarkdown, where
    /// raw HTML stays inert); put on the page as it is.
    public var html: String

    /// Creates an article page.
    public init(title: String, imageURL: String?, html: String) {
        self.title = title
        self.imageURL = imageURL
        self.html = html
    }
}
