import Foundation
import HTTPTypes
import Hummingbird
import Study

/// Who may use a console route.
enum ConsoleAccess: Hashable, Sendable, CustomStringConvertible {
    /// Anyone: the pages before signing in (their posts carry no CSRF token, and another site's are refused).
    case anyone
    /// Any signed-in researcher, whatever their role (their own account).
    case signedIn
    /// A signed-in researcher whose role allows this.
    case permission(ResearcherPermission)

    var description: String {
        switch self {
        case .anyone: "anyone"
        case .signedIn: "any signed-in researcher"
        case .permission(let permission): "a role that may \(permission.rawValue)"
        }
    }

    /// Refuses `researcher` (nil: not signed in) when this access does not let them in: 401 without a session, 403
    /// for a role that does not allow it.
    func check(_ researcher: Researcher?) throws(StudyServerError) {
        switch self {
        case .anyone: return
        case .signedIn: guard researcher != nil else { throw .consoleNotSignedIn }
        case .permission(let permission):
            guard let researcher else { throw .consoleNotSignedIn }
            guard researcher.role.allows(permission) else {
                throw StudyServerError(.forbidden, code: "role-not-allowed", "Your role (\(researcher.role.rawValue)) does not allow this: it needs a role that may \(permission.rawValue).")
            }
        }
    }
}

/// A console route: its method, path, who may use it, and what it does. ``ConsoleController/routes()`` lists every
/// one; the access check runs before the handler, in one place (``ConsoleAccessMiddleware``, which each route is
/// registered behind), and the tests go through the same list for every role.
struct ConsoleRoute: Sendable {
    let method: HTTPRequest.Method
    let path: String
    let access: ConsoleAccess
    let handler: @Sendable (Request, ConsoleRequestContext) async throws -> Response

    init(_ method: HTTPRequest.Method, _ path: String, _ access: ConsoleAccess, _ handler: @escaping @Sendable (Request, ConsoleRequestContext) async throws -> Response) {
        self.method = method
        self.path = path
        self.access = access
        self.handler = handler
    }
}

/// The console's own refusals: sentences in English, the console's language (``StudyServerError/Message/english(_:)``),
/// shown on a console page by ``ConsolePageMiddleware``.
extension StudyServerError {
    /// Not signed in to the console (401): a page opened goes to the sign-in form.
    static let consoleNotSignedIn = StudyServerError(.unauthorized, code: "not-signed-in", "Sign in to the console first.")
    /// No such page of the console (404).
    static let consoleNoSuchPage = StudyServerError(.notFound, code: "no-such-page", "There is no such page in the console.")
    /// The form's CSRF token is missing or not the session's (403).
    static let consoleFormToken = StudyServerError(.forbidden, code: "form-token",
                                                   "This form has expired or came from another page. Go back, reload the page and try again.")
    /// No invitation has the id asked for (404).
    static let noSuchInvitation = StudyServerError(.notFound, code: "no-such-invitation", "No invitation has this id.")

    /// Why a countersignature was refused, in the sentence the problem gives: 404 when there is no such consent,
    /// 409 when the consent cannot be countersigned, 422 for a name to correct.
    static func countersignature(_ problem: ConsentCountersigner.Problem) -> StudyServerError {
        switch problem {
        case .noSuchConsent: StudyServerError(.notFound, code: "no-such-consent", problem.description)
        case .alreadyCountersigned: StudyServerError(.conflict, code: "already-countersigned", problem.description)
        case .withdrawn: StudyServerError(.conflict, code: "withdrawn", problem.description)
        case .notAsked: StudyServerError(.conflict, code: "countersignature-not-asked", problem.description)
        case .doesNotVerify: StudyServerError(.conflict, code: "consent-does-not-verify", problem.description)
        case .name: StudyServerError(.unprocessableContent, code: "countersignature-name", problem.description)
        }
    }
}
