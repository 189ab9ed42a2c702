import Foundation
import GRDB
import Study

/// The reminders' rows in SQL: channels, choices (JSON) and the outbox.
extension SQLiteStudyRows {
    func reminderChannels(participantID: String) throws -> [ReminderChannel] {
        try connection.run { db in
            try Row.fetchAll(db, sql: "SELECT * FROM reminderChannel WHERE participantID = ? ORDER BY createdAt, id", arguments: [participantID])
                .map(ReminderRows.channel)
        }
    }

    func reminderChannel(id: UUID) throws -> ReminderChannel? {
        try connection.run { db in try Row.fetchOne(db, sql: "SELECT * FROM reminderChannel WHERE id = ?", arguments: [id]).map(ReminderRows.channel) }
    }

    func allReminderChannels() throws -> [ReminderChannel] {
        try connection.run { db in
            try Row.fetchAll(db, sql: "SELECT * FROM reminderChannel ORDER BY participantID, createdAt, id").map(ReminderRows.channel)
        }
    }

    func reminderPreferences(participantID: String) throws -> ReminderPreferences? {
        try connection.run { db in
            try String.fetchOne(db, sql: "SELECT preferences FROM reminderPreference WHERE participantID = ?", arguments: [participantID])
                .map { try ReminderRows.preferences($0, participantID: participantID) }
        }
    }

    func allReminderPreferences() throws -> [String: ReminderPreferences] {
        try connection.run { db in
            var all: [String: ReminderPreferences] = [:]
            var reader = ReminderPreferences.StoredTextReader()
            for row in try Row.fetchAll(db, sql: "SELECT participantID, preferences FROM reminderPreference") {
                let participantID: String = row["participantID"]
                all[participantID] = try ReminderRows.preferences(row["preferences"], participantID: participantID, reader: &reader)
            }
            return all
        }
    }

    func reminderDelivery(key: String) throws -> ReminderDelivery? {
        try connection.run { db in
            try Row.fetchOne(db, sql: "SELECT * FROM reminderDelivery WHERE key = ?", arguments: [key]).map(ReminderRows.delivery)
        }
    }

    func reminderDeliveries(participantID: String) throws -> [ReminderDelivery] {
        try connection.run { db in
            try Row.fetchAll(db, sql: "SELECT * FROM reminderDelivery WHERE participantID = ? ORDER BY dueAt DESC, key DESC",
                             arguments: [participantID]).map(ReminderRows.delivery)
        }
    }

    func reminderDeliveries(dueSince since: Date) throws -> [ReminderDelivery] {
        try connection.run { db in
            try Row.fetchAll(db, sql: "SELECT * FROM reminderDelivery WHERE dueAt >= ? ORDER BY dueAt, key", arguments: [seconds(since)])
                .map(ReminderRows.delivery)
        }
    }

    func insert(_ channel: ReminderChannel) throws {
        try connection.run { db in
            try db.execute(sql: """
                INSERT INTO reminderChannel (id, participantID, kind, address, pushKeys, label, createdAt, confirmedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [channel.id, channel.participantID, channel.kind.rawValue, channel.address, channel.pushKeys, channel.label,
                                 seconds(channel.createdAt), channel.confirmedAt.map(seconds)])
        }
    }

    func confirmReminderChannel(id: UUID, at now: Date) throws -> Bool {
        try connection.run { db in
            try db.execute(sql: "UPDATE reminderChannel SET confirmedAt = ? WHERE id = ? AND confirmedAt IS NULL", arguments: [seconds(now), id])
            return db.changesCount == 1
        }
    }

    func deleteReminderChannel(id: UUID) throws -> Bool {
        try connection.run { db in
            try db.execute(sql: "DELETE FROM reminderChannel WHERE id = ?", arguments: [id])
            return db.changesCount == 1
        }
    }

    func setReminderPreferences(_ preferences: ReminderPreferences, participantID: String, at now: Date) throws {
        let json = try ReminderPreferences.storedText(of: preferences)
        try connection.run { db in
            try db.execute(sql: """
                INSERT INTO reminderPreference (participantID, preferences, updatedAt) VALUES (?, ?, ?)
                ON CONFLICT (participantID) DO UPDATE SET preferences = excluded.preferences, updatedAt = excluded.updatedAt
                """, arguments: [participantID, json, seconds(now)])
        }
    }

    func put(_ delivery: ReminderDelivery) throws {
        try connection.run { db in
            try db.execute(sql: """
                INSERT INTO reminderDelivery (key, participantID, reminderID, taskID, occurrence, channelID, channelKind, dueAt, state, attempts,
                                              claimedUntil, nextAttemptAt, detail, createdAt, updatedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (key) DO UPDATE SET state = excluded.state, attempts = excluded.attempts, claimedUntil = excluded.claimedUntil,
                    nextAttemptAt = excluded.nextAttemptAt, detail = excluded.detail, updatedAt = excluded.updatedAt
                """, arguments: [delivery.key, delivery.participantID, delivery.reminderID, delivery.taskID, delivery.occurrence, delivery.channelID,
                                 delivery.channelKind.rawValue, seconds(delivery.dueAt), delivery.state.rawValue, delivery.attempts,
                                 delivery.claimedUntil.map(seconds), delivery.nextAttemptAt.map(seconds), delivery.detail,
                                 seconds(delivery.createdAt), seconds(delivery.updatedAt)])
        }
    }

    func deleteReminderData(participantID: String, deliveries: Bool) throws {
        try connection.run { db in
            try db.execute(sql: "DELETE FROM reminderChannel WHERE participantID = ?", arguments: [participantID])
            try db.execute(sql: "DELETE FROM reminderPreference WHERE participantID = ?", arguments: [participantID])
            if deliveries { try db.execute(sql: "DELETE FROM reminderDelivery WHERE participantID = ?", arguments: [participantID]) }
        }
    }
}

/// Reading the reminders' rows back into values.
enum ReminderRows {
    static func channel(_ row: Row) throws -> ReminderChannel {
        let kindName: String = row["kind"]
        guard let kind = ReminderChannel.Kind(rawValue: kindName) else {
            throw SQLiteStudyStoreError(table: "reminderChannel", column: "kind", value: kindName)
        }
        return ReminderChannel(id: row["id"], participantID: row["participantID"], kind: kind, address: row["address"], pushKeys: row["pushKeys"],
                               label: row["label"], createdAt: date(row["createdAt"]), confirmedAt: (row["confirmedAt"] as Double?).map(date))
    }

    static func delivery(_ row: Row) throws -> ReminderDelivery {
        let kindName: String = row["channelKind"], stateName: String = row["state"]
        guard let kind = ReminderChannel.Kind(rawValue: kindName) else {
            throw SQLiteStudyStoreError(table: "reminderDelivery", column: "channelKind", value: kindName)
        }
        guard let state = ReminderDelivery.State(rawValue: stateName) else {
            throw SQLiteStudyStoreError(table: "reminderDelivery", column: "state", value: stateName)
        }
        return ReminderDelivery(key: row["key"], participantID: row["participantID"], reminderID: row["reminderID"], taskID: row["taskID"],
                                occurrence: row["occurrence"], channelID: row["channelID"], channelKind: kind, dueAt: date(row["dueAt"]),
                                state: state, attempts: row["attempts"], claimedUntil: (row["claimedUntil"] as Double?).map(date),
                                nextAttemptAt: (row["nextAttemptAt"] as Double?).map(date), detail: row["detail"],
                                createdAt: date(row["createdAt"]), updatedAt: date(row["updatedAt"]))
    }

    static func preferences(_ json: String, participantID: String) throws -> ReminderPreferences {
        var reader = ReminderPreferences.StoredTextReader()
        return try preferences(json, participantID: participantID, reader: &reader)
    }

    static func preferences(_ json: String, participantID: String, reader: inout ReminderPreferences.StoredTextReader) throws -> ReminderPreferences {
        guard let preferences = reader.preferences(in: json) else {
            throw SQLiteStudyStoreError(table: "reminderPreference", column: "preferences", value: participantID)
        }
        return preferences
    }
}
