import Foundation
import Synchronization

/// How often this server process mails links that confirm a reminder address, so that a participant cannot make it
/// mail someone else's address over and over (adding it, removing it, adding it again): the same address gets a link
/// at most once in ``sameAddressInterval`` (a second request in that time, such as a double-click, sends nothing and is
/// answered as the first was), and one participant's addresses at most ``perParticipantPerHour`` links an hour.
///
/// What was sent is kept in memory for an hour, per process: with several server processes, each counts its own.
///
/// ```swift
/// switch limiter.decide(participantID: "p1", address: "ada@example.org", at: now) {
/// case .send: … send the confirmation …
/// case .alreadySent: break          // the link sent a moment ago stands
/// case .tooOften: … refuse …
/// }
/// ```
final class ConfirmationMailLimiter: Sendable {
    /// What to do with one request for a confirmation link.
    enum Decision: Equatable {
        /// Send it (it is counted now).
        case send
        /// One went to this address less than ``sameAddressInterval`` ago: send nothing.
        case alreadySent
        /// The participant's addresses had ``perParticipantPerHour`` links in the last hour: refuse.
        case tooOften
    }

    /// The shortest time between two links to one address of one participant.
    static let sameAddressInterval: TimeInterval = 10 * 60
    /// The most links one participant's addresses get in an hour.
    static let perParticipantPerHour = 5

    private let sent = Mutex<[String: [(address: String, at: Date)]]>([:])

    /// Whether to send a confirmation link to `address` for `participantID` at `now`; a `.send` is counted.
    func decide(participantID: String, address: String, at now: Date) -> Decision {
        sent.withLock { sent in
            let recent = (sent[participantID] ?? []).filter { now.timeIntervalSince($0.at) < 3_600 }
            // Forget participants with nothing left to count, so that the map holds only the last hour's.
            defer { if sent[participantID]?.isEmpty ?? false { sent[participantID] = nil } }
            sent[participantID] = recent
            let key = address.lowercased()
            if recent.contains(where: { $0.address == key && now.timeIntervalSince($0.at) < Self.sameAddressInterval }) { return .alreadySent }
            guard recent.count < Self.perParticipantPerHour else { return .tooOften }
            sent[participantID, default: []].append((key, now))
            return .send
        }
    }
}
