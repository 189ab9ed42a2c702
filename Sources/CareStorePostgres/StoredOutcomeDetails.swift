import CareStore
import Foundation

/// An outcome's notes, tags and user info, kept together as `jsonb` in `outcome.details` (NULL when all are empty):
/// rare, and only ever read whole, so one column rather than three.
struct StoredOutcomeDetails: Codable {
    var notes: [Note]
    var tags: [String]
    var userInfo: [String: String]

    init(_ outcome: Outcome) {
        notes = outcome.notes
        tags = outcome.tags
        userInfo = outcome.userInfo
    }

    /// Reads the column; nil when it is not such JSON.
    init?(json: String) {
        guard let decoded = try? JSONDecoder().decode(StoredOutcomeDetails.self, from: Data(json.utf8)) else { return nil }
        self = decoded
    }

    /// The column's JSON, or nil when there is nothing to keep.
    func json() throws -> String? {
        guard !(notes.isEmpty && tags.isEmpty && userInfo.isEmpty) else { return nil }
        return String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    /// Puts the notes, tags and user info on `outcome`.
    func apply(to outcome: inout Outcome) {
        outcome.notes = notes
        outcome.tags = tags
        outcome.userInfo = userInfo
    }
}
