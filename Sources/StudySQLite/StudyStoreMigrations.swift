import Foundation
import GRDB
import Study

/// The study store's schema, as versioned migrations in code.
///
/// ```swift
/// try StudyStoreMigrations.migrator.migrate(dbPool)
/// ```
///
/// A released migration is never edited: a change is a new migration appended to the list. Dates are seconds since
/// 2001-01-01 00:00:00 UTC (Foundation's reference date), with the participant's time zone kept beside them; UUIDs are
/// 16-byte blobs (GRDB's encoding of `UUID`); secrets appear only as lowercase hex SHA-256 digests.
public enum StudyStoreMigrations {
    /// The migrator that creates and updates the schema.
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        register(in: &migrator)
        return migrator
    }

    /// Adds the study store's migrations, in order, to `migrator`: for the study server's one file, whose migrator
    /// lists these, then the care store's (``SQLiteStudyDatabase/migrator``).
    public static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v1: participants, invitations, sessions, sign-in codes, task runs, consent records") { db in
            try createTables(db)
        }
        migrator.registerMigration("v2: consent records refuse INSERT OR REPLACE") { db in
            try db.execute(sql: consentRecordNoReplaceTrigger)
        }
        migrator.registerMigration("v3: researchers, their password links and sessions") { db in
            try createResearcherTables(db)
        }
        migrator.registerMigration("v4: invitations can be revoked") { db in
            try db.alter(table: "invitation") { t in t.add(column: "revokedAt", .double) }
        }
        migrator.registerMigration("v5: console sign-in failures per address tried and client address") { db in
            try createSignInFailureTable(db)
        }
        migrator.registerMigration("v6: claims on printing a consent PDF, so that one process prints it") { db in
            try db.create(table: "consentPDFClaim") { t in
                t.primaryKey("recordID", .blob).references("consentRecord", onDelete: .cascade)
                t.column("claimedUntil", .double).notNull()
            }
        }
        migrator.registerMigration("v7: one table of leases keyed by what is claimed (a consent PDF's printing, a run's finishing)") { db in
            try createLeaseTable(db)
        }
        migrator.registerMigration("v8: sign-in attempt buckets per limit and client address, so that every process counts alike") { db in
            try db.create(table: "signInBucket") { t in
                t.column("scope", .text).notNull()
                t.column("client", .text).notNull()
                t.column("tokens", .double).notNull()
                t.column("refilledAt", .double).notNull()
                t.column("fullAt", .double).notNull()
                t.primaryKey(["scope", "client"])
            }
            try db.create(index: "signInBucket_on_scope_fullAt", on: "signInBucket", columns: ["scope", "fullAt"])
        }
        migrator.registerMigration("v9: the files attached in runs, beside them (they were files under the data folder)") { db in
            try db.create(table: "runFile") { t in
                t.column("runID", .blob).notNull().references("taskRun", onDelete: .cascade)
                t.column("participantID", .text).notNull()
                t.column("name", .text).notNull()
                t.column("data", .blob).notNull()
                t.primaryKey(["runID", "name"])
            }
            try db.create(index: "runFile_on_participantID", on: "runFile", columns: ["participantID", "runID", "name"])
        }
        migrator.registerMigration("v10: reminders: the channels that reach participants, their choices, and the outbox of deliveries") { db in
            try createReminderTables(db)
        }
    }

    /// The reminders' tables: each participant's channels (an email address, a push subscription, a calendar feed),
    /// their choices (JSON), and the outbox, one row per reminder and channel, claimed by one process before it is sent.
    private static func createReminderTables(_ db: Database) throws {
        try db.create(table: "reminderChannel") { t in
            t.primaryKey("id", .blob)
            t.column("participantID", .text).notNull().references("participant")
            t.column("kind", .text).notNull()
            t.column("address", .text)
            t.column("pushKeys", .text)
            t.column("label", .text)
            t.column("createdAt", .double).notNull()
            t.column("confirmedAt", .double)
        }
        try db.create(index: "reminderChannel_on_participantID", on: "reminderChannel", columns: ["participantID", "createdAt"])
        try db.create(table: "reminderPreference") { t in
            t.primaryKey("participantID", .text).references("participant")
            t.column("preferences", .text).notNull()
            t.column("updatedAt", .double).notNull()
        }
        try db.create(table: "reminderDelivery") { t in
            t.primaryKey("key", .text)
            t.column("participantID", .text).notNull()
            t.column("reminderID", .text).notNull()
            t.column("taskID", .text).notNull()
            t.column("occurrence", .integer).notNull()
            t.column("channelID", .blob).notNull()
            t.column("channelKind", .text).notNull()
            t.column("dueAt", .double).notNull()
            t.column("state", .text).notNull()
            t.column("attempts", .integer).notNull()
            t.column("claimedUntil", .double)
            t.column("nextAttemptAt", .double)
            t.column("detail", .text)
            t.column("createdAt", .double).notNull()
            t.column("updatedAt", .double).notNull()
        }
        try db.create(index: "reminderDelivery_on_dueAt", on: "reminderDelivery", columns: ["dueAt"])
        try db.create(index: "reminderDelivery_on_participantID", on: "reminderDelivery", columns: ["participantID", "dueAt"])
    }

    /// The triggers that keep consent records append-only, by name, with the SQL each was created with. The store
    /// checks at every writable open that each is there, unchanged (``SQLiteStudyStore/appendOnlyProblems()``).
    ///
    /// UPDATE and DELETE are refused outright. `INSERT OR REPLACE` deletes the row it replaces without firing delete
    /// triggers (unless a connection turns recursive triggers on, which `sqlite3` does not), so an insert of an id that
    /// exists is refused before the conflict is resolved.
    public static let consentRecordTriggers: [String: String] = [
        "consentRecord_no_update": """
            CREATE TRIGGER consentRecord_no_update BEFORE UPDATE ON consentRecord
            BEGIN SELECT RAISE(ABORT, 'consent records are append-only'); END
            """,
        "consentRecord_no_delete": """
            CREATE TRIGGER consentRecord_no_delete BEFORE DELETE ON consentRecord
            BEGIN SELECT RAISE(ABORT, 'consent records are append-only'); END
            """,
        "consentRecord_no_replace": consentRecordNoReplaceTrigger,
    ]

    private static let consentRecordNoReplaceTrigger = """
        CREATE TRIGGER consentRecord_no_replace BEFORE INSERT ON consentRecord
        WHEN EXISTS (SELECT 1 FROM consentRecord WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'consent records are append-only'); END
        """

    /// The names of the migrations, oldest first.
    public static var migrationNames: [String] { migrator.migrations }

    private static func createResearcherTables(_ db: Database) throws {
        try db.create(table: "researcher") { t in
            t.primaryKey("id", .blob)
            t.column("email", .text).notNull().unique()
            t.column("role", .text).notNull()
            t.column("createdAt", .double).notNull()
            t.column("passwordHash", .text)
            t.column("failedSignIns", .integer).notNull().defaults(to: 0)
            t.column("lockedUntil", .double)
            t.column("removedAt", .double)
        }
        try db.create(table: "researcherPasswordLink") { t in
            t.primaryKey("tokenSHA256", .text)
            t.column("researcherID", .blob).notNull().references("researcher")
            t.column("createdAt", .double).notNull()
            t.column("expiresAt", .double).notNull()
            t.column("usedAt", .double)
        }
        try db.create(index: "researcherPasswordLink_on_researcherID", on: "researcherPasswordLink", columns: ["researcherID"])
        try db.create(table: "researcherSession") { t in
            t.primaryKey("id", .blob)
            t.column("tokenSHA256", .text).notNull().unique()
            t.column("researcherID", .blob).notNull().references("researcher")
            t.column("createdAt", .double).notNull()
            t.column("expiresAt", .double).notNull()
            t.column("revokedAt", .double)
        }
        try db.create(index: "researcherSession_on_researcherID", on: "researcherSession", columns: ["researcherID"])
    }

    /// Leases (`StudyLease`: operational claims, not study data, so not audited) keyed by what is claimed; the consent
    /// PDF claims of v6 are moved in (key `consentPDF/` and the record's id, held by no one in particular) and their
    /// table dropped.
    private static func createLeaseTable(_ db: Database) throws {
        try db.create(table: "lease") { t in
            t.primaryKey("key", .text)
            t.column("holder", .blob).notNull()
            t.column("claimedUntil", .double).notNull()
        }
        let nobody = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        for row in try Row.fetchAll(db, sql: "SELECT recordID, claimedUntil FROM consentPDFClaim") {
            let recordID: UUID = row["recordID"]
            let until: Double = row["claimedUntil"]
            try db.execute(sql: "INSERT INTO lease (key, holder, claimedUntil) VALUES (?, ?, ?)",
                           arguments: [StudyLease.consentPDFKey(recordID), nobody, until])
        }
        try db.drop(table: "consentPDFClaim")
    }

    /// Wrong console passwords per address tried (its SHA-256: a password typed into it is never kept) and client
    /// address, with the researcher the address was theirs when counted; and, on each session, what its researcher
    /// is told of the wrong passwords before it. Not study data, so not audited: a flood of wrong passwords writes no
    /// audit rows, and the researcher rows (which are audited) are not touched by one.
    private static func createSignInFailureTable(_ db: Database) throws {
        try db.create(table: "consoleSignInFailure") { t in
            t.column("emailSHA256", .text).notNull()
            t.column("client", .text).notNull()
            t.column("researcherID", .blob)
            t.column("failures", .integer).notNull()
            t.column("pausedUntil", .double)
            t.column("unseen", .integer).notNull()
            t.column("firstUnseenAt", .double)
            t.column("lastFailedAt", .double)
            t.primaryKey(["emailSHA256", "client"])
        }
        try db.alter(table: "researcherSession") { t in
            t.add(column: "failedSignInsBefore", .integer).notNull().defaults(to: 0)
            t.add(column: "firstFailedSignInBefore", .double)
            t.add(column: "lastFailedSignInBefore", .double)
            t.add(column: "failedSignInClientsBefore", .integer).notNull().defaults(to: 0)
        }
    }

    private static func createTables(_ db: Database) throws {
        try db.create(table: "invitation") { t in
            t.primaryKey("id", .blob)
            t.column("codeSHA256", .text).notNull().unique()
            t.column("label", .text)
            t.column("createdAt", .double).notNull()
            t.column("expiresAt", .double)
            t.column("usedAt", .double)
            t.column("usedBy", .text)
        }
        try db.create(table: "participant") { t in
            t.primaryKey("id", .text)
            t.column("patientID", .text).notNull()
            t.column("timeZone", .text).notNull()
            t.column("language", .text).notNull()
            t.column("enrolledAt", .double).notNull()
            t.column("invitationID", .blob).unique().references("invitation")
        }
        try db.create(table: "session") { t in
            t.primaryKey("id", .blob)
            t.column("tokenSHA256", .text).notNull().unique()
            t.column("participantID", .text).notNull().references("participant")
            t.column("createdAt", .double).notNull()
            t.column("lastSeenAt", .double).notNull()
            t.column("expiresAt", .double).notNull()
            t.column("revokedAt", .double)
        }
        try db.create(index: "session_on_participantID", on: "session", columns: ["participantID"])
        try db.create(table: "signInCode") { t in
            t.primaryKey("codeSHA256", .text)
            t.column("participantID", .text).notNull().references("participant")
            t.column("createdAt", .double).notNull()
            t.column("expiresAt", .double).notNull()
            t.column("usedAt", .double)
        }
        // One row per run, replaced whole by each save: restoration data and result are JSON, opaque to SQL.
        try db.create(table: "taskRun") { t in
            t.primaryKey("id", .blob)
            t.column("participantID", .text).notNull().references("participant")
            t.column("taskID", .text).notNull()
            t.column("occurrence", .integer)
            t.column("state", .text).notNull()
            t.column("restorationData", .blob)
            t.column("result", .blob)
            t.column("createdAt", .double).notNull()
            t.column("updatedAt", .double).notNull()
        }
        try db.create(index: "taskRun_on_participantID_taskID", on: "taskRun", columns: ["participantID", "taskID"])
        // Consent records are append-only: triggers refuse any UPDATE or DELETE, whoever issues it.
        try db.create(table: "consentRecord") { t in
            t.primaryKey("id", .blob)
            t.column("participantID", .text).notNull().references("participant")
            t.column("kind", .text).notNull()
            t.column("sealedJSON", .blob).notNull()
            t.column("storedAt", .double).notNull()
        }
        try db.create(index: "consentRecord_on_participantID", on: "consentRecord", columns: ["participantID"])
        try db.execute(sql: """
            CREATE TRIGGER consentRecord_no_update BEFORE UPDATE ON consentRecord
            BEGIN SELECT RAISE(ABORT, 'consent records are append-only'); END;
            CREATE TRIGGER consentRecord_no_delete BEFORE DELETE ON consentRecord
            BEGIN SELECT RAISE(ABORT, 'consent records are append-only'); END;
            """)
        // The PDF of each record: state pending/ready/failed, with the bytes or a path under the data folder.
        try db.create(table: "consentPDF") { t in
            t.primaryKey("recordID", .blob).references("consentRecord")
            t.column("state", .text).notNull()
            t.column("pdf", .blob)
            t.column("path", .text)
            t.column("failure", .text)
            t.column("updatedAt", .double).notNull()
        }
    }
}
