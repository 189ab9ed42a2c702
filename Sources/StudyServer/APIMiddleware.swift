import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OpenAPIRuntime
import JSONDiagnostics
import Study

/// Guards the REST API's routes in one place: finds the caller of the request's bearer token (a participant's session
/// or a researcher's) for the handlers (``APICaller``), and turns every refusal, and any body the generated code cannot
/// read, into the JSON `Error` body with its status. Cookies are not read here: a browser's session does not open the
/// API, so the API needs no CSRF token.
///
/// Every answer of the API gets `Cache-Control: no-store` unless its handler set its own: most carry a participant's
/// data (their JSON, a consent PDF, an export), which no browser, proxy or shared cache may keep.
struct APIMiddleware: RouterMiddleware {
    typealias Context = StudyRequestContext
    /// What the API's caller check uses of the server.
    protocol Service: Sendable {
        /// The proxies whose `X-Forwarded-For` the sign-in limit trusts.
        var trustedProxies: Set<String> { get }
        /// Researchers' accounts and sessions.
        var researchers: ResearcherAccounts { get }
        /// The participant of a session token; nil when it is no live session.
        func signedIn(sessionToken: String?) async throws -> StudyService.SignedIn?
    }

    let service: any Service

    /// The largest JSON body accepted.
    static let maximumBody = 64 * 1024
    /// The largest body of a step's answers, as large as the web form's: an active step's measurements and a drawn
    /// signature are posted there.
    static let maximumStepBody = PostedForm.maximumBody

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        do {
            if request.method == .post {
                // Read whole (within the limit) and checked as JSON two readers cannot read differently: a duplicate
                // key, a lone surrogate or a control character is refused, where a decoder would take one silently.
                let limit = request.uri.path.hasSuffix("/steps") ? Self.maximumStepBody : Self.maximumBody
                let body = try await request.body.collect(upTo: limit)
                if body.readableBytes > 0 {
                    do {
                        _ = try JSONTree(data: Data(buffer: body))
                    } catch {
                        throw StudyServerError(.badRequest, code: "bad-request", "The body is not JSON one reading alone allows: \(error)")
                    }
                }
                request.body = .init(buffer: body)
            }
            var caller = APICaller(client: ClientAddress.resolve(peer: context.remoteAddress, forwardedFor: request.headers[HTTPField.Name("X-Forwarded-For")!],
                                                                 trustedProxies: service.trustedProxies))
            if let token = Self.bearerToken(of: request) {
                if let participant = try await service.signedIn(sessionToken: token) {
                    caller.participant = participant
                } else if let researcher = try await service.researchers.signedIn(token: token) {
                    caller.researcher = researcher.researcher
                }
            }
            var response = try await APICaller.$current.withValue(caller) { try await next(request, context) }
            if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
            return response
        } catch let failure as StudyServerError {
            return Self.json(failure)
        } catch let error as ServerError {
            if let failure = StudyServerError(refusing: error.underlyingError) { return Self.json(failure) }
            // The generated code could not read the request (a body that is not the schema's JSON, a missing or
            // malformed parameter): the client's fault. Anything after the input was read is the server's.
            if error.operationInput == nil {
                return Self.json(StudyServerError(.badRequest, code: "bad-request", "The request could not be read: \(error.causeDescription)."))
            }
            StudyPageMiddleware.logger.error("\(request.method) \(request.uri.path) failed: \(String(describing: error))")
            return Self.json(StudyServerError(.internalServerError, code: "server-error", "The server failed; the error is logged."))
        } catch let error as HTTPError {
            return Self.json(StudyServerError(.badRequest, code: "bad-request", error.body ?? "\(error.status)"), status: error.status)
        } catch is NIOTooManyBytesError {
            return Self.json(StudyServerError(.contentTooLarge, code: "too-large", "The body is too large."))
        } catch {
            // A refusal met before the API's handlers (reading the caller's session while the database does not answer)
            // is JSON too; anything else is the server's fault, left to the site's middleware, which logs it.
            guard let failure = StudyServerError(refusing: error) else { throw error }
            return Self.json(failure)
        }
    }

    /// The token of an `Authorization: Bearer TOKEN` header.
    static func bearerToken(of request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// `failure` as its status (or `status`, one Hummingbird chose) with the JSON `Error` body
    /// (``StudyServerError/apiError``).
    static func json(_ failure: StudyServerError, status: HTTPResponse.Status? = nil) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        failure.addRetryAfter(to: &headers)
        let body = (try? JSONEncoder().encode(failure.apiError)) ?? Data()
        return Response(status: status ?? failure.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension StudyService: APIMiddleware.Service {}
