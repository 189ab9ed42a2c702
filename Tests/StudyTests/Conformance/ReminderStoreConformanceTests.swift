import Consent
import Foundation
import Study
import Testing

/// What every ``ReminderStore`` must do, on every backend: channels that belong to their participant, choices kept
/// whole, and an outbox whose claims give each delivery to one process at a time, even between two stores over one
/// database (two server processes).
@Suite("Reminder store conformance (every backend)")
struct ReminderStoreConformanceTests {
    let clock = TestClock(Date(timeIntervalSince1970: 1_774_663_200)) // 2026-03-28T02:00:00Z

    private func due(_ participantID: String, occurrence: Int = 3) -> DueReminder {
        DueReminder(participantID: participantID, reminderID: "painMorning", taskID: "pain", occurrence: occurrence,
                    eventStart: clock.now.addingTimeInterval(-3600), eventEnd: clock.now.addingTimeInterval(3600 * 20),
                    dueDate: clock.now, localDay: "2026-03-28")
    }

    @Test(arguments: Backend.allCases) func channelsBelongToTheirParticipantAndAnAddressIsAddedOnce(_ backend: Backend) async throws {
        let store = try await backend.makeStore(clock)
        let alice = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let bob = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let email = ReminderChannel(id: UUID(), participantID: alice.id, kind: .email, address: "alice@example.org", createdAt: clock.now)
        #expect(try await store.addReminderChannel(email) == email)
        // The same address again is the stored channel, not a second one.
        let again = ReminderChannel(id: UUID(), participantID: alice.id, kind: .email, address: "alice@example.org", createdAt: clock.now)
        #expect(try await store.addReminderChannel(again).id == email.id)
        #expect(try await store.reminderChannels(participantID: alice.id).map(\.id) == [email.id])
        #expect(try await store.reminderChannel(id: email.id)?.isConfirmed == false)

        // Bob can neither confirm nor remove Alice's channel.
        #expect(try await store.confirmReminderChannel(id: email.id, participantID: bob.id) == nil)
        #expect(try await store.removeReminderChannel(id: email.id, participantID: bob.id) == false)
        clock.advance(by: 60)
        let confirmed = try await store.confirmReminderChannel(id: email.id, participantID: alice.id)
        #expect(confirmed?.confirmedAt == clock.now)
        #expect(try await store.reminderChannel(id: email.id)?.confirmedAt == clock.now)

        let feed = ReminderChannel(id: UUID(), participantID: alice.id, kind: .calendar, createdAt: clock.now, confirmedAt: clock.now)
        _ = try await store.addReminderChannel(feed)
        await #expect(throws: ReminderChannelRefusal.tooMany(kind: .calendar, limit: 1)) {
            try await store.addReminderChannel(ReminderChannel(id: UUID(), participantID: alice.id, kind: .calendar, createdAt: clock.now))
        }
        #expect(Set(try await store.allReminderChannels().map(\.id)) == [email.id, feed.id])
        #expect(try await store.removeReminderChannel(id: email.id, participantID: alice.id))
        #expect(try await store.reminderChannels(participantID: alice.id).map(\.id) == [feed.id])
    }

    @Test(arguments: Backend.allCases) func choicesAreKeptWholeAndDefaultUntilMade(_ backend: Backend) async throws {
        let store = try await backend.makeStore(clock)
        let alice = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        #expect(try await store.reminderPreferences(participantID: alice.id) == .studyDefaults)
        let chosen = ReminderPreferences(enabledReminderIDs: ["painMorning", "mood"], paused: true, quietHours: QuietHours(from: 22 * 60, to: 7 * 60))
        try await store.setReminderPreferences(chosen, participantID: alice.id)
        #expect(try await store.reminderPreferences(participantID: alice.id) == chosen)
        let none = ReminderPreferences(enabledReminderIDs: [], paused: false)
        try await store.setReminderPreferences(none, participantID: alice.id)
        #expect(try await store.allReminderPreferences() == [alice.id: none])
    }

    @Test(arguments: Backend.allCases) func oneOfTwoProcessesClaimsADeliveryAndOnlyItsClaimSettlesIt(_ backend: Backend) async throws {
        let (first, second) = try await backend.makeTwoStores(clock)
        let alice = try await first.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let channel = try await first.addReminderChannel(ReminderChannel(id: UUID(), participantID: alice.id, kind: .push,
                                                                         address: "https://push.example/1", createdAt: clock.now, confirmedAt: clock.now))
        let reminder = due(alice.id)
        let now = clock.now
        let claims = try await withThrowingTaskGroup(of: ReminderDelivery?.self) { group in
            for index in 0..<8 {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask { try await store.claimReminderDelivery(for: reminder, channel: channel, at: now, holdingFor: 120) }
            }
            return try await group.reduce(into: [ReminderDelivery]()) { if let claim = $1 { $0.append(claim) } }
        }
        #expect(claims.count == 1)
        let claim = try #require(claims.first)
        #expect(claim.state == .sending && claim.attempts == 1 && claim.key.hasSuffix(channel.id.uuidString.lowercased()))

        // A temporary failure: claimable again once its time comes, by either process.
        #expect(try await first.settleReminderDelivery(claim, as: .retrying, detail: "451 try later", nextAttemptAt: now.addingTimeInterval(60), at: now))
        #expect(try await second.claimReminderDelivery(for: reminder, channel: channel, at: now.addingTimeInterval(30), holdingFor: 120) == nil)
        let retry = try #require(try await second.claimReminderDelivery(for: reminder, channel: channel, at: now.addingTimeInterval(61), holdingFor: 120))
        #expect(retry.attempts == 2)
        // The first claim is stale: it settles nothing.
        #expect(try await first.settleReminderDelivery(claim, as: .sent, detail: nil, nextAttemptAt: nil, at: now.addingTimeInterval(62)) == false)

        // A claim whose process died lapses, and is claimed again (the one message in flight may then go twice).
        #expect(try await first.claimReminderDelivery(for: reminder, channel: channel, at: now.addingTimeInterval(100), holdingFor: 120) == nil)
        let taken = try #require(try await first.claimReminderDelivery(for: reminder, channel: channel, at: now.addingTimeInterval(182), holdingFor: 120))
        #expect(taken.attempts == 3)
        #expect(try await first.settleReminderDelivery(taken, as: .sent, detail: "250 OK", nextAttemptAt: nil, at: now.addingTimeInterval(183)))
        #expect(try await second.claimReminderDelivery(for: reminder, channel: channel, at: now.addingTimeInterval(10_000), holdingFor: 120) == nil)

        let stored = try await second.reminderDeliveries(participantID: alice.id)
        #expect(stored.map(\.state) == [.sent] && stored.first?.detail == "250 OK" && stored.first?.attempts == 3)
        #expect(try await first.reminderDeliveries(dueSince: now.addingTimeInterval(1)).isEmpty)
        #expect(try await first.reminderDeliveries(dueSince: now).map(\.key) == [claim.key])
    }

    @Test(arguments: Backend.allCases) func aParticipantWhoLeftGetsNoNewChannelChoiceOrDelivery(_ backend: Backend) async throws {
        let store = try await backend.makeStore(clock)
        let alice = try await store.enrol(invitationCode: nil, timeZone: .gmt, language: "en")
        let channel = try await store.addReminderChannel(ReminderChannel(id: UUID(), participantID: alice.id, kind: .email,
                                                                         address: "a@example.org", createdAt: clock.now, confirmedAt: clock.now))
        let recorder = ConsentRecorder(signingKey: .generate())
        let consent = try sealedConsent(participant: alice.id, recorder: recorder)
        _ = try await store.appendConsentRecord(consent)
        _ = try await store.appendConsentRecord(try recorder.sealWithdrawal(of: consent, reason: "moving away"))
        #expect(try await store.claimReminderDelivery(for: due(alice.id), channel: channel, at: clock.now, holdingFor: 120) == nil)
        await #expect(throws: StudyRefusal.withdrawn) {
            try await store.addReminderChannel(ReminderChannel(id: UUID(), participantID: alice.id, kind: .push, address: "https://p/1", createdAt: clock.now))
        }
        await #expect(throws: StudyRefusal.withdrawn) {
            try await store.setReminderPreferences(ReminderPreferences(paused: true), participantID: alice.id)
        }
    }
}
