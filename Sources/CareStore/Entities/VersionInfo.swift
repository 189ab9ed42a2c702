import Foundation

/// What every versioned care entity carries besides its own fields: its version's identity and place in the
/// version chain, its dates, and the bookkeeping fields CareKit gives every entity.
///
/// Versions are never edited in place: an update writes a new version that takes effect at its
/// ``effectiveDate``, linked to the one before by ``previousVersionUUIDs`` / ``nextVersionUUIDs``.
public struct VersionInfo: Hashable, Sendable, Codable {
    /// Identifies this version. The store gives every version it writes a fresh UUID, replacing the one set
    /// here; use the UUID of the returned entity.
    public var uuid: UUID
    /// From when this version is in effect: a query for a date sees the newest version effective strictly
    /// before that date. A new version may not take effect earlier than the one it replaces.
    public var effectiveDate: Date
    /// When the store added the entity; set by the store, and carried over to every later version. Adding a
    /// deleted id again sets it anew.
    public var createdDate: Date?
    /// When the store saved this version; set by the store.
    public var updatedDate: Date?
    /// When the entity was deleted; set by the store, and only on the tombstone version a delete writes.
    public var deletedDate: Date?
    /// The version this one replaced: empty for the first version, else one UUID. Set by the store.
    public var previousVersionUUIDs: [UUID]
    /// The version that replaced this one: empty for the newest version, else one UUID. Set by the store.
    public var nextVersionUUIDs: [UUID]
    /// Groups related entities (for example all tasks of one study arm); ``CareQuery/groupIdentifiers``
    /// matches it.
    public var groupIdentifier: String?
    /// Free labels; ``CareQuery/tags`` selects entities carrying at least one of its tags.
    public var tags: [String]
    /// The entity's identifier on a remote server; ``CareQuery/remoteIDs`` matches it.
    public var remoteID: String?
    /// Where the entity came from (an app, an import).
    public var source: String?
    /// Small extra data for the app, as strings.
    public var userInfo: [String: String]
    /// The name or URL of an image for the entity.
    public var asset: String?
    /// Notes attached to the entity.
    public var notes: [Note]
    /// The time zone the entity was made in; dates are stored in UTC with this zone beside them.
    public var timeZone: TimeZone

    /// A new first version in effect from `effectiveDate`, with a fresh UUID from `uuid`.
    public init(uuid: UUID = UUID(), effectiveDate: Date, timeZone: TimeZone = .current, groupIdentifier: String? = nil,
                tags: [String] = [], remoteID: String? = nil, source: String? = nil, userInfo: [String: String] = [:],
                asset: String? = nil, notes: [Note] = []) {
        self.uuid = uuid
        self.effectiveDate = effectiveDate
        self.createdDate = nil
        self.updatedDate = nil
        self.deletedDate = nil
        self.previousVersionUUIDs = []
        self.nextVersionUUIDs = []
        self.groupIdentifier = groupIdentifier
        self.tags = tags
        self.remoteID = remoteID
        self.source = source
        self.userInfo = userInfo
        self.asset = asset
        self.notes = notes
        self.timeZone = timeZone
    }
}

/// A note attached to an entity or an outcome.
public struct Note: Hashable, Sendable, Codable {
    /// Who wrote the note, as a name to show.
    public var author: String?
    /// A short heading for the note.
    public var title: String?
    /// The note's text.
    public var content: String?
    /// When the note was written.
    public var createdDate: Date?
    /// Creates a note.
    public init(author: String? = nil, title: String? = nil, content: String? = nil, createdDate: Date? = nil) {
        self.author = author
        self.title = title
        self.content = content
        self.createdDate = createdDate
    }
}

/// The kinds of versioned entities a care store keeps.
public enum EntityKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// One case per entity type: ``Patient``, ``CarePlan``, ``Contact`` and ``CareTask``. Storage
    /// backends keep the raw value in each stored row, and error messages show it, so a case must
    /// not be renamed.
    case patient, carePlan, contact, task
}

/// A care entity kept in versions: a patient, a care plan, a contact or a task.
///
/// Its ``id`` is the developer's and stays the same across versions; ``version`` tells the versions apart.
public protocol VersionedEntity: Hashable, Sendable, Codable {
    /// Which table of the store the entity lives in.
    static var kind: EntityKind { get }
    /// The developer's identifier, the same for every version.
    var id: String { get }
    /// This version's identity, dates and bookkeeping fields.
    var version: VersionInfo { get set }
    /// The UUID of the entity this one belongs to (a task's or contact's care plan, a care plan's patient).
    var parentUUID: UUID? { get }
}

extension VersionedEntity {
    /// This version's UUID.
    public var uuid: UUID { version.uuid }
    /// From when this version is in effect.
    public var effectiveDate: Date { version.effectiveDate }
    /// Whether this version is a delete's tombstone.
    public var isDeleted: Bool { version.deletedDate != nil }
}
