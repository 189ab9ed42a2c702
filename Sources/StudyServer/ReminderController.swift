import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Study
import StudyWeb

/// Reminders: the participant's reminders page and its forms, and the links a reminder or a confirmation carries,
/// which work without a session (their tokens are signed by ``RequestSigner``, and stop working when the channel is
/// removed).
///
/// | Route | What it does |
/// |---|---|
/// | `GET /settings/reminders`, `POST /settings/reminders` | which reminders, pause, quiet hours |
/// | `POST /settings/reminders/email` | add an address and send it its confirmation link |
/// | `POST /settings/reminders/push` | store this browser's push subscription (`subscription`: its JSON) |
/// | `POST /settings/reminders/calendar`, `POST /settings/reminders/calendar/revoke` | make or revoke the calendar feed |
/// | `POST /settings/reminders/channels/ID/remove` | remove an address or a subscription |
/// | `GET`, `POST /reminders/confirm/TOKEN` | confirm an address (double opt-in) |
/// | `GET`, `POST /reminders/unsubscribe/TOKEN` | stop mail to an address; the POST is RFC 8058's one-click |
/// | `GET /calendar/TOKEN.ics` | the calendar feed (RFC 5545) |
struct ReminderController {
    /// What the reminder routes use of the server besides a participant page's frame.
    protocol Service: ParticipantPageService {
        func reminderSettingsPage(signedIn: StudyService.SignedIn, notice: String?, typedAddress: String?, emailError: String?) async throws -> String
        func saveReminderChoices(_ form: [String: [String]], for participant: StudyParticipant) async throws
        func addReminderEmail(_ text: String, for participant: StudyParticipant) async throws(StudyService.EmailRefusal)
        func removeReminderChannel(id: UUID, for participant: StudyParticipant) async throws
        func createCalendarFeed(for participant: StudyParticipant) async throws
        func revokeCalendarFeed(for participant: StudyParticipant) async throws
        func addPushSubscription(_ json: Data, label: String?, for participant: StudyParticipant) async throws
        func reminderChannel(token: String, purpose: RequestSigner.ReminderLinkPurpose, kind: ReminderChannel.Kind) async throws -> ReminderChannel?
        func language(of channel: ReminderChannel) async throws -> String
        func calendarFeed(token: String) async throws -> Data?
        var store: any StudyStore { get }
    }

    let service: any Service

    func addRoutes(to group: RouterGroup<ParticipantRequestContext>) {
        group.get("/settings/reminders") { request, context in
            let notice = request.uri.queryParameters.get("notice").flatMap { name -> String? in
                let strings = service.strings(language: context.participant.language)
                switch name {
                case "saved": return strings[.remindersSaved]
                default: return nil
                }
            }
            return StudyRouter.html(try await service.reminderSettingsPage(signedIn: context.signedIn, notice: notice, typedAddress: nil, emailError: nil))
        }
        group.post("/settings/reminders") { _, context in
            try await service.saveReminderChoices(context.fields, for: context.participant)
            return Response.redirect(to: "/settings/reminders?notice=saved", type: .normal)
        }
        group.post("/settings/reminders/email") { _, context in
            // Checked whole (a long address is refused as such); only its start is shown back.
            let posted = context.fields["address"]?.first ?? ""
            let typed = String(posted.prefix(300))
            let strings = service.strings(language: context.participant.language)
            let problem: String
            do throws(StudyService.EmailRefusal) {
                try await service.addReminderEmail(posted, for: context.participant)
                problem = ""
            } catch {
                problem = error.problem.text(in: strings)
            }
            if problem.isEmpty {
                let notice = strings.format(.remindersEmailSent, ["address": typed])
                return StudyRouter.html(try await service.reminderSettingsPage(signedIn: context.signedIn, notice: notice, typedAddress: nil, emailError: nil))
            }
            return StudyRouter.html(try await service.reminderSettingsPage(signedIn: context.signedIn, notice: nil, typedAddress: typed, emailError: problem),
                                    status: .unprocessableContent)
        }
        group.post("/settings/reminders/push") { _, context in
            guard let json = context.fields["subscription"]?.first, json.utf8.count <= 4096 else {
                throw StudyServerError.malformed("The field 'subscription' must hold the browser's push subscription as JSON.")
            }
            try await service.addPushSubscription(Data(json.utf8), label: context.fields["label"]?.first, for: context.participant)
            return Response.redirect(to: "/settings/reminders?notice=saved", type: .normal)
        }
        group.post("/settings/reminders/calendar") { _, context in
            try await service.createCalendarFeed(for: context.participant)
            return Response.redirect(to: "/settings/reminders", type: .normal)
        }
        group.post("/settings/reminders/calendar/revoke") { _, context in
            try await service.revokeCalendarFeed(for: context.participant)
            return Response.redirect(to: "/settings/reminders", type: .normal)
        }
        group.post("/settings/reminders/channels/:channel/remove") { _, context in
            guard let id = UUID(uuidString: try context.parameters.require("channel")) else { throw StudyServerError.noSuchPage }
            try await service.removeReminderChannel(id: id, for: context.participant)
            return Response.redirect(to: "/settings/reminders", type: .normal)
        }
    }

    func addPublicRoutes(to router: Router<StudyRequestContext>) {
        router.get("/reminders/confirm/:token") { request, context in
            try await tokenPage(request, context, purpose: .confirmEmail, title: .remindersConfirmTitle, text: .remindersConfirmText,
                                button: .remindersConfirmButton)
        }
        router.post("/reminders/confirm/:token") { request, context in
            try await tokenAction(request, context, purpose: .confirmEmail, done: .remindersConfirmed) { channel in
                _ = try await service.store.confirmReminderChannel(id: channel.id, participantID: channel.participantID)
            }
        }
        router.get("/reminders/unsubscribe/:token") { request, context in
            try await tokenPage(request, context, purpose: .unsubscribe, title: .remindersUnsubscribeTitle, text: .remindersUnsubscribeText,
                                button: .remindersUnsubscribeButton)
        }
        // RFC 8058: a mail program posts `List-Unsubscribe=One-Click` here, with no cookie and no page.
        router.post("/reminders/unsubscribe/:token") { request, context in
            try await tokenAction(request, context, purpose: .unsubscribe, done: .remindersUnsubscribed) { channel in
                _ = try await service.store.removeReminderChannel(id: channel.id, participantID: channel.participantID)
            }
        }
        router.get("/calendar/:file") { request, context in
            let file = try context.parameters.require("file")
            guard file.hasSuffix(".ics"),
                  let feed = try await service.calendarFeed(token: String(file.dropLast(4))) else {
                throw StudyServerError.noSuchPage
            }
            var headers = HTTPFields()
            headers[.contentType] = "text/calendar; charset=utf-8"
            headers[.cacheControl] = "private, max-age=300"
            headers[HTTPField.Name("X-Robots-Tag")!] = "noindex"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: feed)))
        }
    }

    /// The page a link opens: what the button will do, for the channel its token names; a message when it does not hold.
    private func tokenPage(_ request: Request, _ context: StudyRequestContext, purpose: RequestSigner.ReminderLinkPurpose,
                           title: WebStringKey, text: WebStringKey, button: WebStringKey) async throws -> Response {
        let token = try context.parameters.require("token")
        guard let channel = try await service.reminderChannel(token: token, purpose: purpose, kind: .email) else {
            return invalidLink(request)
        }
        let language = try await service.language(of: channel)
        let strings = service.strings(language: language)
        let page = ConfirmPage(title: strings[title],
                               text: strings.format(text, ["address": channel.address ?? "", "study": service.study.localized(language).name]),
                               post: TaskCard.Post(action: request.uri.path), confirm: strings[button], cancelURL: "/")
        return StudyRouter.html(service.sitePages.confirm(page, context: service.siteContext(language: language, signedIn: nil)))
    }

    /// Does what a link's button (or a mail program's one-click POST) asks, for the channel its token names.
    private func tokenAction(_ request: Request, _ context: StudyRequestContext, purpose: RequestSigner.ReminderLinkPurpose, done: WebStringKey,
                             _ action: @escaping @Sendable (ReminderChannel) async throws -> Void) async throws -> Response {
        let token = try context.parameters.require("token")
        guard let channel = try await service.reminderChannel(token: token, purpose: purpose, kind: .email) else {
            return invalidLink(request, status: .notFound)
        }
        let source = AuditSource(actor: "participant \(channel.participantID) through a reminder link", reason: "POST /reminders/\(purpose.rawValue)")
        try await AuditTrail.$source.withValue(source) { try await action(channel) }
        let language = try await service.language(of: channel)
        let strings = service.strings(language: language)
        let page = MessagePage(title: strings[purpose == .unsubscribe ? .remindersUnsubscribeTitle : .remindersConfirmTitle], text: strings[done],
                               link: (strings[.home], "/"))
        return StudyRouter.html(service.sitePages.message(page, context: service.siteContext(language: language, signedIn: nil)))
    }

    private func invalidLink(_ request: Request, status: HTTPResponse.Status = .notFound) -> Response {
        let strings = service.strings(language: StudyRouter.language(of: request, study: service.study))
        let page = MessagePage(title: strings[.remindersConfirmTitle], text: strings[.remindersLinkInvalid], link: (strings[.home], "/"))
        return StudyRouter.html(service.sitePages.message(page, context: service.siteContext(language: strings.language, signedIn: nil)), status: status)
    }
}

extension StudyService: ReminderController.Service {}
