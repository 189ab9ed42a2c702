import Foundation
import Logging
import PostgresNIO

/// The care store's schema in PostgreSQL, as versioned migrations in code.
///
/// ```swift
/// try await PostgresCareMigrations.migrate(.public, with: client)
/// ```
///
/// A migration, once released, is never edited: a change to the schema is a new migration appended to the list.
/// The names of those applied are rows of `careMigration` in the store's schema. Migrating takes a transaction-scoped
/// advisory lock (`pg_advisory_xact_lock`) on a key of the schema first, and applies what is missing and records it in
/// the same transaction: when several server processes start at once, one migrates and the others wait for it, then
/// find nothing left to do. A database migrated by a newer StudyKit (names this one does not know) is used as it is,
/// since migrations only add: servers are upgraded one process at a time.
///
/// The tables mirror the SQLite schema (`CareStoreMigrations` of CareStoreSQLite), with PostgreSQL's types: `uuid` for
/// UUIDs; `timestamptz` for dates (whole microseconds: ``PostgresTimestamp``), each entity's and outcome's time zone kept
/// beside them; the entity itself whole in `version.payload` as `bytea`, the exact bytes of its JSON, since SQL never
/// looks inside (the columns beside it hold what queries filter on, and `jsonb` would re-order the text and cost a
/// parse on every write); an outcome's values and details as `jsonb` (``StoredOutcomeValues``), which a study team's
/// own SQL may read. Identifiers are written unquoted, so PostgreSQL keeps them in lower case (`effectivedate`).
///
/// What the store's rules promise is also kept by the database, for every process and every hand at the `psql`
/// prompt: a version's row never changes but for its next version, set once (a trigger); a version has at most one
/// next version (a unique index on `previousVersionUUID`); an outcome's row never changes but for being marked deleted,
/// once; an event has at most one live outcome (a unique index on its task version and occurrence, for rows not
/// deleted). `versionRevision` holds a number a trigger raises with every change to `version`, in the same transaction
/// (``PostgresCareStorage``'s `versionsRevision()`).
public enum PostgresCareMigrations {
    /// One step of the schema: its name, recorded once applied, and its statements for a schema.
    struct Migration: Sendable {
        let name: String
        let statements: @Sendable (PostgresCareSchema) -> [String]
    }

    /// The names of the migrations, oldest first.
    public static var names: [String] { migrations.map(\.name) }

    /// Every migration, oldest first.
    static let migrations: [Migration] = [
        Migration(name: "v1: versions, outcomes, the revision of the versions, and the rules that keep them", statements: versionsAndOutcomes),
    ]

    /// Creates `schema` when it is missing and applies every migration it lacks, in one transaction under the schema's
    /// advisory lock. Returns the names of the migrations applied now: none when the schema was up to date (or another
    /// process migrated it while this one waited for the lock).
    @discardableResult
    public static func migrate(_ schema: PostgresCareSchema, with client: PostgresClient,
                               logger: Logger = PostgresCareStorage.silentLogger) async throws -> [String] {
        try await client.withConnection { connection in
            try await migrate(schema, on: connection, logger: logger)
        }
    }

    /// ``migrate(_:with:logger:)`` on a connection the caller holds, with no transaction open.
    public static func migrate(_ schema: PostgresCareSchema, on connection: PostgresConnection,
                               logger: Logger = PostgresCareStorage.silentLogger) async throws -> [String] {
        try await PostgresTransactionRunner.run(on: connection, begin: "BEGIN", logger: logger) { connection in
            // Read committed: every statement after the lock sees what another process committed while this one waited.
            try await PostgresTransactionRunner.execute("SELECT pg_advisory_xact_lock(\(lockKey(for: schema)))", on: connection, logger: logger)
            let exists = try await connection.query("SELECT 1 FROM pg_namespace WHERE nspname = \(schema.name)", logger: logger)
                .collect().isEmpty == false
            // Only when missing: CREATE SCHEMA asks for the CREATE privilege on the database even when the schema exists.
            if !exists {
                try await PostgresTransactionRunner.execute(PostgresQuery(unsafeSQL: "CREATE SCHEMA " + schema.name), on: connection, logger: logger)
            }
            let table = schema.qualified("careMigration")
            try await PostgresTransactionRunner.execute(PostgresQuery(unsafeSQL: """
                CREATE TABLE IF NOT EXISTS \(table) (name text PRIMARY KEY, appliedAt timestamptz NOT NULL DEFAULT now())
                """), on: connection, logger: logger)
            var applied = Set<String>()
            for try await name in try await connection.query(PostgresQuery(unsafeSQL: "SELECT name FROM \(table)"), logger: logger).decode(String.self) {
                applied.insert(name)
            }
            var appliedNow: [String] = []
            for migration in migrations where !applied.contains(migration.name) {
                for statement in migration.statements(schema) {
                    try await PostgresTransactionRunner.execute(PostgresQuery(unsafeSQL: statement), on: connection, logger: logger)
                }
                var binds = PostgresBindings()
                binds.append(migration.name)
                try await PostgresTransactionRunner.execute(PostgresQuery(unsafeSQL: "INSERT INTO \(table) (name) VALUES ($1)", binds: binds),
                                                            on: connection, logger: logger)
                appliedNow.append(migration.name)
            }
            return appliedNow
        }
    }

    /// The advisory lock key of `schema`'s migrations: the 64-bit FNV-1a hash of a text naming them, the same in
    /// every process and every StudyKit version.
    static func lockKey(for schema: PostgresCareSchema) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "StudyKit care store migrations in schema \(schema.name)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }

    private static func versionsAndOutcomes(_ schema: PostgresCareSchema) -> [String] {
        let version = schema.qualified("version"), outcome = schema.qualified("outcome")
        let revision = schema.qualified("versionRevision")
        // EntityKind's raw values when v1 was written (a new kind is a new migration that widens the check).
        let kinds = "'patient', 'carePlan', 'contact', 'task'"
        return [
            // One row per version of a patient, care plan, contact or task.
            """
            CREATE TABLE \(version) (
                uuid uuid PRIMARY KEY,
                kind text NOT NULL CHECK (kind IN (\(kinds))),
                id text NOT NULL,
                effectiveDate timestamptz NOT NULL,
                deletedDate timestamptz,
                previousVersionUUID uuid,
                nextVersionUUID uuid,
                groupIdentifier text,
                remoteID text,
                parentUUID uuid,
                tags text[] NOT NULL,
                payload bytea NOT NULL
            )
            """,
            // The reads of StoredVersionFilter, each by its own index; tags through a GIN index (`tags && $1`).
            "CREATE INDEX version_on_kind_id ON \(version) (kind, id)",
            "CREATE INDEX version_on_kind_effectiveDate ON \(version) (kind, effectiveDate)",
            "CREATE INDEX version_on_parentUUID ON \(version) (parentUUID)",
            "CREATE INDEX version_on_remoteID ON \(version) (remoteID)",
            "CREATE INDEX version_on_groupIdentifier ON \(version) (groupIdentifier)",
            "CREATE INDEX version_on_tags ON \(version) USING gin (tags)",
            // A chain never forks: two processes that both replace the same head cannot both commit.
            "CREATE UNIQUE INDEX version_one_next ON \(version) (previousVersionUUID) WHERE previousVersionUUID IS NOT NULL",
            """
            CREATE FUNCTION \(schema.qualified("version_refuseChange"))() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF OLD.nextVersionUUID IS NOT NULL
                   OR (NEW.uuid, NEW.kind, NEW.id, NEW.effectiveDate, NEW.deletedDate, NEW.previousVersionUUID, NEW.groupIdentifier,
                       NEW.remoteID, NEW.parentUUID, NEW.tags, NEW.payload)
                      IS DISTINCT FROM (OLD.uuid, OLD.kind, OLD.id, OLD.effectiveDate, OLD.deletedDate, OLD.previousVersionUUID,
                       OLD.groupIdentifier, OLD.remoteID, OLD.parentUUID, OLD.tags, OLD.payload) THEN
                    RAISE EXCEPTION 'the version % is kept as it was written: only its next version is set, once', OLD.uuid
                        USING ERRCODE = 'integrity_constraint_violation';
                END IF;
                RETURN NEW;
            END
            $$
            """,
            "CREATE TRIGGER version_refuseChange BEFORE UPDATE ON \(version) FOR EACH ROW EXECUTE FUNCTION \(schema.qualified("version_refuseChange"))()",

            // A number raised by every statement that changes versions, whoever runs it, in its transaction: a reader
            // that sees the same number sees the same versions.
            "CREATE TABLE \(revision) (id integer PRIMARY KEY CHECK (id = 1), value bigint NOT NULL)",
            "INSERT INTO \(revision) (id, value) VALUES (1, 0)",
            """
            CREATE FUNCTION \(schema.qualified("versionRevision_raise"))() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE \(revision) SET value = value + 1 WHERE id = 1;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER versionRevision_raise AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(version)
                FOR EACH STATEMENT EXECUTE FUNCTION \(schema.qualified("versionRevision_raise"))()
            """,

            // One row per outcome, live or deleted, its values in order in one jsonb array.
            """
            CREATE TABLE \(outcome) (
                uuid uuid PRIMARY KEY,
                taskUUID uuid NOT NULL,
                occurrenceIndex bigint NOT NULL,
                createdDate timestamptz,
                deletedDate timestamptz,
                timeZone text NOT NULL,
                remoteID text,
                source text,
                outcomeValues jsonb NOT NULL CHECK (jsonb_typeof(outcomeValues) = 'array'),
                details jsonb
            )
            """,
            // Every outcome of an event, deleted ones too; and the live ones, at most one per event, which also answers
            // "which events have a live outcome" (a week of every task, on each daily page) from the index alone.
            "CREATE INDEX outcome_on_taskUUID_occurrenceIndex ON \(outcome) (taskUUID, occurrenceIndex)",
            "CREATE UNIQUE INDEX outcome_live_on_taskUUID_occurrenceIndex ON \(outcome) (taskUUID, occurrenceIndex) WHERE deletedDate IS NULL",
            """
            CREATE FUNCTION \(schema.qualified("outcome_refuseChange"))() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF OLD.deletedDate IS NOT NULL OR NEW.deletedDate IS NULL
                   OR (NEW.uuid, NEW.taskUUID, NEW.occurrenceIndex, NEW.createdDate, NEW.timeZone, NEW.remoteID, NEW.source,
                       NEW.outcomeValues, NEW.details)
                      IS DISTINCT FROM (OLD.uuid, OLD.taskUUID, OLD.occurrenceIndex, OLD.createdDate, OLD.timeZone, OLD.remoteID,
                       OLD.source, OLD.outcomeValues, OLD.details) THEN
                    RAISE EXCEPTION 'the outcome % is kept as it was written: it is only marked deleted, once', OLD.uuid
                        USING ERRCODE = 'integrity_constraint_violation';
                END IF;
                RETURN NEW;
            END
            $$
            """,
            "CREATE TRIGGER outcome_refuseChange BEFORE UPDATE ON \(outcome) FOR EACH ROW EXECUTE FUNCTION \(schema.qualified("outcome_refuseChange"))()",
        ]
    }
}
