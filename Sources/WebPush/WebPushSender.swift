import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends push messages to push services with Foundation's URLSession, and says what became of each.
///
/// Before any request, the endpoint is checked against the ``PushServicePolicy``: a refused one is a permanent failure
/// and nothing is sent. Redirects are never followed (a push service does not redirect, so one means the endpoint is
/// not one), and each request gives up after ``timeout``. No cookies, no cache, no credentials.
///
/// ```swift
/// let sender = WebPushSender(policy: .browsers, now: environment.now)
/// switch await sender.send(message) {
/// case .delivered: break
/// case .subscriptionGone: try await store.removeSubscription(id)
/// case .permanentFailure(_, let reason): logger.error("\(reason)")
/// case .temporaryFailure(_, let retryAfter, _): schedule(retryAt: retryAfter ?? backoff())
/// }
/// ```
public final class WebPushSender: Sendable {
    /// Which endpoints may be contacted.
    public let policy: PushServicePolicy
    /// How long one request may take, connection included, in whole seconds (at least 1): Foundation on Linux drops
    /// fractions of a second, so a fraction is rounded up.
    public let timeout: Duration
    private let now: @Sendable () -> Date
    private let session: URLSession

    /// A sender allowing the endpoints of `policy`, whose requests give up after `timeout`; `now` is the injected clock
    /// (a `Retry-After` in seconds counts from it).
    public init(policy: PushServicePolicy = .browsers, timeout: Duration = .seconds(30), now: @escaping @Sendable () -> Date) {
        let wholeSeconds = max(1, timeout.components.seconds + (timeout.components.attoseconds > 0 ? 1 : 0))
        self.policy = policy
        self.timeout = .seconds(wholeSeconds)
        self.now = now
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = TimeInterval(wholeSeconds)
        configuration.timeoutIntervalForResource = TimeInterval(wholeSeconds)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// POSTs `message` to its endpoint, if the policy allows it, and classifies the answer (see ``WebPushDelivery``).
    /// Never throws: a refused endpoint, a network error or a timeout is a delivery outcome like any answer.
    public func send(_ message: WebPushMessage) async -> WebPushDelivery {
        do {
            try policy.check(message.endpoint)
        } catch {
            return .permanentFailure(status: nil, reason: error.description)
        }
        var request = URLRequest(url: message.endpoint, cachePolicy: .reloadIgnoringLocalCacheData,
                                 timeoutInterval: TimeInterval(timeout.components.seconds))
        request.httpMethod = "POST"
        for (name, value) in message.headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = message.body
        request.httpShouldHandleCookies = false
        do {
            let (body, response) = try await session.data(for: request)
            guard let response = response as? HTTPURLResponse else {
                return .temporaryFailure(status: nil, retryAfter: nil, reason: "the push service's answer was not HTTP")
            }
            var headers: [String: String] = [:]
            for (name, value) in response.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return WebPushDelivery(status: response.statusCode, headers: headers, body: body, now: now())
        } catch {
            return .temporaryFailure(status: nil, retryAfter: nil, reason: reason(for: error))
        }
    }

    /// What went wrong, in words, for a request that got no answer.
    private func reason(for error: any Error) -> String {
        guard let error = error as? URLError else { return "the push service could not be reached: \(error)" }
        switch error.code {
        case .timedOut: return "the push service did not answer within \(timeout.components.seconds) s"
        case .cannotFindHost, .dnsLookupFailed: return "the push service's host could not be found"
        case .cannotConnectToHost: return "the push service refused the connection"
        case .networkConnectionLost: return "the connection to the push service was lost"
        case .notConnectedToInternet: return "the server has no network connection"
        case .cancelled: return "the request to the push service was cancelled"
        default: return "the push service could not be reached (URLError \(error.code.rawValue))"
        }
    }
}

/// Refuses every redirect, so that the session hands back the redirect itself as the answer.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
