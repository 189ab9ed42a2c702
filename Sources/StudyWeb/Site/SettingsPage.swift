/// The participant's settings page: who they are in the study, their language, a one-time code to sign in on
/// another device, their signed consent, and a copy of their data.
///
/// ```swift
/// let page = SettingsPage(participantLabel: "P-0042",
///                         languages: [.init(code: "en", name: "English", selected: true), .init(code: "ja", name: "日本語", selected: false)],
///                         languageFormAction: "/settings/language",
///                         signInCode: (code: "482 913", expiresText: "14:05"), signInCodeFormAction: "/settings/signin-code",
///                         consentPDF: .ready(url: "/consent.pdf"))
/// ```
public struct SettingsPage: Sendable {
    /// A language the participant may choose.
    public struct Language: Sendable {
        /// The language's BCP 47 tag, posted as the `language` field (`ja`, `zh-Hans`).
        public var code: String
        /// The language's name, best in the language itself ("日本語"); the page marks it with its `lang`.
        public var name: String
        /// Whether this is the participant's current language.
        public var selected: Bool

        /// Creates a language choice.
        public init(code: String, name: String, selected: Bool) {
            self.code = code
            self.name = name
            self.selected = selected
        }
    }

    /// A browser the participant is signed in on.
    public struct Browser: Sendable {
        /// When it was signed in, as the participant reads it.
        public var signedInText: String
        /// When it was last used, as the participant reads it.
        public var lastUsedText: String
        /// Where its Sign out button posts (with `_csrf`); nil for the browser showing the page, which is marked instead.
        public var signOutFormAction: String?

        /// Creates a browser entry.
        public init(signedInText: String, lastUsedText: String, signOutFormAction: String?) {
            self.signedInText = signedInText
            self.lastUsedText = lastUsedText
            self.signOutFormAction = signOutFormAction
        }
    }

    /// Where the participant's signed consent PDF stands.
    public enum ConsentPDF: Sendable {
        /// Printed: a download link to `url`.
        case ready(url: String)
        /// Being printed: the page says so and suggests reloading.
        case pending
        /// Printing failed: the page says so and that the study team has been told.
        case failed
        /// No signed consent: the section is left out.
        case none
    }

    /// The name of the field the language form posts: `language`.
    public static let languageFieldName = "language"

    /// How the participant is known in the study (a participant number, never a secret).
    public var participantLabel: String
    /// The languages to choose from; the form is shown when there are at least two.
    public var languages: [Language]
    /// Where the language form posts its `language` field (with `_csrf`).
    public var languageFormAction: String
    /// The one-time sign-in code just made, and when it stops working as the participant reads it (a time such
    /// as `14:05`, or a date and time), which the page puts in a sentence ("It works once, until 14:05."); nil
    /// shows only the button that makes one.
    public var signInCode: (code: String, expiresText: String)?
    /// Where the button that makes a new sign-in code posts (with `_csrf`).
    public var signInCodeFormAction: String
    /// Where the participant's signed consent PDF stands.
    public var consentPDF: ConsentPDF
    /// The address of the sign-in page to open on the other device, as shown to the participant; best a full URL
    /// (`https://study.example.org/signin`). Defaults to `/signin`.
    public var signInAddress: String
    /// The browsers signed in, newest first, the one showing the page among them; the section is left out when empty.
    public var browsers: [Browser]
    /// Where the participant downloads a copy of everything the study holds about them (a ZIP file); nil leaves the
    /// section out.
    public var myDataURL: String?
    /// The participant's reminders page; nil leaves the section out.
    public var remindersURL: String?
    /// Where the participant asks to leave the study (a page that confirms); nil leaves the section out (before their
    /// consent, or once they have left).
    public var withdrawURL: String?

    /// Creates a settings page; see the properties for each part.
    public init(participantLabel: String, languages: [Language], languageFormAction: String,
                signInCode: (code: String, expiresText: String)?, signInCodeFormAction: String,
                consentPDF: ConsentPDF, signInAddress: String = "/signin", browsers: [Browser] = [], myDataURL: String? = nil,
                withdrawURL: String? = nil, remindersURL: String? = nil) {
        self.remindersURL = remindersURL
        self.withdrawURL = withdrawURL
        self.browsers = browsers
        self.myDataURL = myDataURL
        self.participantLabel = participantLabel
        self.languages = languages
        self.languageFormAction = languageFormAction
        self.signInCode = signInCode
        self.signInCodeFormAction = signInCodeFormAction
        self.consentPDF = consentPDF
        self.signInAddress = signInAddress
    }
}
