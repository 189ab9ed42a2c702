import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Research
import Study
import StudyWeb

/// The study server's HTTP routes, over a ``StudyService``.
///
/// | Route | What it does |
/// |---|---|
/// | `GET /health` | `ok`: for load balancers and the benchmarks |
/// | `GET /assets/studykit.css`, `/assets/studykit.js` | the one stylesheet and script, cached for a year |
/// | `GET /join/CODE`, `POST /join/CODE` | an invitation link's page; joining enrols and signs in |
/// | `GET /signin`, `POST /signin` | signing in on a second device with a one-time code |
/// | `GET /` | today's tasks, behind the onboarding gate |
/// | `GET /onboarding`, `GET /tasks/TASK/N` | start or resume the onboarding or a survey run |
/// | `POST /tasks/TASK/N/done` | mark a checklist task's event done |
/// | `GET /runs/RUN`, `POST /runs/RUN` | a run's current step; its posted form |
/// | `GET /settings`, `POST /settings/language`, `POST /settings/signin-code` | settings |
/// | `POST /settings/browsers/SESSION/sign-out` | sign another browser of the participant out |
/// | `GET /consent.pdf` | the participant's signed consent |
///
/// Every form a signed-in participant posts carries the session's CSRF token; a refused request gets a page
/// saying why, with a 4xx status, and changes nothing.
public enum StudyRouter {
    /// The session cookie's name.
    static let sessionCookie = "studykit_session"
    /// The largest occurrence index in a task event's URL: a daily task for a thousand years has fewer.
    static let maximumOccurrence = 1_000_000
    /// The largest form body accepted (a signature with many strokes fits easily).
    static let maximumBody = 1 << 20

    /// The router for `service`.
    public static func router(service: StudyService, secureCookies: Bool) -> Router<StudyRequestContext> {
        let router = Router(context: StudyRequestContext.self)
        router.add(middleware: StudyPageMiddleware(service: service))

        router.get("/health") { _, _ in "ok" }
        router.get("/assets/studykit.css") { _, _ in asset(WebAssets.stylesheet, type: "text/css; charset=utf-8") }
        router.get("/assets/studykit.js") { _, _ in asset(WebAssets.script, type: "text/javascript; charset=utf-8") }

        router.get("/join/:code") { request, context in
            let code = try context.parameters.require("code")
            guard try await service.workflow.invitationIsUsable(code) else { throw StudyServerError(.notFound, .refusalInvitationUnusable) }
            return html(service.joinPage(code: code, language: language(of: request, service: service)))
        }
        router.post("/join/:code") { request, context in
            let code = try context.parameters.require("code")
            let form = try await formFields(of: request)
            guard let zoneName = form["timeZone"]?.first, let zone = TimeZone(identifier: zoneName) else {
                throw StudyServerError(.badRequest, .refusalChooseTimeZone)
            }
            let token = try await service.enrol(invitationCode: code, timeZone: zone, language: language(of: request, service: service))
            return signedInRedirect(token: token, secure: secureCookies)
        }
        router.get("/signin") { request, _ in
            html(service.signInPage(language: language(of: request, service: service), error: nil))
        }
        router.post("/signin") { request, context in
            let form = try await formFields(of: request)
            let client = ClientAddress.resolve(peer: context.remoteAddress, forwardedFor: request.headers[HTTPField.Name("X-Forwarded-For")!],
                                               trustedProxies: service.configuration.trustedProxies)
            guard let token = try await service.signIn(code: form["code"]?.first ?? "", from: client) else {
                let strings = service.strings(language: language(of: request, service: service))
                return html(service.signInPage(language: strings.language, error: strings[.signInCodeInvalid]), status: .unprocessableContent)
            }
            return signedInRedirect(token: token, secure: secureCookies)
        }

        router.get("/") { request, _ in
            let signedIn = try await participant(request, service: service)
            let text = request.uri.queryParameters.get("notice").flatMap {
                noticeText(named: String($0), language: signedIn.participant.language, service: service)
            }
            return html(try await service.homePage(signedIn: signedIn, notice: text))
        }
        router.get("/onboarding") { request, _ in
            let signedIn = try await participant(request, service: service)
            let run: UUID
            do {
                run = try await service.startRun(taskID: StudyTaskDefinition.onboardingID, occurrence: nil, for: signedIn.participant)
            } catch StudyRefusal.onboardingCompleted {
                // Once onboarded, the consent stands: opening the link again does not start a second one.
                return Response.redirect(to: "/", type: .normal)
            }
            return Response.redirect(to: "/runs/\(run.uuidString.lowercased())", type: .normal)
        }
        router.get("/tasks/:task/:occurrence") { request, context in
            let signedIn = try await participant(request, service: service)
            let (task, occurrence) = try taskEvent(context)
            let run = try await service.startRun(taskID: task, occurrence: occurrence, for: signedIn.participant)
            return Response.redirect(to: "/runs/\(run.uuidString.lowercased())", type: .normal)
        }
        router.post("/tasks/:task/:occurrence/done") { request, context in
            let signedIn = try await participant(request, service: service)
            let (task, occurrence) = try taskEvent(context)
            try await service.checkOff(taskID: task, occurrence: occurrence, form: try await formFields(of: request), signedIn: signedIn)
            return Response.redirect(to: "/", type: .normal)
        }
        router.get("/runs/:run") { request, context in
            let signedIn = try await participant(request, service: service)
            return respond(try await service.runPage(try runID(context), signedIn: signedIn))
        }
        router.post("/runs/:run") { request, context in
            let signedIn = try await participant(request, service: service)
            let run = try runID(context)
            let (form, files) = try await formFieldsAndFiles(of: request, largestFile: {
                try await service.largestUpload(runID: run, participant: signedIn.participant)
            })
            return respond(try await service.post(form, files: files, to: run, signedIn: signedIn))
        }

        router.get("/settings") { request, _ in
            html(try await service.settingsPage(signedIn: try await participant(request, service: service)))
        }
        router.post("/settings/language") { request, _ in
            let signedIn = try await participant(request, service: service)
            let form = try await formFields(of: request)
            try signedIn.requireCSRFToken(in: form)
            guard let language = form["language"]?.first else { throw StudyServerError(.badRequest, .refusalChooseLanguage) }
            _ = try await service.setLanguage(language, for: signedIn.participant)
            return Response.redirect(to: "/settings", type: .normal)
        }
        router.post("/settings/signin-code") { request, _ in
            let signedIn = try await participant(request, service: service)
            try signedIn.requireCSRFToken(in: try await formFields(of: request))
            let code = try await service.makeSignInCode(for: signedIn.participant)
            return html(try await service.settingsPage(signedIn: signedIn, signInCode: code))
        }
        router.post("/settings/browsers/:session/sign-out") { request, context in
            let signedIn = try await participant(request, service: service)
            try signedIn.requireCSRFToken(in: try await formFields(of: request))
            guard let session = UUID(uuidString: try context.parameters.require("session")) else {
                throw StudyServerError(.notFound, .refusalNoSuchBrowser)
            }
            try await service.signOut(sessionID: session, signedIn: signedIn)
            return Response.redirect(to: "/settings", type: .normal)
        }
        router.get("/consent.pdf") { request, _ in
            let signedIn = try await participant(request, service: service)
            guard let pdf = try await service.consentPDF(signedIn: signedIn) else { throw StudyServerError(.conflict, .refusalConsentPrinting) }
            var headers = HTTPFields()
            headers[.contentType] = "application/pdf"
            headers[.contentDisposition] = "attachment; filename=\"\(service.study.identifier)-consent.pdf\""
            headers[.cacheControl] = "private, no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: pdf)))
        }
        return router
    }

    // MARK: - Helpers

    static func html(_ page: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    private static func asset(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "public, max-age=31536000, immutable"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    private static func respond(_ response: StudyService.RunResponse) -> Response {
        switch response {
        case .page(let status, let page): html(page, status: HTTPResponse.Status(code: status))
        case .redirect(let location): Response.redirect(to: location, type: .normal)
        }
    }

    private static func signedInRedirect(token: String, secure: Bool) -> Response {
        var response = Response.redirect(to: "/", type: .normal)
        response.setCookie(Cookie(name: sessionCookie, value: token, maxAge: Int(StudyService.sessionLifetime), path: "/",
                                  secure: secure, httpOnly: true, sameSite: .lax))
        return response
    }

    /// The signed-in participant, or ``StudyServerError/notSignedIn``.
    static func participant(_ request: Request, service: StudyService) async throws -> StudyService.SignedIn {
        guard let signedIn = try await service.signedIn(sessionToken: request.cookies[sessionCookie]?.value) else {
            throw StudyServerError.notSignedIn
        }
        return signedIn
    }

    /// The language for a page before signing in: the browser's preference among the study's languages.
    static func language(of request: Request, service: StudyService) -> String {
        LanguagePreference.preferredLanguage(acceptLanguage: request.headers[.acceptLanguage] ?? "", supported: service.study.languages)
            ?? service.study.defaultLanguage
    }

    private static func formFields(of request: Request) async throws -> [String: [String]] {
        let contentType = request.headers[.contentType]
        if let contentType, !FormBody.isURLEncoded(contentType: contentType) { throw FormBody.wrongContentType(contentType) }
        let body = try await request.body.collect(upTo: maximumBody)
        if contentType == nil, body.readableBytes > 0 { throw FormBody.wrongContentType(nil) }
        return try FormBody.fields(String(buffer: body))
    }

    /// A step form's fields, and its files when it is posted as `multipart/form-data` (a step with a file question);
    /// such a body may be as large as the largest file the run's current step accepts (`largestFile`, asked only for
    /// a multipart post) with a margin, plus a megabyte for the rest.
    private static func formFieldsAndFiles(of request: Request, largestFile: () async throws -> Int) async throws
        -> ([String: [String]], [String: UploadedFile]) {
        let contentType = request.headers[.contentType] ?? ""
        guard let boundary = FormBody.multipartBoundary(contentType: contentType) else {
            if FormBody.isMultipart(contentType: contentType) {
                throw StudyServerError.malformed("The form was sent as multipart/form-data without its boundary.")
            }
            return (try await formFields(of: request), [:])
        }
        // The largest file and as much again (at most 10 MB more), so that a file somewhat too large still reaches its
        // question and gets its message.
        let largest = try await largestFile()
        let body = try await request.body.collect(upTo: largest + min(largest, FileFormat.defaultMaximumBytes) + maximumBody)
        return try FormBody.multipart(body, boundary: boundary)
    }

    private static func runID(_ context: StudyRequestContext) throws -> UUID {
        guard let id = UUID(uuidString: try context.parameters.require("run")) else { throw StudyServerError(.notFound, .refusalNoSuchRun) }
        return id
    }

    private static func taskEvent(_ context: StudyRequestContext) throws -> (String, Int) {
        let task = try context.parameters.require("task")
        guard let occurrence = Int(try context.parameters.require("occurrence")), (0...maximumOccurrence).contains(occurrence) else {
            throw StudyServerError(.notFound, .refusalNoSuchEvent)
        }
        return (task, occurrence)
    }

    private static func noticeText(named name: String, language: String, service: StudyService) -> String? {
        let strings = service.strings(language: language)
        switch name {
        case "onboarded": return strings[.noticeOnboarded]
        case "done": return strings[.noticeTaskDone]
        default: return nil
        }
    }
}

/// Security headers on every response, and refusals turned into pages that say what was wrong.
struct StudyPageMiddleware: RouterMiddleware {
    typealias Context = StudyRequestContext
    let service: StudyService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            try Self.refuseCrossSitePost(request)
            response = try await next(request, context)
        } catch let error as StudyServerError {
            response = await page(for: error, request: request)
        } catch let refusal as StudyRefusal {
            response = await page(for: StudyServerError(refusal), request: request)
        } catch let error as HTTPError where error.status == .notFound {
            response = await page(for: .noSuchPage, request: request)
        } catch is NIOTooManyBytesError {
            // What collecting a body past its limit throws.
            response = await page(for: .formTooLarge, request: request)
        } catch let error as HTTPParserError {
            // A body the HTTP parser gave up on half-way (a malformed chunk): the client's fault, not the server's.
            response = await page(for: .malformed("The request's body could not be read: \(error)."), request: request)
        } catch let error as StudyStoreError {
            response = await page(for: Self.refusal(for: error, request: request), request: request)
        } catch let error as HTTPError where (400..<500).contains(error.status.code) {
            response = await page(for: .malformed(error.body ?? ""), request: request)
            response.status = error.status
        } catch {
            // Anything else is the server's fault: logged with the request, and a page without the details.
            response = await page(for: Self.internalError(error, request: request), request: request)
        }
        response.headers[.contentSecurityPolicy] = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            + "img-src 'self' data: https:; media-src 'self' https:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        return response
    }

    /// Refuses a form posted from another site (403): the sign-in and join forms carry no CSRF token (there is no
    /// session yet), and a page elsewhere could otherwise sign a participant's browser into someone else's account.
    /// Browsers say where a request comes from in `Sec-Fetch-Site` (`same-site` covers a sibling subdomain, which is
    /// another origin: its `Origin` must then name this server's host too); older ones only in `Origin`, which must
    /// then name this server's host (a proxy in front must pass the `Host` header on). Requests from other programs
    /// send neither and pass.
    static func refuseCrossSitePost(_ request: Request) throws(StudyServerError) {
        guard request.method == .post else { return }
        let refusal = StudyServerError(.forbidden, .refusalCrossSite)
        let origin = request.headers[HTTPField.Name("Origin")!]
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!] {
            switch site.lowercased() {
            case "cross-site": throw refusal
            // Another host of the same site (a sibling subdomain) is a different origin: only the server's own passes.
            case "same-site": guard origin != nil else { throw refusal }
            default: return
            }
        }
        guard let origin else { return }
        guard let host = request.head.authority, let url = URL(string: origin), let originHost = url.host else { throw refusal }
        let originAuthority = url.port.map { "\(originHost):\($0)" } ?? originHost
        if originAuthority.lowercased() != host.lowercased() { throw refusal }
    }

    /// What a store's refusal means for the participant; a refusal no request should meet is the server's fault.
    static func refusal(for error: StudyStoreError, request: Request) -> StudyServerError {
        switch error {
        case .runFinished: StudyServerError(.conflict, .refusalRunEnded)
        case .runOfAnotherParticipant: StudyServerError(.notFound, .refusalNoSuchRun)
        default: internalError(error, request: request)
        }
    }

    /// Logs `error` with the request and returns the participant's version of it.
    static func internalError(_ error: any Error, request: Request) -> StudyServerError {
        logger.error("\(request.method) \(request.uri.path) failed: \(String(describing: error))")
        return .serverError
    }

    private static let logger = Logger(label: "studykit")

    /// The refusal's page, in the signed-in participant's language, or else the browser's preferred one.
    private func page(for error: StudyServerError, request: Request) async -> Response {
        let signedIn = try? await service.signedIn(sessionToken: request.cookies[StudyRouter.sessionCookie]?.value)
        let language = signedIn?.participant.language ?? StudyRouter.language(of: request, service: service)
        let strings = service.strings(language: language)
        let link: (label: String, url: String)? = error == .notSignedIn ? (strings[.signIn], "/signin") : (strings[.home], "/")
        let page = service.messagePage(language: language, signedIn: nil, title: strings[.errorTitle], text: error.text(in: strings), link: link)
        return StudyRouter.html(page, status: error.status)
    }
}
