import Consent
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Research
import Study
import StudyWeb

/// The study team's console: signing in, setting a password from a one-time link, enrolment, a participant's data,
/// their consent PDFs, exports, and the researcher's own account. Every route is in ``routes()`` with who may use it,
/// and is reached only through ``guarded(_:)``, which checks that before anything else runs.
///
/// | Route | Who | What it does |
/// |---|---|---|
/// | `GET`, `POST /console/sign-in` | anyone | the sign-in form; a right password sets the console cookie |
/// | `GET`, `POST /console/password/TOKEN` | anyone with a live link | sets the researcher's password |
/// | `GET /console` | read | enrolment: counts, each participant, exports |
/// | `GET /console/participants/ID` | read | a participant's consent records, adherence, runs with answers, outcomes |
/// | `GET /console/participants/ID/consents/RECORD/pdf` | read | a consent record's PDF, when the record verifies |
/// | `GET /console/exports/FORMAT` | export | the whole study in one export format, as a ZIP |
/// | `GET /console/account`, `POST /console/sign-out`, `POST /console/sign-out-everywhere` | signed in | the researcher's account |
///
/// The console's cookie (`studykit_console`, path `/console`, `SameSite=Strict`) is apart from participants': neither
/// opens the other's pages.
struct ConsoleController {
    let service: StudyService
    let secureCookies: Bool

    /// The console session cookie's name.
    static let cookie = "studykit_console"

    func addRoutes(to router: Router<StudyRequestContext>) {
        let console = router.group("/console").add(middleware: ConsolePageMiddleware(service: service))
        for route in routes() {
            let path = route.path == "/console" ? "" : String(route.path.dropFirst("/console".count))
            console.on(RouterPath(path), method: route.method) { request, context in try await guarded(route)(request, context) }
        }
    }

    /// `route`'s handler behind its access check: the researcher of the request's console cookie is found, refused
    /// when the route's ``ConsoleAccess`` does not let them in, and a posted form read and, with a session, its CSRF
    /// token checked, before the handler runs.
    func guarded(_ route: ConsoleRoute) -> @Sendable (Request, StudyRequestContext) async throws -> Response {
        { request, context in
            let found = try await service.researchers.signedIn(token: StudyRouter.cookie(named: Self.cookie, of: request))
            try route.access.check(found?.researcher)
            let csrf = found.map { Self.csrfToken(of: $0.session, signer: service.signer) }
            var form: [String: [String]] = [:]
            if request.method == .post {
                form = try await PostedForm.fields(of: request)
                if route.access != .anyone, let csrf, !CSRFToken.isPosted(in: form, expected: csrf) { throw ConsoleRefusal.formToken }
            }
            return try await route.handler(ConsoleRequest(request: request, context: context, researcher: found?.researcher, session: found?.session,
                                                          csrfToken: csrf, form: form))
        }
    }

    /// The token every form of `session`'s pages carries: the server's HMAC of the session's id, which only this server
    /// can make.
    static func csrfToken(of session: ResearcherSession, signer: RequestSigner) -> String {
        signer.csrfToken(forSession: "console:" + session.id.uuidString)
    }

    /// Every console route, with who may use it.
    func routes() -> [ConsoleRoute] {
        [
            ConsoleRoute(.get, "/console/sign-in", .anyone) { request in
                if request.researcher != nil { return .redirect(to: ConsolePageRenderer.homePath, type: .normal) }
                let notice = request.request.uri.queryParameters["notice"] == "password-set" ? "Your password is set. Sign in with it." : nil
                return StudyRouter.html(service.consolePages.signIn(ConsoleSignInView(action: "/console/sign-in", notice: notice), context: context(request)))
            },
            ConsoleRoute(.post, "/console/sign-in", .anyone) { request in try await signIn(request) },
            ConsoleRoute(.get, "/console/password/:token", .anyone) { request in
                let token = try request.parameter("token")
                guard let researcher = try await service.researchers.store.researcher(passwordLinkToken: token) else { throw Self.deadLink }
                return StudyRouter.html(service.consolePages.password(passwordView(token: token, researcher: researcher), context: context(request)))
            },
            ConsoleRoute(.post, "/console/password/:token", .anyone) { request in try await setPassword(request) },
            ConsoleRoute(.get, "/console", .permission(.readStudyData)) { request in
                StudyRouter.html(service.consolePages.enrolment(try await ConsolePageBuilder(service: service).enrolment(), context: context(request)))
            },
            ConsoleRoute(.get, "/console/participants/:participant", .permission(.readStudyData)) { request in
                let participant = try await participant(request)
                let view = try await ConsolePageBuilder(service: service).participant(participant)
                return StudyRouter.html(service.consolePages.participant(view, context: context(request)))
            },
            ConsoleRoute(.get, "/console/participants/:participant/consents/:record/pdf", .permission(.readStudyData)) { request in
                try await consentPDF(request)
            },
            ConsoleRoute(.get, "/console/exports/:format", .permission(.exportData)) { request in try await export(request) },
            ConsoleRoute(.get, "/console/account", .signedIn) { request in
                let researcher = try request.signedIn
                let view = ConsoleAccountView(email: researcher.email, role: researcher.role.rawValue, signOutAction: "/console/sign-out",
                                              signOutEverywhereAction: "/console/sign-out-everywhere")
                return StudyRouter.html(service.consolePages.account(view, context: context(request)))
            },
            ConsoleRoute(.post, "/console/sign-out", .signedIn) { request in
                if let session = request.session { try await service.researchers.store.revokeResearcherSession(id: session.id, researcherID: session.researcherID) }
                return signedOut()
            },
            ConsoleRoute(.post, "/console/sign-out-everywhere", .signedIn) { request in
                try await service.researchers.store.revokeResearcherSessions(researcherID: try request.signedIn.id)
                return signedOut()
            },
        ]
    }

    // MARK: - Signing in

    private func signIn(_ request: ConsoleRequest) async throws -> Response {
        let email = request.field("email"), password = request.field("password")
        let client = ClientAddress.resolve(peer: request.context.remoteAddress, forwardedFor: request.request.headers[HTTPField.Name("X-Forwarded-For")!],
                                           trustedProxies: service.configuration.trustedProxies)
        let page = { (error: String, status: HTTPResponse.Status) in
            StudyRouter.html(service.consolePages.signIn(ConsoleSignInView(action: "/console/sign-in", email: email, error: error),
                                                         context: context(request)), status: status)
        }
        switch try await service.researchers.signIn(email: email, password: password, from: client, at: service.environment.now()) {
        case .signedIn(let issued):
            var response = Response.redirect(to: ConsolePageRenderer.homePath, type: .normal)
            response.setCookie(Cookie(name: Self.cookie, value: issued.token, maxAge: Int(ResearcherAccounts.sessionLifetime), path: "/console",
                                      secure: secureCookies, httpOnly: true, sameSite: .strict))
            return response
        case .refused:
            return page("The email address or the password is wrong.", .unprocessableContent)
        case .paused(let until):
            let when = until.map { " until " + ISO8601.string(from: $0, in: .gmt) } ?? " for a while"
            return page("Too many wrong passwords: signing in is paused\(when). A researcher who forgot their password can get a new link from an admin.",
                        .tooManyRequests)
        }
    }

    private func setPassword(_ request: ConsoleRequest) async throws -> Response {
        let token = try request.parameter("token")
        guard let researcher = try await service.researchers.store.researcher(passwordLinkToken: token) else { throw Self.deadLink }
        let password = request.field("password")
        if let problem = ResearcherAccounts.problem(withPassword: password, confirmation: request.field("confirmation"), for: researcher) {
            return StudyRouter.html(service.consolePages.password(passwordView(token: token, researcher: researcher, error: problem), context: context(request)),
                                    status: .unprocessableContent)
        }
        guard try await service.researchers.setPassword(password, linkToken: token) != nil else { throw Self.deadLink }
        return .redirect(to: "/console/sign-in?notice=password-set", type: .normal)
    }

    private func passwordView(token: String, researcher: Researcher, error: String? = nil) -> ConsolePasswordView {
        ConsolePasswordView(action: "/console/password/" + URLPath.encoded(token), email: researcher.email,
                            minimumLength: ResearcherAccounts.minimumPasswordLength, error: error)
    }

    private static let deadLink = ConsoleRefusal(.notFound, "This link does not work any more: it was used, it expired, or a newer one replaced it. Ask an admin of the study for a new one.")

    /// The sign-in page, with the console cookie cleared.
    private func signedOut() -> Response {
        var response = Response.redirect(to: "/console/sign-in", type: .normal)
        response.setCookie(Cookie(name: Self.cookie, value: "", maxAge: 0, path: "/console", secure: secureCookies, httpOnly: true, sameSite: .strict))
        return response
    }

    // MARK: - Study data

    private func participant(_ request: ConsoleRequest) async throws -> StudyParticipant {
        guard let participant = try await service.store.participant(id: try request.parameter("participant")) else {
            throw ConsoleRefusal(.notFound, "No participant has this id.")
        }
        return participant
    }

    private func consentPDF(_ request: ConsoleRequest) async throws -> Response {
        let participant = try await participant(request)
        guard let id = UUID(uuidString: try request.parameter("record")),
              let stored = try await service.store.consentRecord(id: id, participantID: participant.id) else {
            throw ConsoleRefusal(.notFound, "This participant has no consent record with this id.")
        }
        let records = try await service.store.consentRecords(participantID: participant.id)
        let original = stored.sealed.record.withdrawal.flatMap { link in records.first { $0.id == link.originalRecordID }?.sealed }
        let mismatches = ConsentRecordVerifier(expectedPublicKey: service.consentKey.publicKey).mismatches(in: stored.sealed, original: original)
        guard mismatches.isEmpty else {
            throw ConsoleRefusal(.conflict, "This record does not verify, so its PDF is not served: " + mismatches.map(\.description).joined(separator: "; "))
        }
        guard let pdf = await service.pdfPrinter.pdf(of: stored) else {
            throw ConsoleRefusal(.conflict, "This record's PDF is not ready: it is being printed, or printing failed (see the server's log).")
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/pdf"
        headers[.cacheControl] = "no-store"
        headers[.contentDisposition] = "inline; filename=\"\(service.study.identifier)-\(participant.id)-\(id.uuidString.lowercased()).pdf\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: pdf)))
    }

    /// The study in `format`, exported into a folder under the data folder, zipped, streamed, and deleted.
    private func export(_ request: ConsoleRequest) async throws -> Response {
        guard let format = StudyExportFormat(rawValue: try request.parameter("format")) else {
            throw ConsoleRefusal(.notFound, "There is no export format '\(try request.parameter("format"))'; the formats are "
                + StudyExportFormat.allCases.map(\.rawValue).joined(separator: ", ") + ".")
        }
        let now = service.environment.now()
        let work = service.configuration.dataFolder.appendingPathComponent("console-exports", isDirectory: true)
            .appendingPathComponent(service.environment.makeUUID().uuidString.lowercased(), isDirectory: true)
        let folder = StudyExportFolder(url: work.appendingPathComponent(format.rawValue, isDirectory: true))
        let archive = work.appendingPathComponent("export.zip")
        let size: Int
        do {
            let reader = StudyExportReader(study: service.study, store: service.store, careStore: service.careStore, dataFolder: service.configuration.dataFolder,
                                           consentPublicKey: service.consentKey.publicKey, now: service.environment.now)
            try await folder.replace(with: format.makeExporter(), reading: reader)
            try folder.zip(to: archive, date: now)
            size = (try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int) ?? 0
        } catch {
            try? FileManager.default.removeItem(at: work)
            throw error
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/zip"
        headers[.cacheControl] = "no-store"
        headers[.contentLength] = String(size)
        let day = ISO8601.string(from: now, in: .gmt).prefix(10)
        headers[.contentDisposition] = "attachment; filename=\"\(service.study.identifier)-\(format.rawValue)-\(day).zip\""
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            defer { try? FileManager.default.removeItem(at: work) }
            let handle = try FileHandle(forReadingFrom: archive)
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 64 * 1024), !chunk.isEmpty {
                try await writer.write(ByteBuffer(bytes: chunk))
            }
            try await writer.finish(nil)
        })
    }

    // MARK: - Pages

    private func context(_ request: ConsoleRequest) -> ConsoleContext {
        ConsoleContext(studyName: service.study.name, researcher: request.researcher.map { "\($0.email) · \($0.role.rawValue)" }, csrfToken: request.csrfToken,
                       assets: .linked(basePath: "/assets"))
    }
}
