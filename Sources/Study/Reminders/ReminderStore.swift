import Foundation

/// The study store's reminder side: the channels that reach each participant, what they chose, and the outbox of
/// deliveries, whose claims make every reminder go once per channel whichever server process sends it.
///
/// ```swift
/// if let delivery = try await store.claimReminderDelivery(for: due, channel: channel, at: now, holdingFor: 120) {
///     … send …
///     try await store.settleReminderDelivery(delivery, as: .sent, detail: "250 OK", at: clock())
/// }
/// ```
public protocol ReminderStore: Sendable {
    /// Adds a channel for its participant: refused for a participant who is not enrolled or has left
    /// (``StudyRefusal/withdrawn``); an email address already added for them is returned as it is stored instead.
    func addReminderChannel(_ channel: ReminderChannel) async throws -> ReminderChannel
    /// Confirms the participant's channel (an email address, from its link); returns it, or nil when they have none
    /// with this id.
    func confirmReminderChannel(id: UUID, participantID: String) async throws -> ReminderChannel?
    /// Removes the participant's channel; returns whether they had it.
    func removeReminderChannel(id: UUID, participantID: String) async throws -> Bool
    /// The participant's channels, oldest first.
    func reminderChannels(participantID: String) async throws -> [ReminderChannel]
    /// The channel with this id, whoever it reaches (a one-click unsubscribe knows the channel, not the participant).
    func reminderChannel(id: UUID) async throws -> ReminderChannel?
    /// Every participant's channels.
    func allReminderChannels() async throws -> [ReminderChannel]
    /// What the participant chose; ``ReminderPreferences/studyDefaults`` until they choose.
    func reminderPreferences(participantID: String) async throws -> ReminderPreferences
    /// Every participant's choices (those who chose).
    func allReminderPreferences() async throws -> [String: ReminderPreferences]
    /// Stores what the participant chose.
    func setReminderPreferences(_ preferences: ReminderPreferences, participantID: String) async throws
    /// Claims the delivery of `due` through `channel` for this process until `now + holdingFor`: a new one, a retry
    /// whose time has come, or one whose claim lapsed. Returns nil when another process has it or it is settled. Two
    /// processes claiming one at once never both get it.
    func claimReminderDelivery(for due: DueReminder, channel: ReminderChannel, at now: Date, holdingFor: TimeInterval) async throws -> ReminderDelivery?
    /// Settles a delivery this process claimed: sent, retrying (from `nextAttemptAt`), failed or skipped, with the
    /// server's answer or why. Returns false when the claim was lost meanwhile (it lapsed and another process took it).
    func settleReminderDelivery(_ claimed: ReminderDelivery, as state: ReminderDelivery.State, detail: String?,
                                nextAttemptAt: Date?, at now: Date) async throws -> Bool
    /// The participant's deliveries, latest due first.
    func reminderDeliveries(participantID: String) async throws -> [ReminderDelivery]
    /// Every delivery due at or after `date`, oldest due first.
    func reminderDeliveries(dueSince date: Date) async throws -> [ReminderDelivery]
}

/// Why a reminder channel could not be added.
public enum ReminderChannelRefusal: Error, Hashable, Sendable {
    /// The participant has as many channels of this kind as one may have.
    case tooMany(kind: ReminderChannel.Kind, limit: Int)
}
