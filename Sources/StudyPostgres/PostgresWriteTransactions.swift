import CareStorePostgres
import Foundation
import Logging
import PostgresNIO
import Study

/// The one place where a study database's write transactions run, whichever store writes (the study store, the study
/// team's accounts, the care store, a joint commit or enrolment, ``PostgresStudyDatabase/appendAudit(action:entity:entityID:participantID:after:)``):
/// `SERIALIZABLE`, run again when PostgreSQL refuses it for a concurrent one, and, where the schema keeps the audit
/// trail, ended by the trail's flush (``PostgresAuditTrail/flush(on:schema:key:source:at:appending:logger:)``) and the
/// change feed's `NOTIFY` (``PostgresChangeFeed``) inside the transaction, then the anchor once it committed.
final class PostgresWriteTransactions: Sendable {
    /// The audit trail's key and clock, its anchor, and the change feed a schema with the trail writes to.
    struct Audit: Sendable {
        let key: AuditKey
        let now: @Sendable () -> Date
        let anchor: AuditAnchorFile?
        let feed: PostgresChangeFeed
    }

    let client: PostgresClient
    let schema: PostgresCareSchema
    let logger: Logger
    let audit: Audit?

    init(client: PostgresClient, schema: PostgresCareSchema, logger: Logger, audit: Audit?) {
        self.client = client
        self.schema = schema
        self.logger = logger
        self.audit = audit
    }

    /// Runs `body` in a serializable transaction, again when PostgreSQL refuses it for a concurrent one, with the
    /// trail's rows of its changes (and `actions`) appended as its last step, as ``AuditTrail/source`` as the write
    /// begins; it is committed when this returns.
    func serializable<T: Sendable>(appending actions: [PostgresAuditTrail.Action] = [],
                                   _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let schema = schema, logger = logger
        guard let audit else {
            return try await PostgresStudyStorage.serializable(client, logger: logger) { connection in
                try await Self.takeTurn(on: connection, table: "lease", schema: schema, logger: logger)
                return try await body(connection)
            }
        }
        let source = AuditTrail.source
        // An anchor that could not be written after an earlier commit is written before anything more is.
        try audit.anchor?.writePending()
        let (value, head) = try await PostgresStudyStorage.serializable(client, logger: logger) { connection in
            try await Self.takeTurn(on: connection, table: "auditHead", schema: schema, logger: logger)
            let value = try await body(connection)
            let flushed = try await PostgresAuditTrail.flush(on: connection, schema: schema, key: audit.key, source: source, at: audit.now(),
                                                             appending: actions, logger: logger)
            try await audit.feed.notify(flushed.changes, on: connection, logger: logger)
            return (value, flushed.head)
        }
        if let head {
            // One that cannot be written now is kept and written before the next write, which fails if it still cannot be.
            try? audit.anchor?.record(sequence: head.sequence, hash: head.hash)
        }
        return value
    }
}

extension PostgresWriteTransactions {
    /// Waits for the writers before this one to end, as the transaction's first statement: before its snapshot is
    /// taken (LOCK takes none; the first query does), so that it sees what they committed. Every write of a schema
    /// with the audit trail ends by moving the trail's head, and many write one hot row (the server-wide sign-in
    /// bucket): writers that overlapped would all but one be refused at the end and run again, ever more often as
    /// more wait (under load, past any patience). In turn, none is refused, and one write's time is a few
    /// milliseconds. `table` is one every writer of the schema may lock (the server's role may update it): the trail's
    /// head, or, for a study store without the trail, its leases.
    static func takeTurn(on connection: PostgresConnection, table: String, schema: PostgresCareSchema, logger: Logger) async throws {
        try await PostgresTransactionRunner.execute(PostgresQuery(unsafeSQL: "LOCK TABLE \(schema.name).\(table) IN EXCLUSIVE MODE"),
                                                    on: connection, logger: logger)
    }
}

extension AsyncSequence {
    /// Every element, in order.
    func collected() async throws -> [Element] {
        var elements: [Element] = []
        for try await element in self { elements.append(element) }
        return elements
    }
}
