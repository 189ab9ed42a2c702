import Foundation

/// An outcome's notes, tags and user info as one JSON column (`outcome.details`, NULL when all are empty): rare, and
/// only ever read whole, so every backend keeps them in one column rather than three (SQLite as text, PostgreSQL as
/// `jsonb`).
public struct OutcomeDetails: Codable, Sendable {
    /// The outcome's notes.
    public var notes: [Note]
    /// The outcome's tags.
    public var tags: [String]
    /// The outcome's user info.
    public var userInfo: [String: String]

    /// The details of `outcome`.
    public init(_ outcome: Outcome) {
        notes = outcome.notes
        tags = outcome.tags
        userInfo = outcome.userInfo
    }

    /// Reads the column; nil when it is not such JSON.
    public init?(json: String) {
        guard let decoded = try? JSONDecoder().decode(OutcomeDetails.self, from: Data(json.utf8)) else { return nil }
        self = decoded
    }

    /// The column's JSON, or nil when there is nothing to keep.
    public func json() throws -> String? {
        guard !(notes.isEmpty && tags.isEmpty && userInfo.isEmpty) else { return nil }
        return String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    /// Puts the notes, tags and user info on `outcome`.
    public func apply(to outcome: inout Outcome) {
        outcome.notes = notes
        outcome.tags = tags
        outcome.userInfo = userInfo
    }
}
