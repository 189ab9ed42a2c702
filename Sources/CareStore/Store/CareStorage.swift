import Foundation

/// The few operations a database must offer for a ``StorageBackedCareStore`` to keep care data in it.
///
/// Every rule of the store (versions, tombstones, outcomes per event, queries in effect at a date) is written
/// once, in ``StorageBackedCareStore``, on top of these primitives; a backend only stores rows and finds them.
/// A write runs atomically: when its body throws, nothing of it is kept.
public protocol CareStorage: Sendable {
    /// Runs `body` in a read transaction that sees one consistent state.
    func read<T: Sendable>(_ body: @escaping @Sendable (any CareStorageReader) async throws -> T) async throws -> T
    /// Runs `body` in a write transaction; it is durable when this returns, and undone when `body` throws.
    func write<T: Sendable>(_ body: @escaping @Sendable (any CareStorageWriter) async throws -> T) async throws -> T
}

/// Reading rows inside a transaction.
public protocol CareStorageReader {
    /// Every version of the entities of `kind` whose id is in `ids`, in no particular order (none for an empty set).
    func versions(of kind: EntityKind, ids: Set<String>) async throws -> [StoredVersion]
    /// The versions of `kind` that pass `filter`, in no particular order.
    func versions(of kind: EntityKind, matching filter: StoredVersionFilter) async throws -> [StoredVersion]
    /// The versions with these UUIDs (of any kind; none for an empty set).
    func versions(uuids: Set<UUID>) async throws -> [StoredVersion]
    /// Outcomes of the task versions `taskUUIDs` (of every task version when the set is empty), optionally only for
    /// occurrences in `occurrences`; deleted ones only when `includeDeleted`.
    func outcomes(taskUUIDs: Set<UUID>, occurrences: ClosedRange<Int>?, includeDeleted: Bool) async throws -> [Outcome]
    /// Outcomes with these UUIDs, deleted or not (none for an empty set).
    func outcomes(uuids: Set<UUID>) async throws -> [Outcome]
    /// Live outcomes of several task versions, each for its own range of occurrences: what a window of events
    /// needs, in one read where the backend can. The default asks for each task version in turn.
    func liveOutcomes(in ranges: [UUID: ClosedRange<Int>]) async throws -> [Outcome]
    /// Which events of these task versions have a live outcome, without reading the outcomes: all that progress
    /// without targets needs. The default reads the outcomes with ``liveOutcomes(in:)``.
    func liveOutcomeEvents(in ranges: [UUID: ClosedRange<Int>]) async throws -> [(taskUUID: UUID, occurrenceIndex: Int)]
    /// A number that changes whenever a version is written or changed, by this process or any other: versions read
    /// when it had one value are current for as long as it keeps it, so the store may keep them. Nil when the
    /// backend cannot tell, which keeps nothing. The default is nil.
    func versionsRevision() async throws -> Int64?
}

extension CareStorageReader {
    /// Asks for each task version's range in turn; backends that can answer in one read override this.
    public func liveOutcomes(in ranges: [UUID: ClosedRange<Int>]) async throws -> [Outcome] {
        var found: [Outcome] = []
        for (task, range) in ranges { found += try await outcomes(taskUUIDs: [task], occurrences: range, includeDeleted: false) }
        return found
    }

    /// Nil: versions are read afresh every time.
    public func versionsRevision() async throws -> Int64? { nil }

    /// Reads the outcomes with ``liveOutcomes(in:)`` and keeps their events.
    public func liveOutcomeEvents(in ranges: [UUID: ClosedRange<Int>]) async throws -> [(taskUUID: UUID, occurrenceIndex: Int)] {
        try await liveOutcomes(in: ranges).map { ($0.taskUUID, $0.occurrenceIndex) }
    }
}

extension CareStorageWriter {
    /// Stores each outcome in turn with `insert(_:)`.
    public func insert(contentsOf outcomes: [Outcome]) async throws {
        for outcome in outcomes { try await insert(outcome) }
    }
}

/// Writing rows inside a transaction.
public protocol CareStorageWriter: CareStorageReader {
    /// Stores a new version.
    func insert(_ version: StoredVersion) async throws
    /// Links a version to the version that replaced it.
    func setNextVersion(of uuid: UUID, to next: UUID) async throws
    /// Stores a new outcome.
    func insert(_ outcome: Outcome) async throws
    /// Stores new outcomes, in order: a batch a backend can write in one go (the default stores each in turn).
    func insert(contentsOf outcomes: [Outcome]) async throws
    /// Marks an outcome deleted at `date`.
    func markOutcomeDeleted(_ uuid: UUID, at date: Date) async throws
    /// Deletes every outcome, live or deleted, of every version of the tasks whose ids are `taskIDs`, with its values:
    /// gone from the storage, not marked deleted (what a participant's withdrawal with deletion asks). Returns the task
    /// ids that had outcomes.
    func eraseOutcomes(ofTaskIDs taskIDs: Set<String>) async throws -> Set<String>
}

/// One version of one entity as a backend keeps it: the columns queries need, and the whole entity as JSON.
public struct StoredVersion: Hashable, Sendable {
    /// Which kind of entity the version belongs to. Reads by id or by filter ask for one kind.
    public var kind: EntityKind
    /// The version's UUID, unique across all kinds: the row's key, and what outcomes and links refer to.
    public var uuid: UUID
    /// The entity's developer id, the same in every version; the store reads whole chains by it.
    public var id: String
    /// From when the version is in effect. The store picks, for a date, the newest version
    /// effective strictly before it.
    public var effectiveDate: Date
    /// When the entity was deleted; set only on a delete's tombstone. The store leaves out an id
    /// whose selected version has one.
    public var deletedDate: Date?
    /// The version this one replaced; nil only on the first version of a chain, where the
    /// store starts following the links.
    public var previousVersionUUID: UUID?
    /// The version that replaced this one; nil on the newest. The only field that changes after
    /// insertion, through ``CareStorageWriter/setNextVersion(of:to:)``.
    public var nextVersionUUID: UUID?
    /// The entity's ``VersionInfo/groupIdentifier``, kept as a column so
    /// ``StoredVersionFilter/groupIdentifiers`` can match it without decoding the payload.
    public var groupIdentifier: String?
    /// The entity's ``VersionInfo/remoteID``, kept as a column so ``StoredVersionFilter/remoteIDs``
    /// can match it without decoding the payload.
    public var remoteID: String?
    /// The entity's ``VersionInfo/tags``, kept as a column so ``StoredVersionFilter/tags`` can match
    /// them without decoding the payload.
    public var tags: [String]
    /// The care plan of a task or contact, the patient of a care plan.
    public var parentUUID: UUID?
    /// The entity, encoded as JSON by ``StorageBackedCareStore``.
    public var payload: Data

    /// Creates a stored version.
    public init(kind: EntityKind, uuid: UUID, id: String, effectiveDate: Date, deletedDate: Date?, previousVersionUUID: UUID?,
                nextVersionUUID: UUID?, groupIdentifier: String?, remoteID: String?, tags: [String], parentUUID: UUID?, payload: Data) {
        self.kind = kind
        self.uuid = uuid
        self.id = id
        self.effectiveDate = effectiveDate
        self.deletedDate = deletedDate
        self.previousVersionUUID = previousVersionUUID
        self.nextVersionUUID = nextVersionUUID
        self.groupIdentifier = groupIdentifier
        self.remoteID = remoteID
        self.tags = tags
        self.parentUUID = parentUUID
        self.payload = payload
    }
}

/// Which stored versions a query may need. A backend must return every version that passes (it may return more;
/// the store filters again). Empty sets mean "no condition".
public struct StoredVersionFilter: Hashable, Sendable {
    /// Versions of the entities with these developer ids.
    public var ids: Set<String> = []
    /// Versions with these UUIDs.
    public var uuids: Set<UUID> = []
    /// Versions whose remote id is one of these; a version without one never passes.
    public var remoteIDs: Set<String> = []
    /// Versions whose group identifier is one of these; a version without one never passes.
    public var groupIdentifiers: Set<String> = []
    /// Versions carrying at least one of these tags.
    public var tags: Set<String> = []
    /// Versions whose parent is one of these UUIDs.
    public var parentUUIDs: Set<UUID> = []
    /// Only versions in effect before this date (effectiveDate < date).
    public var effectiveBefore: Date?

    /// A filter with no conditions.
    public init() {}
}
