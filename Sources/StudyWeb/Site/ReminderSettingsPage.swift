/// The participant's reminders page (`/settings/reminders`): which of the study's reminders are on, pausing them all,
/// their quiet hours, and the channels that carry them: email addresses (each confirmed from a link, or waiting),
/// notifications on this device (turned on by a button that asks the browser), and a secret calendar address.
///
/// ```swift
/// let page = ReminderSettingsPage(reminders: [.init(id: "painMorning", label: "Your daily pain check", timing: "at 09:00", on: true)],
///                                 paused: false, quietFrom: "21:00", quietTo: "08:00", formAction: "/settings/reminders",
///                                 emails: [], emailFormAction: "/settings/reminders/email", push: nil, calendar: .offered(createAction: "/settings/reminders/calendar"))
/// ```
public struct ReminderSettingsPage: Sendable {
    /// One reminder of the study, with its checkbox.
    public struct Reminder: Sendable {
        /// Its id, posted as a value of the `on` field when checked.
        public var id: String
        /// Its title in the participant's language.
        public var label: String
        /// When it comes, as the participant reads it ("at 09:00").
        public var timing: String
        /// Whether it is on.
        public var on: Bool

        /// Creates a reminder's line.
        public init(id: String, label: String, timing: String, on: Bool) {
            self.id = id
            self.label = label
            self.timing = timing
            self.on = on
        }
    }

    /// An email address or a push subscription of the participant, with its Remove button.
    public struct Channel: Sendable {
        /// The address, or the device's description.
        public var label: String
        /// Its state as the participant reads it (confirmed, waiting); nil for none.
        public var state: String?
        /// Where its Remove button posts (with `_csrf`).
        public var removeAction: String

        /// Creates a channel's line.
        public init(label: String, state: String?, removeAction: String) {
            self.label = label
            self.state = state
            self.removeAction = removeAction
        }
    }

    /// The notifications section: what the button needs (the server's public key, where to post the subscription).
    public struct Push: Sendable {
        /// The VAPID public key, base64url (the browser's `applicationServerKey`).
        public var publicKey: String
        /// Where the page's script posts the browser's subscription (JSON, with the CSRF token in a header).
        public var subscribeAction: String
        /// The subscriptions stored.
        public var devices: [Channel]

        /// Creates the section.
        public init(publicKey: String, subscribeAction: String, devices: [Channel]) {
            self.publicKey = publicKey
            self.subscribeAction = subscribeAction
            self.devices = devices
        }
    }

    /// The calendar section.
    public enum Calendar: Sendable {
        /// No feed yet: a button that makes one.
        case offered(createAction: String)
        /// A feed: its `https` address, its `webcal` address, and where its revoking button posts.
        case active(httpsURL: String, webcalURL: String, revokeAction: String)
    }

    /// The study's reminders.
    public var reminders: [Reminder]
    /// Whether every reminder is paused.
    public var paused: Bool
    /// Quiet hours' start and end (`HH:MM`).
    public var quietFrom: String, quietTo: String
    /// Where the reminders form posts (`on` fields, `paused`, `quietFrom`, `quietTo`).
    public var formAction: String
    /// The email addresses; nil leaves the email section out (the server sends no mail).
    public var emails: [Channel]?
    /// Where the add-address form posts its `address` field.
    public var emailFormAction: String
    /// The address last typed, kept after a refusal.
    public var typedAddress: String?
    /// What was wrong with the address posted; nil for nothing.
    public var emailError: String?
    /// Notifications; nil leaves the section out (the server sends none).
    public var push: Push?
    /// The calendar.
    public var calendar: Calendar
    /// A note at the top (saved, a mail sent).
    public var notice: String?

    /// Creates the page; see the properties.
    public init(reminders: [Reminder], paused: Bool, quietFrom: String, quietTo: String, formAction: String, emails: [Channel]?,
                emailFormAction: String, typedAddress: String? = nil, emailError: String? = nil, push: Push?, calendar: Calendar,
                notice: String? = nil) {
        self.reminders = reminders
        self.paused = paused
        self.quietFrom = quietFrom
        self.quietTo = quietTo
        self.formAction = formAction
        self.emails = emails
        self.emailFormAction = emailFormAction
        self.typedAddress = typedAddress
        self.emailError = emailError
        self.push = push
        self.calendar = calendar
        self.notice = notice
    }
}

extension SitePageBuilder {
    /// The path of the reminders page.
    static let remindersPath = "/settings/reminders"

    func reminders(_ settings: ReminderSettingsPage) -> SitePageView<ReminderSettingsView> {
        func line(_ channel: ReminderSettingsPage.Channel) -> ReminderChannelLineView {
            ReminderChannelLineView(label: channel.label, state: channel.state, removeAction: channel.removeAction,
                                             removeButton: strings[.remindersRemove])
        }
        let email = settings.emails.map { emails in
            ReminderEmailView(heading: strings[.remindersEmailHeading], items: emails.map(line), action: settings.emailFormAction,
                                              label: strings[.remindersEmailLabel], value: settings.typedAddress ?? "", error: settings.emailError,
                                              button: strings[.remindersEmailAdd])
        }
        let push = settings.push.map { push in
            ReminderPushView(heading: strings[.remindersPushHeading], intro: strings[.remindersPushIntro], publicKey: push.publicKey,
                                             action: push.subscribeAction, button: strings[.remindersPushEnable],
                                             needsScript: strings[.remindersPushNeedsScript], unsupported: strings[.remindersPushUnsupported],
                                             denied: strings[.remindersPushDenied], failed: strings[.remindersPushFailed], items: push.devices.map(line))
        }
        let calendar: ReminderCalendarView = switch settings.calendar {
        case .offered(let create):
            ReminderCalendarView(heading: strings[.remindersCalendarHeading], intro: strings[.remindersCalendarIntro],
                                                 createAction: create, createButton: strings[.remindersCalendarCreate], httpsURL: nil,
                                                 webcalURL: nil, subscribe: strings[.remindersCalendarSubscribe],
                                                 addressLabel: strings[.remindersCalendarAddress], revokeAction: nil,
                                                 revokeButton: strings[.remindersCalendarRevoke])
        case .active(let https, let webcal, let revoke):
            ReminderCalendarView(heading: strings[.remindersCalendarHeading], intro: strings[.remindersCalendarIntro],
                                                 createAction: nil, createButton: strings[.remindersCalendarCreate], httpsURL: https,
                                                 webcalURL: webcal, subscribe: strings[.remindersCalendarSubscribe],
                                                 addressLabel: strings[.remindersCalendarAddress], revokeAction: revoke,
                                                 revokeButton: strings[.remindersCalendarRevoke])
        }
        let hasChannel = !(settings.emails ?? []).isEmpty || !(settings.push?.devices ?? []).isEmpty
            || { if case .active = settings.calendar { true } else { false } }()
        let view = ReminderSettingsView(
            title: strings[.reminders], intro: strings[.remindersIntro], notice: settings.notice,
            noChannel: hasChannel ? nil : strings[.remindersNoChannel], whichHeading: strings[.remindersWhich], action: settings.formAction,
            reminders: settings.reminders.enumerated().map { index, reminder in
                ReminderLineView(id: reminder.id, inputID: "reminder-\(index + 1)", label: reminder.label, timing: reminder.timing,
                                                  checked: reminder.on)
            },
            pauseLabel: strings[.remindersPause], paused: settings.paused,
            quietText: strings.format(.remindersQuietHours, ["from": settings.quietFrom, "to": settings.quietTo]),
            quietFromLabel: strings[.remindersQuietFrom], quietFrom: settings.quietFrom, quietToLabel: strings[.remindersQuietTo],
            quietTo: settings.quietTo, save: strings[.remindersSave], email: email, push: push, calendar: calendar)
        return page(view, title: strings[.reminders], current: Self.settingsPath)
    }
}
