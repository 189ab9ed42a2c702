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
    func check(_ researcher: Researcher?) throws(ConsoleRefusal) {
        switch self {
        case .anyone: return
        case .signedIn: guard researcher != nil else { throw .notSignedIn }
        case .permission(let permission):
            guard let researcher else { throw .notSignedIn }
            guard researcher.role.allows(permission) else {
                throw ConsoleRefusal(.forbidden, "Your role (\(researcher.role.rawValue)) does not allow this: it needs a role that may \(permission.rawValue).")
            }
        }
    }
}

/// A console route: its method, path, who may use it, and what it does. ``ConsoleController/routes()`` lists every
/// one; the access check runs before the handler, in one place (``ConsoleController/guarded(_:)``), and the tests go
/// through the same list for every role.
struct ConsoleRoute: Sendable {
    let method: HTTPRequest.Method
    let path: String
    let access: ConsoleAccess
    let handler: @Sendable (ConsoleRequest) async throws -> Response

    init(_ method: HTTPRequest.Method, _ path: String, _ access: ConsoleAccess, _ handler: @escaping @Sendable (ConsoleRequest) async throws -> Response) {
        self.method = method
        self.path = path
        self.access = access
        self.handler = handler
    }
}

/// A request on a console route once its access was checked: the signed-in researcher (nil on the routes open to
/// anyone), and the posted form, its CSRF token checked when there is a session.
struct ConsoleRequest: Sendable {
    let request: Request
    let context: StudyRequestContext
    let researcher: Researcher?
    let session: ResearcherSession?
    /// The CSRF token of the researcher's session, for the page's forms; nil before signing in.
    let csrfToken: String?
    let form: [String: [String]]

    /// The signed-in researcher (on a route that needs one, there always is).
    var signedIn: Researcher {
        get throws(ConsoleRefusal) {
            guard let researcher else { throw .notSignedIn }
            return researcher
        }
    }

    /// A route parameter, or 404.
    func parameter(_ name: String) throws(ConsoleRefusal) -> String {
        guard let value = context.parameters.get(name) else { throw .noSuchPage }
        return value
    }

    /// The one value of a form field; empty when absent.
    func field(_ name: String) -> String { form[name]?.first ?? "" }
}

/// Why the console refused a request: a status and a sentence in English (the console's language), shown on a page.
struct ConsoleRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    let status: HTTPResponse.Status
    let message: String

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    static let notSignedIn = ConsoleRefusal(.unauthorized, "Sign in to the console first.")
    static let noSuchPage = ConsoleRefusal(.notFound, "There is no such page in the console.")
    static let formToken = ConsoleRefusal(.forbidden, "This form has expired or came from another page. Go back, reload the page and try again.")

    var description: String { "\(status.code): \(message)" }
}
