import CareStore
import Foundation
import ICalendar
import Mail
import Study
import StudyWeb
import WebPush

/// The participant's reminders: the settings page and its forms, an address's confirmation and one-click
/// unsubscribe (links signed by ``RequestSigner``, no session needed), push subscriptions, and the calendar feed.
extension StudyService {
    /// Why an address was not added.
    enum EmailRefusal: Error {
        /// Not an address that can be used, with the reason.
        case invalid(String)
        /// The participant has as many as one may have.
        case tooMany
        /// The mail server did not take the confirmation; the address is kept, and adding it again sends it again.
        case notSent(String)
        /// The participant's addresses had as many confirmation links in the last hour as they may
        /// (``ConfirmationMailLimiter``); the address is kept.
        case tooOften

        /// What the participant reads, on the reminders page and on an onboarding's permissions step alike.
        var problem: FieldProblem {
            switch self {
            case .invalid(let reason): .formatted(.remindersEmailInvalid, ["problem": reason])
            case .tooMany: .builtIn(.remindersEmailTooMany)
            case .notSent(let reason): .formatted(.remindersEmailNotSent, ["problem": reason])
            case .tooOften: .builtIn(.remindersEmailTooOften)
            }
        }
    }

    /// The reminders page of the signed-in participant.
    func reminderSettingsPage(signedIn: SignedIn, notice: String? = nil, typedAddress: String? = nil, emailError: String? = nil) async throws -> String {
        let participant = signedIn.participant
        let localized = study.localized(participant.language), strings = strings(language: participant.language)
        let preferences = try await store.reminderPreferences(participantID: participant.id)
        let channels = try await store.reminderChannels(participantID: participant.id)
        let quiet = preferences.effectiveQuietHours(in: study)
        let calendar = workflow.calendar(for: participant)
        let reminders = localized.reminders.map { reminder in
            ReminderSettingsPage.Reminder(id: reminder.id, label: reminder.title,
                                          timing: timingText(reminder.timing, strings: strings, language: participant.language),
                                          on: preferences.isOn(reminder))
        }
        let dateStyle = Date.FormatStyle(date: .abbreviated, time: .omitted, locale: Locale(identifier: participant.language),
                                         calendar: calendar, timeZone: participant.timeZone)
        func removeAction(_ channel: ReminderChannel) -> String { "/settings/reminders/channels/\(channel.id.uuidString.lowercased())/remove" }
        let emails = configuration.reminders.mail == nil ? nil : channels.filter { $0.kind == .email }.map { channel in
            ReminderSettingsPage.Channel(label: channel.address ?? "", state: strings[channel.isConfirmed ? .remindersEmailConfirmed : .remindersEmailPending],
                                         removeAction: removeAction(channel))
        }
        let push = (configuration.reminders.push == nil ? nil : vapidKey).map { key in
            ReminderSettingsPage.Push(publicKey: key.publicKeyBase64URL, subscribeAction: "/settings/reminders/push",
                                      devices: channels.filter { $0.kind == .push }.map { channel in
                                          ReminderSettingsPage.Channel(label: strings.format(.remindersPushDevice, ["date": channel.createdAt.formatted(dateStyle)])
                                                                       + (channel.label.map { " (\($0))" } ?? ""),
                                                                       state: nil, removeAction: removeAction(channel))
                                      })
        }
        let feed = channels.first { $0.kind == .calendar }
        let calendarSection: ReminderSettingsPage.Calendar = feed.map { channel in
            let https = configuration.reminders.link(calendarFeedPath(channel))
            let webcal = https.hasPrefix("https://") ? "webcal://" + https.dropFirst("https://".count)
                : https.hasPrefix("http://") ? "webcal://" + https.dropFirst("http://".count) : https
            return .active(httpsURL: https, webcalURL: String(webcal), revokeAction: "/settings/reminders/calendar/revoke")
        } ?? .offered(createAction: "/settings/reminders/calendar")
        let page = ReminderSettingsPage(reminders: reminders, paused: preferences.paused, quietFrom: QuietHours.text(minuteOfDay: quiet.from),
                                        quietTo: QuietHours.text(minuteOfDay: quiet.to), formAction: "/settings/reminders", emails: emails,
                                        emailFormAction: "/settings/reminders/email", typedAddress: typedAddress, emailError: emailError,
                                        push: push, calendar: calendarSection, notice: notice)
        return sitePages.reminders(page, context: siteContext(language: participant.language, signedIn: signedIn))
    }

    /// "at 09:00", "1 hour after it opens", in the participant's language.
    private func timingText(_ timing: StudyReminder.Timing, strings: WebStrings, language: String) -> String {
        func duration(_ seconds: Int) -> String {
            Duration.seconds(seconds).formatted(.units(allowed: [.days, .hours, .minutes], width: .wide).locale(Locale(identifier: language)))
        }
        switch timing {
        case .timeOfDay(let minutes): return strings.format(.remindersTimingAt, ["time": QuietHours.text(minuteOfDay: minutes)])
        case .afterStart(let seconds): return strings.format(.remindersTimingAfter, ["duration": duration(seconds)])
        case .beforeEnd(let seconds): return strings.format(.remindersTimingBefore, ["duration": duration(seconds)])
        }
    }

    /// Stores the reminders form: the `on` reminders (the study's ids only), `paused`, and the quiet hours.
    func saveReminderChoices(_ form: [String: [String]], for participant: StudyParticipant) async throws {
        let known = Set(study.reminders.map(\.id))
        let on = Set(form["on"] ?? [])
        guard on.isSubset(of: known) else { throw StudyServerError.malformed("The field 'on' names a reminder the study does not have.") }
        guard let fromText = form["quietFrom"]?.first, let toText = form["quietTo"]?.first,
              let from = QuietHours.minuteOfDay(String(fromText.prefix(5))), let to = QuietHours.minuteOfDay(String(toText.prefix(5))) else {
            throw StudyServerError.malformed("The fields 'quietFrom' and 'quietTo' must be times of day as HH:MM.")
        }
        let quiet = QuietHours(from: from, to: to)
        let preferences = ReminderPreferences(enabledReminderIDs: on, paused: form["paused"]?.first == "yes",
                                              quietHours: quiet == study.quietHours ? nil : quiet)
        try await store.setReminderPreferences(preferences, participantID: participant.id)
    }

    /// Adds an email address for the participant (or finds the one added before) and sends it the link that confirms
    /// it (at most as often as ``ConfirmationMailLimiter`` lets); nothing else is sent to it until that link is opened. The reminders page and a permissions step's reminder
    /// email address (``apply(_:files:to:for:)``) both add it here.
    func addReminderEmail(_ text: String, for participant: StudyParticipant) async throws(EmailRefusal) {
        let address: MailAddress
        do { address = try MailAddress(text) } catch { throw .invalid(error.description) }
        let channel: ReminderChannel
        do {
            channel = try await store.addReminderChannel(ReminderChannel(id: environment.makeUUID(), participantID: participant.id, kind: .email,
                                                                         address: address.description, createdAt: environment.now()))
        } catch ReminderChannelRefusal.tooMany {
            throw .tooMany
        } catch {
            throw .notSent("\(error)")
        }
        guard !channel.isConfirmed, let mailer else { return }
        switch confirmationLimiter.decide(participantID: participant.id, address: address.description, at: environment.now()) {
        case .send: break
        case .alreadySent: return
        case .tooOften: throw .tooOften
        }
        do {
            try await mailer.send(try reminderMessages.confirmationMail(to: address, channelID: channel.id, language: participant.language))
        } catch {
            throw .notSent("\(error)")
        }
    }

    /// Removes one of the participant's channels.
    func removeReminderChannel(id: UUID, for participant: StudyParticipant) async throws {
        guard try await store.removeReminderChannel(id: id, participantID: participant.id) else { throw StudyServerError.noSuchPage }
    }

    /// Makes the participant's calendar feed (one at most; a new one after revoking has a new address).
    func createCalendarFeed(for participant: StudyParticipant) async throws {
        let existing = try await store.reminderChannels(participantID: participant.id)
        guard !existing.contains(where: { $0.kind == .calendar }) else { return }
        let now = environment.now()
        _ = try await store.addReminderChannel(ReminderChannel(id: environment.makeUUID(), participantID: participant.id, kind: .calendar,
                                                               createdAt: now, confirmedAt: now))
    }

    /// Revokes the participant's calendar feed: its address answers 404 from now on.
    func revokeCalendarFeed(for participant: StudyParticipant) async throws {
        for channel in try await store.reminderChannels(participantID: participant.id) where channel.kind == .calendar {
            _ = try await store.removeReminderChannel(id: channel.id, participantID: participant.id)
        }
    }

    /// Stores a browser's push subscription (its JSON, as `PushSubscription.toJSON()` gives it), after checking its
    /// keys and that its endpoint is on a push service the server sends to (never an address the participant chose).
    func addPushSubscription(_ json: Data, label: String?, for participant: StudyParticipant) async throws {
        guard let push = configuration.reminders.push else { throw StudyServerError(.notFound, .remindersPushUnavailable) }
        let subscription: PushSubscription
        do {
            subscription = try PushSubscription(json: json, allowInsecureEndpoints: !push.policy.allowedOrigins.isEmpty)
            try push.policy.check(subscription.endpoint)
        } catch {
            throw StudyServerError.malformed("The push subscription cannot be used: \(error)")
        }
        let keys = try JSONEncoder().encode(["p256dh": subscription.p256dh, "auth": subscription.auth])
        let now = environment.now()
        _ = try await store.addReminderChannel(ReminderChannel(id: environment.makeUUID(), participantID: participant.id, kind: .push,
                                                               address: subscription.endpoint.absoluteString,
                                                               pushKeys: String(decoding: keys, as: UTF8.self),
                                                               label: label.map { String($0.prefix(60)) }, createdAt: now, confirmedAt: now))
    }

    // MARK: - Links without a session

    /// The channel a link's token names, of `kind`, when it holds; nil otherwise (wrong, expired, removed).
    func reminderChannel(token: String, purpose: RequestSigner.ReminderLinkPurpose, kind: ReminderChannel.Kind) async throws -> ReminderChannel? {
        guard let id = signer.channelID(fromReminderToken: token, purpose: purpose, now: environment.now()),
              let channel = try await store.reminderChannel(id: id), channel.kind == kind else { return nil }
        return channel
    }

    /// The language of the participant a channel reaches.
    func language(of channel: ReminderChannel) async throws -> String {
        try await store.participant(id: channel.participantID)?.language ?? study.defaultLanguage
    }

    /// The path of a calendar feed.
    func calendarFeedPath(_ channel: ReminderChannel) -> String {
        "/calendar/" + signer.reminderToken(.calendarFeed, channelID: channel.id) + ".ics"
    }

    /// The calendar feed of the token's channel: the participant's events of the coming weeks with their reminders'
    /// alarms; nil when the token does not hold (revoked, wrong). Its UIDs end in the public address's host (else the
    /// study's identifier), never in the host a request named: a calendar that reads the feed under another name must
    /// see the same UIDs, or it would list every event twice.
    func calendarFeed(token: String) async throws -> Data? {
        guard let channel = try await reminderChannel(token: token, purpose: .calendarFeed, kind: .calendar),
              let participant = try await store.participant(id: channel.participantID) else { return nil }
        let now = environment.now()
        let window = CalendarFeedBuilder.window(at: now, in: participant.timeZone)
        var query = CareQuery()
        query.ids = Set(study.tasks.map { StudyCareIdentifiers.taskID(participant: participant.id, task: $0.id) })
        let events = try await careStore.events(taskQuery: query, window: window)
        let preferences = try await store.reminderPreferences(participantID: participant.id)
        let builder = CalendarFeedBuilder(study: study, messages: reminderMessages)
        return builder.calendar(for: participant, preferences: preferences, events: events, window: window, now: now,
                                host: configuration.reminders.publicURL?.host() ?? study.identifier).serializedUTF8()
    }
}
