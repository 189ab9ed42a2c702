import Foundation
import HTTPTypes
import Hummingbird
import Study
import StudyWeb

/// Joining with an invitation link and signing in on a second device: the routes before a session exists. Their forms
/// carry no CSRF token (there is no session yet); ``StudyPageMiddleware`` refuses them from another site.
///
/// | Route | What it does |
/// |---|---|
/// | `GET /join/CODE`, `POST /join/CODE` | an invitation link's page; joining enrols and signs in |
/// | `GET /signin`, `POST /signin` | signing in with a one-time code from the participant's other device |
struct EnrolmentController {
    /// What the routes before signing in use of the server.
    protocol Service: Sendable {
        /// The study the server runs (its languages, for a page before signing in).
        var study: StudyDefinition { get }
        /// The participant's rules (whether an invitation can be used).
        var workflow: ParticipantWorkflow { get }
        /// The proxies whose `X-Forwarded-For` the sign-in limit trusts.
        var trustedProxies: Set<String> { get }
        /// The web strings of `language`.
        func strings(language: String) -> WebStrings
        /// An invitation link's page.
        func joinPage(code: String, language: String) -> String
        /// Enrols a participant with the invitation `invitationCode`; the new session's token.
        func enrol(invitationCode: String?, timeZone: TimeZone, language: String) async throws -> String
        /// The page that asks for a sign-in code, with `error` when one was refused.
        func signInPage(language: String, error: String?) -> String
        /// Signs in with a one-time code from `client`; the new session's token, nil when refused.
        func signIn(code: String, from client: String) async throws -> String?
    }

    let service: any Service
    let secureCookies: Bool

    func addRoutes(to router: Router<StudyRequestContext>) {
        router.get("/join/:code") { request, context in
            let code = try context.parameters.require("code")
            try await service.workflow.requireUsableInvitation(code)
            return StudyRouter.html(service.joinPage(code: code, language: StudyRouter.language(of: request, study: service.study)))
        }
        router.post("/join/:code") { request, context in
            let code = try context.parameters.require("code")
            let form = try await PostedForm.fields(of: request)
            guard let zoneName = form["timeZone"]?.first, let zone = TimeZone(identifier: zoneName) else {
                throw StudyServerError(.badRequest, .refusalChooseTimeZone)
            }
            let joining = AuditSource(actor: "participant joining with an invitation", reason: "POST /join/…")
            let token = try await AuditTrail.$source.withValue(joining) {
                try await service.enrol(invitationCode: code, timeZone: zone, language: StudyRouter.language(of: request, study: service.study))
            }
            return signedInRedirect(token: token)
        }
        router.get("/signin") { request, _ in
            StudyRouter.html(service.signInPage(language: StudyRouter.language(of: request, study: service.study), error: nil))
        }
        router.post("/signin") { request, context in
            let form = try await PostedForm.fields(of: request)
            let client = ClientAddress.resolve(peer: context.remoteAddress, forwardedFor: request.headers[HTTPField.Name("X-Forwarded-For")!],
                                               trustedProxies: service.trustedProxies)
            guard let token = try await service.signIn(code: form["code"]?.first ?? "", from: client) else {
                let strings = service.strings(language: StudyRouter.language(of: request, study: service.study))
                return StudyRouter.html(service.signInPage(language: strings.language, error: strings[.signInCodeInvalid]), status: .unprocessableContent)
            }
            return signedInRedirect(token: token)
        }
    }

    /// Home, with the new session's cookie.
    private func signedInRedirect(token: String) -> Response {
        var response = Response.redirect(to: "/", type: .normal)
        response.setCookie(Cookie(name: StudyRouter.sessionCookie, value: token, maxAge: Int(StudyService.sessionLifetime), path: "/",
                                  secure: secureCookies, httpOnly: true, sameSite: .lax))
        return response
    }
}

extension StudyService: EnrolmentController.Service {}
