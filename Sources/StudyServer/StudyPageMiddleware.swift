import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Study
import StudyWeb

/// Security headers on every response, and refusals turned into pages that say what was wrong.
struct StudyPageMiddleware: RouterMiddleware {
    typealias Context = StudyRequestContext

    /// What a refusal's page uses of the server: who is signed in, and a message page in their language.
    protocol Service: Sendable {
        /// The study the server runs (its languages, for a page before signing in).
        var study: StudyDefinition { get }
        /// The web strings of `language`.
        func strings(language: String) -> WebStrings
        /// The participant of a session token; nil when it is no live session.
        func signedIn(sessionToken: String?) async throws -> StudyService.SignedIn?
        /// A page that says `text` under `title`, with a link on.
        func messagePage(language: String, signedIn: StudyService.SignedIn?, title: String, text: String, link: (label: String, url: String)?) -> String
    }

    let service: any Service

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            try Self.refuseCrossSitePost(request)
            response = try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            response = await page(for: .noSuchPage, request: request)
        } catch is NIOTooManyBytesError {
            // What collecting a body past its limit throws.
            response = await page(for: .formTooLarge, request: request)
        } catch let error as HTTPParserError {
            // A body the HTTP parser gave up on half-way (a malformed chunk): the client's fault, not the server's.
            response = await page(for: .malformed("The request's body could not be read: \(error)."), request: request)
        } catch let error as HTTPError where (400..<500).contains(error.status.code) {
            response = await page(for: .malformed(error.body ?? ""), request: request)
            response.status = error.status
        } catch {
            // A refusal (the server's, the workflow's, or a store's a participant can meet: StudyServerError(refusing:))
            // is the participant's page; anything else is the server's fault: logged with the request, and a page
            // without the details.
            response = await page(for: StudyServerError(refusing: error) ?? Self.internalError(error, request: request), request: request)
        }
        // A response with a policy of its own (a study image) keeps it.
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                + "img-src 'self' data: https:; media-src 'self' https:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
        }
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

    /// Logs `error` with the request and returns the participant's version of it.
    static func internalError(_ error: any Error, request: Request) -> StudyServerError {
        logger.error("\(request.method) \(request.uri.path) failed: \(String(describing: error))")
        return .serverError
    }

    static let logger = Logger(label: "studykit")

    /// The refusal's page, in the signed-in participant's language, or else the browser's preferred one: the one
    /// mapping of a ``StudyServerError`` to a participant's page (``StudyServerError/text(in:)``).
    private func page(for error: StudyServerError, request: Request) async -> Response {
        // While the database does not answer, the participant's language is the browser's: their session cannot be read.
        let signedIn = error.kind == .serviceUnavailable ? nil : try? await service.signedIn(sessionToken: StudyRouter.sessionToken(of: request))
        let language = signedIn?.participant.language ?? StudyRouter.language(of: request, study: service.study)
        let strings = service.strings(language: language)
        let link: (label: String, url: String)? = error == .notSignedIn ? (strings[.signIn], "/signin") : (strings[.home], "/")
        let page = service.messagePage(language: language, signedIn: nil, title: strings[.errorTitle], text: error.text(in: strings), link: link)
        var response = StudyRouter.html(page, status: error.status)
        error.addRetryAfter(to: &response.headers)
        return response
    }
}

extension StudyService: StudyPageMiddleware.Service {}
