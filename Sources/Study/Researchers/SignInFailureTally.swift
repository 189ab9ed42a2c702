import Foundation

/// The wrong passwords tried for one address (a researcher's or not) from one client address: the count toward a
/// pause, the pause, and what the researcher has not yet been told. The rule of
/// ``ResearcherStore/recordFailedSignIn(email:client:pauseAfter:pauseFor:)``, written once for every store, which
/// keeps one tally per address tried and client address.
///
/// ```swift
/// var tally = SignInFailureTally()
/// let pausedUntil = tally.recordFailure(at: now, pauseAfter: 5, pauseFor: 900)   // non-nil at the fifth
/// ```
public struct SignInFailureTally: Hashable, Sendable {
    /// Wrong passwords toward the next pause.
    public var failures: Int
    /// Until when signing in is paused; nil when it never was.
    public var pausedUntil: Date?
    /// Wrong passwords since the researcher last signed in.
    public var unseen: Int
    /// When the first of those was tried; nil when there are none.
    public var firstUnseenAt: Date?
    /// When the last wrong password was tried.
    public var lastFailedAt: Date?

    /// A tally; an empty one by default.
    public init(failures: Int = 0, pausedUntil: Date? = nil, unseen: Int = 0, firstUnseenAt: Date? = nil, lastFailedAt: Date? = nil) {
        self.failures = failures
        self.pausedUntil = pausedUntil
        self.unseen = unseen
        self.firstUnseenAt = firstUnseenAt
        self.lastFailedAt = lastFailedAt
    }

    /// Whether signing in is paused at `date`.
    public func isPaused(at date: Date) -> Bool { pausedUntil.map { date < $0 } ?? false }

    /// Counts a wrong password at `date`: the count starts again when the one before is more than `pauseFor` seconds
    /// old, and at the `pauseAfter`th signing in is paused for `pauseFor` seconds and the count starts again. Returns
    /// until when, when this one paused it.
    public mutating func recordFailure(at date: Date, pauseAfter: Int, pauseFor: TimeInterval) -> Date? {
        if let last = lastFailedAt, date.timeIntervalSince(last) > pauseFor { failures = 0 }
        failures += 1
        unseen += 1
        firstUnseenAt = firstUnseenAt ?? date
        lastFailedAt = date
        guard failures >= pauseAfter else { return nil }
        failures = 0
        let until = date.addingTimeInterval(pauseFor)
        pausedUntil = until
        return until
    }

    /// Whether the tally says nothing any more at `date`: no pause in force, no count within `pauseFor` seconds,
    /// nothing the researcher has not been told (when the address is a researcher's). Such a tally may be forgotten.
    public func isSpent(at date: Date, pauseFor: TimeInterval, isResearchers: Bool) -> Bool {
        guard !isPaused(at: date), (isResearchers ? unseen == 0 : true) else { return false }
        return lastFailedAt.map { date.timeIntervalSince($0) > pauseFor } ?? true
    }

    /// The wrong passwords of `tallies` (one address's, from every client) that the researcher has not been told of.
    public static func unseen(in tallies: [SignInFailureTally]) -> FailedSignIns? {
        let news = tallies.filter { $0.unseen > 0 }
        guard let first = news.compactMap(\.firstUnseenAt).min(), let last = news.compactMap(\.lastFailedAt).max() else { return nil }
        return FailedSignIns(count: news.reduce(0) { $0 + $1.unseen }, first: first, last: last, clients: news.count)
    }
}
