import Foundation
import GRDB
import Study

/// The file's own refusal of a withdrawn participant's new data: triggers that abort any write of a run or an outcome
/// of theirs once their withdrawal record is stored, and a second withdrawal record of theirs, whichever code (or
/// process) writes it. The check runs inside the writing transaction, so a write that raced the withdrawal either
/// committed before it (and a withdrawal with deletion then deletes it) or is refused: nothing of theirs is stored
/// after their withdrawal record.
///
/// The stores turn the trigger's abort into ``StudyRefusal/withdrawn`` (``refusal(for:)``).
enum SQLiteWithdrawalGuard {
    /// The message the triggers abort with.
    static let message = "studykit: the participant has left the study"

    /// Whether a participant (an SQL expression) has a withdrawal record.
    private static func withdrawn(_ participant: String) -> String {
        "EXISTS (SELECT 1 FROM consentRecord WHERE participantID = \(participant) AND kind = 'withdrawal')"
    }

    /// Whether the participant whose care task version is `taskUUID` (an SQL expression) has a withdrawal record: a
    /// care task's id is `PARTICIPANT/TASK` (``StudyCareIdentifiers``).
    private static func withdrawnOwner(ofTask taskUUID: String) -> String {
        "EXISTS (SELECT 1 FROM version v JOIN consentRecord c ON c.participantID = substr(v.id, 1, instr(v.id, '/') - 1) "
            + "WHERE v.uuid = \(taskUUID) AND c.kind = 'withdrawal')"
    }

    private static func trigger(_ name: String, _ event: String, when condition: String) -> String {
        "CREATE TRIGGER \(name) BEFORE \(event) WHEN \(condition) BEGIN SELECT RAISE(ABORT, '\(message)'); END"
    }

    /// The triggers, by name.
    static let triggers: [String: String] = [
        "withdrawn_no_run_insert": trigger("withdrawn_no_run_insert", "INSERT ON taskRun", when: withdrawn("NEW.participantID")),
        "withdrawn_no_run_update": trigger("withdrawn_no_run_update", "UPDATE ON taskRun", when: withdrawn("NEW.participantID")),
        "withdrawn_no_outcome_insert": trigger("withdrawn_no_outcome_insert", "INSERT ON outcome", when: withdrawnOwner(ofTask: "NEW.taskUUID")),
        "withdrawn_no_outcome_update": trigger("withdrawn_no_outcome_update", "UPDATE ON outcome", when: withdrawnOwner(ofTask: "NEW.taskUUID")),
        "withdrawn_only_once": trigger("withdrawn_only_once", "INSERT ON consentRecord",
                                       when: "NEW.kind = 'withdrawal' AND " + withdrawn("NEW.participantID")),
    ]

    /// The triggers that refuse a withdrawn participant's new reminder channels, choices and deliveries, by name (joint
    /// migration v6, after the reminders' tables).
    static let reminderTriggers: [String: String] = [
        "withdrawn_no_reminderChannel_insert": trigger("withdrawn_no_reminderChannel_insert", "INSERT ON reminderChannel",
                                                       when: withdrawn("NEW.participantID")),
        "withdrawn_no_reminderPreference_insert": trigger("withdrawn_no_reminderPreference_insert", "INSERT ON reminderPreference",
                                                          when: withdrawn("NEW.participantID")),
        "withdrawn_no_reminderDelivery_insert": trigger("withdrawn_no_reminderDelivery_insert", "INSERT ON reminderDelivery",
                                                        when: withdrawn("NEW.participantID")),
    ]

    /// Creates the reminders' triggers (a migration of the joint file).
    static func createReminderTriggers(in db: Database) throws {
        for sql in reminderTriggers.sorted(by: { $0.key < $1.key }).map(\.value) { try db.execute(sql: sql) }
    }

    /// Creates the triggers (a migration of the joint file).
    static func create(in db: Database) throws {
        for sql in triggers.sorted(by: { $0.key < $1.key }).map(\.value) { try db.execute(sql: sql) }
    }

    /// Whether the participant has a withdrawal record, read in the caller's transaction.
    static func isWithdrawn(_ participantID: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT \(withdrawn("?"))"), arguments: [participantID]) ?? false
    }

    /// `error` as the workflow's refusal when it is the triggers' abort; else `error` itself.
    static func refusal(for error: any Error) -> any Error {
        guard let error = error as? DatabaseError, error.message == message else { return error }
        return StudyRefusal.withdrawn
    }

    /// Runs `body`, turning the triggers' abort into ``StudyRefusal/withdrawn``.
    static func refusingWithdrawn<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw refusal(for: error)
        }
    }
}
