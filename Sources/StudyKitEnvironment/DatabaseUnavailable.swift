/// A database does not answer for now: it is restarting, unreachable, or has no connection to spare within the wait a
/// request allows. The stores' backends throw it instead of their own connection errors, so that what sits above them
/// (a study server, which knows no backend) answers "try again in a moment" (503 with `Retry-After`) rather than
/// failing. A transaction that meets it before its COMMIT was sent is rolled back whole by the database; one whose
/// COMMIT was sent when the connection broke may have committed, which asking again finds out (an answered step has
/// moved on).
///
/// ```swift
/// do { try await data.commit(change) } catch let error as DatabaseUnavailable { print(error) }
/// // the database does not answer: connection refused (postgres://studykit@db:5432/study)
/// ```
public struct DatabaseUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the backend met, in its words (for the server's log; never shown to a participant).
    public var reason: String

    /// The database did not answer because of `reason`.
    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { "the database does not answer: \(reason)" }
}
