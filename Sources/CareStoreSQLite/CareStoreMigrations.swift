import GRDB

/// The care store's schema, as versioned migrations in code.
///
/// ```swift
/// try CareStoreMigrations.migrator.migrate(dbPool)
/// ```
///
/// A migration, once released, is never edited: a change to the schema is a new migration appended to the list.
/// The migrator records which migrations a database file has, so opening an older file brings it up to date and
/// opening a current one changes nothing.
///
/// Versions: columns hold what the store's queries filter on, and the entity itself is kept whole as JSON in
/// `payload`, opaque to SQL. Outcomes are kept in columns, one row per value, so that SQL can read them. Dates are seconds since 2001-01-01 00:00:00 UTC (Foundation's reference date, which
/// round-trips every `Date` exactly); each entity's and outcome's time zone is kept in its JSON beside them.
/// UUIDs are 16-byte blobs (GRDB's own encoding of `UUID`), which keeps keys and indexes small and reads fast.
public enum CareStoreMigrations {
    /// The migrator that creates and updates the schema.
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        register(in: &migrator)
        return migrator
    }

    /// Adds the care store's migrations, in order, to `migrator`: for a database that holds the care store's tables
    /// beside another schema (the study server's one file), whose migrator lists both.
    public static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v1: versions, version tags, outcomes, outcome values") { db in
            try createVersionsAndOutcomes(db)
        }
        migrator.registerMigration(versionsRevisionMigration) { db in
            try createVersionsRevision(db)
        }
        migrator.registerMigration("v3: an index of live outcomes by event") { db in
            // Live outcomes only, with every column "which events have a live outcome" reads: that question, asked
            // for a week of every task on each daily page, is answered from the index alone.
            try db.execute(sql: """
                CREATE INDEX outcome_live_on_taskUUID_occurrenceIndex ON outcome (taskUUID, occurrenceIndex, deletedDate)
                    WHERE deletedDate IS NULL
                """)
        }
    }

    /// The tables the migrations create, parents before children: what a copy of the care data from one file into
    /// another moves.
    public static let tables = ["version", "versionTag", "outcome", "outcomeValue"]

    /// The names of the migrations, oldest first.
    public static var migrationNames: [String] { migrator.migrations }

    /// The migration that added the revision of the versions (``SQLiteCareRows/versionsRevision()``).
    public static let versionsRevisionMigration = "v2: a revision of the versions, raised by triggers"

    /// Whether a file with the migrations `applied` holds care data this StudyKit can read as it is: it has the
    /// first migration, whose tables hold every row, and none this StudyKit does not know. A file of an older
    /// StudyKit (before ``versionsRevisionMigration``) is read, and nothing read from it is kept between reads.
    public static func canRead(applied: Set<String>) -> Bool {
        guard let first = migrationNames.first else { return false }
        return applied.contains(first) && applied.isSubset(of: Set(migrationNames))
    }

    /// One row holding a number that every insert, update or delete of a version raises, in the same transaction,
    /// whoever makes it (this store, another process, the `sqlite3` shell): the store keeps task versions it read
    /// while the number stays the same (``SQLiteCareRows/versionsRevision()``).
    private static func createVersionsRevision(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE versionRevision (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL);
            INSERT INTO versionRevision (id, value) VALUES (1, 0);
            CREATE TRIGGER versionRevision_afterInsert AFTER INSERT ON version
                BEGIN UPDATE versionRevision SET value = value + 1 WHERE id = 1; END;
            CREATE TRIGGER versionRevision_afterUpdate AFTER UPDATE ON version
                BEGIN UPDATE versionRevision SET value = value + 1 WHERE id = 1; END;
            CREATE TRIGGER versionRevision_afterDelete AFTER DELETE ON version
                BEGIN UPDATE versionRevision SET value = value + 1 WHERE id = 1; END;
            """)
    }

    private static func createVersionsAndOutcomes(_ db: Database) throws {
        // One row per version of a patient, care plan, contact or task. (Rowid tables for versions and outcomes:
        // their rows carry JSON of hundreds of bytes, which a WITHOUT ROWID table would move around its
        // random-UUID B-tree on every insert.)
        try db.create(table: "version") { t in
            t.primaryKey("uuid", .blob)
            t.column("kind", .text).notNull()
            t.column("id", .text).notNull()
            t.column("effectiveDate", .double).notNull()
            t.column("deletedDate", .double)
            t.column("previousVersionUUID", .blob)
            t.column("nextVersionUUID", .blob)
            t.column("groupIdentifier", .text)
            t.column("remoteID", .text)
            t.column("parentUUID", .blob)
            // The version's tags in order, as a JSON array; versionTag indexes them for queries.
            t.column("tags", .text).notNull()
            t.column("payload", .blob).notNull()
        }
        try db.create(index: "version_on_kind_id", on: "version", columns: ["kind", "id"])
        try db.create(index: "version_on_kind_effectiveDate", on: "version", columns: ["kind", "effectiveDate"])
        try db.create(index: "version_on_parentUUID", on: "version", columns: ["parentUUID"])
        try db.create(index: "version_on_remoteID", on: "version", columns: ["remoteID"])
        try db.create(index: "version_on_groupIdentifier", on: "version", columns: ["groupIdentifier"])

        // One row per distinct tag of a version, so that "carries one of these tags" is an index lookup.
        try db.create(table: "versionTag", options: .withoutRowID) { t in
            t.column("versionUUID", .blob).notNull().references("version", onDelete: .cascade)
            t.column("tag", .text).notNull()
            t.primaryKey(["versionUUID", "tag"])
        }
        try db.create(index: "versionTag_on_tag", on: "versionTag", columns: ["tag"])

        // One row per outcome, live or deleted. The hot query is "outcomes of these task versions with an
        // occurrence in this range", answered by the (taskUUID, occurrenceIndex) index. Notes, tags and user info
        // are rare and only ever read whole: they share one JSON column, NULL when all are empty.
        try db.create(table: "outcome") { t in
            // A sequential integer key for the values to refer to: their rows then append at the end of their
            // B-tree instead of landing at random places, as UUID keys would.
            t.autoIncrementedPrimaryKey("id")
            t.column("uuid", .blob).notNull().unique()
            t.column("taskUUID", .blob).notNull()
            t.column("occurrenceIndex", .integer).notNull()
            t.column("createdDate", .double)
            t.column("deletedDate", .double)
            t.column("timeZone", .text).notNull()
            t.column("remoteID", .text)
            t.column("source", .text)
            t.column("details", .text)
        }
        // One row per value of an outcome, in order. `value` has no declared type, so each value keeps its own
        // SQLite type (integer, real, text, blob); `type` says which kind of outcome value it is.
        try db.create(table: "outcomeValue", options: .withoutRowID) { t in
            t.column("outcomeID", .integer).notNull().references("outcome", onDelete: .cascade)
            t.column("position", .integer).notNull()
            t.column("type", .text).notNull()
            t.column("value")
            t.column("kind", .text)
            t.column("units", .text)
            t.column("createdDate", .double)
            t.primaryKey(["outcomeID", "position"])
        }
        try db.create(index: "outcome_on_taskUUID_occurrenceIndex", on: "outcome", columns: ["taskUUID", "occurrenceIndex"])
    }
}
