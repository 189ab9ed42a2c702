import CareStore
import CareStorePostgres
import Foundation
import Logging
import PostgresNIO
import Study
import Synchronization

/// How a process listening for other processes' commits reconnects after its connection is lost (PostgreSQL
/// restarted): after `initialBackoff`, doubling up to `maximumBackoff`, through `sleep` (a test's own).
public struct PostgresChangeListening: Sendable {
    /// The first pause after a lost connection.
    public var initialBackoff: Duration
    /// The longest pause between two attempts.
    public var maximumBackoff: Duration
    /// How the listener pauses.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// Pauses from `initialBackoff` doubling to `maximumBackoff`, with `Task.sleep` unless told otherwise.
    public init(initialBackoff: Duration = .milliseconds(100), maximumBackoff: Duration = .seconds(5),
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) {
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.sleep = sleep
    }

    /// From 100 ms to at most 5 s.
    public static let standard = PostgresChangeListening()
}

/// The participants' changes, across the processes of one schema, over PostgreSQL's LISTEN/NOTIFY: each write
/// transaction that changes a participant's data sends, inside the transaction (so it is delivered only on commit),
/// one notification on the schema's channel naming this process, the participants and what changed of their care
/// data (the ids the audit trail's staged rows name); a process listens on one connection of its own, skips its own
/// notifications, and hands the others' to ``PostgresStudyDatabase``, which counts them in the study store's
/// `revision(of:)` and announces them to the care store's commit observers.
///
/// A notification holds at most 8000 bytes: the changes are split over several, and a participant whose care ids
/// alone would not fit is named with their care plan only (what the server's observers need: whose data changed).
/// What is committed while the listening connection is down (PostgreSQL restarting) is not delivered.
final class PostgresChangeFeed: Sendable {
    /// This process, in every notification it sends.
    let process: UUID
    /// The schema's channel.
    let channel: String
    private let listener = Mutex<Task<Void, Never>?>(nil)
    /// How many times the listener has (re)started listening.
    private let listens = AwaitableCount()
    /// How many of other processes' notifications the listener has handed on.
    private let heard = AwaitableCount()

    /// The most a notification's payload may hold (PostgreSQL's limit is 8000 bytes).
    static let payloadLimit = 7900

    init(schema: PostgresCareSchema, process: UUID = UUID()) {
        self.process = process
        let name = "studykit_changes_" + schema.name
        // A longer name is named by its FNV-1a hash, the same in every process.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        channel = name.utf8.count <= 63 ? name : "studykit_changes_" + String(hash, radix: 16)
    }

    // MARK: - Sending

    /// Sends `changes` (per participant) on `connection`, inside its transaction.
    func notify(_ changes: [String: CareChange], on connection: PostgresConnection, logger: Logger) async throws {
        guard !changes.isEmpty else { return }
        let payloads = Self.payloads(of: changes, process: process)
        var binds = PostgresBindings()
        binds.append(channel)
        binds.append(payloads)
        try await PostgresTransactionRunner.execute(PostgresQuery(unsafeSQL: "SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload", binds: binds),
                                                    on: connection, logger: logger)
    }

    /// One participant's change as a notification names it.
    struct Message: Codable, Sendable {
        var process: UUID
        var participants: [Participant]

        struct Participant: Codable, Sendable {
            var id: String
            var entities: [String: [String]]?
            var outcomeTaskIDs: [String]?
        }
    }

    /// The payloads that carry `changes`, each within ``payloadLimit``.
    static func payloads(of changes: [String: CareChange], process: UUID) -> [String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func encoded(_ participants: [Message.Participant]) -> String {
            String(decoding: (try? encoder.encode(Message(process: process, participants: participants))) ?? Data(), as: UTF8.self)
        }
        var payloads: [String] = []
        var current: [Message.Participant] = []
        for (id, change) in changes.sorted(by: { $0.key < $1.key }) {
            var participant = Message.Participant(id: id)
            if !change.entities.isEmpty {
                participant.entities = Dictionary(change.entities.map { ($0.key.rawValue, $0.value.sorted()) }, uniquingKeysWith: { a, _ in a })
            }
            if !change.outcomeTaskIDs.isEmpty { participant.outcomeTaskIDs = change.outcomeTaskIDs.sorted() }
            if encoded([participant]).utf8.count > payloadLimit {
                // Too many ids to name: the care plan says whose care data changed.
                participant = Message.Participant(id: String(id.prefix(1000)),
                                                  entities: [EntityKind.carePlan.rawValue: [StudyCareIdentifiers.carePlanID(participant: String(id.prefix(1000)))]])
            }
            if !current.isEmpty, encoded(current + [participant]).utf8.count > payloadLimit {
                payloads.append(encoded(current))
                current = []
            }
            current.append(participant)
        }
        if !current.isEmpty { payloads.append(encoded(current)) }
        return payloads
    }

    /// The participants' changes a payload names; nil for this process's own and for anything unreadable.
    func changes(in payload: String) -> [String: CareChange]? {
        guard let message = try? JSONDecoder().decode(Message.self, from: Data(payload.utf8)), message.process != process else { return nil }
        var changes: [String: CareChange] = [:]
        for participant in message.participants {
            var change = CareChange(outcomeTaskIDs: Set(participant.outcomeTaskIDs ?? []))
            for (kind, ids) in participant.entities ?? [:] {
                if let kind = EntityKind(rawValue: kind) { change.entities[kind, default: []].formUnion(ids) }
            }
            changes[participant.id, default: CareChange()].entities.merge(change.entities) { $0.union($1) }
            changes[participant.id]?.outcomeTaskIDs.formUnion(change.outcomeTaskIDs)
        }
        return changes
    }

    // MARK: - Listening

    /// Starts listening on a connection of `client`'s, reconnecting after `listening`'s pauses whenever it is lost,
    /// until ``stop()``; hands each other process's changes to `receive`.
    ///
    /// Each time it listens again after a lost connection, `missed` is called first: what other processes committed
    /// while it did not listen was never heard.
    func start(client: PostgresClient, listening options: PostgresChangeListening, logger: Logger,
               missed: @escaping @Sendable () -> Void = {}, receive: @escaping @Sendable ([String: CareChange]) -> Void) {
        let channel = channel
        let task = Task { [weak self] in
            var backoff = options.initialBackoff
            while !Task.isCancelled {
                let listenedBefore = self?.listenCount ?? 0
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: channel) { notifications in
                            if (self?.listenCount ?? 0) > 0 { missed() }
                            self?.listens.increment()
                            for try await notification in notifications {
                                if let changes = self?.changes(in: notification.payload), !changes.isEmpty {
                                    receive(changes)
                                    self?.heard.increment()
                                }
                            }
                        }
                    }
                } catch {
                    logger.debug("the change feed's connection was lost", metadata: ["error": "\(String(reflecting: error))"])
                }
                if Task.isCancelled { break }
                // A connection that listened before it was lost starts the pauses afresh.
                if (self?.listenCount ?? 0) > listenedBefore { backoff = options.initialBackoff }
                try? await options.sleep(backoff)
                backoff = min(backoff * 2, options.maximumBackoff)
            }
        }
        listener.withLock { $0 = task }
    }

    /// Stops listening.
    func stop() {
        listener.withLock { $0 }?.cancel()
    }

    /// How many times the listener has (re)started listening.
    var listenCount: Int { listens.value }

    /// Returns once the listener has listened `count` times in all (the first LISTEN is 1; each reconnection adds one).
    func waitUntilListening(count: Int = 1) async {
        await listens.wait(for: count)
    }

    /// Returns once the listener has handed on `count` notifications of other processes in all (a transaction sends
    /// one, or several when its changes exceed ``payloadLimit``).
    func waitUntilHeard(count: Int) async {
        await heard.wait(for: count)
    }
}
