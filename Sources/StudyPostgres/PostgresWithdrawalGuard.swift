import CareStorePostgres
import PostgresNIO
import Study

/// The database's own refusal of a withdrawn participant's new data, as PL/pgSQL triggers: once their withdrawal
/// record is stored, any INSERT or UPDATE of a run of theirs, or (in a schema holding the care store's tables too) of an
/// outcome of one of their care tasks, and a second withdrawal record of theirs, raise an exception with
/// ``message``, whichever code, process or `psql` prompt writes it. The check runs inside the writing transaction; with
/// the storage's serializable transactions, a write racing the withdrawal either committed before it (and a withdrawal
/// with deletion then deletes it) or is refused.
///
/// The storage turns the exception into ``StudyRefusal/withdrawn`` (``refusal(for:)``), as SQLite's guard does.
public enum PostgresWithdrawalGuard {
    /// The message the triggers raise.
    public static let message = "studykit: the participant has left the study"

    /// The unique index that allows one withdrawal record per participant.
    static let oneWithdrawalIndex = "consentRecord_one_withdrawal"

    /// Whether the participant `participant` (a PL/pgSQL expression) has a withdrawal record: through
    /// ``oneWithdrawalIndex``.
    private static func withdrawn(_ participant: String, in schema: PostgresCareSchema) -> String {
        "EXISTS (SELECT 1 FROM \(schema.name).consentRecord WHERE participantID = \(participant) AND kind = 'withdrawal')"
    }

    /// A trigger function that raises ``message`` when `condition` holds, and its trigger on `table`.
    private static func trigger(_ name: String, in schema: PostgresCareSchema, before event: String, on table: String,
                                when condition: String) -> [String] {
        let function = "\(schema.name).\(name)"
        return [
            """
            CREATE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF \(condition) THEN
                    RAISE EXCEPTION '\(message)' USING ERRCODE = 'integrity_constraint_violation';
                END IF;
                RETURN NEW;
            END
            $$
            """,
            "CREATE TRIGGER \(name) BEFORE \(event) ON \(schema.name).\(table) FOR EACH ROW EXECUTE FUNCTION \(function)()",
        ]
    }

    /// The triggers on the study store's own tables: a withdrawn participant's runs, and a second withdrawal.
    static func studyTriggers(_ schema: PostgresCareSchema) -> [String] {
        trigger("withdrawn_no_run", in: schema, before: "INSERT OR UPDATE", on: "taskRun", when: withdrawn("NEW.participantID", in: schema))
            + trigger("withdrawn_only_once", in: schema, before: "INSERT", on: "consentRecord",
                      when: "NEW.kind = 'withdrawal' AND " + withdrawn("NEW.participantID", in: schema))
    }

    /// The trigger on the care store's outcomes, in a schema that holds both stores' tables: the outcome's task version
    /// names its participant (a care task's id is `PARTICIPANT/TASK`, `StudyCareIdentifiers`).
    static func outcomeTriggers(_ schema: PostgresCareSchema) -> [String] {
        let owner = """
            EXISTS (SELECT 1 FROM \(schema.name).version v WHERE v.uuid = NEW.taskUUID AND position('/' in v.id) > 0
                    AND \(withdrawn("split_part(v.id, '/', 1)", in: schema)))
            """
        return trigger("withdrawn_no_outcome", in: schema, before: "INSERT OR UPDATE", on: "outcome", when: owner)
    }

    /// The triggers that refuse a withdrawn participant's new reminder channels, choices and deliveries.
    static func reminderTriggers(_ schema: PostgresCareSchema) -> [String] {
        ["reminderChannel", "reminderPreference", "reminderDelivery"].flatMap { table in
            trigger("withdrawn_no_\(table)", in: schema, before: "INSERT", on: table, when: withdrawn("NEW.participantID", in: schema))
        }
    }

    /// Whether `error` is the triggers' refusal, or the index's refusal of a second withdrawal.
    public static func isRefusal(_ error: PSQLError) -> Bool {
        error.serverInfo?[.message] == message
            || (error.serverInfo?[.sqlState] == "23505" && error.serverInfo?[.constraintName]?.lowercased() == oneWithdrawalIndex.lowercased())
    }

    /// `error` as the workflow's refusal when it is the database's refusal of a withdrawn participant's data; else `error`.
    public static func refusal(for error: any Error) -> any Error {
        guard let error = error as? PSQLError, isRefusal(error) else { return error }
        return StudyRefusal.withdrawn
    }
}
