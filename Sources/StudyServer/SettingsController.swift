import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Study
import StudyWeb

/// The participant's settings: language, a sign-in code for another device, the browsers signed in, the signed
/// consent's PDF, and a copy of everything the study holds about them.
///
/// | Route | What it does |
/// |---|---|
/// | `GET /settings`, `POST /settings/language`, `POST /settings/signin-code` | settings |
/// | `POST /settings/browsers/SESSION/sign-out` | sign another browser of the participant out |
/// | `GET /settings/my-data.zip` | the participant's own copy of their data (``Study/ParticipantDataCopy``) |
/// | `GET /consent.pdf` | the participant's signed consent |
struct SettingsController {
    /// What the settings routes use of the server besides a participant page's frame.
    protocol Service: ParticipantPageService {
        /// The settings page, with a sign-in code for another device when one was just made.
        func settingsPage(signedIn: StudyService.SignedIn, signInCode: IssuedSignInCode?) async throws -> String
        /// Stores the participant's language.
        func setLanguage(_ language: String, for participant: StudyParticipant) async throws -> StudyParticipant
        /// A one-time code that signs the participant in on another device.
        func makeSignInCode(for participant: StudyParticipant) async throws -> IssuedSignInCode
        /// Signs out one of the participant's browsers.
        func signOut(sessionID: UUID, signedIn: StudyService.SignedIn) async throws
        /// Whether the participant has a consent to withdraw.
        func canLeave(_ participant: StudyParticipant) async throws -> Bool
        /// Records the participant's withdrawal (``Study/StudyWithdrawal``).
        func withdraw(_ participant: StudyParticipant, reason: String?, data: WithdrawnData?, recordedBy recorder: StudyWithdrawal.Recorder) async throws
        /// The participant's own copy of their data, as a ZIP.
        func participantDataCopy(signedIn: StudyService.SignedIn) async throws -> Data
        /// The PDF of the participant's signed consent; nil while it is printed.
        func consentPDF(signedIn: StudyService.SignedIn) async throws -> Data?
    }

    let service: any Service

    func addRoutes(to group: RouterGroup<ParticipantRequestContext>) {
        group.get("/settings") { _, context in
            StudyRouter.html(try await service.settingsPage(signedIn: context.signedIn, signInCode: nil))
        }
        group.post("/settings/language") { _, context in
            guard let language = context.fields["language"]?.first else { throw StudyServerError(.badRequest, .refusalChooseLanguage) }
            _ = try await service.setLanguage(language, for: context.participant)
            return Response.redirect(to: "/settings", type: .normal)
        }
        group.post("/settings/signin-code") { _, context in
            let code = try await service.makeSignInCode(for: context.participant)
            return StudyRouter.html(try await service.settingsPage(signedIn: context.signedIn, signInCode: code))
        }
        group.post("/settings/browsers/:session/sign-out") { _, context in
            guard let session = UUID(uuidString: try context.parameters.require("session")) else {
                throw StudyServerError(.notFound, .refusalNoSuchBrowser)
            }
            try await service.signOut(sessionID: session, signedIn: context.signedIn)
            return Response.redirect(to: "/settings", type: .normal)
        }
        group.get("/settings/leave") { _, context in
            guard try await service.canLeave(context.participant) else { return Response.redirect(to: "/settings", type: .normal) }
            return leavePage(context)
        }
        group.post("/settings/leave") { _, context in
            // The reason's rules and the data choice are the withdrawal's (StudyWithdrawal); a choice is read only where
            // the study lets the participant choose what happens to their data.
            let chooses = service.study.withdrawal == .participantChooses
            do {
                try await service.withdraw(context.participant, reason: context.fields["reason"]?.first,
                                           data: chooses ? context.fields["data"]?.first.flatMap(WithdrawnData.init(rawValue:)) : nil,
                                           recordedBy: .participant)
            } catch StudyWithdrawalError.reason {
                throw StudyServerError.malformed("The reason must be at most \(StudyWithdrawal.maximumReasonLength) characters of text.")
            } catch StudyWithdrawalError.choiceRequired {
                return leavePage(context, choiceError: service.strings(language: context.participant.language)[.leaveDataChoiceRequired])
            }
            return Response.redirect(to: "/", type: .normal)
        }
        group.get("/settings/my-data.zip") { _, context in
            let zip = try await service.participantDataCopy(signedIn: context.signedIn)
            var headers = HTTPFields()
            headers[.contentType] = "application/zip"
            headers[.contentDisposition] = "attachment; filename=\"\(service.study.identifier)-my-data.zip\""
            headers[.cacheControl] = "private, no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: zip)))
        }
        group.get("/consent.pdf") { _, context in
            guard let pdf = try await service.consentPDF(signedIn: context.signedIn) else { throw StudyServerError(.conflict, .refusalConsentPrinting) }
            var headers = HTTPFields()
            headers[.contentType] = "application/pdf"
            headers[.contentDisposition] = "attachment; filename=\"\(service.study.identifier)-consent.pdf\""
            headers[.cacheControl] = "private, no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: pdf)))
        }
    }

    /// The page that asks before the participant leaves: what leaving does, what happens to their data as the study
    /// decides it or the choice the study offers (with `choiceError` after a post without it, 422), and why (optional).
    private func leavePage(_ context: ParticipantRequestContext, choiceError: String? = nil) -> Response {
        let strings = service.strings(language: context.participant.language)
        var text = strings[.leaveConfirmText]
        var choice: ConfirmPage.Choice?
        switch service.study.withdrawal {
        case .keep: text += "\n" + strings[.leaveDataKept]
        case .delete: text += "\n" + strings[.leaveDataDeleted]
        case .participantChooses:
            choice = ConfirmPage.Choice(name: "data", legend: strings[.leaveDataChoice],
                                        options: [(WithdrawnData.keep.rawValue, strings[.leaveDataChoiceKeep]),
                                                  (WithdrawnData.delete.rawValue, strings[.leaveDataChoiceDelete])], error: choiceError)
        }
        let page = ConfirmPage(title: strings[.leaveConfirmTitle], text: text, post: TaskCard.Post(action: "/settings/leave"),
                               confirm: strings[.leaveConfirm], cancelURL: "/settings", reasonField: ("reason", strings[.leaveReasonLabel]),
                               choice: choice)
        return StudyRouter.html(service.sitePages.confirm(page, context: service.siteContext(language: context.participant.language,
                                                                                             signedIn: context.signedIn)),
                                status: choiceError == nil ? .ok : .unprocessableContent)
    }
}

extension StudyService: SettingsController.Service {}
