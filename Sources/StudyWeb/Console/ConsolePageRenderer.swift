import Mustache

/// Renders the study team's console: sign-in, setting a password from a one-time link, enrolment, a participant's
/// page, the account page and messages. Each page is a complete HTML document in the participant pages' frame (one
/// stylesheet and script, no outside resource), in English, with the console's own navigation.
///
/// ```swift
/// let renderer = try ConsolePageRenderer()
/// let context = ConsoleContext(studyName: "Recover", researcher: "ana@example.org · investigator", csrfToken: token)
/// let html = renderer.enrolment(ConsoleEnrolmentView(counts: counts, participants: rows, exports: links), context: context)
/// ```
public struct ConsolePageRenderer: Sendable {
    private let library: MustacheLibrary

    /// The console's paths in its navigation.
    public static let homePath = "/console", invitationsPath = "/console/invitations", researchersPath = "/console/researchers",
                      accountPath = "/console/account"

    static let templateNames = TemplateLibrary.layoutNames + ["site", "console-table", "console-signin", "console-password", "console-home",
                                                              "console-participant", "console-account", "console-message",
                                                              "console-button", "console-invitations", "console-researchers"]

    /// Parses the templates; throws ``StepPageError/template(_:_:)`` when one is missing or malformed (a build mistake).
    public init() throws(StepPageError) {
        library = try TemplateLibrary.load(Self.templateNames)
    }

    /// The sign-in page.
    public func signIn(_ view: ConsoleSignInView, context: ConsoleContext) -> String {
        render(view, title: "Sign in", template: "console-signin", context: context)
    }

    /// The page a one-time password link opens.
    public func password(_ view: ConsolePasswordView, context: ConsoleContext) -> String {
        render(view, title: "Set your password", template: "console-password", context: context)
    }

    /// The enrolment page.
    public func enrolment(_ view: ConsoleEnrolmentView, context: ConsoleContext) -> String {
        render(view, title: "Enrolment", template: "console-home", context: context, current: Self.homePath)
    }

    /// A participant's page.
    public func participant(_ view: ConsoleParticipantView, context: ConsoleContext) -> String {
        render(view, title: "Participant \(view.id)", template: "console-participant", context: context)
    }

    /// The invitations page.
    public func invitations(_ view: ConsoleInvitationsView, context: ConsoleContext) -> String {
        render(view, title: "Invitations", template: "console-invitations", context: context, current: Self.invitationsPath)
    }

    /// The researchers page.
    public func researchers(_ view: ConsoleResearchersView, context: ConsoleContext) -> String {
        render(view, title: "Researchers", template: "console-researchers", context: context, current: Self.researchersPath)
    }

    /// The signed-in researcher's account page.
    public func account(_ view: ConsoleAccountView, context: ConsoleContext) -> String {
        render(view, title: "Your account", template: "console-account", context: context, current: Self.accountPath)
    }

    /// A message: a refusal, or what just happened.
    public func message(_ view: ConsoleMessageView, context: ConsoleContext) -> String {
        render(view, title: view.title, template: "console-message", context: context)
    }

    private func render<Content>(_ content: Content, title: String, template: String, context: ConsoleContext, current: String? = nil) -> String {
        let navigation = context.researcher == nil ? nil : NavigationView(label: "Console", links: [
            NavigationLinkView(href: Self.homePath, label: "Enrolment", current: current == Self.homePath),
            context.managesInvitations ? NavigationLinkView(href: Self.invitationsPath, label: "Invitations", current: current == Self.invitationsPath) : nil,
            context.managesResearchers ? NavigationLinkView(href: Self.researchersPath, label: "Researchers", current: current == Self.researchersPath) : nil,
            NavigationLinkView(href: Self.accountPath, label: "Account", current: current == Self.accountPath),
        ].compactMap { $0 })
        let view = SitePageView(
            shell: PageShell(language: "en", documentTitle: "\(title) – \(context.studyName) console", themeTint: nil, assets: context.assets,
                             skipLink: navigation == nil ? nil : "Skip to content", bodyClass: "console"),
            siteHeader: SiteHeaderView(studyName: context.studyName + " · console", logoURL: nil, navigation: navigation),
            csrf: context.csrfToken.map { CSRFFieldView(name: StepSubmission.csrfFieldName, token: $0) },
            page: content)
        guard let html = library.render(view, withTemplate: template) else {
            preconditionFailure("template '\(template)' is registered by ConsolePageRenderer.init")
        }
        return html
    }
}
