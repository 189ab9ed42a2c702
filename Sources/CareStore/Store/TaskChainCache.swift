import Foundation
import Synchronization

/// The task versions of the sets of task ids asked for most recently, in their chains, each kept with the storage's
/// ``CareStorageReader/versionsRevision()`` it was read at: while the revision is the same no version was written,
/// so the chains are those the storage would return.
///
/// A participant's daily page asks for the same tasks on every visit and after every outcome written, which leaves
/// the revision as it is. The cache holds at most ``capacity`` sets and starts afresh when full.
final class TaskChainCache: Sendable {
    /// Most sets of ids kept at once.
    static let capacity = 1_024

    private let entries = Mutex<[Set<String>: (revision: Int64, chains: Chains)]>([:])

    /// The chains of `ids` read at `revision`; nil when they were not kept, or were read at another revision.
    func chains(of ids: Set<String>, at revision: Int64) -> Chains? {
        entries.withLock { entries in entries[ids].flatMap { $0.revision == revision ? $0.chains : nil } }
    }

    /// Keeps the chains of `ids` read at `revision`.
    func keep(_ chains: Chains, of ids: Set<String>, at revision: Int64) {
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[ids] = (revision, chains)
        }
    }
}
