import StudyKitEnvironment

/// The site frame of the daily page (the document's head, the header with the study's name and navigation, the end
/// of the body) rendered through the `site` template once per distinct frame and kept, so that making the page
/// afresh writes only its content.
///
/// The frame depends only on what ``Key`` holds (the language, the document title, the tint, the assets, the
/// header); the content is written around a marker that no template output contains, and a frame whose rendering
/// does not hold the marker exactly once is not kept. The cache holds at most ``capacity`` frames and starts
/// afresh when full (a title per day visited, per language).
final class SiteFrameCache: Sendable {
    /// Everything a frame is made from.
    struct Key: Hashable, Sendable {
        let lang: String
        let documentTitle: String
        let tint: String?
        /// Whether the stylesheet and script are inline (their text is the same for every page).
        let inlineAssets: Bool
        let cssURL: String?
        let jsURL: String?
        let skipLink: String?
        let languageNotice: String?
        let studyName: String
        let logoURL: String?
        let navigation: NavigationView?

        init(shell: PageShell, header: SiteHeaderView) {
            lang = shell.lang
            documentTitle = shell.documentTitle
            tint = shell.tint
            inlineAssets = shell.inlineCSS != nil || shell.inlineJS != nil
            cssURL = shell.cssURL
            jsURL = shell.jsURL
            skipLink = shell.skipLink
            languageNotice = shell.languageNotice
            studyName = header.studyName
            logoURL = header.logoURL
            navigation = header.navigation
        }
    }

    /// The frame's HTML before the content and after it, as UTF-8.
    struct Frame: Sendable {
        let before: [UInt8]
        let after: [UInt8]
    }

    /// Most frames kept at once.
    static let capacity = 512
    /// What the content is rendered as to find where it goes: control characters never reach a page, since every
    /// text a template writes comes from a study folder or a form that refuses them.
    static let marker = "\u{1}studykit-content\u{1}"

    private let frames = KeptValues<Key, Frame>(capacity: capacity)

    /// The frame for `key`: kept, or made by `render` (which renders the page with ``marker`` as its content) and
    /// kept; nil when the rendering does not hold the marker exactly once.
    func frame(for key: Key, render: () -> String) -> Frame? {
        if let frame = frames[key] { return frame }
        let parts = render().split(separator: Self.marker, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let frame = Frame(before: Array(parts[0].utf8), after: Array(parts[1].utf8))
        frames.keep(frame, for: key)
        return frame
    }
}
