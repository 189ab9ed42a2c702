import Foundation

/// What every versioned care entity carries besides its own fields: its version's identity and place in the
/// version chain, its dates, and the bookkeeping fields CareKit gives every entity.
///
/// Versions are never edited in place: an update writes a new version that takes effect at its
/// ``effectiveDate``, linked to the one before by ``previousVersionUUIDs`` / ``nextVersionUUIDs``.
public struct VersionInfo: Hashable, Sendable, Codable {
    /// Identifies this version; a new one is made for every version.
    public var uuid: UUID
    /// From when this version is in effect.
    public var effectiveDate: Date
    /// When the store first saw the entity (the first version's creation); set by the store.
    public var createdDate: Date?
    /// When the store saved this version; set by the store.
    public var updatedDate: Date?
    /// Set on the tombstone version written by a delete.
    public var deletedDate: Date?
    /// The version this one replaced.
    public var previousVersionUUIDs: [UUID]
    /// The version that replaced this one.
    public var nextVersionUUIDs: [UUID]
    /// Groups related entities (for example all tasks of one study arm).
    public var groupIdentifier: String?
    /// Free labels for queries.
    public var tags: [String]
    /// The entity's identifier on a remote server.
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
    public var author: String?
    public var title: String?
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
