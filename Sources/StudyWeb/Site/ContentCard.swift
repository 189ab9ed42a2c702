/// A card of the daily page that is not a task, as CareKit's content views show them.
public struct ContentCard: Sendable {
    /// What the card holds.
    public enum Body: Sendable {
        /// A short text; each line a paragraph.
        case tip(String)
        /// An article, opened on its own page at this URL.
        case featured(url: String)
        /// Links, each labelled with its own label.
        case links([ReachLink])
    }

    /// The card's title.
    public var title: String
    /// Its image's URL, if any (shown without alternative text: the title says what the card is).
    public var imageURL: String?
    /// What it holds.
    public let body: Body
    /// A tip's paragraphs, split once: a card is made when the study is loaded and shown on every daily page.
    let tipParagraphs: [String]

    /// Creates a content card.
    public init(title: String, imageURL: String?, body: Body) {
        self.title = title
        self.imageURL = imageURL
        self.body = body
        if case .tip(let text) = body { tipParagraphs = Paragraphs.split(text) } else { tipParagraphs = [] }
    }
}
