import Foundation

/// One row of the audit trail: who changed what, when, from what to what, and why. Each row carries the hash of the
/// row before it (``previousHash``) and its own (``hash``), so that an edited, removed or inserted row breaks the
/// chain at that row (``AuditTrail/verify(_:)``).
public struct AuditEntry: Hashable, Sendable, Identifiable, Codable {
    /// The row's place in the trail, from 1.
    public var sequence: Int64
    /// When, in whole milliseconds since 1970 (what is hashed).
    public var atMilliseconds: Int64
    /// Who: `participant ID`, `researcher EMAIL (ID)`, `server`, `command line: COMMAND`.
    public var actor: String
    /// `insert`, `update` or `delete` of a row, or an action that changes no row (`export`).
    public var action: String
    /// The table (or, for an action, what it acted on).
    public var entity: String
    /// The row's key; nil for none.
    public var entityID: String?
    /// Whose data it is; nil for the study's own (researchers, invitations not yet used).
    public var participantID: String?
    /// The row before, as JSON; nil for an insert. Restoration data appears as its SHA-256.
    public var before: String?
    /// The row after, as JSON; nil for a delete.
    public var after: String?
    /// Why: the request that made the change, or the reason a researcher gave.
    public var reason: String?
    /// The ``hash`` of the row before; empty for the first row.
    public var previousHash: String
    /// The SHA-256 of ``previousHash`` and this row's fields (``AuditTrail/hash(previousHash:of:)``).
    public var hash: String

    public var id: Int64 { sequence }

    /// When, as a date.
    public var at: Date { Date(timeIntervalSince1970: Double(atMilliseconds) / 1000) }

    /// Creates an entry; see the properties.
    public init(sequence: Int64, atMilliseconds: Int64, actor: String, action: String, entity: String, entityID: String?, participantID: String?,
                before: String?, after: String?, reason: String?, previousHash: String, hash: String) {
        self.sequence = sequence
        self.atMilliseconds = atMilliseconds
        self.actor = actor
        self.action = action
        self.entity = entity
        self.entityID = entityID
        self.participantID = participantID
        self.before = before
        self.after = after
        self.reason = reason
        self.previousHash = previousHash
        self.hash = hash
    }

    /// The fields the hash covers, in order.
    public var hashedFields: [String?] {
        [String(atMilliseconds), actor, action, entity, entityID, participantID, before, after, reason]
    }
}
