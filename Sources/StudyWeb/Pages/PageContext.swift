import Foundation

/// What a step page needs besides the task session: language and strings, the form's target and CSRF token,
/// the study's name and tint, and how the stylesheet and script reach the browser.
///
/// ```swift
/// let context = PageContext(strings: WebStrings(language: "ja"), csrfToken: token,
///                           formAction: "/runs/\(run)/step", studyName: "Recover", themeTint: "#0a7d6f")
/// ```
public struct PageContext: Sendable {
    /// The page's texts; its ``WebStrings/language`` is the page's `lang`.
    public var strings: WebStrings
    /// The token put in every form's hidden `_csrf` field; the server checks it on the post.
    public var csrfToken: String
    /// Where the step form posts (`action`), such as `/runs/3f2a…/step`.
    public var formAction: String
    /// The study's name, shown in the page header and the document title; nil for none.
    public var studyName: String?
    /// The theme tint, a CSS hex colour (`#0a7d6f` or `#0a7`); nil, or anything that is not a hex colour, keeps the default.
    public var themeTint: String?
    /// Offers typing one's name instead of drawing a signature (an accessibility alternative the study allows).
    public var allowsTypedSignature: Bool
    /// How the stylesheet and script reach the browser. Defaults to inline.
    public var assets: AssetDelivery
    /// Turns a URL from the task (an image, a video) into one the browser can load; relative URLs are relative
    /// to the task file, which only the server knows how to serve. Defaults to the URL as written.
    public var resolveURL: @Sendable (String) -> String
    /// What the page says at its top when the task's texts may show in another language than the page's (a
    /// language the study lets fall back); nil when they do not.
    public var languageNotice: String?
    /// Whether a permissions step's reminder email address (``Research/PermissionKind/email``) has a field: the server
    /// sends email. Without it the step says that this study does not send email, and the participant goes on.
    public var offersReminderEmail: Bool

    /// Creates a page context; see the properties for each setting.
    public init(strings: WebStrings, csrfToken: String, formAction: String, studyName: String? = nil, themeTint: String? = nil,
                allowsTypedSignature: Bool = false, assets: AssetDelivery = .inline,
                resolveURL: @escaping @Sendable (String) -> String = { $0 }, languageNotice: String? = nil,
                offersReminderEmail: Bool = false) {
        self.languageNotice = languageNotice
        self.offersReminderEmail = offersReminderEmail
        self.strings = strings
        self.csrfToken = csrfToken
        self.formAction = formAction
        self.studyName = studyName
        self.themeTint = themeTint
        self.allowsTypedSignature = allowsTypedSignature
        self.assets = assets
        self.resolveURL = resolveURL
    }
}

/// How a page brings its stylesheet and script.
public enum AssetDelivery: Hashable, Sendable {
    /// Both are written into the page: one request, nothing to serve, no caching.
    case inline
    /// The page links `studykit.css` and `studykit.js` under this URL path (such as `/static`), with
    /// ``WebAssets/version`` as a query so that a long cache lifetime is safe; the server serves ``WebAssets``.
    case linked(basePath: String)
}
