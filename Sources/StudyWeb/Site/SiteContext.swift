/// What a page that is not a task step needs besides its content: language and strings, the CSRF token for its
/// forms, the study's name and tint, how the stylesheet and script reach the browser, and whether the header
/// offers the signed-in participant's navigation.
///
/// ```swift
/// let context = SiteContext(strings: WebStrings(language: "ja"), csrfToken: session.csrfToken, studyName: "Recover",
///                           themeTint: "#0a7d6f", navigation: true)
/// let html = renderer.home(page, context: context)
/// ```
public struct SiteContext: Sendable {
    /// The page's texts; its ``WebStrings/language`` is the page's `lang`.
    public var strings: WebStrings
    /// The token put in every form's hidden `_csrf` field; nil for pages shown before there is a session (join,
    /// sign-in, most messages), whose forms then carry none.
    public var csrfToken: String?
    /// The study's name, shown in the page header and the document title.
    public var studyName: String
    /// The theme tint, a CSS hex colour (`#0a7d6f` or `#0a7`); nil, or anything that is not a hex colour, keeps the default.
    public var themeTint: String?
    /// How the stylesheet and script reach the browser. Defaults to inline.
    public var assets: AssetDelivery
    /// Shows the links Home (`/`) and Settings (`/settings`) in the header: true for a signed-in participant.
    public var navigation: Bool
    /// Adds Insights (`/insights`) to the header's links: the study has charts.
    public var hasInsights: Bool
    /// The study's logo, shown before its name in the header; nil for none.
    public var logoURL: String?
    /// What the page says at its top when the study's own texts may show in another language than the page's (a
    /// language the study lets fall back); nil when they do not.
    public var languageNotice: String?

    /// Creates a site page context; see the properties for each setting.
    public init(strings: WebStrings, csrfToken: String?, studyName: String, themeTint: String? = nil,
                assets: AssetDelivery = .inline, navigation: Bool, hasInsights: Bool = false, logoURL: String? = nil,
                languageNotice: String? = nil) {
        self.languageNotice = languageNotice
        self.strings = strings
        self.csrfToken = csrfToken
        self.studyName = studyName
        self.themeTint = themeTint
        self.assets = assets
        self.navigation = navigation
        self.hasInsights = hasInsights
        self.logoURL = logoURL
    }
}
