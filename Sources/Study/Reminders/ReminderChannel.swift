import Foundation

/// A way to reach a participant outside the open page: an email address they confirmed, a browser's push
/// subscription, or their calendar feed. Kept per participant in the study store; removing it is deleting it.
public struct ReminderChannel: Hashable, Sendable, Identifiable {
    /// The kinds of channel.
    public enum Kind: String, Hashable, Sendable, CaseIterable, Codable {
        /// Mail through the server's SMTP submission, to an address confirmed from a link (double opt-in).
        case email
        /// Web push (RFC 8030) to one browser's subscription.
        case push
        /// A secret calendar feed (RFC 5545) the participant's calendar reads: StudyKit sends nothing itself.
        case calendar
    }

    /// The channel's identifier (a feed's and a confirmation link's tokens are derived from it).
    public var id: UUID
    /// The participant it reaches.
    public var participantID: String
    /// What kind it is.
    public var kind: Kind
    /// The email address, or the push subscription's endpoint; nil for a calendar feed.
    public var address: String?
    /// A push subscription's keys (`{"p256dh": …, "auth": …}`, the browser's JSON); nil for the others.
    public var pushKeys: String?
    /// A label the participant recognises (the browser a push subscription is in).
    public var label: String?
    /// When it was added.
    public var createdAt: Date
    /// When the participant confirmed it (an email address from the link); push and calendar channels are confirmed
    /// when added. Nothing is sent to an unconfirmed channel but its confirmation.
    public var confirmedAt: Date?

    /// Creates a channel; see the properties.
    public init(id: UUID, participantID: String, kind: Kind, address: String? = nil, pushKeys: String? = nil, label: String? = nil,
                createdAt: Date, confirmedAt: Date? = nil) {
        self.id = id
        self.participantID = participantID
        self.kind = kind
        self.address = address
        self.pushKeys = pushKeys
        self.label = label
        self.createdAt = createdAt
        self.confirmedAt = confirmedAt
    }

    /// Whether reminders may be sent through it.
    public var isConfirmed: Bool { confirmedAt != nil }
}

/// One reminder through one channel, as the outbox keeps it: claimed by one server process before it is sent, then
/// sent, retried after a temporary failure, given up after a permanent one, or skipped with why. Its key is the
/// reminder's (``DueReminder/key``) and the channel's, so each is sent at most once per channel.
public struct ReminderDelivery: Hashable, Sendable {
    /// Where a delivery is.
    public enum State: String, Hashable, Sendable, CaseIterable, Codable {
        /// Claimed by a process until ``ReminderDelivery/claimedUntil``, being sent. A claim that lapses (its process
        /// died) is claimed again: the one message in flight may then go twice.
        case sending
        /// Accepted by the mail server or push service.
        case sent
        /// Failed for a reason that may pass; tried again from ``ReminderDelivery/nextAttemptAt``.
        case retrying
        /// Given up: a permanent failure, or too many temporary ones (``ReminderDelivery/detail`` says which).
        case failed
        /// Not sent, on purpose (``ReminderDelivery/detail`` says why: the event was done meanwhile, the channel
        /// was removed, the participant left).
        case skipped
    }

    /// The reminder's key and the channel's: `PARTICIPANT/TASK/OCCURRENCE/REMINDER/DAY/CHANNEL`.
    public var key: String
    /// The participant.
    public var participantID: String
    /// The study's reminder.
    public var reminderID: String
    /// The study task of the event.
    public var taskID: String
    /// The event's occurrence index.
    public var occurrence: Int
    /// The channel.
    public var channelID: UUID
    /// The channel's kind (kept when the channel is removed).
    public var channelKind: ReminderChannel.Kind
    /// When the reminder fell due.
    public var dueAt: Date
    /// Where it is.
    public var state: State
    /// How many times it was claimed for sending.
    public var attempts: Int
    /// Until when the claiming process holds it (``State/sending``).
    public var claimedUntil: Date?
    /// When it may be tried again (``State/retrying``).
    public var nextAttemptAt: Date?
    /// Why it failed or was skipped, or the server's answer.
    public var detail: String?
    /// When it was first claimed.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date

    /// Creates a delivery; see the properties.
    public init(key: String, participantID: String, reminderID: String, taskID: String, occurrence: Int, channelID: UUID,
                channelKind: ReminderChannel.Kind, dueAt: Date, state: State, attempts: Int, claimedUntil: Date? = nil,
                nextAttemptAt: Date? = nil, detail: String? = nil, createdAt: Date, updatedAt: Date) {
        self.key = key
        self.participantID = participantID
        self.reminderID = reminderID
        self.taskID = taskID
        self.occurrence = occurrence
        self.channelID = channelID
        self.channelKind = channelKind
        self.dueAt = dueAt
        self.state = state
        self.attempts = attempts
        self.claimedUntil = claimedUntil
        self.nextAttemptAt = nextAttemptAt
        self.detail = detail
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The most characters of ``detail`` kept (a server's answer can be long).
    public static let longestDetail = 1_000

    /// The key of `due` through `channel`.
    public static func key(of due: DueReminder, channelID: UUID) -> String {
        due.key + "/" + channelID.uuidString.lowercased()
    }

    /// Whether a process may claim it at `now`: a retry whose time has come, or a claim that lapsed.
    public func isClaimable(at now: Date) -> Bool {
        switch state {
        case .retrying: (nextAttemptAt ?? .distantPast) <= now
        case .sending: (claimedUntil ?? .distantPast) <= now
        case .sent, .failed, .skipped: false
        }
    }
}
