import Foundation

/// What a participant chose about reminders: which are on, whether all are paused, and their quiet hours. Kept per
/// participant in the study store; a participant who never chose has ``studyDefaults``.
public struct ReminderPreferences: Hashable, Sendable, Codable {
    /// The reminders they turned on, by id; nil until they choose, when the study's `onByDefault` ones are on.
    public var enabledReminderIDs: Set<String>?
    /// Whether every reminder is paused (nothing is sent on any channel, the calendar feed keeps its events but no alarms).
    public var paused: Bool
    /// Their own quiet hours; nil for the study's.
    public var quietHours: QuietHours?

    /// Creates preferences; see the properties.
    public init(enabledReminderIDs: Set<String>? = nil, paused: Bool = false, quietHours: QuietHours? = nil) {
        self.enabledReminderIDs = enabledReminderIDs
        self.paused = paused
        self.quietHours = quietHours
    }

    /// A participant who has not chosen anything.
    public static let studyDefaults = ReminderPreferences()

    /// Whether `reminder` is on for them (paused or not).
    public func isOn(_ reminder: StudyReminder) -> Bool {
        enabledReminderIDs.map { $0.contains(reminder.id) } ?? reminder.onByDefault
    }

    private enum CodingKeys: String, CodingKey { case enabledReminderIDs, paused, quietHours }

    /// Decodes preferences as ``encode(to:)`` writes them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        enabledReminderIDs = try container.decodeIfPresent([String].self, forKey: .enabledReminderIDs).map(Set.init)
        paused = try container.decodeIfPresent(Bool.self, forKey: .paused) ?? false
        quietHours = try container.decodeIfPresent(QuietHours.self, forKey: .quietHours)
    }

    /// Encodes the reminders that are on in order, so that equal preferences are equal text (in the audit trail).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(enabledReminderIDs?.sorted(), forKey: .enabledReminderIDs)
        try container.encode(paused, forKey: .paused)
        try container.encodeIfPresent(quietHours, forKey: .quietHours)
    }

    /// Their quiet hours: their own, else the study's.
    public func effectiveQuietHours(in study: StudyDefinition) -> QuietHours {
        quietHours ?? study.quietHours
    }

    /// The JSON text a store keeps: keys sorted, so that equal preferences are equal text.
    public static func storedText(of preferences: ReminderPreferences) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(preferences), as: UTF8.self)
    }

    /// Reads the JSON text stores keep (``storedText(of:)``) for many participants at once: equal text is decoded once,
    /// since most participants keep the study's choices or the same few (a reminder round reads every participant's).
    public struct StoredTextReader {
        private var decoded: [String: ReminderPreferences] = [:]
        private let decoder = JSONDecoder()

        /// A reader that has read nothing yet.
        public init() {}

        /// The preferences `text` holds; nil when it holds none (the store names the row in its own error).
        public mutating func preferences(in text: String) -> ReminderPreferences? {
            if let known = decoded[text] { return known }
            guard let preferences = try? decoder.decode(ReminderPreferences.self, from: Data(text.utf8)) else { return nil }
            if decoded.count < 256 { decoded[text] = preferences }
            return preferences
        }
    }
}
