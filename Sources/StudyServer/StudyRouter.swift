import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Study
import OpenAPIHummingbird
import StudyServerAPI
import StudyWeb

/// The study server's routes over a ``StudyService``: one controller per area, the participant's routes in a group
/// whose context carries the signed-in participant.
///
/// - ``AssetController``: `/health`, the stylesheet and the script.
/// - ``EnrolmentController``: invitation links and signing in with a code.
/// - ``TodayController``: today's page, starting the onboarding or a survey, ticking off an event.
/// - ``RunController``: a run's steps.
/// - ``SettingsController``: language, sign-in codes, browsers, the consent PDF.
/// - ``ReminderController``: the reminders page, and the links of confirmations, reminders and the calendar feed.
/// - ``ConsoleController``: the study team's console under `/console`, with its own sign-in and cookie.
///
/// Every response passes ``StudyPageMiddleware`` (security headers; a refusal becomes a page in the participant's
/// language; a form from another site is refused). In the participant's group, ``SessionMiddleware`` refuses a request
/// without a valid session, and reads every posted form and checks its CSRF token, before a route sees it.
public enum StudyRouter {
    /// The session cookie's name.
    static let sessionCookie = "studykit_session"
    /// The largest occurrence index in a task event's URL.
    static var maximumOccurrence: Int { TodayController.maximumOccurrence }
    /// The largest form body accepted without a file.
    static var maximumBody: Int { PostedForm.maximumBody }

    /// The router for `service`.
    public static func router(service: StudyService, secureCookies: Bool) -> Router<StudyRequestContext> {
        let router = Router(context: StudyRequestContext.self)
        router.add(middleware: StudyPageMiddleware(service: service))
        let data = service.data
        AssetController(study: service.study, databaseAnswers: { try await data.checkAvailability() }).addRoutes(to: router)
        EnrolmentController(service: service, secureCookies: secureCookies).addRoutes(to: router)

        let participant = router.group()
            .add(middleware: SessionMiddleware(service: service))
            .group(context: ParticipantRequestContext.self)
        TodayController(service: service).addRoutes(to: participant)
        ContactsController(service: service).addRoutes(to: participant)
        InsightsController(service: service).addRoutes(to: participant)
        LiveUpdatesController(service: service).addRoutes(to: participant)
        RunController(service: service).addRoutes(to: participant)
        SettingsController(service: service).addRoutes(to: participant)
        let reminders = ReminderController(service: service)
        reminders.addRoutes(to: participant)
        reminders.addPublicRoutes(to: router)
        ConsoleController(service: service, secureCookies: secureCookies).addRoutes(to: router)
        addAPI(to: router, service: service)
        return router
    }

    /// The REST API under `/api/v1`: the operations of `StudyServerAPI/openapi.yaml` (``APIHandler``) behind
    /// ``APIMiddleware``, and the document itself at `/api/v1/openapi.yaml`.
    static func addAPI(to router: Router<StudyRequestContext>, service: StudyService) {
        router.get("/api/v1/openapi.yaml") { _, _ in
            guard let document = OpenAPIDocument.yaml else { throw StudyServerError.serverError }
            var headers = HTTPFields()
            headers[.contentType] = "application/yaml"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: document)))
        }
        let api = router.group().add(middleware: APIMiddleware(service: service))
        do {
            try APIHandler(service: service).registerHandlers(on: api, serverURL: URL(string: "/api/v1")!)
        } catch {
            preconditionFailure("the API's routes are fixed by its document: \(error)")
        }
    }

    /// The session token the request's `Cookie` headers carry: the value of the first `studykit_session` cookie, as
    /// Hummingbird's `request.cookies` finds it (each header split at ";", leading white space dropped, the name up to
    /// the first "=", an empty value none), read from the header's bytes without parsing every other cookie and its attributes.
    static func sessionToken(of request: Request) -> String? {
        cookie(named: sessionCookie, of: request)
    }

    /// The value of the first cookie called `name` in the request's `Cookie` headers, read as ``sessionToken(of:)`` reads
    /// the session's; nil when there is none or it is empty.
    static func cookie(named name: String, of request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            var utf8 = Substring(header).utf8[...]
            while !utf8.isEmpty {
                let end = utf8.firstIndex(of: UInt8(ascii: ";")) ?? utf8.endIndex
                var cookie = utf8[..<end]
                while let first = cookie.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { cookie = cookie.dropFirst() }
                if let equals = cookie.firstIndex(of: UInt8(ascii: "=")), cookie[..<equals].elementsEqual(name.utf8) {
                    let value = cookie[cookie.index(after: equals)...]
                    return value.isEmpty ? nil : String(Substring(value)) // an empty value is no token, as for Hummingbird
                }
                utf8 = end == utf8.endIndex ? utf8[end...] : utf8[utf8.index(after: end)...]
            }
        }
        return nil
    }

    /// An HTML page that is never cached.
    static func html(_ page: String, status: HTTPResponse.Status = .ok) -> Response {
        html(body: ByteBuffer(string: page), status: status)
    }

    /// An HTML page written as UTF-8 bytes (the daily page).
    static func html(_ page: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        html(body: ByteBuffer(bytes: page), status: status)
    }

    private static func html(body: ByteBuffer, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }

    /// An HTML page served cross-origin isolated (`Cross-Origin-Opener-Policy: same-origin` with
    /// `Cross-Origin-Embedder-Policy: require-corp`): the browser then times events and frames to 5 µs rather than 100 µs.
    /// Only active steps' pages: everything they load comes from this server.
    static func isolatedHTML(_ page: String, status: HTTPResponse.Status = .ok) -> Response {
        var response = html(page, status: status)
        response.headers[HTTPField.Name("Cross-Origin-Opener-Policy")!] = "same-origin"
        response.headers[HTTPField.Name("Cross-Origin-Embedder-Policy")!] = "require-corp"
        return response
    }

    /// The language for a page before signing in: the browser's preference among the study's languages.
    static func language(of request: Request, study: StudyDefinition) -> String {
        LanguagePreference.preferredLanguage(acceptLanguage: request.headers[.acceptLanguage] ?? "", supported: study.languages)
            ?? study.defaultLanguage
    }
}
