import Foundation
import Synchronization

/// Daily pages as last rendered, one per session, served again while nothing they show can have changed.
///
/// A home page shows what the two stores held, the participant's language and zone, and the time: the day, and each
/// card's state (upcoming, to do, missed), which turns at its event's start or end. So a page is kept with
///
/// - the participant's own revisions read *before* anything it shows was read: any write of their data committed
///   since makes them differ (``StudyStore/revision(of:)``, and the participant change feed, which the care store's
///   commit observer feeds before each write returns), including their answers, a language change and the background
///   printing of a consent PDF, while other participants' writes leave the page in place;
/// - the first moment its cards or its day title change by time alone (``Entry/validUntil``);
/// - the participant it was made for, and the session whose CSRF token its forms carry (the key).
///
/// Anything else is a miss, and the page is made afresh. Writes by other processes to the data folder are not seen
/// (the stores do not count them): the server is the only writer of participants' data. `studykit invite`, the one
/// command that writes while a server runs, adds invitations, which no home page shows.
final class HomePageCache: Sendable {
    /// What a page was made from, besides the time.
    struct Source: Hashable {
        let participantID: String
        /// The language and zone the page was made in: a session remembered from before a change of language
        /// (``StudyService/setLanguage(_:for:)``) must not keep a page made in the old one.
        let language: String
        let timeZone: String
        /// The chosen day (`2026-11-23`), empty for today's page, which turns into the next day's at midnight.
        let day: String
        let studyRevision: UInt64
        let careRevision: UInt64
    }

    /// A kept page.
    struct Entry {
        let source: Source
        /// The first moment the page would read differently with the same data.
        let validUntil: Date
        /// The page as UTF-8, as it is sent.
        let page: [UInt8]
        /// When it was kept, in the order of keeping: the oldest go first when the cache is full.
        let order: UInt64
    }

    /// The most pages kept at once (a home page is a few kilobytes).
    let capacity: Int
    private let state = Mutex(State())

    private struct State {
        var entries: [String: Entry] = [:]
        var hits = 0
        var misses = 0
        var kept: UInt64 = 0
    }

    /// An empty cache of at most `capacity` pages.
    init(capacity: Int = 2_000) {
        self.capacity = capacity
    }

    /// The page kept for this session, when it was made from `source` and is still true at `now`.
    func page(session: String, source: Source, now: Date) -> [UInt8]? {
        state.withLock { state in
            guard let entry = state.entries[session], entry.source == source, now < entry.validUntil else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            return entry.page
        }
    }

    /// Keeps `page` for this session. When the cache is full, pages out of date go first, then the oldest quarter.
    func keep(_ page: [UInt8], session: String, source: Source, validUntil: Date, now: Date) {
        state.withLock { state in
            if state.entries[session] == nil, state.entries.count >= capacity {
                state.entries = state.entries.filter { now < $0.value.validUntil }
                if state.entries.count >= capacity {
                    let oldest = state.entries.sorted { $0.value.order < $1.value.order }.prefix(max(1, capacity / 4))
                    for (key, _) in oldest { state.entries[key] = nil }
                }
            }
            state.kept += 1
            state.entries[session] = Entry(source: source, validUntil: validUntil, page: page, order: state.kept)
        }
    }

    /// How many pages were served from the cache, and how many had to be made: for tests and the benchmark.
    var hitsAndMisses: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }
}
