import Foundation
import Mail
import Study
import StudyKitEnvironment
import StudyWeb

/// The words and links of what the server sends a participant: the mail that confirms an address, a reminder by mail
/// (RFC 8058's one-click unsubscribe in its headers) and a reminder by push, each in the participant's language, with
/// the study's texts (``StudyReminder``, translated) and the built-in ones (``WebStrings``).
struct ReminderMessages: Sendable {
    let study: StudyDefinition
    let configuration: ReminderSendingConfiguration
    let signer: RequestSigner
    let strings: @Sendable (String) -> WebStrings
    let environment: StudyKitEnvironment

    /// How long an address's confirmation link works.
    static let confirmationLifetime: TimeInterval = 7 * 86_400

    /// The page an event's reminder opens: the survey or active task (started after sign-in), or the day's page for a
    /// task recorded on its card.
    func taskPath(taskID: String, occurrence: Int, eventStart: Date, timeZone: TimeZone) -> String {
        if study.survey(taskID: taskID) != nil { return "/tasks/\(URLPath.encoded(taskID))/\(occurrence)" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return "/?day=" + DailyPageBuilder.parameter(of: eventStart, in: calendar)
    }

    /// The mail with the link that confirms `address` for the channel `channelID`.
    func confirmationMail(to address: MailAddress, channelID: UUID, language: String) throws -> MailMessage {
        guard let mail = configuration.mail else { throw StudyServerError(.serviceUnavailable, .remindersEmailUnavailable) }
        let strings = strings(language), name = study.localized(language).name
        let token = signer.reminderToken(.confirmEmail, channelID: channelID, expires: environment.now().addingTimeInterval(Self.confirmationLifetime))
        let body = ReminderMailBody(language: language, paragraphs: [strings.format(.mailConfirmText, ["study": name])],
                                    link: (strings[.remindersConfirmButton], configuration.link("/reminders/confirm/" + token)),
                                    footer: [strings[.mailConfirmIgnore]])
        return try message(from: mail.from, to: address, subject: strings.format(.mailConfirmSubject, ["study": name]), body: body, headers: [])
    }

    /// The reminder mail of `delivery`.
    func reminderMail(_ delivery: DueDelivery) throws -> MailMessage {
        guard let mail = configuration.mail, let text = delivery.channel.address else { throw StudyServerError(.serviceUnavailable, .remindersEmailUnavailable) }
        let address = try MailAddress(text)
        let (title, paragraphs, link) = reminderWords(delivery)
        let strings = strings(delivery.language), name = study.localized(delivery.language).name
        let unsubscribe = configuration.link("/reminders/unsubscribe/" + signer.reminderToken(.unsubscribe, channelID: delivery.channel.id))
        let body = ReminderMailBody(language: delivery.language, paragraphs: paragraphs, link: link, footer: [
            strings.format(.mailFooter, ["study": name, "link": unsubscribe]),
            strings.format(.mailManage, ["link": configuration.link("/settings/reminders")]),
        ])
        // RFC 2369's List-Unsubscribe with RFC 8058's one-click POST: a mail program stops the mail without a page.
        let headers = [try MailHeader("List-Unsubscribe", "<\(unsubscribe)>"),
                       try MailHeader("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
                       try MailHeader("Auto-Submitted", "auto-generated")]
        return try message(from: mail.from, to: address, subject: title, body: body, headers: headers)
    }

    /// The push payload of `delivery`: JSON the service worker shows (`title`, `body`, `url`, `tag`).
    func pushPayload(_ delivery: DueDelivery) throws -> Data {
        let (title, paragraphs, link) = reminderWords(delivery)
        // One notification per event (or per day for the daily page): a later one replaces it rather than piling up.
        let tag = delivery.due.isForDailyPage ? "today-\(delivery.due.localDay)" : "\(delivery.due.taskID)-\(delivery.due.occurrence)"
        let payload = ["title": title, "body": paragraphs.joined(separator: "\n"), "url": link.url, "tag": tag]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(payload)
    }

    /// A reminder's title, its paragraphs (the study's text, then the task), and the link to the task; for the daily
    /// page, the tasks still open and the link to the page.
    private func reminderWords(_ delivery: DueDelivery) -> (String, [String], (label: String, url: String)) {
        let localized = study.localized(delivery.language), strings = strings(delivery.language)
        let reminder = localized.reminder(id: delivery.due.reminderID)
        if delivery.due.isForDailyPage {
            let titles = delivery.due.openTaskIDs.compactMap { localized.task(id: $0)?.title }
            let list = titles.formatted(.list(type: .and).locale(Locale(identifier: delivery.language)))
            return (reminder?.title ?? localized.name,
                    [reminder?.text, titles.isEmpty ? nil : strings.format(.mailOpenTasks, ["tasks": list])].compactMap { $0 },
                    (strings[.mailOpenToday], configuration.link("/")))
        }
        let task = localized.task(id: delivery.due.taskID)
        let path = taskPath(taskID: delivery.due.taskID, occurrence: delivery.due.occurrence, eventStart: delivery.due.eventStart,
                            timeZone: delivery.timeZone)
        return (reminder?.title ?? task?.title ?? localized.name,
                [reminder?.text, task.map { strings.format(.mailTask, ["task": $0.title]) }].compactMap { $0 },
                (strings[.mailOpenTask], configuration.link(path)))
    }

    private func message(from: MailMailbox, to: MailAddress, subject: String, body: ReminderMailBody, headers: [MailHeader]) throws -> MailMessage {
        var generator = EnvironmentRandomNumberGenerator(environment: environment)
        return try MailMessage(from: from, to: [to], subject: subject, textBody: body.text, htmlBody: body.html, extraHeaders: headers,
                               date: environment.now(), using: &generator)
    }
}

/// A random number generator over the environment's secure random bytes (Message-IDs and MIME boundaries).
struct EnvironmentRandomNumberGenerator: RandomNumberGenerator {
    let environment: StudyKitEnvironment

    mutating func next() -> UInt64 {
        environment.randomBytes(8).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
