import Foundation
import Research

/// Builds the view models of the site pages from their public descriptions and a ``SiteContext``: every
/// decision about what a page shows is made here, so that the templates stay logic-less.
struct SitePageBuilder {
    let context: SiteContext

    var strings: WebStrings { context.strings }

    /// The paths of the header's navigation links.
    static let homePath = "/", insightsPath = "/insights", contactsPath = "/contacts", settingsPath = "/settings"

    /// A page titled `title` (with the study's name after it in the document title unless `titleNamesStudy`),
    /// around `content`; `current` is the path of the navigation link that leads to this page.
    func page<Content>(_ content: Content, title: String, titleNamesStudy: Bool = false, error: Bool = false,
                       current: String? = nil) -> SitePageView<Content> {
        let parts = titleNamesStudy ? [title] : [title, context.studyName].filter { !$0.isEmpty }
        let documentTitle = (error ? strings[.errorTitlePrefix] + ": " : "") + parts.joined(separator: " – ")
        let navigation = context.navigation ? NavigationView(label: strings[.mainNavigation], links: [
            NavigationLinkView(href: Self.homePath, label: strings[.home], current: current == Self.homePath),
            context.hasInsights ? NavigationLinkView(href: Self.insightsPath, label: strings[.insights], current: current == Self.insightsPath) : nil,
            NavigationLinkView(href: Self.contactsPath, label: strings[.contacts], current: current == Self.contactsPath),
            NavigationLinkView(href: Self.settingsPath, label: strings[.settings], current: current == Self.settingsPath),
        ].compactMap { $0 }) : nil
        return SitePageView(
            shell: PageShell(language: strings.language, documentTitle: documentTitle, themeTint: context.themeTint,
                             assets: context.assets, skipLink: context.navigation ? strings[.skipToContent] : nil,
                             languageNotice: context.languageNotice),
            siteHeader: SiteHeaderView(studyName: context.studyName, logoURL: context.logoURL, navigation: navigation),
            csrf: context.csrfToken.map { CSRFFieldView(name: StepSubmission.csrfFieldName, token: $0) },
            page: content)
    }

    func home(_ home: HomePage) -> SitePageView<DailyPageMarkup> {
        markup(homeFrame(homeView(home)))
    }

    /// The daily page in its frame with its content written to HTML, for the `home` template.
    func markup(_ page: SitePageView<HomeView>) -> SitePageView<DailyPageMarkup> {
        SitePageView(shell: page.shell, siteHeader: page.siteHeader, csrf: page.csrf,
                     page: DailyPageMarkup(html: DailyPageHTML.write(page.page, csrf: page.csrf)))
    }

    /// The daily page's view model in its site frame: the frame's parts and the CSRF field its forms carry.
    func homeFrame(_ view: HomeView) -> SitePageView<HomeView> {
        page(view, title: view.title, current: Self.homePath)
    }

    /// The daily page's view model, which ``DailyPageHTML`` writes.
    func homeView(_ home: HomePage) -> HomeView {
        let shown = home.onboardingRequired ? home.cards.filter(\.isOnboarding) : home.cards
        let cards = shown.enumerated().map { cardView($1, number: $0 + 1) }
        let title = home.isToday ? strings[.today] : home.dayTitle
        let empty = cards.isEmpty && !home.onboardingRequired ? strings[home.isToday ? .nothingToday : .nothingThisDay] : nil
        let content = home.onboardingRequired ? [] : home.contentCards.enumerated().map { index, card in contentView(card, number: index + 1) }
        let view = HomeView(title: title, day: home.isToday ? home.dayTitle : nil, notice: nonEmpty(home.notice),
                            gate: home.onboardingRequired ? strings[.onboardingGate] : nil, week: home.week.map(weekView),
                            cards: cards, hasCards: !cards.isEmpty, empty: empty, content: content)
        return view
    }

    private func contentView(_ card: ContentCard, number: Int) -> ContentCardView {
        var text: [String] = [], link: CardLinkView?, links: [ContactLinkView] = []
        switch card.body {
        case .tip: text = card.tipParagraphs
        case .featured(let url): link = CardLinkView(href: url, label: strings[.readArticle], context: card.title)
        case .links(let list):
            links = list.map { ContactLinkView(href: $0.href, label: $0.detail, context: strings[Self.verb(of: $0.kind)], detail: "") }
        }
        return ContentCardView(id: "content-\(number)", title: card.title, imageURL: card.imageURL, featured: link != nil, paragraphs: text,
                               link: link, links: links)
    }

    private func weekView(_ week: WeekCalendar) -> WeekView {
        // "{share} done" is worked out once, around a marker, and each day's share is put in its place.
        let doneParts = strings.format(.ringDone, ["share": "\u{1}"]).split(separator: "\u{1}", omittingEmptySubsequences: false)
        func done(_ share: String) -> String {
            doneParts.count == 2 ? doneParts[0] + share + doneParts[1] : strings.format(.ringDone, ["share": share])
        }
        return WeekView(label: strings[.week], previous: LinkView(href: week.previousURL, label: strings[.previousWeek]),
                 next: LinkView(href: week.nextURL, label: strings[.nextWeek]),
                 today: week.todayURL.map { LinkView(href: $0, label: strings[.backToToday]) },
                 days: week.days.map { day in
                     let (meaning, dash): (String, Int) = switch day.ring {
                     case .noTasks: (strings[.ringNoTasks], 0)
                     case .noEvents: (strings[.ringNoEvents], 0)
                     case .progress(let share) where day.isFuture: (strings[.ringFuture], Int((share * 100).rounded()))
                     case .progress(let share): (done(String(Int((share * 100).rounded())) + "%"), Int((share * 100).rounded()))
                     }
                     var classes: [String] = []
                     if day.isToday { classes.append("today") }
                     if day.isFuture { classes.append("future") }
                     if case .progress = day.ring {} else { classes.append("none") }
                     if dash >= 100 { classes.append("full") }
                     return WeekDayView(href: day.url, weekday: day.weekday, number: day.number, label: "\(day.fullDate): \(meaning)",
                                        selected: day.isSelected, classes: classes.joined(separator: " "), dash: dash)
                 })
    }

    private func cardView(_ card: TaskCard, number: Int) -> TaskCardView {
        let badge: BadgeView? = switch card.state {
        case .done: BadgeView(stateClass: "done", label: strings[.stateDone])
        case .toDo: BadgeView(stateClass: "todo", label: strings[.stateToDo])
        case .missed: BadgeView(stateClass: "missed", label: strings[.stateMissed])
        case .upcoming: BadgeView(stateClass: "later", label: strings[.stateLater])
        case .none: nil
        }
        func button(_ post: TaskCard.Post, _ label: String, pressed: Bool? = nil, classes: String = "") -> FormButtonView {
            FormButtonView(action: post.action, fields: hiddenFields(post.fields), label: label, context: card.title,
                           pressed: pressed.map { $0 ? "true" : "false" }, classes: classes)
        }
        func controls(_ events: [TaskCard.EventControl]) -> EventListView {
            EventListView(events: events.map { event in
                EventControlView(label: event.label, done: event.isDone,
                                 button: event.post.map { button($0, event.label, pressed: event.isDone, classes: event.isDone ? "on" : "") })
            })
        }
        var link: CardLinkView?, completed: String?, undo: CardLinkView?, toggle: FormButtonView?, grid: EventListView?, checklist: EventListView?
        var log: LogView?, value: ValueView?
        switch card.body {
        case .start(let url, let resumes):
            link = CardLinkView(href: url, label: strings[resumes ? .resume : .start], context: card.title)
        case .completed(let time, let undoURL):
            completed = strings.format(.completedAt, ["time": time])
            undo = undoURL.map { CardLinkView(href: $0, label: strings[.undoSurvey], context: card.title) }
        case .toggle(let isDone, let post):
            toggle = post.map { button($0, strings[isDone ? .completed : .markAsDone], pressed: isDone, classes: isDone ? "on" : "primary") }
            if post == nil, isDone { completed = strings[.completed] }
        case .grid(let events):
            grid = controls(events)
        case .checklist(let events):
            checklist = controls(events)
        case .log(let post, let entries):
            log = LogView(button: post.map { button($0, strings[.logEntry], classes: "primary") },
                          empty: entries.isEmpty ? strings[.nothingLogged] : nil,
                          entries: entries.map { entry in
                              LogEntryView(time: entry.timeText,
                                           delete: entry.delete.map { button($0, strings[.deleteEntry], classes: "small") })
                          })
        case .value(let total, let goal, let fraction, let entry, let clear):
            let text = switch (total, goal) {
            case (let total?, let goal?): strings.format(.goalOf, ["total": total, "goal": goal])
            case (let total?, nil): total
            case (nil, _): strings[.incomplete]
            }
            value = ValueView(text: text, percent: fraction.map { Int((min(1, max(0, $0)) * 100).rounded()) },
                              entry: entry.map { entry in
                                  ValueEntryView(action: entry.post.action, fields: hiddenFields(entry.post.fields),
                                                 id: "value-\(number)",
                                                 label: strings[.entryAmount], units: entry.units, minimum: NumberText.plain(entry.minimum),
                                                 maximum: NumberText.plain(entry.maximum), button: strings[.addEntry], context: card.title)
                              },
                              clear: clear.map { button($0, strings[.clear], classes: "small") })
        case .none:
            break
        }
        return TaskCardView(title: card.title, instructions: nonEmpty(card.instructions), time: card.timeText,
                            badge: badge, link: link, completed: completed, undo: undo, toggle: toggle,
                            grid: grid, checklist: checklist, log: log, value: value)
    }

    private func hiddenFields(_ fields: [String: String]) -> [HiddenFieldView] {
        fields.sorted { $0.key < $1.key }.map { HiddenFieldView(name: $0.key, value: $0.value) }
    }

    func contacts(_ contacts: ContactsPage) -> SitePageView<ContactsView> {
        let title = contacts.isDetail ? contacts.contacts.first?.name ?? strings[.contacts] : strings[.contacts]
        let views = contacts.contacts.enumerated().map { index, contact in
            ContactView(id: "contact-\(index + 1)", name: contact.name, url: contacts.isDetail ? nil : contact.url, title: nonEmpty(contact.title),
                        role: nonEmpty(contact.role), organization: contacts.isDetail ? nonEmpty(contact.organization) : nil,
                        address: contacts.isDetail && !contact.addressLines.isEmpty ? AddressView(lines: contact.addressLines) : nil,
                        links: contact.links.map { link in
                            ContactLinkView(href: link.href, label: strings[Self.verb(of: link.kind)], context: contact.name, detail: link.detail)
                        })
        }
        let view = ContactsView(title: title, empty: views.isEmpty ? strings[.noContacts] : nil, contacts: views,
                                back: contacts.isDetail ? LinkView(href: Self.contactsPath, label: strings[.allContacts]) : nil)
        return page(view, title: title, current: Self.contactsPath)
    }

    func insights(_ insights: InsightsPage) -> SitePageView<InsightsView> {
        let step: (WebStringKey, WebStringKey) = insights.stepsByMonth ? (.previousMonth, .nextMonth) : (.previousWeek, .nextWeek)
        let charts = insights.charts.enumerated().map { index, chart in chartView(chart, id: "chart-\(index + 1)") }
        let view = InsightsView(title: strings[.insights], previous: LinkView(href: insights.previousURL, label: strings[step.0]),
                                next: LinkView(href: insights.nextURL, label: strings[step.1]),
                                today: insights.todayURL.map { LinkView(href: $0, label: strings[.backToToday]) },
                                empty: charts.isEmpty ? strings[.noCharts] : nil, charts: charts)
        return page(view, title: strings[.insights], current: Self.insightsPath)
    }

    private func chartView(_ chart: InsightsPage.Chart, id: String) -> ChartView {
        let geometry = ChartGeometry(chart)
        let text = ChartGeometry.text
        let plotLeft = ChartGeometry.left, plotRight = ChartGeometry.width - ChartGeometry.right
        let grid = geometry.ticks.map { tick in
            GridLineView(x1: text(plotLeft), x2: text(plotRight), y: text(tick.y), labelX: text(plotLeft - 4), labelY: text(tick.y + 4),
                         label: text(tick.value))
        }
        let axis = geometry.labelledDays.map { day in
            AxisLabelView(x: text(geometry.x(day: day)), y: text(ChartGeometry.height - 8), text: chart.days[day].short)
        }
        var bars: [BarView] = [], lines: [LineView] = [], dots: [DotView] = []
        for (index, series) in chart.series.enumerated() {
            switch chart.kind {
            case .bar:
                bars += geometry.bars(of: index).map { BarView(x: text($0.x), y: text($0.y), width: text($0.width), height: text($0.height), fill: series.colour) }
            case .line:
                let points = geometry.points(of: index)
                if points.count > 1 { lines.append(LineView(points: points.map { "\(text($0.x)),\(text($0.y))" }.joined(separator: " "), stroke: series.colour)) }
                dots += points.map { DotView(cx: text($0.x), cy: text($0.y), fill: series.colour) }
            case .scatter:
                dots += geometry.points(of: index).map { DotView(cx: text($0.x), cy: text($0.y), fill: series.colour) }
            }
        }
        let rows = chart.days.enumerated().map { day, label in ChartRowView(day: label.full, cells: chart.series.map { $0.texts[day] }) }
        return ChartView(id: id, title: chart.title, period: chart.period, label: strings.format(.chartLabel, ["title": chart.title]),
                         width: text(ChartGeometry.width), height: text(ChartGeometry.height), grid: grid, axis: axis, bars: bars, lines: lines,
                         dots: dots, legend: chart.series.map { LegendView(colour: $0.colour, text: $0.legend) }, numbers: strings[.chartNumbers],
                         header: [strings[.chartDay]] + chart.series.map(\.legend), rows: rows)
    }

    /// What a link's button says it does.
    static func verb(of kind: ReachLink.Kind) -> WebStringKey {
        switch kind {
        case .website: .openWebsite
        case .call: .callContact
        case .message: .messageContact
        case .email: .emailContact
        case .map: .mapContact
        }
    }

    func article(_ article: ArticlePage) -> SitePageView<ArticleView> {
        page(ArticleView(title: article.title, imageURL: article.imageURL, html: article.html,
                         back: LinkView(href: Self.homePath, label: strings[.backToToday])), title: article.title, current: Self.homePath)
    }

    func confirm(_ confirm: ConfirmPage) -> SitePageView<ConfirmView> {
        let view = ConfirmView(title: confirm.title, paragraphs: paragraphs(confirm.text),
                               confirm: ConfirmFormView(action: confirm.post.action, fields: hiddenFields(confirm.post.fields), label: confirm.confirm),
                               reason: confirm.reasonField.map { ReasonFieldView(name: $0.name, label: $0.label) },
                               choice: confirm.choice.map { choice in
                                   ConfirmChoiceView(name: choice.name, legend: choice.legend, options: choice.options.enumerated().map { index, option in
                                       ConfirmOptionView(id: "\(choice.name)-\(index + 1)", value: option.value, label: option.label)
                                   }, error: choice.error)
                               },
                               cancelHref: confirm.cancelURL, cancel: strings[.cancel])
        return page(view, title: confirm.title, current: Self.homePath)
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
        let myData = settings.myDataURL.map { url in
            MyDataView(heading: strings[.myDataHeading], intro: strings[.myDataIntro], download: LinkView(href: url, label: strings[.myDataDownload]))
        }
        let leave = settings.withdrawURL.map { url in
            LeaveView(heading: strings[.leaveHeading], intro: strings[.leaveIntro], link: LinkView(href: url, label: strings[.leaveButton]))
        }
        let reminders = settings.remindersURL.map { url in
            RemindersLinkView(heading: strings[.reminders], link: LinkView(href: url, label: strings[.remindersSettingsLink]))
        }
        let view = SettingsView(title: strings[.settings], participantHeading: strings[.participant],
                                participantLabel: settings.participantLabel, language: language, reminders: reminders, signIn: signIn,
                                browsers: browsers, consent: consent, myData: myData, leave: leave)
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
    private func paragraphs(_ text: String?) -> [String] { Paragraphs.split(text) }

    /// `text` unless it is nil or blank (only white space and line breaks, the characters that trimming
    /// `.whitespacesAndNewlines` removes). Checked on the scalars: Foundation's trimming bridges through NSString,
    /// which cost a tenth of a home page.
    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.unicodeScalars.allSatisfy(\.properties.isWhitespace) else { return nil }
        return text
    }
}
