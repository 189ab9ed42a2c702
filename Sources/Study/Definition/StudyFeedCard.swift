import Foundation

/// A card of the daily page that is not a task, as CareKit's content views: a tip (the code-along's banner), a
/// featured article with its image, or a list of links. They follow today's task cards.
///
/// ```yaml
/// feed:
///   - {id: tip, kind: tip, title: Benefits of exercising, text: Gentle exercise every day speeds recovery.}
///   - {id: recovery, kind: featured, title: Your first weeks, image: images/knee.svg, article: articles/first-weeks.md}
///   - id: help
///     kind: links
///     title: Get help
///     links: [{type: website, label: Study website, url: "https://example.org"}, {type: call, label: Clinic, phone: "+1 555 0100"}]
/// ```
public struct StudyFeedCard: Hashable, Sendable, Identifiable {
    /// One link of a links card.
    public struct Link: Hashable, Sendable {
        /// What the link does.
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            /// A web page (`url`, http or https).
            case website
            /// A phone call (`phone`).
            case call
            /// A text message (`phone`).
            case message
            /// An email (`email`).
            case email
            /// A place on a map (`address`).
            case map
        }

        /// What the link does.
        public var kind: Kind
        /// Its label.
        public var label: String
        /// The URL, number, address or place, as the kind needs.
        public var value: String

        /// Creates a link.
        public init(kind: Kind, label: String, value: String) {
            self.kind = kind
            self.label = label
            self.value = value
        }
    }

    /// What the card holds.
    public enum Content: Hashable, Sendable {
        /// A short text (CareKit's custom content card, the code-along's tip).
        case tip(text: String)
        /// An article in Markdown, opened from the card on a page of its own.
        case featured(markdown: String)
        /// Links that open a website, a call, a message, an email or a map.
        case links([Link])
    }

    /// The card's identifier in the study; unique (a featured article's page is `/articles/ID`).
    public var id: String
    /// Its title.
    public var title: String
    /// The file of its image in the study folder (``StudyDefinition/images``), if any.
    public var image: String?
    /// What it holds.
    public var content: Content

    /// Creates a card; see the properties.
    public init(id: String, title: String, image: String? = nil, content: Content) {
        self.id = id
        self.title = title
        self.image = image
        self.content = content
    }
}

/// An image of the study folder that participants' pages show (a feed card's, the theme's logo), read at load.
public struct StudyImage: Hashable, Sendable {
    /// The file's bytes.
    public var data: Data
    /// Its media type, from its extension.
    public var contentType: String

    /// The media types of the extensions an image may have.
    public static let contentTypes = ["png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
                                      "webp": "image/webp", "svg": "image/svg+xml"]
    /// The largest image a study may show, in bytes: pages stay light on a phone.
    public static let maximumBytes = 512 * 1024

    /// Creates an image.
    public init(data: Data, contentType: String) {
        self.data = data
        self.contentType = contentType
    }
}
