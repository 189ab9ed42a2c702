/// The study's database does not answer for now: it is restarting, unreachable, or has no connection to spare within
/// the wait a request allows. Backends throw it instead of their own connection errors, so that the server above them
/// (which knows no backend) answers "try again in a moment" (503 with `Retry-After`) rather than failing, and nothing
/// was written: a transaction that meets it is rolled back whole, by the database.
///
/// ```swift
/// do { try await data.commit(change) } catch let error as StudyDatabaseUnavailable { print(error) }
/// // the study's database does not answer: connection refused (postgres://studykit@db:5432/study)
/// ```
public struct StudyDatabaseUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the backend met, in its words (for the server's log; never shown to a participant).
    public var reason: String

    /// The database did not answer because of `reason`.
    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { "the study's database does not answer: \(reason)" }
}
