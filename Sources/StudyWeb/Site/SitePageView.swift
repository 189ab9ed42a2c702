// The view models of the site pages (home, settings, join, sign-in, message), read by the templates through
// Mirror. Like the step page's, they hold finished texts and attribute values only; SitePageBuilder makes every
// decision. Templates reach members with a leading dot (`{{.title}}`) so that a missing or nil member never
// falls through to a same-named member of an enclosing object.

/// A whole site page: the shared frame, the header, the CSRF field for its forms, and the page's own content.
struct SitePageView<Content> {
    let shell: PageShell
    let siteHeader: SiteHeaderView
    /// The hidden CSRF field the `csrf` partial puts in each form; nil when the context has no token.
    let csrf: CSRFFieldView?
    let page: Content
}

struct SiteHeaderView {
    let studyName: String
    let logoURL: String?
    let navigation: NavigationView?
}

struct NavigationView: Hashable, Sendable {
    let label: String
    let links: [NavigationLinkView]
}

struct NavigationLinkView: Hashable, Sendable {
    let href: String
    let label: String
    /// The link to the page shown: `aria-current="page"`.
    let current: Bool
}

/// The daily page's content, written by ``DailyPageHTML``.
struct DailyPageMarkup {
    let html: String
}

struct HomeView {
    let title: String
    /// The chosen day's date, under the title on today's page; nil when the title is the date.
    let day: String?
    let notice: String?
    /// The onboarding gate's explanation; nil when the gate is open.
    let gate: String?
    let week: WeekView?
    let cards: [TaskCardView]
    let hasCards: Bool
    /// The text shown when there is no card at all.
    let empty: String?
    /// The cards that are not tasks (today only).
    let content: [ContentCardView]
}

/// A tip, a featured article or a links card.
struct ContentCardView {
    let id: String
    let title: String
    let imageURL: String?
    /// A featured card: its image large, the title a link.
    let featured: Bool
    let paragraphs: [String]
    let link: CardLinkView?
    let links: [ContactLinkView]
}

struct ArticleView {
    let title: String
    let imageURL: String?
    /// The article's HTML, made safe by whoever built the page (SafeMarkdown).
    let html: String
    let back: LinkView
}

struct WeekView {
    let label: String
    let previous: LinkView
    let next: LinkView
    let today: LinkView?
    let days: [WeekDayView]
}

/// One day of the week strip: a link with its ring drawn in SVG, `dash` the done share out of 100.
struct WeekDayView {
    let href: String
    let weekday: String
    let number: String
    /// The date and the ring's meaning, for screen readers.
    let label: String
    /// `aria-current="date"` on the day shown below.
    let selected: Bool
    /// `today`, `future`, `none` (no tasks or events), `full`, in any combination.
    let classes: String
    let dash: Int
}

struct TaskCardView {
    let title: String
    let instructions: String?
    let time: String
    /// The state's badge; nil for a card without one (a log).
    let badge: BadgeView?
    let link: CardLinkView?
    let completed: String?
    /// The link to take a completed survey back.
    let undo: CardLinkView?
    let toggle: FormButtonView?
    let grid: EventListView?
    let checklist: EventListView?
    let log: LogView?
    let value: ValueView?
}

struct BadgeView {
    /// `done`, `todo`, `missed` or `later`.
    let stateClass: String
    let label: String
}

/// A button-looking link; `context` (the task's title) is read by screen readers only, so that each
/// "Start" says what it starts.
struct CardLinkView {
    let href: String
    let label: String
    let context: String
}

/// A form of one button; `pressed` (`true` or `false`) makes it a toggle button for screen readers, `context`
/// says what it is about.
struct FormButtonView {
    let action: String
    let fields: [HiddenFieldView]
    let label: String
    let context: String
    let pressed: String?
    let classes: String
}

struct EventListView {
    let events: [EventControlView]
}

/// One event of a grid or checklist: a toggle while it can be changed, its label and state otherwise.
struct EventControlView {
    let label: String
    let done: Bool
    let button: FormButtonView?
}

struct LogView {
    let button: FormButtonView?
    let empty: String?
    let entries: [LogEntryView]
}

struct LogEntryView {
    let time: String
    let delete: FormButtonView?
}

struct ValueView {
    /// "1,200 ml of 2,000 ml", "350 ml", or "Incomplete".
    let text: String
    /// The progress bar's width in percent; nil for a labelled value.
    let percent: Int?
    let entry: ValueEntryView?
    let clear: FormButtonView?
}

struct ValueEntryView {
    let action: String
    let fields: [HiddenFieldView]
    let id: String
    let label: String
    let units: String?
    let minimum: String
    let maximum: String
    let button: String
    let context: String
}

struct HiddenFieldView {
    let name: String
    let value: String
}

struct SettingsView {
    let title: String
    let participantHeading: String
    let participantLabel: String
    let language: LanguageFormView?
    let reminders: RemindersLinkView?
    let signIn: SignInCodeView
    let browsers: BrowsersView?
    let consent: ConsentView?
    let myData: MyDataView?
    let leave: LeaveView?
}

/// The settings section that leads to leaving the study.
struct LeaveView {
    let heading: String
    let intro: String
    let link: LinkView
}

/// The settings section with the download of the participant's own copy of their data.
struct MyDataView {
    let heading: String
    let intro: String
    let download: LinkView
}

struct BrowsersView {
    let heading: String
    let intro: String
    let items: [BrowserView]
}

/// One signed-in browser: its dates, and either the mark of the browser in use or a Sign out form.
struct BrowserView {
    let details: String
    let current: String?
    let signOut: SignOutView?
}

struct SignOutView {
    let action: String
    let button: String
}

struct LanguageFormView {
    let heading: String
    let action: String
    let options: [LanguageOptionView]
    let button: String
}

struct LanguageOptionView {
    let id: String
    /// The posted field's name, `language`.
    let field: String
    let code: String
    let name: String
    let checked: Bool
}

struct SignInCodeView {
    let heading: String
    let intro: String
    let action: String
    let button: String
    let code: ShownCodeView?
}

struct ShownCodeView {
    let label: String
    let code: String
    let expiry: String
    let instructions: String
}

struct ConsentView {
    let heading: String
    let download: LinkView?
    let note: String?
}

struct ReminderSettingsView {
    let title: String
    let intro: String
    let notice: String?
    let noChannel: String?
    let whichHeading: String
    let action: String
    let reminders: [ReminderLineView]
    let pauseLabel: String
    let paused: Bool
    let quietText: String
    let quietFromLabel: String
    let quietFrom: String
    let quietToLabel: String
    let quietTo: String
    let save: String
    let email: ReminderEmailView?
    let push: ReminderPushView?
    let calendar: ReminderCalendarView
}

struct ReminderLineView {
    let id: String
    let inputID: String
    let label: String
    let timing: String
    let checked: Bool
}

struct ReminderChannelLineView {
    let label: String
    let state: String?
    let removeAction: String
    let removeButton: String
}

struct ReminderEmailView {
    let heading: String
    let items: [ReminderChannelLineView]
    let action: String
    let label: String
    let value: String
    let error: String?
    let button: String
}

struct ReminderPushView {
    let heading: String
    let intro: String
    let publicKey: String
    let action: String
    let button: String
    let needsScript: String
    let unsupported: String
    let denied: String
    let failed: String
    let items: [ReminderChannelLineView]
}

struct ReminderCalendarView {
    let heading: String
    let intro: String
    let createAction: String?
    let createButton: String
    let httpsURL: String?
    let webcalURL: String?
    let subscribe: String
    let addressLabel: String
    let revokeAction: String?
    let revokeButton: String
}

struct RemindersLinkView {
    let heading: String
    let link: LinkView
}

struct LinkView {
    let href: String
    let label: String
}

struct JoinView {
    let title: String
    let welcome: [String]
    let action: String
    let label: String
    let hint: String
    let zones: [SelectOptionView]
    let button: String
}

struct SignInView {
    let title: String
    let intro: String
    let action: String
    let label: String
    let error: String?
    let inputmode: String
    let button: String
}

struct MessageView {
    let title: String
    let paragraphs: [String]
    let link: LinkView?
}

struct ContactsView {
    let title: String
    let empty: String?
    let contacts: [ContactView]
    let back: LinkView?
}

struct ContactView {
    let id: String
    let name: String
    /// The contact's own page, linked from the list; nil on that page.
    let url: String?
    let title: String?
    let role: String?
    let organization: String?
    let address: AddressView?
    let links: [ContactLinkView]
}

struct AddressView {
    let lines: [String]
}

/// A link that reaches a contact; `context` (their name) is read by screen readers only.
struct ContactLinkView {
    let href: String
    let label: String
    let context: String
    let detail: String
}

struct ConfirmView {
    let title: String
    let paragraphs: [String]
    let confirm: ConfirmFormView
    /// A text the participant may add (why they leave); nil for none.
    let reason: ReasonFieldView?
    /// A choice the participant must make (what happens to their data); nil for none.
    let choice: ConfirmChoiceView?
    let cancelHref: String
    let cancel: String
}

struct ConfirmChoiceView {
    let name: String
    let legend: String
    let options: [ConfirmOptionView]
    let error: String?
}

struct ConfirmOptionView {
    let id: String
    let value: String
    let label: String
}

struct ReasonFieldView {
    let name: String
    let label: String
}

struct ConfirmFormView {
    let action: String
    let fields: [HiddenFieldView]
    let label: String
}

struct InsightsView {
    let title: String
    let previous: LinkView
    let next: LinkView
    let today: LinkView?
    let empty: String?
    let charts: [ChartView]
}

/// A chart as SVG marks with precomputed coordinates, its legend, and its numbers as a table.
struct ChartView {
    let id: String
    let title: String
    let period: String
    /// The SVG's accessible name: the title and where the numbers are.
    let label: String
    let width: String
    let height: String
    let grid: [GridLineView]
    let axis: [AxisLabelView]
    let bars: [BarView]
    let lines: [LineView]
    let dots: [DotView]
    let legend: [LegendView]
    let numbers: String
    let header: [String]
    let rows: [ChartRowView]
}

struct GridLineView {
    let x1: String
    let x2: String
    let y: String
    let labelX: String
    let labelY: String
    let label: String
}

struct AxisLabelView {
    let x: String
    let y: String
    let text: String
}

struct BarView {
    let x: String
    let y: String
    let width: String
    let height: String
    let fill: String
}

struct LineView {
    let points: String
    let stroke: String
}

struct DotView {
    let cx: String
    let cy: String
    let fill: String
}

struct LegendView {
    let colour: String
    let text: String
}

struct ChartRowView {
    let day: String
    let cells: [String]
}
