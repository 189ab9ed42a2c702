import Foundation
import HTTPTypes

/// A request the server refuses, with the status and a sentence for the participant (or a tester) saying what
/// was wrong. Nothing stored is changed by a refused request.
public enum StudyServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The request is malformed (400).
    case badRequest(String)
    /// The participant is not signed in (401 for the API; pages redirect to sign-in).
    case notSignedIn
    /// The form's CSRF token is missing or does not match the participant's session (403).
    case forbidden(String)
    /// No such page, run or file — or one that belongs to someone else, which is reported the same way (404).
    case notFound(String)
    /// The request conflicts with the state of the run (409), e.g. a post for a step that is not the current one.
    case conflict(String)
    /// The request is well formed but cannot be applied (422).
    case unprocessable(String)
    /// The form is larger than the server accepts for it (413).
    case contentTooLarge(String)
    /// Too many requests of this kind just now (429): wrong sign-in codes.
    case tooManyRequests(String)
    /// Something failed on the server (500); the message says what the participant can do, never what failed.
    case internalError(String)

    /// The HTTP status of the refusal.
    public var status: HTTPResponse.Status {
        switch self {
        case .badRequest: .badRequest
        case .notSignedIn: .unauthorized
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .conflict: .conflict
        case .unprocessable: .unprocessableContent
        case .contentTooLarge: .contentTooLarge
        case .tooManyRequests: .tooManyRequests
        case .internalError: .internalServerError
        }
    }

    /// What was wrong, in English.
    public var description: String {
        switch self {
        case .badRequest(let message), .forbidden(let message), .notFound(let message), .conflict(let message),
             .unprocessable(let message), .contentTooLarge(let message), .tooManyRequests(let message), .internalError(let message):
            message
        case .notSignedIn: "You are not signed in. Open your invitation link again, or sign in with a code from your other device."
        }
    }
}
