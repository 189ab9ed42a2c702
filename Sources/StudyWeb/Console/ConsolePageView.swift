// The study team's console pages, as the `console-*` templates read them: finished texts and attribute values only,
// made by the server (StudyServer's ConsoleController), every one HTML-escaped by the templates. Public, unlike the
// participant pages' views, because the server builds them directly: the console has no second layer of page
// descriptions.

/// Who is signed in to the console and what the header offers them.
public struct ConsoleContext: Sendable {
    /// The study's name, in the header and the document title.
    public var studyName: String
    /// The signed-in researcher as the header names them ("ana@example.org · investigator"); nil before signing in.
    public var researcher: String?
    /// The CSRF token for every form; nil before signing in.
    public var csrfToken: String?
    /// Whether the header links to the researchers page (admins).
    public var managesResearchers: Bool
    /// Whether the header links to the invitations page (investigators and admins).
    public var managesInvitations: Bool
    /// How the stylesheet and script reach the browser.
    public var assets: AssetDelivery

    /// Creates a console context; see the properties.
    public init(studyName: String, researcher: String?, csrfToken: String?, managesResearchers: Bool = false, managesInvitations: Bool = false,
                assets: AssetDelivery = .inline) {
        self.studyName = studyName
        self.researcher = researcher
        self.csrfToken = csrfToken
        self.managesResearchers = managesResearchers
        self.managesInvitations = managesInvitations
        self.assets = assets
    }
}

/// The console's sign-in form (email and password), with why the last try was refused.
public struct ConsoleSignInView: Sendable {
    public let action: String
    public let email: String
    public let error: String?
    public let notice: String?

    /// A sign-in page posting to `action`, its email field holding `email`.
    public init(action: String, email: String = "", error: String? = nil, notice: String? = nil) {
        self.action = action
        self.email = email
        self.error = error
        self.notice = notice
    }
}

/// The page a one-time link opens: a new password, twice.
public struct ConsolePasswordView: Sendable {
    public let action: String
    public let email: String
    public let minimumLength: Int
    public let error: String?

    /// A password page for `email`, posting to `action`.
    public init(action: String, email: String, minimumLength: Int, error: String? = nil) {
        self.action = action
        self.email = email
        self.minimumLength = minimumLength
        self.error = error
    }
}

/// A link with its text.
public struct ConsoleLinkView: Sendable {
    public let href: String
    public let label: String

    public init(href: String, label: String) {
        self.href = href
        self.label = label
    }
}

/// A researcher's one-time password link, shown once: the link, whom it is for, and how many days it works.
public struct ConsolePasswordLinkView: Sendable {
    public let href: String
    public let label: String
    public let lifetimeDays: Int

    public init(href: String, label: String, lifetimeDays: Int) {
        self.href = href
        self.label = label
        self.lifetimeDays = lifetimeDays
    }
}

/// A named number ("Consented: 12").
public struct ConsoleCountView: Sendable {
    public let label: String
    public let value: String

    public init(label: String, value: String) {
        self.label = label
        self.value = value
    }
}

/// One participant's row on the enrolment page.
public struct ConsoleParticipantRowView: Sendable {
    public let href: String
    public let id: String
    public let invitation: String
    public let enrolled: String
    /// "Consented 2026-11-20 09:14", "Withdrawn …" or "Not yet".
    public let consent: String
    public let completedRuns: String
    public let lastActivity: String

    public init(href: String, id: String, invitation: String, enrolled: String, consent: String, completedRuns: String, lastActivity: String) {
        self.href = href
        self.id = id
        self.invitation = invitation
        self.enrolled = enrolled
        self.consent = consent
        self.completedRuns = completedRuns
        self.lastActivity = lastActivity
    }
}

/// The enrolment page: counts, each participant, the invitations, and the exports: a link per format (exact), and a
/// form that downloads a format with its CSV cells made safe for spreadsheets.
public struct ConsoleEnrolmentView: Sendable {
    public let counts: [ConsoleCountView]
    public let participants: [ConsoleParticipantRowView]
    public let hasParticipants: Bool
    public let exports: [ConsoleLinkView]
    /// Where the download form goes (`GET`, with `format` and `for-spreadsheets`).
    public let exportAction: String
    /// The formats the download form offers.
    public let exportFormats: [ConsoleOptionView]
    /// What the researcher is told of the wrong passwords tried for their address before they signed in; nil for none.
    public var signInNotice: String?

    public init(counts: [ConsoleCountView], participants: [ConsoleParticipantRowView], exports: [ConsoleLinkView],
                exportAction: String = "/console/exports", exportFormats: [ConsoleOptionView] = []) {
        self.counts = counts
        self.participants = participants
        hasParticipants = !participants.isEmpty
        self.exports = exports
        self.exportAction = exportAction
        self.exportFormats = exportFormats
    }
}

/// A consent record on a participant's page, with its live verification.
public struct ConsoleConsentRecordView: Sendable {
    public let kind: String
    public let signedAt: String
    public let document: String
    public let signers: String
    /// True when the record verifies against the study's key now.
    public let verified: Bool
    /// "Verified" or why not.
    public let verification: String
    public let pdf: ConsoleLinkView?
    public let pdfNote: String?
    /// The countersignature form, on a consent that waits for one, for a role that may give it.
    public let countersign: ConsoleCountersignView?
    /// That the consent waits for a countersignature, for a role that may not give it.
    public let awaiting: String?

    public init(kind: String, signedAt: String, document: String, signers: String, verified: Bool, verification: String, pdf: ConsoleLinkView?,
                pdfNote: String?, countersign: ConsoleCountersignView? = nil, awaiting: String? = nil) {
        self.kind = kind
        self.signedAt = signedAt
        self.document = document
        self.signers = signers
        self.verified = verified
        self.verification = verification
        self.pdf = pdf
        self.pdfNote = pdfNote
        self.countersign = countersign
        self.awaiting = awaiting
    }
}

/// The form that records a participant's withdrawal, with the reason they gave and, where the study lets them
/// choose, what they chose for their data.
public struct ConsoleWithdrawView: Sendable {
    public let action: String
    public let error: String?
    /// What happens to the data, as the study decides it ("What was collected stays."); nil when the participant chooses.
    public let dataRule: String?
    /// Whether the form asks what the participant chose for their data (keep or delete).
    public let asksDataChoice: Bool

    public init(action: String, error: String? = nil, dataRule: String?, asksDataChoice: Bool) {
        self.action = action
        self.error = error
        self.dataRule = dataRule
        self.asksDataChoice = asksDataChoice
    }
}

/// The form that countersigns a consent: the countersigner's typed name and their confirmation.
public struct ConsoleCountersignView: Sendable {
    public let action: String
    /// Makes the fields' ids unique on the page.
    public let id: String
    /// What signing means, as the document says it ("investigator countersignature").
    public let meaning: String
    public let error: String?

    public init(action: String, id: String, meaning: String, error: String? = nil) {
        self.action = action
        self.id = id
        self.meaning = meaning
        self.error = error
    }
}

/// A table: its column headings and rows of cells.
public struct ConsoleTableView: Sendable {
    public let caption: String
    public let headings: [String]
    public let rows: [ConsoleRowView]
    public let isEmpty: Bool
    public let empty: String

    public init(caption: String, headings: [String], rows: [[String]], empty: String) {
        self.caption = caption
        self.headings = headings
        self.rows = rows.map(ConsoleRowView.init)
        isEmpty = rows.isEmpty
        self.empty = empty
    }
}

/// A table row's cells.
public struct ConsoleRowView: Sendable {
    public let cells: [String]

    public init(cells: [String]) { self.cells = cells }
}

/// A day of a participant's adherence calendar.
public struct ConsoleAdherenceDayView: Sendable {
    public let date: String
    /// "80 %", "no events", "no tasks".
    public let text: String
    /// `full`, `some`, `none` or `off`.
    public let level: String

    public init(date: String, text: String, level: String) {
        self.date = date
        self.text = text
        self.level = level
    }
}

/// A week of the adherence calendar.
public struct ConsoleAdherenceWeekView: Sendable {
    public let days: [ConsoleAdherenceDayView]

    public init(days: [ConsoleAdherenceDayView]) { self.days = days }
}

/// One run of a participant, with the answers it holds.
public struct ConsoleRunView: Sendable {
    public let id: String
    public let heading: String
    public let details: String
    public let answers: ConsoleTableView

    public init(id: String, heading: String, details: String, answers: ConsoleTableView) {
        self.id = id
        self.heading = heading
        self.details = details
        self.answers = answers
    }
}

/// A participant's page: who they are, their consent records, adherence, runs with answers, and outcomes.
public struct ConsoleParticipantView: Sendable {
    public let id: String
    public let facts: [ConsoleCountView]
    public let problems: [String]
    public let consents: [ConsoleConsentRecordView]
    public let hasConsents: Bool
    public let weekdays: [String]
    public let adherence: [ConsoleAdherenceWeekView]
    public let runs: [ConsoleRunView]
    public let hasRuns: Bool
    public let outcomes: ConsoleTableView
    /// The newest rows of the audit trail of the participant's data.
    public let audit: ConsoleTableView
    /// The form recording the participant's withdrawal, for a role that may, while their consent stands.
    public var withdraw: ConsoleWithdrawView?
    /// Each task's adherence over the last 7 and 28 whole days, and whether it is in the participant's rings.
    public var taskAdherence: ConsoleTableView?
    /// The channels that reach the participant (kinds and states; addresses only for a role that may see them).
    public var reminderChannels: ConsoleTableView?
    /// The reminders sent, failed and skipped, with why: the rows of the `reminders` export.
    public var reminderDeliveries: ConsoleTableView?

    public init(id: String, facts: [ConsoleCountView], problems: [String], consents: [ConsoleConsentRecordView], weekdays: [String],
                adherence: [ConsoleAdherenceWeekView], runs: [ConsoleRunView], outcomes: ConsoleTableView, audit: ConsoleTableView) {
        self.id = id
        self.facts = facts
        self.problems = problems
        self.consents = consents
        hasConsents = !consents.isEmpty
        self.weekdays = weekdays
        self.adherence = adherence
        self.runs = runs
        hasRuns = !runs.isEmpty
        self.outcomes = outcomes
        self.audit = audit
    }
}

/// A page with a title, a text and an optional link: refusals and confirmations.
public struct ConsoleMessageView: Sendable {
    public let title: String
    public let text: String
    public let link: ConsoleLinkView?

    public init(title: String, text: String, link: ConsoleLinkView? = nil) {
        self.title = title
        self.text = text
        self.link = link
    }
}

/// The signed-in researcher's account page: who they are, and signing out here or everywhere.
public struct ConsoleAccountView: Sendable {
    public let email: String
    public let role: String
    public let signOutAction: String
    public let signOutEverywhereAction: String

    public init(email: String, role: String, signOutAction: String, signOutEverywhereAction: String) {
        self.email = email
        self.role = role
        self.signOutAction = signOutAction
        self.signOutEverywhereAction = signOutEverywhereAction
    }
}

/// A form of one button that posts (with the page's CSRF token), such as "Revoke".
public struct ConsoleButtonView: Sendable {
    public let action: String
    public let label: String
    /// What the button acts on, for screen readers ("Revoke the invitation 'clinic A'").
    public let context: String

    public init(action: String, label: String, context: String) {
        self.action = action
        self.label = label
        self.context = context
    }
}

/// An invitation on the invitations page.
public struct ConsoleInvitationRowView: Sendable {
    public let label: String
    public let created: String
    /// "unused, expires …", "used … by …", "revoked …", "expired …".
    public let state: String
    public let revoke: ConsoleButtonView?

    public init(label: String, created: String, state: String, revoke: ConsoleButtonView?) {
        self.label = label
        self.created = created
        self.state = state
        self.revoke = revoke
    }
}

/// A link just made, with its QR code to print beside it.
public struct ConsoleNewLinkView: Sendable {
    /// The invitation link.
    public let link: String
    /// The link's QR code as an SVG image made by the server (inserted as it is).
    public let qrSVG: String

    public init(link: String, qrSVG: String) {
        self.link = link
        self.qrSVG = qrSVG
    }
}

/// The invitations page: the links just made (shown once, each with its QR code, and printable), a form to make more,
/// and every invitation.
public struct ConsoleInvitationsView: Sendable {
    public let createAction: String
    public let error: String?
    /// The links made by the last post, shown this once: only their digests are stored.
    public let newLinks: [ConsoleNewLinkView]
    public let hasNewLinks: Bool
    public let invitations: [ConsoleInvitationRowView]
    public let hasInvitations: Bool

    public init(createAction: String, error: String? = nil, newLinks: [ConsoleNewLinkView] = [], invitations: [ConsoleInvitationRowView]) {
        self.createAction = createAction
        self.error = error
        self.newLinks = newLinks
        hasNewLinks = !newLinks.isEmpty
        self.invitations = invitations
        hasInvitations = !invitations.isEmpty
    }
}

/// A researcher on the researchers page.
public struct ConsoleResearcherRowView: Sendable {
    public let email: String
    public let role: String
    public let state: String
    /// The role form (other researchers only: an admin cannot lower their own role and lock everyone out).
    public let roleForm: ConsoleRoleFormView?
    public let remove: ConsoleButtonView?
    public let newLink: ConsoleButtonView?

    public init(email: String, role: String, state: String, roleForm: ConsoleRoleFormView?, remove: ConsoleButtonView?, newLink: ConsoleButtonView?) {
        self.email = email
        self.role = role
        self.state = state
        self.roleForm = roleForm
        self.remove = remove
        self.newLink = newLink
    }
}

/// A form choosing a researcher's role.
public struct ConsoleRoleFormView: Sendable {
    public let action: String
    public let id: String
    public let context: String
    public let options: [ConsoleOptionView]

    public init(action: String, id: String, context: String, options: [ConsoleOptionView]) {
        self.action = action
        self.id = id
        self.context = context
        self.options = options
    }
}

/// An option of a select.
public struct ConsoleOptionView: Sendable {
    public let value: String
    public let label: String
    public let selected: Bool

    public init(value: String, label: String, selected: Bool) {
        self.value = value
        self.label = label
        self.selected = selected
    }
}

/// The researchers page (admins): every researcher, their role, a form to add one, and the one-time link just made.
public struct ConsoleResearchersView: Sendable {
    public let addAction: String
    public let error: String?
    /// The address and one-time link of the researcher just added or given a new link, shown this once.
    public let newLink: ConsolePasswordLinkView?
    public let roles: [ConsoleOptionView]
    public let researchers: [ConsoleResearcherRowView]

    public init(addAction: String, error: String? = nil, newLink: ConsolePasswordLinkView? = nil, roles: [ConsoleOptionView],
                researchers: [ConsoleResearcherRowView]) {
        self.addAction = addAction
        self.error = error
        self.newLink = newLink
        self.roles = roles
        self.researchers = researchers
    }
}
