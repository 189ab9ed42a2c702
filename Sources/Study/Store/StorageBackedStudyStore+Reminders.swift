import Foundation

/// The reminder side of the study store (``ReminderStore``): its rules over the storage's rows.
extension StorageBackedStudyStore {
    /// How many channels of each kind one participant may have.
    public static var reminderChannelLimits: [ReminderChannel.Kind: Int] { [.email: 3, .push: 10, .calendar: 1] }

    public func addReminderChannel(_ channel: ReminderChannel) async throws -> ReminderChannel {
        try await write(participant: channel.participantID) { writer in
            guard try await writer.participant(id: channel.participantID) != nil else {
                throw StudyStoreError.unknownParticipant(channel.participantID)
            }
            if try await writer.hasWithdrawalRecord(participantID: channel.participantID) { throw StudyRefusal.withdrawn }
            let existing = try await writer.reminderChannels(participantID: channel.participantID)
            if channel.kind != .calendar,
               let same = existing.first(where: { $0.kind == channel.kind && $0.address == channel.address }) { return same }
            let limit = Self.reminderChannelLimits[channel.kind] ?? 1
            guard existing.count(where: { $0.kind == channel.kind }) < limit else {
                throw ReminderChannelRefusal.tooMany(kind: channel.kind, limit: limit)
            }
            try await writer.insert(channel)
            return channel
        }
    }

    public func confirmReminderChannel(id: UUID, participantID: String) async throws -> ReminderChannel? {
        let now = environment.now()
        return try await write(participant: participantID) { writer in
            guard var channel = try await writer.reminderChannel(id: id), channel.participantID == participantID else { return nil }
            if try await writer.hasWithdrawalRecord(participantID: participantID) { throw StudyRefusal.withdrawn }
            if try await writer.confirmReminderChannel(id: id, at: now) { channel.confirmedAt = now }
            return channel
        }
    }

    public func removeReminderChannel(id: UUID, participantID: String) async throws -> Bool {
        try await write(participant: participantID) { writer in
            guard try await writer.reminderChannel(id: id)?.participantID == participantID else { return false }
            return try await writer.deleteReminderChannel(id: id)
        }
    }

    public func reminderChannels(participantID: String) async throws -> [ReminderChannel] {
        try await storage.read { reader in try await reader.reminderChannels(participantID: participantID) }
    }

    public func reminderChannel(id: UUID) async throws -> ReminderChannel? {
        try await storage.read { reader in try await reader.reminderChannel(id: id) }
    }

    public func allReminderChannels() async throws -> [ReminderChannel] {
        try await storage.read { reader in try await reader.allReminderChannels() }
    }

    public func reminderPreferences(participantID: String) async throws -> ReminderPreferences {
        try await storage.read { reader in try await reader.reminderPreferences(participantID: participantID) } ?? .studyDefaults
    }

    public func allReminderPreferences() async throws -> [String: ReminderPreferences] {
        try await storage.read { reader in try await reader.allReminderPreferences() }
    }

    public func setReminderPreferences(_ preferences: ReminderPreferences, participantID: String) async throws {
        let now = environment.now()
        try await write(participant: participantID) { writer in
            guard try await writer.participant(id: participantID) != nil else { throw StudyStoreError.unknownParticipant(participantID) }
            if try await writer.hasWithdrawalRecord(participantID: participantID) { throw StudyRefusal.withdrawn }
            try await writer.setReminderPreferences(preferences, participantID: participantID, at: now)
        }
    }

    public func claimReminderDelivery(for due: DueReminder, channel: ReminderChannel, at now: Date,
                                      holdingFor: TimeInterval) async throws -> ReminderDelivery? {
        let key = ReminderDelivery.key(of: due, channelID: channel.id)
        return try await write { writer in
            let claimed: ReminderDelivery
            if var stored = try await writer.reminderDelivery(key: key) {
                guard stored.isClaimable(at: now) else { return nil }
                stored.state = .sending
                stored.attempts += 1
                stored.claimedUntil = now.addingTimeInterval(holdingFor)
                stored.nextAttemptAt = nil
                stored.updatedAt = now
                claimed = stored
            } else {
                if try await writer.hasWithdrawalRecord(participantID: due.participantID) { return nil }
                claimed = ReminderDelivery(key: key, participantID: due.participantID, reminderID: due.reminderID, taskID: due.taskID,
                                           occurrence: due.occurrence, channelID: channel.id, channelKind: channel.kind, dueAt: due.dueDate,
                                           state: .sending, attempts: 1, claimedUntil: now.addingTimeInterval(holdingFor),
                                           createdAt: now, updatedAt: now)
            }
            try await writer.put(claimed)
            return claimed
        }
    }

    public func settleReminderDelivery(_ claimed: ReminderDelivery, as state: ReminderDelivery.State, detail: String?,
                                       nextAttemptAt: Date?, at now: Date) async throws -> Bool {
        try await write { writer in
            // Settled only by the claim that holds it: the same attempt, still sending.
            guard var stored = try await writer.reminderDelivery(key: claimed.key), stored.state == .sending,
                  stored.attempts == claimed.attempts else { return false }
            stored.state = state
            stored.detail = detail.map { String($0.prefix(ReminderDelivery.longestDetail)) }
            stored.claimedUntil = nil
            stored.nextAttemptAt = state == .retrying ? nextAttemptAt : nil
            stored.updatedAt = now
            try await writer.put(stored)
            return true
        }
    }

    public func reminderDeliveries(participantID: String) async throws -> [ReminderDelivery] {
        try await storage.read { reader in try await reader.reminderDeliveries(participantID: participantID) }
    }

    public func reminderDeliveries(dueSince date: Date) async throws -> [ReminderDelivery] {
        try await storage.read { reader in try await reader.reminderDeliveries(dueSince: date) }
    }
}
