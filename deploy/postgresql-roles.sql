-- StudyKit on PostgreSQL: two roles, so that the server itself cannot rewrite consent records or the audit trail.
--
--   studykit_owner   owns the schema and its tables; `studykit` migrates as this role (at an upgrade, one process
--                    started with the owner's URL, or `studykit serve` once as the owner), and nothing else uses it.
--   studykit_server  what every server process connects as: it reads and writes study data, appends consent
--                    records and audit rows, and has no UPDATE, DELETE or TRUNCATE on `consentRecord` or `auditLog`
--                    (their triggers refuse those too, but a trigger can be turned off by a table's owner; a missing
--                    privilege cannot be by the server).
--
-- Edit the names (database `studykit`, schema `study`, the two roles) to yours, set passwords with psql's \password,
-- and allow them in pg_hba.conf. Part 1 runs once, as a superuser or the database's owner. Part 2 runs as
-- studykit_owner after every migration that adds tables (it grants on the tables that exist then).

-- Part 1: the roles, once.
CREATE ROLE studykit_owner LOGIN;
CREATE ROLE studykit_server LOGIN;
-- The owner creates the schema (StudyKit's migrations do, when it is missing).
GRANT CREATE ON DATABASE studykit TO studykit_owner;

-- after migrating
-- Part 2: the server's privileges, as studykit_owner, after migrating.
GRANT USAGE ON SCHEMA study TO studykit_server;
-- Study data: read and written by the server (participants, sessions, runs, the care store's versions and outcomes,
-- researchers; a withdrawal with deletion deletes runs and outcomes).
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA study TO studykit_server;
-- Consent records and the audit trail: appended and read, never changed or removed.
REVOKE UPDATE, DELETE, TRUNCATE ON study.consentRecord, study.auditLog FROM studykit_server;
-- The schema's migrations are the owner's: the server only reads which are applied.
REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON study.studyMigration, study.careMigration FROM studykit_server;
-- The flush of each write transaction reads and deletes its staged changes (auditStage) and moves the trail's head
-- (auditHead): both granted above. Identity columns (a consent record's sequence, a staged change's order) need their
-- sequences.
GRANT USAGE ON ALL SEQUENCES IN SCHEMA study TO studykit_server;
