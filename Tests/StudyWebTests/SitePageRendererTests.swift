import Foundation
import Testing
@testable import StudyWeb

/// Site pages, contexts and cards shared by the site page tests.
enum SiteFixtures {
    static func renderer() throws -> SitePageRenderer { try SitePageRenderer() }

    /// The page without its inline stylesheet and script: what the participant reads.
    static func visible(_ html: String) -> String {
        html.replacingOccurrences(of: #"(?s)<style>.*?</style>|<script>.*?</script>"#, with: "", options: .regularExpression)
    }

    static func context(_ language: String = "en", csrf: String? = Fixtures.csrf, studyName: String = "Recover",
                        assets: AssetDelivery = .inline, navigation: Bool = true) -> SiteContext {
        SiteContext(strings: WebStrings(language: language), csrfToken: csrf, studyName: studyName, themeTint: "#0a7d6f",
                    assets: assets, navigation: navigation)
    }

    static let onboarding = TaskCard(title: "Welcome to Recover", instructions: "About five minutes.", timeText: "Now", state: .toDo,
                                     body: .start(url: "/tasks/onboarding/start", resumes: false), isOnboarding: true)

    /// One card for each state and action.
    static let cards = [
        TaskCard(title: "Morning check-in", instructions: "How did you sleep?", timeText: "08:00", state: .done, body: .completed(timeText: "08:04", undoURL: "/tasks/morning/3/withdraw?day=2026-11-22")),
        TaskCard(title: "Knee pain", instructions: "Two questions.", timeText: "12:00", state: .toDo,
                 body: .start(url: "/tasks/pain/start", resumes: true)),
        TaskCard(title: "Stretches", instructions: nil, timeText: "Any time today", state: .toDo,
                 body: .toggle(isDone: false, post: TaskCard.Post(action: "/outcomes", fields: ["task": "stretches", "occurrence": "3"]))),
        TaskCard(title: "Walk", instructions: "Ten minutes outside.", timeText: "07:00", state: .missed, body: .none),
        TaskCard(title: "Evening survey", instructions: nil, timeText: "20:00", state: .upcoming, body: .start(url: "/tasks/evening/start", resumes: false)),
    ]

    static let languages = [
        SettingsPage.Language(code: "en", name: "English", selected: false),
        SettingsPage.Language(code: "ja", name: "日本語", selected: true),
        SettingsPage.Language(code: "zh-Hans", name: "简体中文", selected: false),
    ]

    static func settings(code: (code: String, expiresText: String)? = nil, consent: SettingsPage.ConsentPDF = .none) -> SettingsPage {
        SettingsPage(participantLabel: "P-0042", languages: languages, languageFormAction: "/settings/language", signInCode: code,
                     signInCodeFormAction: "/settings/signin-code", consentPDF: consent)
    }

    static let join = JoinPage(formAction: "/join/K7Q2-9XPL", welcome: "Thank you for your interest.\nIt takes six weeks.",
                               timeZones: ["America/New_York", "Asia/Tokyo", "Europe/London"], defaultTimeZone: "Europe/London")

    /// The hidden inputs of each form, in order, as `name=value`.
    static func formFields(_ html: String) -> [[String]] {
        PageChecks.matches(#"(<form[^>]*>.*?</form>)"#, in: html).map { form in
            PageChecks.matches(#"<input type="hidden" (name="[^"]*" value="[^"]*")>"#, in: form)
        }
    }
}

@Suite("Home page")
struct HomePageTests {
    /// The daily page written around a kept frame is, byte for byte, the page the templates write, for pages that
    /// differ in title, language, CSRF token, assets and navigation; a second page with the same frame reuses it
    /// without carrying over the first page's token.
    @Test func theKeptFrameWritesThePageTheTemplatesWrite() throws {
        let renderer = try SiteFixtures.renderer()
        let tip = ContentCard(title: "Benefits", imageURL: nil, body: .tip("  Gentle exercise helps.\r\n\r\nEvery day.\u{2028}Rest too.  "))
        let pages: [(HomePage, SiteContext)] = [
            (HomePage(dayTitle: "Monday", onboardingRequired: false, cards: SiteFixtures.cards, contentCards: [tip]), SiteFixtures.context()),
            (HomePage(dayTitle: "Monday", onboardingRequired: false, cards: SiteFixtures.cards), SiteFixtures.context(csrf: "another-token")),
            (HomePage(dayTitle: "Tuesday, 24 November", isToday: false, onboardingRequired: false, cards: []), SiteFixtures.context("ja")),
            (HomePage(dayTitle: "Monday", onboardingRequired: true, cards: [SiteFixtures.onboarding]),
             SiteFixtures.context(assets: .linked(basePath: "/assets"), navigation: false)),
        ]
        for _ in 0..<2 {
            for (page, context) in pages {
                #expect(renderer.home(page, context: context) == renderer.homeThroughTemplates(page, context: context))
            }
        }
        let second = renderer.home(pages[1].0, context: pages[1].1)
        #expect(second.contains("another-token") && !second.contains(Fixtures.csrf))
        let first = renderer.home(pages[0].0, context: pages[0].1)
        // The tip's lines, trimmed, one paragraph each; the blank line between CR LF pairs is dropped.
        #expect(first.contains("<p>Gentle exercise helps.</p>") && first.contains("<p>Every day.</p>") && first.contains("<p>Rest too.</p>"))
    }

    @Test func everyCardShowsItsStateAndItsAction() throws {
        let html = try SiteFixtures.renderer().home(
            HomePage(dayTitle: "Sunday, 22 November", onboardingRequired: false, cards: SiteFixtures.cards), context: SiteFixtures.context())
        #expect(PageChecks.pageProblems(in: html).isEmpty, "\(PageChecks.pageProblems(in: html))")
        #expect(html.contains("<title>Today – Recover</title>"))
        #expect(html.contains("<h1>Today</h1>\n<p class=\"day\">Sunday, 22 November</p>"))
        let badges = PageChecks.matches(#"<span class="badge ([a-z]+">[^<]+)</span>"#, in: html)
        #expect(badges == ["done\">Done", "todo\">To do", "todo\">To do", "missed\">Missed", "later\">Later"])
        let titles = PageChecks.matches(#"<h2>([^<]+)</h2>"#, in: html)
        #expect(titles == SiteFixtures.cards.map(\.title))
        #expect(html.contains("<a class=\"button primary\" href=\"/tasks/pain/start\">Continue<span class=\"vh\"> Knee pain</span></a>"))
        #expect(html.contains("<a class=\"button primary\" href=\"/tasks/evening/start\">Start<span class=\"vh\"> Evening survey</span></a>"))
        #expect(html.contains("<p>Two questions.</p>"))
        #expect(html.contains("<p class=\"time\">Any time today</p>"))

        let forms = PageChecks.matches(#"(<form method="post" action="[^"]*">.*?</form>)"#, in: html)
        try #require(forms.count == 1, "only the check-off card has a form")
        #expect(forms[0].hasPrefix("<form method=\"post\" action=\"/outcomes\">"))
        #expect(SiteFixtures.formFields(html) == [
            ["name=\"_csrf\" value=\"\(Fixtures.csrf)\"", "name=\"occurrence\" value=\"3\"", "name=\"task\" value=\"stretches\""],
        ])
        #expect(forms[0].contains("<button type=\"submit\" class=\"primary\" aria-pressed=\"false\">Mark as done<span class=\"vh\"> Stretches</span></button>"))
        #expect(html.contains("<p class=\"completed\">✓ Completed at 08:04</p>"))
        #expect(html.contains(#"<a class="button small" href="/tasks/morning/3/withdraw?day=2026-11-22">Take back<span class="vh"> Morning check-in</span></a>"#))
        #expect(PageChecks.matches(#"(<a class="button)"#, in: html).count == 3, "start, continue and take back; a missed card has no button")
        #expect(!html.contains("role=\"status\""), "no notice, no status region")
    }

    @Test func theHeaderLinksHomeAndSettingsWhenSignedIn() throws {
        let page = HomePage(dayTitle: "Monday", onboardingRequired: false, cards: [])
        let html = try SiteFixtures.renderer().home(page, context: SiteFixtures.context())
        #expect(html.contains("<a class=\"skip\" href=\"#main\">Skip to content</a>"))
        #expect(html.contains("<span class=\"brand\">Recover</span>"))
        #expect(html.contains("<nav aria-label=\"Main\"><ul><li><a href=\"/\" aria-current=\"page\">Home</a></li><li><a href=\"/contacts\">Contacts</a></li><li><a href=\"/settings\">Settings</a></li></ul></nav>"))
        #expect(html.contains("<p>Nothing is scheduled for today.</p>"))
        #expect(!html.contains("<ul class=\"cards\">"))
        let signedOut = try SiteFixtures.renderer().home(page, context: SiteFixtures.context(navigation: false))
        #expect(!signedOut.contains("<nav"))
        #expect(!signedOut.contains("class=\"skip\""), "no links in the header, nothing to skip")
        #expect(PageChecks.pageProblems(in: signedOut).isEmpty)
    }

    @Test func theOnboardingGateShowsOnlyTheOnboardingCard() throws {
        let cards = [SiteFixtures.onboarding] + SiteFixtures.cards
        let gated = try SiteFixtures.renderer().home(
            HomePage(dayTitle: "Sunday, 22 November", onboardingRequired: true, cards: cards), context: SiteFixtures.context())
        #expect(PageChecks.pageProblems(in: gated).isEmpty, "\(PageChecks.pageProblems(in: gated))")
        #expect(gated.contains("<p class=\"gate\">Complete onboarding to see your tasks.</p>"))
        #expect(PageChecks.matches(#"<h2>([^<]+)</h2>"#, in: gated) == ["Welcome to Recover"])
        #expect(gated.contains("href=\"/tasks/onboarding/start\">Start<span class=\"vh\"> Welcome to Recover</span></a>"))
        for card in SiteFixtures.cards { #expect(!gated.contains(card.title)) }
        #expect(!gated.contains("Nothing is scheduled"), "the gate is not an empty day")

        let open = try SiteFixtures.renderer().home(
            HomePage(dayTitle: "Monday", onboardingRequired: false, cards: SiteFixtures.cards), context: SiteFixtures.context())
        #expect(!open.contains("class=\"gate\""))
        #expect(PageChecks.matches(#"<h2>([^<]+)</h2>"#, in: open).count == SiteFixtures.cards.count)
    }

    @Test func gridChecklistLogAndValueCardsPostWhatTheirEventsAllow() throws {
        let post = { (path: String) in TaskCard.Post(action: path, fields: ["day": "2026-11-23"]) }
        let cards = [
            TaskCard(title: "Medication", instructions: nil, timeText: "08:30 – 19:30", state: .toDo, body: .grid([
                TaskCard.EventControl(label: "08:30", isDone: true, post: post("/tasks/medication/2/undo")),
                TaskCard.EventControl(label: "13:30", isDone: false, post: post("/tasks/medication/3/done")),
                TaskCard.EventControl(label: "19:30", isDone: false, post: nil),
            ])),
            TaskCard(title: "Exercises", instructions: nil, timeText: "08:00", state: .missed, body: .checklist([
                TaskCard.EventControl(label: "08:00 · after breakfast", isDone: false, post: nil),
            ])),
            TaskCard(title: "Nausea", instructions: nil, timeText: "Any time today", state: .none, body: .log(post: post("/tasks/symptoms/1/log"), entries: [
                TaskCard.LogEntry(timeText: "10:04", delete: TaskCard.Post(action: "/tasks/symptoms/1/log/delete", fields: ["at": "1795428240000"])),
            ])),
            TaskCard(title: "Water", instructions: nil, timeText: "Any time today", state: .toDo, body: .value(
                totalText: "1,200 ml", goalText: "2,000 ml", fraction: 0.6,
                entry: TaskCard.ValueEntry(post: post("/tasks/water/1/value"), units: "ml", minimum: 0, maximum: 2000.5), clear: nil)),
            TaskCard(title: "Steps", instructions: nil, timeText: "Any time", state: .missed, body: .value(
                totalText: nil, goalText: nil, fraction: nil, entry: nil, clear: nil)),
        ]
        let html = try SiteFixtures.renderer().home(HomePage(dayTitle: "Monday, 23 November", onboardingRequired: false, cards: cards),
                                                    context: SiteFixtures.context())
        #expect(PageChecks.pageProblems(in: html).isEmpty, "\(PageChecks.pageProblems(in: html))")
        let forms = PageChecks.matches(#"<form method="post" action="([^"]*)""#, in: html)
        #expect(forms == ["/tasks/medication/2/undo", "/tasks/medication/3/done", "/tasks/symptoms/1/log", "/tasks/symptoms/1/log/delete",
                          "/tasks/water/1/value"])
        #expect(html.contains("<button type=\"submit\" class=\"on\" aria-pressed=\"true\">08:30<span class=\"vh\"> Medication</span></button>"))
        #expect(html.contains("<button type=\"submit\" class=\"\" aria-pressed=\"false\">13:30<span class=\"vh\"> Medication</span></button>"))
        #expect(html.contains("<span class=\"slot\">19:30</span>"), "an event not yet started is shown, without a button")
        #expect(html.contains("<span class=\"slot\">08:00 · after breakfast</span>"))
        #expect(html.contains("<li><span>10:04</span><form"))
        #expect(html.contains("name=\"at\" value=\"1795428240000\""))
        #expect(html.contains("<p class=\"amount\">1,200 ml of 2,000 ml</p><div class=\"bar\"><span style=\"width:60%\"></span></div>"))
        #expect(html.contains("min=\"0\" max=\"2000.5\" required><span>ml</span>"))
        #expect(html.contains("<p class=\"amount\">Incomplete</p>"))
        let badges = PageChecks.matches(#"<span class="badge ([a-z]+)">"#, in: html)
        #expect(badges == ["todo", "missed", "todo", "missed"], "a log has no badge")
        #expect(SiteFixtures.formFields(html).allSatisfy { $0.first == "name=\"_csrf\" value=\"\(Fixtures.csrf)\"" })
    }

    @Test func contentCardsFollowTheTasksAndTheLogoLeadsTheHeader() throws {
        let content = [
            ContentCard(title: "Benefits of exercising", imageURL: nil, body: .tip("Gentle exercise helps.\nEvery day.")),
            ContentCard(title: "Your first weeks", imageURL: "/images/images%2Fknee.svg", body: .featured(url: "/articles/firstWeeks")),
            ContentCard(title: "Get help", imageURL: nil, body: .links([ReachLink(kind: .call, href: "tel:+15550100", detail: "Call the clinic"),
                                                                        ReachLink(kind: .website, href: "https://example.org", detail: "About")])),
        ]
        let context = SiteContext(strings: WebStrings(language: "en"), csrfToken: "t", studyName: "Recover", navigation: true,
                                  logoURL: "/images/logo.svg")
        let html = try SiteFixtures.renderer().home(HomePage(dayTitle: "Monday", onboardingRequired: false, cards: SiteFixtures.cards,
                                                             contentCards: content), context: context)
        #expect(PageChecks.pageProblems(in: html).isEmpty, "\(PageChecks.pageProblems(in: html))")
        #expect(html.contains(#"<span class="brand"><img src="/images/logo.svg" alt="">Recover</span>"#))
        let titles = PageChecks.matches(#"<h2[^>]*>([^<]+)</h2>"#, in: html)
        #expect(Array(titles.suffix(3)) == ["Benefits of exercising", "Your first weeks", "Get help"], "after the task cards")
        #expect(html.contains("<p>Gentle exercise helps.</p><p>Every day.</p>"))
        #expect(html.contains(#"<section class="card content featured" aria-labelledby="content-2"><img src="/images/images%2Fknee.svg" alt="">"#))
        #expect(html.contains(#"<a class="button" href="/articles/firstWeeks">Read<span class="vh"> Your first weeks</span></a>"#))
        #expect(html.contains(#"<a class="button" href="tel:+15550100">Call the clinic<span class="vh"> (Call)</span></a>"#))
        let gated = try SiteFixtures.renderer().home(HomePage(dayTitle: "Monday", onboardingRequired: true, cards: [SiteFixtures.onboarding],
                                                              contentCards: content), context: context)
        #expect(!gated.contains("Benefits of exercising"), "behind the gate only the onboarding")
        let article = try SiteFixtures.renderer().article(ArticlePage(title: "Your first weeks", imageURL: nil, html: "<h2>Every day</h2><p>Walk.</p>"),
                                                          context: context)
        #expect(PageChecks.pageProblems(in: article).isEmpty)
        #expect(article.contains(#"<div class="web"><h2>Every day</h2><p>Walk.</p></div>"#))
    }

    @Test func theWeekLinksEveryDayWithItsRingAndSaysWhatTheRingMeans() throws {
        let rings: [WeekCalendar.Ring] = [.noTasks, .noEvents, .progress(0), .progress(0.5), .progress(1), .progress(0), .progress(0)]
        let days = rings.enumerated().map { index, ring in
            WeekCalendar.Day(weekday: "D\(index)", number: "\(22 + index)", fullDate: "Day \(22 + index)", url: "/?day=2026-11-\(22 + index)",
                             ring: ring, isSelected: index == 3, isToday: index == 4, isFuture: index > 4)
        }
        let week = WeekCalendar(days: days, previousURL: "/?day=2026-11-18", nextURL: "/?day=2026-12-02", todayURL: "/")
        let html = try SiteFixtures.renderer().home(HomePage(dayTitle: "Wednesday, 25 November", isToday: false, week: week,
                                                             onboardingRequired: false, cards: []), context: SiteFixtures.context())
        #expect(PageChecks.pageProblems(in: html).isEmpty, "\(PageChecks.pageProblems(in: html))")
        #expect(html.contains("<h1>Wednesday, 25 November</h1>"), "another day's page is titled with its date")
        #expect(html.contains("<p>Nothing is scheduled for this day.</p>"))
        let labels = PageChecks.matches(#"aria-label="(Day [^"]+)""#, in: html)
        #expect(labels == ["Day 22: no tasks", "Day 23: nothing scheduled", "Day 24: 0% done", "Day 25: 50% done", "Day 26: 100% done",
                           "Day 27: not yet", "Day 28: not yet"])
        #expect(PageChecks.matches(#"stroke-dasharray="(\d+) 100""#, in: html) == ["0", "0", "0", "50", "100", "0", "0"])
        #expect(html.contains("<a href=\"/?day=2026-11-25\" class=\"\" aria-current=\"date\""))
        #expect(html.contains("<a href=\"/?day=2026-11-26\" class=\"today full\""))
        #expect(html.contains("<a href=\"/?day=2026-11-27\" class=\"future\""))
        #expect(html.contains("<a href=\"/?day=2026-11-22\" class=\"none\""))
        #expect(html.contains("<a href=\"/?day=2026-11-18\" rel=\"prev\">‹ Previous week</a><a href=\"/\">Back to today</a><a href=\"/?day=2026-12-02\" rel=\"next\">Next week ›</a>"))
    }

    @Test func aNoticeIsAPoliteStatus() throws {
        let html = try SiteFixtures.renderer().home(
            HomePage(dayTitle: "Monday", onboardingRequired: false, cards: SiteFixtures.cards, notice: "Thank you — your consent is signed."),
            context: SiteFixtures.context())
        #expect(html.contains("<p class=\"notice\" role=\"status\">Thank you — your consent is signed.</p>"))
        let blank = try SiteFixtures.renderer().home(
            HomePage(dayTitle: "Monday", onboardingRequired: false, cards: [], notice: "  "), context: SiteFixtures.context())
        #expect(!blank.contains("role=\"status\""))
    }

    @Test func withoutATokenTheCheckOffFormHasNoCSRFField() throws {
        let html = try SiteFixtures.renderer().home(
            HomePage(dayTitle: "Monday", onboardingRequired: false, cards: SiteFixtures.cards), context: SiteFixtures.context(csrf: nil))
        #expect(!html.contains("name=\"_csrf\""))
        #expect(SiteFixtures.formFields(html) == [["name=\"occurrence\" value=\"3\"", "name=\"task\" value=\"stretches\""]])
    }
}

@Suite("Settings page")
struct SettingsPageTests {
    @Test func theLanguageFormPostsTheChosenLanguageWithTheToken() throws {
        let html = try SiteFixtures.renderer().settings(SiteFixtures.settings(), context: SiteFixtures.context())
        #expect(PageChecks.pageProblems(in: html).isEmpty, "\(PageChecks.pageProblems(in: html))")
        #expect(html.contains("<title>Settings – Recover</title>"))
        #expect(html.contains("<a href=\"/settings\" aria-current=\"page\">Settings</a>"))
        #expect(html.contains("<dl class=\"facts\"><dt>Participant</dt><dd>P-0042</dd></dl>"))
        #expect(html.contains("<form method=\"post\" action=\"/settings/language\"><input type=\"hidden\" name=\"_csrf\" value=\"\(Fixtures.csrf)\">"))
        #expect(html.contains("<fieldset class=\"q\" aria-labelledby=\"language-title\">"))
        #expect(html.contains("<input type=\"radio\" id=\"language-2\" name=\"language\" value=\"ja\" checked> <span lang=\"ja\">日本語</span>"))
        #expect(html.contains("<input type=\"radio\" id=\"language-1\" name=\"language\" value=\"en\">"))
        #expect(html.contains("<span lang=\"zh-Hans\">简体中文</span>"))
        #expect(PageChecks.matches(#"( checked)"#, in: html).count == 1)
        #expect(SettingsPage.languageFieldName == "language")

        var single = SiteFixtures.settings()
        single.languages = [SiteFixtures.languages[0]]
        #expect(try !SiteFixtures.renderer().settings(single, context: SiteFixtures.context()).contains("name=\"language\""),
                "one language leaves nothing to choose")
    }

    @Test func aSignInCodeIsShownLargeWithItsExpiryAndWhereToEnterIt() throws {
        let renderer = try SiteFixtures.renderer()
        let before = renderer.settings(SiteFixtures.settings(), context: SiteFixtures.context())
        #expect(before.contains("<h2 id=\"signin-title\">Sign in on another device</h2>"))
        #expect(before.contains("<form method=\"post\" action=\"/settings/signin-code\"><input type=\"hidden\" name=\"_csrf\" value=\"\(Fixtures.csrf)\"><div class=\"actions\"><button type=\"submit\">Get a sign-in code</button>"))
        #expect(!before.contains("class=\"code\""))

        var page = SiteFixtures.settings(code: (code: "482 913", expiresText: "14:05"))
        page.signInAddress = "https://study.example.org/signin"
        let after = renderer.settings(page, context: SiteFixtures.context())
        #expect(PageChecks.pageProblems(in: after).isEmpty, "\(PageChecks.pageProblems(in: after))")
        #expect(after.contains("<p>Your sign-in code</p><p class=\"code\">482 913</p><p>It works once, until 14:05.</p>"))
        #expect(after.contains("<p>On the other device, open https://study.example.org/signin and enter this code.</p>"))
        #expect(after.contains(">Get a new code</button>"))
        #expect(renderer.settings(SiteFixtures.settings(code: (code: "ABCD", expiresText: "9:30")), context: SiteFixtures.context())
            .contains("open /signin and enter this code."), "the sign-in address defaults to /signin")
    }

    @Test(arguments: [
        (SettingsPage.ConsentPDF.ready(url: "/consent/record.pdf"), "<p><a href=\"/consent/record.pdf\" download>Download your signed consent (PDF)</a></p>"),
        (.pending, "<p>Your signed consent is being prepared. Reload this page in a minute to download it.</p>"),
        (.failed, "<p>Your signed consent could not be printed. The study team has been told.</p>"),
    ])
    func theSignedConsentSaysWhereItStands(consent: SettingsPage.ConsentPDF, expected: String) throws {
        let html = try SiteFixtures.renderer().settings(SiteFixtures.settings(consent: consent), context: SiteFixtures.context())
        #expect(PageChecks.pageProblems(in: html).isEmpty, "\(PageChecks.pageProblems(in: html))")
        #expect(html.contains("<h2 id=\"consent-title\">Your signed consent</h2>"))
        #expect(html.contains(expected))
        #expect(PageChecks.matches(#"(download>)"#, in: html).count == (expected.contains("download>") ? 1 : 0))
    }

    @Test func withoutASignedConsentTheSectionIsLeftOut() throws {
        let html = try SiteFixtures.renderer().settings(SiteFixtures.settings(consent: .none), context: SiteFixtures.context())
        #expect(!html.contains("consent-title"))
        #expect(!html.contains("signed consent"))
    }
}

@Suite("Join, sign-in and message pages")
struct EntryPageTests {
    @Test func joinOffersTheTimeZonesWithTheDefaultSelected() throws {
        let html = try SiteFixtures.renderer().join(SiteFixtures.join, context: SiteFixtures.context(csrf: nil, navigation: false))
        #expect(PageChecks.pageProblems(in: html).isEmpty, "\(PageChecks.pageProblems(in: html))")
        #expect(html.contains("<title>Join Recover</title>"))
        #expect(html.contains("<h1>Join Recover</h1>\n<p>Thank you for your interest.</p><p>It takes six weeks.</p>"))
        #expect(html.contains("<form method=\"post\" action=\"/join/K7Q2-9XPL\">"))
        #expect(!html.contains("_csrf"), "no session, no token: the invitation code in the address is checked")
        #expect(html.contains("<label for=\"timeZone\">Your time zone</label>"))
        #expect(html.contains("<select id=\"timeZone\" name=\"timeZone\" aria-describedby=\"timeZone-hint\" data-zone>"))
        #expect(html.contains("<option value=\"America/New_York\">America/New York</option>"))
        #expect(html.contains("<option value=\"Europe/London\" selected>Europe/London</option>"))
        #expect(PageChecks.matches(#"( selected)"#, in: html).count == 1)
        #expect(html.contains("<button type=\"submit\" class=\"primary\">Join the study</button>"))
        #expect(WebAssets.script.contains("Intl.DateTimeFormat().resolvedOptions().timeZone"))
        #expect(WebAssets.script.contains("select[data-zone]"))
    }

    @Test func aDefaultZoneMissingFromTheListIsAddedFirst() throws {
        var page = SiteFixtures.join
        page.defaultTimeZone = "Pacific/Auckland"
        let html = try SiteFixtures.renderer().join(page, context: SiteFixtures.context(csrf: nil, navigation: false))
        let values = PageChecks.matches(#"<option value="([^"]+)""#, in: html)
        #expect(values == ["Pacific/Auckland", "America/New_York", "Asia/Tokyo", "Europe/London"])
        #expect(html.contains("<option value=\"Pacific/Auckland\" selected>"))
    }

    @Test func joinWithEveryKnownTimeZoneStaysUnderTheBudget() throws {
        let page = JoinPage(formAction: "/join/K7Q2-9XPL", welcome: String(repeating: "Welcome to the study. ", count: 40),
                            timeZones: TimeZone.knownTimeZoneIdentifiers, defaultTimeZone: "Asia/Tokyo")
        let html = try SiteFixtures.renderer().join(page, context: SiteFixtures.context("ja", csrf: nil, navigation: false))
        #expect(TimeZone.knownTimeZoneIdentifiers.count > 300)
        #expect(html.utf8.count < 60_000, "the join page weighs \(html.utf8.count) bytes")
        #expect(PageChecks.pageProblems(in: html).isEmpty)
    }

    @Test func signInAsksForTheOneTimeCode() throws {
        let renderer = try SiteFixtures.renderer()
        let html = renderer.signIn(SignInPage(formAction: "/signin", error: nil), context: SiteFixtures.context(csrf: nil, navigation: false))
        #expect(PageChecks.pageProblems(in: html).isEmpty, "\(PageChecks.pageProblems(in: html))")
        #expect(html.contains("<title>Sign in – Recover</title>"))
        #expect(html.contains("<form method=\"post\" action=\"/signin\">\n<div class=\"q\"><label for=\"code\">Sign-in code</label>\n"))
        #expect(html.contains("<input type=\"text\" id=\"code\" name=\"code\" class=\"code\" autocomplete=\"one-time-code\" inputmode=\"text\" autocapitalize=\"characters\" spellcheck=\"false\" required>"))
        #expect(!html.contains("_csrf"))
        #expect(!SiteFixtures.visible(html).contains("aria-invalid"))

        let refused = renderer.signIn(SignInPage(formAction: "/signin", error: "That code has expired.", numericCode: true),
                                      context: SiteFixtures.context(csrf: nil, navigation: false))
        #expect(PageChecks.pageProblems(in: refused).isEmpty, "\(PageChecks.pageProblems(in: refused))")
        #expect(refused.contains("<title>Error: Sign in – Recover</title>"))
        #expect(refused.contains("<p class=\"err\" id=\"code-err\">That code has expired.</p>"))
        #expect(refused.contains("inputmode=\"numeric\""))
        #expect(refused.contains("required aria-invalid=\"true\" aria-describedby=\"code-err\">"))
    }

    @Test func aMessageHasATitleParagraphsAndAnOptionalLink() throws {
        let renderer = try SiteFixtures.renderer()
        let html = renderer.message(MessagePage(title: "Invitation expired", text: "This invitation has expired.\n\nAsk the study team for a new one.",
                                                link: (label: "Go to today's tasks", url: "/")),
                                    context: SiteFixtures.context(csrf: nil, navigation: false))
        #expect(PageChecks.pageProblems(in: html).isEmpty, "\(PageChecks.pageProblems(in: html))")
        #expect(html.contains("<title>Invitation expired – Recover</title>"))
        #expect(html.contains("<h1>Invitation expired</h1>\n<p>This invitation has expired.</p><p>Ask the study team for a new one.</p>"))
        #expect(html.contains("<a class=\"button primary\" href=\"/\">Go to today&#39;s tasks</a>"))
        let bare = renderer.message(MessagePage(title: "Not found", text: "Nothing here.", link: nil), context: SiteFixtures.context())
        #expect(!bare.contains("class=\"button"))
        #expect(PageChecks.pageProblems(in: bare).isEmpty)
    }
}

@Suite("Site page frame")
struct SitePageFrameTests {
    @Test func everyTextIsEscaped() throws {
        let evil = "<script>alert(1)</script>"
        let quote = "\"><script>alert(2)</script>"
        let renderer = try SiteFixtures.renderer()
        let context = SiteFixtures.context(csrf: quote, studyName: evil, assets: .linked(basePath: "/static"))
        let card = TaskCard(title: evil, instructions: evil, timeText: evil, state: .toDo,
                            body: .toggle(isDone: false, post: TaskCard.Post(action: quote, fields: [quote: quote])))
        let pages = [
            renderer.home(HomePage(dayTitle: evil, onboardingRequired: false, cards: [
                card, TaskCard(title: "Survey", instructions: nil, timeText: "now", state: .toDo, body: .start(url: quote, resumes: false)),
            ], notice: evil), context: context),
            renderer.home(HomePage(dayTitle: evil, onboardingRequired: true, cards: [
                TaskCard(title: evil, instructions: nil, timeText: "now", state: .toDo, body: .start(url: "/o", resumes: false), isOnboarding: true),
            ]), context: context),
            renderer.settings(SettingsPage(participantLabel: evil, languages: [
                SettingsPage.Language(code: quote, name: evil, selected: true), SettingsPage.Language(code: "en", name: "English", selected: false),
            ], languageFormAction: quote, signInCode: (code: evil, expiresText: evil), signInCodeFormAction: quote,
                consentPDF: .ready(url: quote), signInAddress: evil), context: context),
            renderer.join(JoinPage(formAction: quote, welcome: evil, timeZones: [quote, evil], defaultTimeZone: evil), context: context),
            renderer.signIn(SignInPage(formAction: quote, error: evil), context: context),
            renderer.message(MessagePage(title: evil, text: evil, link: (label: evil, url: quote)), context: context),
        ]
        for html in pages {
            #expect(!html.contains("<script>"), "\(html)")
            #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(html.contains("<span class=\"brand\">&lt;script&gt;alert(1)&lt;/script&gt;</span>"), "the study name in the header")
        }
        #expect(pages[0].contains("<input type=\"hidden\" name=\"&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;\" value=\"&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;\">"))
        #expect(pages[2].contains("<dd>&lt;script&gt;alert(1)&lt;/script&gt;</dd>"), "the participant label")
        #expect(pages[2].contains("<p class=\"code\">&lt;script&gt;alert(1)&lt;/script&gt;</p>"))
    }

    @Test func assetsCanBeLinkedAndTheTintMustBeAColour() throws {
        var context = SiteFixtures.context(assets: .linked(basePath: "/static/"))
        context.themeTint = "red;}</style><script>alert(1)</script>"
        let html = try SiteFixtures.renderer().message(MessagePage(title: "Hello", text: "Text", link: nil), context: context)
        #expect(html.contains("<link rel=\"stylesheet\" href=\"/static/studykit.css?v=\(WebAssets.version)\">"))
        #expect(html.contains("<script src=\"/static/studykit.js?v=\(WebAssets.version)\" defer></script>"))
        #expect(!html.contains("<style>"))
        #expect(!html.contains("<script>"))
        #expect(html.utf8.count < 2_000)
        context.themeTint = "#0A7"
        let tinted = try SiteFixtures.renderer().message(MessagePage(title: "Hello", text: "Text", link: nil), context: context)
        #expect(tinted.contains("<style>:root{--tint:#0A7}</style>"))
        let inline = try SiteFixtures.renderer().message(MessagePage(title: "Hello", text: "Text", link: nil), context: SiteFixtures.context())
        #expect(inline.contains("<style>\(WebAssets.stylesheet)</style>"))
        #expect(inline.contains("<script>\(WebAssets.script)</script>"))
    }

    @Test func theStepPageSharesTheLayout() throws {
        let step = try Fixtures.render(try Fixtures.session())
        let message = try SiteFixtures.renderer().message(MessagePage(title: "Hello", text: "Text", link: nil),
                                                              context: SiteFixtures.context(navigation: false))
        let head = { (html: String) in String(html[..<html.range(of: "<title>")!.lowerBound]) }
        #expect(head(step) == head(message))
        let tail = { (html: String) in String(html[html.range(of: "</main>")!.lowerBound...]) }
        #expect(tail(step) == tail(message))
        #expect(step.contains("<main id=\"main\">"))
    }

    @Test(arguments: WebStrings.builtInLanguages)
    func everyPageSpeaksEveryLanguageWithinTheBudget(language: String) throws {
        let renderer = try SiteFixtures.renderer()
        let strings = WebStrings(language: language)
        let context = SiteFixtures.context(language)
        let pages = [
            renderer.home(HomePage(dayTitle: "22", onboardingRequired: false, cards: SiteFixtures.cards, notice: "OK"), context: context),
            renderer.home(HomePage(dayTitle: "22", onboardingRequired: true, cards: [SiteFixtures.onboarding]), context: context),
            renderer.settings(SiteFixtures.settings(code: (code: "482913", expiresText: "14:05"), consent: .pending), context: context),
            renderer.join(SiteFixtures.join, context: SiteFixtures.context(language, csrf: nil, navigation: false)),
            renderer.signIn(SignInPage(formAction: "/signin", error: "x"), context: SiteFixtures.context(language, csrf: nil, navigation: false)),
            renderer.message(MessagePage(title: "404", text: "x", link: (label: "/", url: "/")), context: context),
        ]
        for html in pages {
            #expect(html.hasPrefix("<!doctype html>\n<html lang=\"\(language)\">"))
            #expect(PageChecks.pageProblems(in: html).isEmpty, "\(language): \(PageChecks.pageProblems(in: html))")
            #expect(!SiteFixtures.visible(html).contains("{"), "\(language): a placeholder was left unfilled")
        }
        #expect(pages[0].contains(">\(strings[.stateMissed])</span>"))
        #expect(pages[0].contains(">\(strings[.resume])<span class=\"vh\">"))
        #expect(pages[0].contains(">\(strings[.markAsDone])<span class=\"vh\">"))
        #expect(pages[1].contains(strings[.onboardingGate]))
        #expect(pages[2].contains(strings.format(.signInCodeExpiry, ["time": "14:05"])))
        #expect(pages[2].contains(strings[.consentPending]))
        #expect(pages[3].contains(strings.format(.joinTitle, ["study": "Recover"])))
        if language != "en" {
            #expect(strings[.today] != WebStrings(language: "en")[.today], "\(language) has its own word for Today")
        }
    }
}

@Suite("Insights page")
struct InsightsPageTests {
    static let days = ["Sun", "Mon", "Tue"].map { InsightsPage.Day(short: $0, full: "\($0)day") }

    @Test func barsStandOnAnAxisRoundedUpAndTheTableHasTheSameNumbers() throws {
        let chart = InsightsPage.Chart(title: "Exercise and pain", kind: .bar, period: "22 – 24 Mar 2027", days: Self.days, series: [
            InsightsPage.Series(legend: "Sessions", colour: "#C8472B", values: [2, 0, 3], texts: ["2", "0", "3"]),
            InsightsPage.Series(legend: "Pain", colour: "#1F6FB2", values: [7, nil, 4.5], texts: ["7", "–", "4.5"]),
        ])
        let page = InsightsPage(charts: [chart], previousURL: "/insights?day=2027-03-15", nextURL: "/insights?day=2027-03-29", todayURL: nil,
                                stepsByMonth: false)
        let html = try SiteFixtures.renderer().insights(page, context: SiteFixtures.context())
        #expect(PageChecks.pageProblems(in: html).isEmpty, "\(PageChecks.pageProblems(in: html))")
        // The largest value, 7, rounds up to 10: grid lines at 0, 5 and 10.
        #expect(PageChecks.matches(#"text-anchor="end">(\d+)</text>"#, in: html) == ["0", "5", "10"])
        // Five bars (no bar for a day without a number); the 2-session bar is a fifth of the plot's 156 units high.
        let bars = PageChecks.matches(#"<rect ([^/]+)/>"#, in: html)
        #expect(bars.count == 5)
        #expect(bars[0] == ##"x="40.1" y="134.8" width="39.5" height="31.2" fill="#C8472B""##)
        #expect(bars.filter { $0.contains("#1F6FB2") }.count == 2)
        #expect(html.contains(#"role="img" aria-label="Exercise and pain: a chart; its numbers are in the table below it""#))
        #expect(PageChecks.matches(#"<th scope="col">([^<]+)</th>"#, in: html) == ["Day", "Sessions", "Pain"])
        #expect(html.contains("<tr><th scope=\"row\">Monday</th><td>0</td><td>–</td></tr>"))
        #expect(html.contains(##"<li><span style="background:#C8472B"></span>Sessions</li>"##))
        #expect(html.contains(#"<a href="/insights?day=2027-03-15" rel="prev">‹ Previous week</a>"#))
        #expect(html.contains(#"<a href="/insights" aria-current="page">Insights</a>"#) == false, "no Insights link without charts in the context")
        let withLink = try SiteFixtures.renderer().insights(page, context: SiteContext(strings: WebStrings(language: "en"), csrfToken: "t",
                                                                                          studyName: "Recover", navigation: true, hasInsights: true))
        #expect(withLink.contains(#"<a href="/insights" aria-current="page">Insights</a>"#))
    }

    @Test func aLineJoinsTheDaysWithNumbersAndAMonthLabelsEveryWeek() throws {
        let month = (1...31).map { InsightsPage.Day(short: String($0), full: "March \($0)") }
        let values: [Double?] = (1...31).map { $0 % 10 == 0 ? nil : Double($0 % 4) }
        let chart = InsightsPage.Chart(title: "Pain", kind: .line, period: "March 2027", days: month, series: [
            InsightsPage.Series(legend: "Pain", colour: "#1F6FB2", values: values, texts: values.map { $0.map { String(Int($0)) } ?? "–" }),
        ])
        let html = try SiteFixtures.renderer().insights(InsightsPage(charts: [chart], previousURL: "/p", nextURL: "/n", todayURL: "/insights",
                                                                     stepsByMonth: true), context: SiteFixtures.context())
        #expect(PageChecks.pageProblems(in: html).isEmpty)
        #expect(PageChecks.matches(#"<polyline points="([^"]+)""#, in: html).first?.split(separator: " ").count == 28)
        #expect(PageChecks.matches(#"<circle ([^/]+)/>"#, in: html).count == 28)
        #expect(PageChecks.matches(#"text-anchor="middle">(\d+)</text>"#, in: html) == ["1", "8", "15", "22", "29"])
        #expect(html.contains("‹ Previous month") && html.contains("Back to today"))
    }
}
