import Foundation
import Synchronization

/// Entities decoded from stored versions, kept by version UUID so that a task read on every query is decoded once.
///
/// Versions are immutable once written, so an entry never goes stale. The cache holds at most ``capacity``
/// entities and starts afresh when full, which bounds its memory without bookkeeping on every read.
final class DecodedVersionCache: Sendable {
    /// Most entities kept at once.
    static let capacity = 4_096

    private let entries = Mutex<[UUID: any VersionedEntity]>([:])

    /// The entity decoded earlier for the version `uuid`.
    func value(for uuid: UUID) -> (any VersionedEntity)? {
        entries.withLock { $0[uuid] }
    }

    /// Keeps the entity decoded for the version `uuid`.
    func insert(_ entity: any VersionedEntity, for uuid: UUID) {
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[uuid] = entity
        }
    }
}
