import CareStorePostgres
import Foundation
import Logging
import PostgresNIO

/// The study store's schema in PostgreSQL, as versioned migrations in code.
///
/// ```swift
/// try await PostgresStudyMigrations.migrate(.public, with: client)                 // the study store alone
/// try await PostgresStudyMigrations.migrate(.public, with: client, joint: true)    // beside the care store's tables
/// ```
///
/// A migration, once released, is never edited: a change is a new migration appended to its list. The names of those
/// applied are rows of `studyMigration` in the schema. Migrating takes a transaction-scoped advisory lock
/// (`pg_advisory_xact_lock`) on a key of the schema first, and applies what is missing and records it in the same
/// transaction: when several server processes start at once, one migrates and the others wait, then find nothing left
/// to do (as ``PostgresCareMigrations`` do for the care store's tables).
///
/// The tables mirror SQLite's (`StudyStoreMigrations` of StudySQLite) with PostgreSQL's types: `uuid` for UUIDs,
/// `timestamptz` for dates (whole microseconds: `PostgresTimestamp`), the participant's time zone beside them. A run's
/// restoration data and result and a consent record's sealed JSON are `bytea`: SQL never looks inside them (what
/// queries filter on, a run's participant, task and state, a record's participant and kind, are columns beside them),
/// and a sealed record must be kept byte for byte, which `jsonb` (re-ordered, re-spaced) would not. Identifiers are
/// written unquoted, so PostgreSQL keeps them in lower case. Every lookup of ``PostgresStudyStorage`` has its index.
///
/// The database itself keeps what the store promises, for every process and every hand at the `psql` prompt:
/// consent records are append-only (triggers refuse UPDATE, DELETE and TRUNCATE); a participant has at most one
/// withdrawal record; once it is stored, their runs are refused, and, where the care store's tables sit beside these
/// (`joint`), their outcomes too (``PostgresWithdrawalGuard``).
///
/// The study team's accounts (v2: ``PostgresResearcherStorage``'s tables) mirror SQLite's researcher tables and
/// `consoleSignInFailure` column for column.
public enum PostgresStudyMigrations {
    /// One step of the schema: its name, recorded once applied, and its statements for a schema.
    struct Migration: Sendable {
        let name: String
        let statements: @Sendable (PostgresCareSchema) -> [String]
    }

    /// The names of the study store's own migrations, oldest first.
    public static var names: [String] { migrations.map(\.name) }

    /// The names of the migrations of a schema that holds the care store's tables too, oldest first, after ``names``.
    public static var jointNames: [String] { jointMigrations.map(\.name) }

    /// The study store's migrations, oldest first.
    static let migrations: [Migration] = [
        Migration(name: "v1: invitations, participants, sessions, sign-in codes, task runs, consent records, their PDFs and the claims "
                      + "on printing them, consent records append-only, a withdrawn participant's runs refused", statements: studyTables),
        Migration(name: "v2: researchers, their password links and sessions, console sign-in failures per address tried and client address",
                  statements: researcherTables),
        Migration(name: "v3: one table of leases keyed by what is claimed (a consent PDF's printing, a run's finishing)", statements: leaseTable),
        Migration(name: "v4: sign-in attempt buckets per limit and client address, so that every process counts alike", statements: signInBucketTable),
        Migration(name: "v5: the files attached in runs, beside them (they were files under the data folder)", statements: runFileTable),
        Migration(name: "v6: reminders: the channels that reach participants, their choices, and the outbox of deliveries",
                  statements: reminderTables),
    ]

    /// The migrations of a schema that holds the care store's tables beside the study store's, oldest first.
    static let jointMigrations: [Migration] = [
        Migration(name: "joint v1: a withdrawn participant's outcomes refused", statements: PostgresWithdrawalGuard.outcomeTriggers),
        Migration(name: "joint v2: the audit trail (auditLog append-only, its head, changes staged by triggers for the flush of each write "
                      + "transaction, a COMMIT that leaves staged changes refused)", statements: PostgresAuditTrail.migration),
        Migration(name: "joint v3: the files attached in runs are in the audit trail", statements: PostgresAuditTrail.runFileMigration),
        Migration(name: "joint v4: reminders' channels, choices and deliveries are in the audit trail, and refused for a withdrawn participant",
                  statements: { PostgresAuditTrail.reminderMigration($0) + PostgresWithdrawalGuard.reminderTriggers($0) }),
    ]

    /// Creates `schema` when it is missing and applies every migration it lacks, in one transaction under the schema's
    /// advisory lock; with `joint`, the joint migrations too, which need the care store's tables
    /// (``PostgresCareMigrations``) in the same schema. Returns the names of the migrations applied now.
    @discardableResult
    public static func migrate(_ schema: PostgresCareSchema, with client: PostgresClient, joint: Bool = false,
                               logger: Logger = PostgresStudyStorage.silentLogger) async throws -> [String] {
        try await client.withConnection { connection in
            try await migrate(schema, on: connection, joint: joint, logger: logger)
        }
    }

    /// ``migrate(_:with:joint:logger:)`` on a connection the caller holds, with no transaction open.
    public static func migrate(_ schema: PostgresCareSchema, on connection: PostgresConnection, joint: Bool = false,
                               logger: Logger = PostgresStudyStorage.silentLogger) async throws -> [String] {
        try await PostgresTransactionRunner.run(on: connection, begin: "BEGIN", logger: logger) { connection in
            // Read committed: every statement after the lock sees what another process committed while this one waited.
            try await PostgresTransactionRunner.execute("SELECT pg_advisory_xact_lock(\(lockKey(for: schema)))", on: connection, logger: logger)
            let exists = try await connection.query("SELECT 1 FROM pg_namespace WHERE nspname = \(schema.name)", logger: logger)
                .collect().isEmpty == false
            if !exists {
                try await PostgresTransactionRunner.execute(PostgresQuery(unsafeSQL: "CREATE SCHEMA " + schema.name), on: connection, logger: logger)
            }
            let table = schema.name + ".studyMigration"
            try await PostgresTransactionRunner.execute(PostgresQuery(unsafeSQL: """
                CREATE TABLE IF NOT EXISTS \(table) (name text PRIMARY KEY, appliedAt timestamptz NOT NULL DEFAULT now())
                """), on: connection, logger: logger)
            var applied = Set<String>()
            for try await name in try await connection.query(PostgresQuery(unsafeSQL: "SELECT name FROM \(table)"), logger: logger).decode(String.self) {
                applied.insert(name)
            }
            var appliedNow: [String] = []
            for migration in migrations + (joint ? jointMigrations : []) where !applied.contains(migration.name) {
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

    /// The advisory lock key of `schema`'s study migrations: the 64-bit FNV-1a hash of a text naming them, the same in
    /// every process and every StudyKit version (and not the care store's key, so the two never wait for each other).
    static func lockKey(for schema: PostgresCareSchema) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "StudyKit study store migrations in schema \(schema.name)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }

    /// The message the consent records' triggers raise.
    public static let appendOnlyMessage = "consent records are append-only"

    private static func studyTables(_ schema: PostgresCareSchema) -> [String] {
        func table(_ name: String) -> String { schema.name + "." + name }
        let invitation = table("invitation"), participant = table("participant"), session = table("session")
        let signInCode = table("signInCode"), taskRun = table("taskRun"), consentRecord = table("consentRecord"), consentPDF = table("consentPDF")
        return [
            """
            CREATE TABLE \(invitation) (
                id uuid PRIMARY KEY,
                codeSHA256 text NOT NULL UNIQUE,
                label text,
                createdAt timestamptz NOT NULL,
                expiresAt timestamptz,
                usedAt timestamptz,
                usedBy text,
                revokedAt timestamptz
            )
            """,
            // invitations(): every one, in this order.
            "CREATE INDEX invitation_on_createdAt_id ON \(invitation) (createdAt, id)",
            """
            CREATE TABLE \(participant) (
                id text COLLATE "C" PRIMARY KEY,
                patientID text NOT NULL,
                timeZone text NOT NULL,
                language text NOT NULL,
                enrolledAt timestamptz NOT NULL,
                invitationID uuid UNIQUE REFERENCES \(invitation)
            )
            """,
            // participants(): by enrolment time, then id as bytes (COLLATE "C"), whatever the database's own collation.
            "CREATE INDEX participant_on_enrolledAt_id ON \(participant) (enrolledAt, id)",
            """
            CREATE TABLE \(session) (
                id uuid PRIMARY KEY,
                tokenSHA256 text NOT NULL UNIQUE,
                participantID text NOT NULL REFERENCES \(participant),
                createdAt timestamptz NOT NULL,
                lastSeenAt timestamptz NOT NULL,
                expiresAt timestamptz NOT NULL,
                revokedAt timestamptz
            )
            """,
            // sessions(participantID:), newest first; revokeSession finds the row by its primary key.
            "CREATE INDEX session_on_participantID_createdAt ON \(session) (participantID, createdAt DESC, id DESC)",
            """
            CREATE TABLE \(signInCode) (
                codeSHA256 text PRIMARY KEY,
                participantID text NOT NULL REFERENCES \(participant),
                createdAt timestamptz NOT NULL,
                expiresAt timestamptz NOT NULL,
                usedAt timestamptz
            )
            """,
            // deleteSignInCodes(spentAt:orOf:): a participant's codes, the expired ones, the used ones (a bitmap OR of the three).
            "CREATE INDEX signInCode_on_participantID ON \(signInCode) (participantID)",
            "CREATE INDEX signInCode_on_expiresAt ON \(signInCode) (expiresAt)",
            "CREATE INDEX signInCode_used ON \(signInCode) (usedAt) WHERE usedAt IS NOT NULL",
            // One row per run, replaced whole by each save.
            """
            CREATE TABLE \(taskRun) (
                id uuid PRIMARY KEY,
                participantID text NOT NULL REFERENCES \(participant),
                taskID text NOT NULL,
                occurrence bigint,
                state text NOT NULL,
                restorationData bytea,
                result bytea,
                createdAt timestamptz NOT NULL,
                updatedAt timestamptz NOT NULL
            )
            """,
            // runs(participantID:taskID:state:) and runSummaries: most recently saved first, of every task, of one task,
            // or in one state (a page's open runs), each read in the index's order.
            "CREATE INDEX taskRun_on_participantID_updatedAt ON \(taskRun) (participantID, updatedAt DESC, id DESC)",
            "CREATE INDEX taskRun_on_participantID_taskID_updatedAt ON \(taskRun) (participantID, taskID, updatedAt DESC, id DESC)",
            "CREATE INDEX taskRun_on_participantID_state_updatedAt ON \(taskRun) (participantID, state, updatedAt DESC, id DESC)",
            // Consent records, in the order they were stored (`sequence`).
            """
            CREATE TABLE \(consentRecord) (
                id uuid PRIMARY KEY,
                sequence bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
                participantID text NOT NULL REFERENCES \(participant),
                kind text NOT NULL,
                sealedJSON bytea NOT NULL,
                storedAt timestamptz NOT NULL
            )
            """,
            "CREATE INDEX consentRecord_on_participantID ON \(consentRecord) (participantID, storedAt, sequence)",
            // One withdrawal per participant, whoever writes it and at whichever isolation level; also the index of
            // "has this participant withdrawn", which every trigger of PostgresWithdrawalGuard asks.
            "CREATE UNIQUE INDEX \(PostgresWithdrawalGuard.oneWithdrawalIndex) ON \(consentRecord) (participantID) WHERE kind = 'withdrawal'",
            """
            CREATE FUNCTION \(table("consentRecord_refuseChange"))() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION '\(appendOnlyMessage)' USING ERRCODE = 'integrity_constraint_violation';
            END
            $$
            """,
            """
            CREATE TRIGGER consentRecord_refuseChange BEFORE UPDATE OR DELETE ON \(consentRecord)
                FOR EACH ROW EXECUTE FUNCTION \(table("consentRecord_refuseChange"))()
            """,
            // TRUNCATE fires no row triggers.
            """
            CREATE TRIGGER consentRecord_refuseTruncate BEFORE TRUNCATE ON \(consentRecord)
                FOR EACH STATEMENT EXECUTE FUNCTION \(table("consentRecord_refuseChange"))()
            """,
            // The PDF of each record, inserted with it: pending, ready (the bytes or a path under the data folder) or failed.
            """
            CREATE TABLE \(consentPDF) (
                recordID uuid PRIMARY KEY REFERENCES \(consentRecord),
                state text NOT NULL CHECK (state IN ('pending', 'ready', 'failed')),
                pdf bytea,
                path text,
                failure text,
                updatedAt timestamptz NOT NULL
            )
            """,
            // consentRecordsAwaitingPDF(): the few records not printed yet.
            "CREATE INDEX consentPDF_awaiting ON \(consentPDF) (recordID) WHERE state <> 'ready'",
            // Who prints a record's PDF, until when: an operational lease (so that of several processes one prints it),
            // not study data.
            """
            CREATE TABLE \(table("consentPDFClaim")) (
                recordID uuid PRIMARY KEY REFERENCES \(consentRecord),
                claimedUntil timestamptz NOT NULL
            )
            """,
        ] + PostgresWithdrawalGuard.studyTriggers(schema)
    }

    /// Leases (`StudyLease`: operational claims, not study data) keyed by what is claimed, as SQLite's migration v7
    /// makes them: v1's consent PDF claims are moved in (key `consentPDF/` and the record's id, held by no one in
    /// particular) and their table dropped.
    private static func leaseTable(_ schema: PostgresCareSchema) -> [String] {
        let lease = schema.name + ".lease", claims = schema.name + ".consentPDFClaim"
        return [
            "CREATE TABLE \(lease) (key text COLLATE \"C\" PRIMARY KEY, holder uuid NOT NULL, claimedUntil timestamptz NOT NULL)",
            """
            INSERT INTO \(lease) (key, holder, claimedUntil)
            SELECT 'consentPDF/' || recordID::text, '00000000-0000-0000-0000-000000000000', claimedUntil FROM \(claims)
            """,
            "DROP TABLE \(claims)",
        ]
    }

    /// The sign-in attempt limit's buckets (`SignInAttemptLimit`), as SQLite's migration v8 makes them: per limit's
    /// scope and client address (empty for the server-wide bucket), with when each is full again, by which the
    /// refilled ones are forgotten.
    private static func signInBucketTable(_ schema: PostgresCareSchema) -> [String] {
        let table = schema.name + ".signInBucket"
        return [
            """
            CREATE TABLE \(table) (
                scope text COLLATE "C" NOT NULL,
                client text COLLATE "C" NOT NULL,
                tokens double precision NOT NULL,
                refilledAt timestamptz NOT NULL,
                fullAt timestamptz NOT NULL,
                PRIMARY KEY (scope, client)
            )
            """,
            "CREATE INDEX signInBucket_on_scope_fullAt ON \(table) (scope, fullAt)",
        ]
    }

    /// The files attached in runs, as SQLite's migration v9 makes them: each run's by name, with its participant (by
    /// whom an export reads them), deleted with their run.
    private static func runFileTable(_ schema: PostgresCareSchema) -> [String] {
        let table = schema.name + ".runFile"
        return [
            """
            CREATE TABLE \(table) (
                runID uuid NOT NULL REFERENCES \(schema.name).taskRun ON DELETE CASCADE,
                participantID text NOT NULL,
                name text COLLATE "C" NOT NULL,
                data bytea NOT NULL,
                PRIMARY KEY (runID, name)
            )
            """,
            "CREATE INDEX runFile_on_participantID ON \(table) (participantID, runID, name)",
        ]
    }

    /// The reminders' tables, as SQLite's migration v10 makes them.
    private static func reminderTables(_ schema: PostgresCareSchema) -> [String] {
        func table(_ name: String) -> String { schema.name + "." + name }
        return [
            """
            CREATE TABLE \(table("reminderChannel")) (
                id uuid PRIMARY KEY,
                participantID text NOT NULL REFERENCES \(table("participant")),
                kind text NOT NULL,
                address text,
                pushKeys text,
                label text,
                createdAt timestamptz NOT NULL,
                confirmedAt timestamptz
            )
            """,
            "CREATE INDEX reminderChannel_on_participantID ON \(table("reminderChannel")) (participantID, createdAt)",
            """
            CREATE TABLE \(table("reminderPreference")) (
                participantID text PRIMARY KEY REFERENCES \(table("participant")),
                preferences text NOT NULL,
                updatedAt timestamptz NOT NULL
            )
            """,
            """
            CREATE TABLE \(table("reminderDelivery")) (
                key text COLLATE "C" PRIMARY KEY,
                participantID text NOT NULL,
                reminderID text NOT NULL,
                taskID text NOT NULL,
                occurrence bigint NOT NULL,
                channelID uuid NOT NULL,
                channelKind text NOT NULL,
                dueAt timestamptz NOT NULL,
                state text NOT NULL,
                attempts bigint NOT NULL,
                claimedUntil timestamptz,
                nextAttemptAt timestamptz,
                detail text,
                createdAt timestamptz NOT NULL,
                updatedAt timestamptz NOT NULL
            )
            """,
            "CREATE INDEX reminderDelivery_on_dueAt ON \(table("reminderDelivery")) (dueAt)",
            "CREATE INDEX reminderDelivery_on_participantID ON \(table("reminderDelivery")) (participantID, dueAt)",
        ]
    }

    /// The study team's accounts: SQLite's `researcher`, `researcherPasswordLink`, `researcherSession` (with what a
    /// session is told of the wrong passwords before it) and `consoleSignInFailure` (per SHA-256 of the address tried
    /// and client address; not study data), with PostgreSQL's types.
    private static func researcherTables(_ schema: PostgresCareSchema) -> [String] {
        func table(_ name: String) -> String { schema.name + "." + name }
        let researcher = table("researcher"), link = table("researcherPasswordLink"), session = table("researcherSession")
        return [
            """
            CREATE TABLE \(researcher) (
                id uuid PRIMARY KEY,
                email text COLLATE "C" NOT NULL UNIQUE,
                role text NOT NULL,
                createdAt timestamptz NOT NULL,
                passwordHash text,
                failedSignIns bigint NOT NULL DEFAULT 0,
                lockedUntil timestamptz,
                removedAt timestamptz
            )
            """,
            // researchers(): every one, in this order.
            "CREATE INDEX researcher_on_createdAt_id ON \(researcher) (createdAt, id)",
            """
            CREATE TABLE \(link) (
                tokenSHA256 text PRIMARY KEY,
                researcherID uuid NOT NULL REFERENCES \(researcher),
                createdAt timestamptz NOT NULL,
                expiresAt timestamptz NOT NULL,
                usedAt timestamptz
            )
            """,
            "CREATE INDEX researcherPasswordLink_on_researcherID ON \(link) (researcherID)",
            """
            CREATE TABLE \(session) (
                id uuid PRIMARY KEY,
                tokenSHA256 text NOT NULL UNIQUE,
                researcherID uuid NOT NULL REFERENCES \(researcher),
                createdAt timestamptz NOT NULL,
                expiresAt timestamptz NOT NULL,
                revokedAt timestamptz,
                failedSignInsBefore bigint NOT NULL DEFAULT 0,
                firstFailedSignInBefore timestamptz,
                lastFailedSignInBefore timestamptz,
                failedSignInClientsBefore bigint NOT NULL DEFAULT 0
            )
            """,
            "CREATE INDEX researcherSession_on_researcherID ON \(session) (researcherID)",
            """
            CREATE TABLE \(table("consoleSignInFailure")) (
                emailSHA256 text NOT NULL,
                client text NOT NULL,
                researcherID uuid,
                failures bigint NOT NULL,
                pausedUntil timestamptz,
                unseen bigint NOT NULL,
                firstUnseenAt timestamptz,
                lastFailedAt timestamptz,
                PRIMARY KEY (emailSHA256, client)
            )
            """,
        ]
    }
}
