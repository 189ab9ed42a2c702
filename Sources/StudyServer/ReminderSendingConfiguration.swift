import Foundation
import Mail
import WebPush

/// How the server reaches participants outside the open page: the address its links start with, the mail server it
/// submits reminders to, and the push services it may send to. Without mail and push settings the server still
/// offers the calendar feed; the settings page leaves out what the server cannot send.
///
/// ```swift
/// var reminders = ReminderSendingConfiguration(publicURL: URL(string: "https://study.example.org")!)
/// reminders.mail = .init(smtp: SMTPConfiguration(host: "smtp.example.org", credentials: credentials),
///                        from: MailMailbox(try MailAddress("recover@example.org"), displayName: "Recover"))
/// ```
public struct ReminderSendingConfiguration: Sendable {
    /// Where reminders' mail is submitted, and from whom it comes.
    public struct MailSettings: Sendable {
        /// The SMTP submission server (STARTTLS and AUTH by default).
        public var smtp: SMTPConfiguration
        /// The sender participants see.
        public var from: MailMailbox

        /// Mail through `smtp`, from `from`.
        public init(smtp: SMTPConfiguration, from: MailMailbox) {
            self.smtp = smtp
            self.from = from
        }
    }

    /// Web push: who the push services may contact about the server's messages, and which services it sends to.
    public struct PushSettings: Sendable {
        /// The VAPID `sub` claim: a `mailto:` or `https:` contact for the push services.
        public var subject: String
        /// The push endpoints the server will ever send to (the big browsers' services by default).
        public var policy: PushServicePolicy

        /// Push with `subject` as contact, to the endpoints `policy` allows.
        public init(subject: String, policy: PushServicePolicy = .browsers) {
            self.subject = subject
            self.policy = policy
        }
    }

    /// The server's address as participants reach it (`https://study.example.org`): mail, notifications and the
    /// calendar link to pages under it. Nil serves links relative to the address a request came to (the calendar
    /// feed), and sends no mail.
    public var publicURL: URL?
    /// Mail; nil sends none.
    public var mail: MailSettings?
    /// Web push; nil sends none.
    public var push: PushSettings?
    /// How often the sender looks for reminders that are due.
    public var checkInterval: Duration = .seconds(30)
    /// How long a process holds a delivery it claimed before another may take it (it died mid-send).
    public var claimDuration: TimeInterval = 120

    /// Settings with links under `publicURL` and nothing sent until mail or push is set.
    public init(publicURL: URL? = nil, mail: MailSettings? = nil, push: PushSettings? = nil) {
        self.publicURL = publicURL
        self.mail = mail
        self.push = push
    }

    /// The absolute URL of `path` (`/tasks/pain/3`) under ``publicURL``; the path alone without one.
    public func link(_ path: String) -> String {
        guard let publicURL else { return path }
        var base = publicURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base + path
    }
}
