import Mustache

/// Renders the participant pages that are not task steps: home ("Today"), settings, join (an invitation link's
/// landing page), sign-in on a second device, and messages (errors, a finished run). Each is a complete HTML
/// document in the same frame as the step pages: one stylesheet and one script (inline or linked), the study's
/// tint, a header with the study's name and, for a signed-in participant, the links Home and Settings.
///
/// Create one renderer when the server starts (it parses the templates once) and share it:
///
/// ```swift
/// let renderer = try SitePageRenderer()
/// let context = SiteContext(strings: WebStrings(language: "en"), csrfToken: token, studyName: "Recover", navigation: true)
/// let html = renderer.home(HomePage(dayTitle: "Sunday, 22 November", onboardingRequired: true, cards: cards), context: context)
/// ```
///
/// Every text is HTML-escaped, whether it comes from the study, the participant or the server. Forms that post
/// carry the context's CSRF token in the hidden field `_csrf` when the context has one.
public struct SitePageRenderer: Sendable {
    private let library: MustacheLibrary
    private let frames = SiteFrameCache()

    /// The templates, by name, as shipped under `Resources/templates`: the shared layout, the site frame, and one per page.
    static let templateNames = TemplateLibrary.layoutNames + ["site", "home", "contacts", "confirm", "insights", "article", "settings", "reminders", "join", "signin", "message"]

    /// Parses the templates; throws ``StepPageError/template(_:_:)`` when one is missing or malformed (a build mistake).
    public init() throws(StepPageError) {
        library = try TemplateLibrary.load(Self.templateNames)
    }

    /// The home page: the day, then today's task cards with their state and action, or only the onboarding card
    /// while onboarding is required; a notice, when given, is announced politely.
    public func home(_ page: HomePage, context: SiteContext) -> String {
        String(decoding: homeUTF8(page, context: context), as: UTF8.self)
    }

    /// The home page as ``home(_:context:)`` writes it, as the UTF-8 bytes a server sends: the page made afresh after
    /// each of a participant's actions is written once, frame and content, with no string made of it on the way.
    public func homeUTF8(_ page: HomePage, context: SiteContext) -> [UInt8] {
        let builder = SitePageBuilder(context: context)
        let view = builder.homeFrame(builder.homeView(page))
        let frame = frames.frame(for: SiteFrameCache.Key(shell: view.shell, header: view.siteHeader)) {
            render(SitePageView(shell: view.shell, siteHeader: view.siteHeader, csrf: nil,
                                page: DailyPageMarkup(html: SiteFrameCache.marker)), template: "home")
        }
        guard let frame else { return Array(render(builder.markup(view), template: "home").utf8) }
        var html: [UInt8] = []
        html.reserveCapacity(frame.before.count + 8_192 + frame.after.count)
        html.append(contentsOf: frame.before)
        DailyPageHTML.write(view.page, csrf: view.csrf, to: &html)
        html.append(contentsOf: frame.after)
        return html
    }

    /// The home page through the templates alone, frame included, as ``home(_:context:)`` would write it without the
    /// frames it keeps: what the tests hold it to.
    func homeThroughTemplates(_ page: HomePage, context: SiteContext) -> String {
        render(SitePageBuilder(context: context).home(page), template: "home")
    }

    /// The contacts page, or one contact's page: names, titles, roles, and links that call, message, email or map.
    public func contacts(_ page: ContactsPage, context: SiteContext) -> String {
        render(SitePageBuilder(context: context).contacts(page), template: "contacts")
    }

    /// The insights page: each chart as inline SVG with its legend and a table of its numbers, and the periods around.
    public func insights(_ page: InsightsPage, context: SiteContext) -> String {
        render(SitePageBuilder(context: context).insights(page), template: "insights")
    }

    /// A featured card's article: its title, image and HTML (made safe by the caller).
    public func article(_ page: ArticlePage, context: SiteContext) -> String {
        render(SitePageBuilder(context: context).article(page), template: "article")
    }

    /// A page that asks before something is taken back, with a button that posts and a Cancel link.
    public func confirm(_ page: ConfirmPage, context: SiteContext) -> String {
        render(SitePageBuilder(context: context).confirm(page), template: "confirm")
    }

    /// The settings page: the participant's label, the language form, a one-time code for another device, and the
    /// signed consent PDF.
    public func settings(_ page: SettingsPage, context: SiteContext) -> String {
        render(SitePageBuilder(context: context).settings(page), template: "settings")
    }

    /// The reminders page: which reminders, quiet hours, and the channels that carry them.
    public func reminders(_ page: ReminderSettingsPage, context: SiteContext) -> String {
        render(SitePageBuilder(context: context).reminders(page), template: "reminders")
    }

    /// The join page an invitation link opens: the study's welcome and a form with the participant's time zone.
    public func join(_ page: JoinPage, context: SiteContext) -> String {
        render(SitePageBuilder(context: context).join(page), template: "join")
    }

    /// The sign-in page for a second device: a one-time code field, with the last attempt's error when given.
    public func signIn(_ page: SignInPage, context: SiteContext) -> String {
        render(SitePageBuilder(context: context).signIn(page), template: "signin")
    }

    /// A page with a title, a text and an optional link: errors and the end of a run.
    public func message(_ page: MessagePage, context: SiteContext) -> String {
        render(SitePageBuilder(context: context).message(page), template: "message")
    }

    /// `view` through the template `name`, which ``init()`` registered.
    private func render(_ view: some Any, template name: String) -> String {
        guard let html = library.render(view, withTemplate: name) else {
            preconditionFailure("template '\(name)' is registered by SitePageRenderer.init")
        }
        return html
    }
}
