import Foundation

/// Builds the view models of the site pages from their public descriptions and a ``SiteContext``: every
/// decision about what a page shows is made here, so that the templates stay logic-less.
struct SitePageBuilder {
    let context: SiteContext

    private var strings: WebStrings { context.strings }

    /// The paths of the header's navigation links.
    static let homePath = "/", settingsPath = "/settings"

    /// A page titled `title` (with the study's name after it in the document title unless `titleNamesStudy`),
    /// around `content`; `current` is the path of the navigation link that leads to this page.
    func page<Content>(_ content: Content, title: String, titleNamesStudy: Bool = false, error: Bool = false,
                       current: String? = nil) -> SitePageView<Content> {
        let parts = titleNamesStudy ? [title] : [title, context.studyName].filter { !$0.isEmpty }
        let documentTitle = (error ? strings[.errorTitlePrefix] + ": " : "") + parts.joined(separator: " – ")
        let navigation = context.navigation ? NavigationView(label: strings[.mainNavigation], links: [
            NavigationLinkView(href: Self.homePath, label: strings[.home], current: current == Self.homePath),
            NavigationLinkView(href: Self.settingsPath, label: strings[.settings], current: current == Self.settingsPath),
        ]) : nil
        return SitePageView(
            shell: PageShell(language: strings.language, documentTitle: documentTitle, themeTint: context.themeTint,
                             assets: context.assets, skipLink: context.navigation ? strings[.skipToContent] : nil),
            siteHeader: SiteHeaderView(studyName: context.studyName, navigation: navigation),
            csrf: context.csrfToken.map { CSRFFieldView(name: StepSubmission.csrfFieldName, token: $0) },
            page: content)
    }

    func home(_ home: HomePage) -> SitePageView<HomeView> {
        let shown = home.onboardingRequired ? home.cards.filter(\.isOnboarding) : home.cards
        let cards = shown.map(cardView)
        let view = HomeView(title: strings[.today], day: home.dayTitle, notice: nonEmpty(home.notice),
                            gate: home.onboardingRequired ? strings[.onboardingGate] : nil, cards: cards, hasCards: !cards.isEmpty,
                            empty: cards.isEmpty && !home.onboardingRequired ? strings[.nothingToday] : nil)
        return page(view, title: strings[.today], current: Self.homePath)
    }

    private func cardView(_ card: TaskCard) -> TaskCardView {
        let (stateClass, stateLabel): (String, String) = switch card.state {
        case .done: ("done", strings[.stateDone])
        case .toDo: ("todo", strings[.stateToDo])
        case .missed: ("missed", strings[.stateMissed])
        case .upcoming: ("later", strings[.stateLater])
        }
        var link: CardLinkView?, checkOff: CheckOffView?
        switch card.action {
        case .start(let url):
            link = CardLinkView(href: url, label: strings[card.resumes ? .resume : .start], context: card.title)
        case .checkOff(let action, let fields):
            checkOff = CheckOffView(action: action,
                                    fields: fields.sorted { $0.key < $1.key }.map { HiddenFieldView(name: $0.key, value: $0.value) },
                                    label: strings[.markAsDone], context: card.title)
        case .none:
            break
        }
        return TaskCardView(title: card.title, instructions: nonEmpty(card.instructions), time: card.timeText,
                            stateClass: stateClass, stateLabel: stateLabel, link: link, checkOff: checkOff)
    }

    func settings(_ settings: SettingsPage) -> SitePageView<SettingsView> {
        let language = settings.languages.count < 2 ? nil : LanguageFormView(
            heading: strings[.language], action: settings.languageFormAction,
            options: settings.languages.enumerated().map { index, language in
                LanguageOptionView(id: "language-\(index + 1)", field: SettingsPage.languageFieldName, code: language.code, name: language.name, checked: language.selected)
            },
            button: strings[.saveLanguage])
        let code = settings.signInCode.map { code in
            ShownCodeView(label: strings[.yourSignInCode], code: code.code,
                          expiry: strings.format(.signInCodeExpiry, ["time": code.expiresText]),
                          instructions: strings.format(.signInCodeInstructions, ["address": settings.signInAddress]))
        }
        let signIn = SignInCodeView(heading: strings[.signInElsewhere], intro: strings[.signInCodeIntro],
                                    action: settings.signInCodeFormAction,
                                    button: strings[code == nil ? .getSignInCode : .getNewSignInCode], code: code)
        let consent: ConsentView? = switch settings.consentPDF {
        case .ready(let url):
            ConsentView(heading: strings[.signedConsent], download: LinkView(href: url, label: strings[.consentDownload]), note: nil)
        case .pending: ConsentView(heading: strings[.signedConsent], download: nil, note: strings[.consentPending])
        case .failed: ConsentView(heading: strings[.signedConsent], download: nil, note: strings[.consentFailed])
        case .none: nil
        }
        let browsers = settings.browsers.isEmpty ? nil : BrowsersView(
            heading: strings[.browsersHeading], intro: strings[.browsersIntro],
            items: settings.browsers.map { browser in
                BrowserView(details: strings.format(.browserDetails, ["signedIn": browser.signedInText, "lastUsed": browser.lastUsedText]),
                            current: browser.signOutFormAction == nil ? strings[.thisBrowser] : nil,
                            signOut: browser.signOutFormAction.map { SignOutView(action: $0, button: strings[.signOutBrowser]) })
            })
        let view = SettingsView(title: strings[.settings], participantHeading: strings[.participant],
                                participantLabel: settings.participantLabel, language: language, signIn: signIn,
                                browsers: browsers, consent: consent)
        return page(view, title: strings[.settings], current: Self.settingsPath)
    }

    func join(_ join: JoinPage) -> SitePageView<JoinView> {
        var zones = join.timeZones
        if !zones.contains(join.defaultTimeZone) { zones.insert(join.defaultTimeZone, at: 0) }
        let title = strings.format(.joinTitle, ["study": context.studyName])
        let view = JoinView(
            title: title, welcome: paragraphs(join.welcome), action: join.formAction, label: strings[.timeZone], hint: strings[.timeZoneHint],
            zones: zones.map { zone in
                SelectOptionView(value: zone, label: zone.replacingOccurrences(of: "_", with: " "), selected: zone == join.defaultTimeZone)
            },
            button: strings[.joinStudy])
        return page(view, title: title, titleNamesStudy: true)
    }

    func signIn(_ signIn: SignInPage) -> SitePageView<SignInView> {
        let error = nonEmpty(signIn.error)
        let view = SignInView(title: strings[.signIn], intro: strings[.signInIntro], action: signIn.formAction, label: strings[.signInCode],
                              error: error, inputmode: signIn.numericCode ? "numeric" : "text", button: strings[.signIn])
        return page(view, title: strings[.signIn], error: error != nil)
    }

    func message(_ message: MessagePage) -> SitePageView<MessageView> {
        let view = MessageView(title: message.title, paragraphs: paragraphs(message.text),
                               link: message.link.map { LinkView(href: $0.url, label: $0.label) })
        return page(view, title: message.title)
    }

    /// The non-empty lines of `text`, each a paragraph.
    private func paragraphs(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `text` unless it is nil or blank (only white space and line breaks, the characters that trimming
    /// `.whitespacesAndNewlines` removes). Checked on the scalars: Foundation's trimming bridges through NSString,
    /// which cost a tenth of a home page.
    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.unicodeScalars.allSatisfy(\.properties.isWhitespace) else { return nil }
        return text
    }
}
