import CareStorePostgres
import Foundation
import PostgresNIO
import Study

/// The reminders' rows in SQL: channels, choices (JSON text) and the outbox.
extension PostgresStudyRows {
    private static let channelColumns = "id, participantID, kind, address, pushKeys, label, createdAt, confirmedAt"
    private static let deliveryColumns = """
        key, participantID, reminderID, taskID, occurrence, channelID, channelKind, dueAt, state, attempts, claimedUntil, nextAttemptAt, \
        detail, createdAt, updatedAt
        """

    func reminderChannels(participantID: String) async throws -> [ReminderChannel] {
        try await channels("""
            SELECT \(unescaped: Self.channelColumns) FROM \(unescaped: schema.name).reminderChannel
            WHERE participantID = \(participantID) ORDER BY createdAt, id
            """)
    }

    func reminderChannel(id: UUID) async throws -> ReminderChannel? {
        try await channels("SELECT \(unescaped: Self.channelColumns) FROM \(unescaped: schema.name).reminderChannel WHERE id = \(id)").first
    }

    func allReminderChannels() async throws -> [ReminderChannel] {
        try await channels("SELECT \(unescaped: Self.channelColumns) FROM \(unescaped: schema.name).reminderChannel ORDER BY participantID, createdAt, id")
    }

    func reminderPreferences(participantID: String) async throws -> ReminderPreferences? {
        try await preferences("""
            SELECT participantID, preferences FROM \(unescaped: schema.name).reminderPreference WHERE participantID = \(participantID)
            """)[participantID]
    }

    func allReminderPreferences() async throws -> [String: ReminderPreferences] {
        try await preferences("SELECT participantID, preferences FROM \(unescaped: schema.name).reminderPreference")
    }

    func reminderDelivery(key: String) async throws -> ReminderDelivery? {
        try await deliveries("SELECT \(unescaped: Self.deliveryColumns) FROM \(unescaped: schema.name).reminderDelivery WHERE key = \(key)").first
    }

    func reminderDeliveries(participantID: String) async throws -> [ReminderDelivery] {
        try await deliveries("""
            SELECT \(unescaped: Self.deliveryColumns) FROM \(unescaped: schema.name).reminderDelivery
            WHERE participantID = \(participantID) ORDER BY dueAt DESC, key DESC
            """)
    }

    func reminderDeliveries(dueSince date: Date) async throws -> [ReminderDelivery] {
        try await deliveries("""
            SELECT \(unescaped: Self.deliveryColumns) FROM \(unescaped: schema.name).reminderDelivery
            WHERE dueAt >= \(PostgresTimestamp(date)) ORDER BY dueAt, key
            """)
    }

    func insert(_ channel: ReminderChannel) async throws {
        try await execute("""
            INSERT INTO \(unescaped: schema.name).reminderChannel (\(unescaped: Self.channelColumns))
            VALUES (\(channel.id), \(channel.participantID), \(channel.kind.rawValue), \(channel.address), \(channel.pushKeys), \(channel.label),
                    \(PostgresTimestamp(channel.createdAt)), \(channel.confirmedAt.map(PostgresTimestamp.init)))
            """)
    }

    func confirmReminderChannel(id: UUID, at date: Date) async throws -> Bool {
        try await rowCount("""
            UPDATE \(unescaped: schema.name).reminderChannel SET confirmedAt = \(PostgresTimestamp(date))
            WHERE id = \(id) AND confirmedAt IS NULL RETURNING 1
            """) == 1
    }

    func deleteReminderChannel(id: UUID) async throws -> Bool {
        try await rowCount("DELETE FROM \(unescaped: schema.name).reminderChannel WHERE id = \(id) RETURNING 1") == 1
    }

    func setReminderPreferences(_ preferences: ReminderPreferences, participantID: String, at date: Date) async throws {
        let json = try ReminderPreferences.storedText(of: preferences)
        try await execute("""
            INSERT INTO \(unescaped: schema.name).reminderPreference (participantID, preferences, updatedAt)
            VALUES (\(participantID), \(json), \(PostgresTimestamp(date)))
            ON CONFLICT (participantID) DO UPDATE SET preferences = excluded.preferences, updatedAt = excluded.updatedAt
            """)
    }

    func put(_ delivery: ReminderDelivery) async throws {
        try await execute("""
            INSERT INTO \(unescaped: schema.name).reminderDelivery (\(unescaped: Self.deliveryColumns))
            VALUES (\(delivery.key), \(delivery.participantID), \(delivery.reminderID), \(delivery.taskID), \(delivery.occurrence),
                    \(delivery.channelID), \(delivery.channelKind.rawValue), \(PostgresTimestamp(delivery.dueAt)), \(delivery.state.rawValue),
                    \(delivery.attempts), \(delivery.claimedUntil.map(PostgresTimestamp.init)), \(delivery.nextAttemptAt.map(PostgresTimestamp.init)),
                    \(delivery.detail), \(PostgresTimestamp(delivery.createdAt)), \(PostgresTimestamp(delivery.updatedAt)))
            ON CONFLICT (key) DO UPDATE SET state = excluded.state, attempts = excluded.attempts, claimedUntil = excluded.claimedUntil,
                nextAttemptAt = excluded.nextAttemptAt, detail = excluded.detail, updatedAt = excluded.updatedAt
            """)
    }

    func deleteReminderData(participantID: String, deliveries: Bool) async throws {
        try await execute("DELETE FROM \(unescaped: schema.name).reminderChannel WHERE participantID = \(participantID)")
        try await execute("DELETE FROM \(unescaped: schema.name).reminderPreference WHERE participantID = \(participantID)")
        if deliveries { try await execute("DELETE FROM \(unescaped: schema.name).reminderDelivery WHERE participantID = \(participantID)") }
    }

    // MARK: - Rows

    private func channels(_ query: PostgresQuery) async throws -> [ReminderChannel] {
        var channels: [ReminderChannel] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (id, participantID, kindName, address, pushKeys, label, createdAt, confirmedAt) in rows.decode(
            (UUID, String, String, String?, String?, String?, PostgresTimestamp, PostgresTimestamp?).self) {
            guard let kind = ReminderChannel.Kind(rawValue: kindName) else {
                throw PostgresStudyStorageError(table: "reminderChannel", column: "kind", value: kindName)
            }
            channels.append(ReminderChannel(id: id, participantID: participantID, kind: kind, address: address, pushKeys: pushKeys, label: label,
                                            createdAt: createdAt.date, confirmedAt: confirmedAt?.date))
        }
        return channels
    }

    private func preferences(_ query: PostgresQuery) async throws -> [String: ReminderPreferences] {
        var all: [String: ReminderPreferences] = [:]
        var reader = ReminderPreferences.StoredTextReader()
        for try await (participantID, json) in try await connection.query(query, logger: logger).decode((String, String).self) {
            guard let preferences = reader.preferences(in: json) else {
                throw PostgresStudyStorageError(table: "reminderPreference", column: "preferences", value: participantID)
            }
            all[participantID] = preferences
        }
        return all
    }

    private func deliveries(_ query: PostgresQuery) async throws -> [ReminderDelivery] {
        var deliveries: [ReminderDelivery] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (key, participantID, reminderID, taskID, occurrence, channelID, kindName, dueAt, stateName, attempts, claimedUntil,
                       nextAttemptAt, detail, createdAt, updatedAt) in rows.decode(
            (String, String, String, String, Int, UUID, String, PostgresTimestamp, String, Int, PostgresTimestamp?, PostgresTimestamp?,
             String?, PostgresTimestamp, PostgresTimestamp).self) {
            guard let kind = ReminderChannel.Kind(rawValue: kindName) else {
                throw PostgresStudyStorageError(table: "reminderDelivery", column: "channelKind", value: kindName)
            }
            guard let state = ReminderDelivery.State(rawValue: stateName) else {
                throw PostgresStudyStorageError(table: "reminderDelivery", column: "state", value: stateName)
            }
            deliveries.append(ReminderDelivery(key: key, participantID: participantID, reminderID: reminderID, taskID: taskID, occurrence: occurrence,
                                               channelID: channelID, channelKind: kind, dueAt: dueAt.date, state: state, attempts: attempts,
                                               claimedUntil: claimedUntil?.date, nextAttemptAt: nextAttemptAt?.date, detail: detail,
                                               createdAt: createdAt.date, updatedAt: updatedAt.date))
        }
        return deliveries
    }
}
