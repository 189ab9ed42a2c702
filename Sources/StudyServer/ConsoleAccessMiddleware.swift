import Foundation
import HTTPTypes
import Hummingbird
import Study
import StudyWeb

/// The access check of one console route, before its handler and in one place for all of them: finds the researcher of
/// the request's console cookie, refuses the request when the route's ``ConsoleAccess`` does not let them in (401
/// without a session, 403 for a role that does not allow it), reads a posted form and, with a session, checks its
/// CSRF token (403). What it found is left in the context (``ConsoleVisit``), which ``ConsoleRequestContext`` carries
/// to the route, and whatever the route changes is the researcher's doing in the audit trail (before signing in, the
/// console's: a password set).
struct ConsoleAccessMiddleware: RouterMiddleware {
    typealias Context = StudyRequestContext
    /// The route's method and path, as the audit trail names the request.
    let route: (method: HTTPRequest.Method, path: String)
    /// Who may use the route.
    let access: ConsoleAccess
    let researchers: ResearcherAccounts
    let signer: RequestSigner

    init(_ route: ConsoleRoute, researchers: ResearcherAccounts, signer: RequestSigner) {
        self.route = (route.method, route.path)
        access = route.access
        self.researchers = researchers
        self.signer = signer
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let found = try await researchers.signedIn(token: StudyRouter.cookie(named: ConsoleController.cookie, of: request))
        try access.check(found?.researcher)
        let csrf = found.map { ConsoleController.csrfToken(of: $0.session, signer: signer) }
        var form: [String: [String]] = [:]
        if request.method == .post {
            form = try await PostedForm.fields(of: request)
            if access != .anyone, let csrf, !CSRFToken.isPosted(in: form, expected: csrf) { throw StudyServerError.consoleFormToken }
        }
        var context = context
        context.console = ConsoleVisit(researcher: found?.researcher, session: found?.session, csrfToken: csrf, form: form)
        let actor = found.map { "researcher \($0.researcher.email) (\($0.researcher.id.uuidString.lowercased()))" } ?? "console sign-in"
        return try await AuditTrail.$source.withValue(AuditSource(actor: actor, reason: "\(route.method) \(route.path)")) {
            try await next(request, context)
        }
    }
}
