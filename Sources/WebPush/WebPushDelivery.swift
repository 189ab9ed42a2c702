import Foundation

/// What became of a push message, from the push service's answer (RFC 8030 §5, §8.3): what the server does next.
///
/// | Answer | Case | What to do |
/// | --- | --- | --- |
/// | 201 Created, 202 Accepted (any 2xx) | ``delivered(status:)`` | nothing |
/// | 404 Not Found, 410 Gone | ``subscriptionGone(status:)`` | remove the subscription |
/// | 413 Payload Too Large, other 4xx, a redirect, an endpoint the policy refuses | ``permanentFailure(status:reason:)`` | give up this message |
/// | 429 Too Many Requests, 5xx, a network error or timeout | ``temporaryFailure(status:retryAfter:reason:)`` | retry later, not before `retryAfter` |
public enum WebPushDelivery: Sendable, Hashable, CustomStringConvertible {
    /// The push service took the message.
    case delivered(status: Int)
    /// The subscription has expired or was withdrawn (404 or 410): the server should remove it and never send to it
    /// again.
    case subscriptionGone(status: Int)
    /// The message can never be delivered as it is: sending it again would fail again. `status` is nil when no request
    /// was sent (the endpoint was refused by the ``PushServicePolicy``).
    case permanentFailure(status: Int?, reason: String)
    /// The message may be delivered if sent again later, not before `retryAfter` when the push service said when
    /// (`Retry-After`). `status` is nil for a network error or timeout.
    case temporaryFailure(status: Int?, retryAfter: Date?, reason: String)

    /// The outcome the push service's answer means.
    ///
    /// - Parameters:
    ///   - status: the HTTP status code.
    ///   - headers: the answer's headers, names in any case (`Retry-After` and `Location` are read).
    ///   - body: the answer's body; push services explain refusals there (the reason keeps its first 200 characters).
    ///   - now: the current time, from which a `Retry-After` in seconds counts.
    public init(status: Int, headers: [String: String], body: Data, now: Date) {
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
        let explanation = Self.excerpt(of: body)
        let said = explanation.isEmpty ? "" : ": \(explanation)"
        switch status {
        case 200...299:
            self = .delivered(status: status)
        case 300...399:
            let location = header("Location").map { " to \($0)" } ?? ""
            self = .permanentFailure(status: status, reason: "the push service redirected\(location) (\(status)); redirects are not followed")
        case 404, 410:
            self = .subscriptionGone(status: status)
        case 413:
            self = .permanentFailure(status: status, reason: "the push service refused the message as too large (413)\(said)")
        case 429:
            self = .temporaryFailure(status: status, retryAfter: header("Retry-After").flatMap { Self.retryDate($0, now: now) },
                                     reason: "the push service asked for fewer requests (429)\(said)")
        case 400...499:
            self = .permanentFailure(status: status, reason: "the push service refused the message (\(status))\(said)")
        case 500...599:
            self = .temporaryFailure(status: status, retryAfter: header("Retry-After").flatMap { Self.retryDate($0, now: now) },
                                     reason: "the push service failed (\(status))\(said)")
        default:
            self = .permanentFailure(status: status, reason: "the push service answered with the unexpected status \(status)\(said)")
        }
    }

    /// When the push service asked to be tried again, for a temporary failure that said so.
    public var retryAfter: Date? {
        if case .temporaryFailure(_, let retryAfter, _) = self { return retryAfter }
        return nil
    }

    /// Whether the server should remove the subscription.
    public var subscriptionIsGone: Bool {
        if case .subscriptionGone = self { return true }
        return false
    }

    /// The outcome in a sentence, for logs.
    public var description: String {
        switch self {
        case .delivered(let status): "delivered (\(status))"
        case .subscriptionGone(let status): "the subscription is gone (\(status))"
        case .permanentFailure(_, let reason): "not delivered: \(reason)"
        case .temporaryFailure(_, let retryAfter, let reason):
            "not delivered for now: \(reason)" + (retryAfter.map { "; retry after \($0.formatted(.iso8601))" } ?? "")
        }
    }

    /// The time a `Retry-After` value names: a number of seconds from `now`, or an HTTP date (IMF-fixdate,
    /// `Sun, 06 Nov 1994 08:49:37 GMT`). Nil for anything else.
    static func retryDate(_ value: String, now: Date) -> Date? {
        let value = value.trimmingCharacters(in: .whitespaces)
        if !value.isEmpty, value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // More than a year is taken as a year, which also keeps the arithmetic in range.
            let year = 365 * 24 * 60 * 60
            let seconds = value.count > 9 ? year : min(Int(value) ?? year, year)
            return now.addingTimeInterval(TimeInterval(seconds))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: value)
    }

    /// The body as one line of at most 200 characters.
    static func excerpt(of body: Data) -> String {
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}
