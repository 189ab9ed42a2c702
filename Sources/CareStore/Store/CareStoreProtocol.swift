import Foundation

/// A patient's care data: versioned patients, care plans, contacts and tasks; outcomes per event; events,
/// adherence and insights computed from them; and change streams that tell every open view when to refresh.
///
/// Backends share one implementation of these rules, ``StorageBackedCareStore``, and pass one conformance suite.
///
/// ```swift
/// let store = InMemoryCareStore()
/// let plan = try await store.add([CarePlan(id: "knee", title: "Knee rehabilitation", effectiveDate: start)])
/// let events = try await store.events(taskQuery: CareQuery(for: today), window: today)
/// ```
public protocol CareStore: Sendable {
    /// Adds entities; refuses an id that already has a live entity (a deleted id may be added again).
    func add<Entity: VersionedEntity>(_ entities: [Entity]) async throws -> [Entity]
    /// Writes a new version of each entity (matched by id), in effect from its `effectiveDate`.
    func update<Entity: VersionedEntity>(_ entities: [Entity]) async throws -> [Entity]
    /// Deletes each entity (matched by id) by writing a tombstone version in effect from now, or from the newest
    /// version's effective date when that is later (versions take effect in order).
    func delete<Entity: VersionedEntity>(_ entities: [Entity]) async throws -> [Entity]
    /// The entities the query selects.
    func fetch<Entity: VersionedEntity>(_ type: Entity.Type, query: CareQuery) async throws -> [Entity]
    /// Every version of the entity `id`, oldest first, tombstones included.
    func versions<Entity: VersionedEntity>(of type: Entity.Type, id: String) async throws -> [Entity]

    /// Adds outcomes, each for an existing event of a task version that no newer version shadows, one per event.
    func addOutcomes(_ outcomes: [Outcome]) async throws -> [Outcome]
    /// Replaces each outcome (matched by UUID) with a new one for the same event.
    func updateOutcomes(_ outcomes: [Outcome]) async throws -> [Outcome]
    /// Deletes outcomes (matched by UUID); their events may then get new ones.
    func deleteOutcomes(_ outcomes: [Outcome]) async throws -> [Outcome]
    /// The live outcomes the query selects.
    func fetchOutcomes(query: OutcomeQuery) async throws -> [Outcome]

    /// The events of the tasks the query selects that overlap `window`, each from the task version in effect
    /// when it starts, with their outcomes and progress; ordered by start.
    func events(taskQuery: CareQuery, window: DateInterval) async throws -> [CareEvent]
    /// The events of the tasks the query selects that are open at `instant` (started, not yet ended) and have no live
    /// outcome, as ``events(taskQuery:window:)`` gives them (with no outcome and no progress), ordered by start: what a
    /// reminder sender asks of every participant's tasks. Outcomes are only looked up, never read, and the events of
    /// the hour around `instant` are kept, so that asking again within the hour reads only whether outcomes exist.
    func openEventsWithoutOutcomes(taskQuery: CareQuery, at instant: Date) async throws -> [CareEvent]
    /// Which of the tasks `ids` names have a live outcome for an event of any of their versions, found by looking only
    /// at whether outcomes exist (no task or outcome is read whole): whether each participant's onboarding is done.
    func taskIDsWithOutcomes(among ids: Set<String>) async throws -> Set<String>
    /// Adherence for each day of `window` over the selected tasks that impact adherence.
    func adherence(taskQuery: CareQuery, window: DateInterval, calendar: Calendar) async throws -> [DailyAdherence]
    /// Each selected task's adherence for each day of `window`, by task id, from one read of the store: the tasks that
    /// impact adherence (every selected task when `includingAll`), each as ``adherence(taskQuery:window:calendar:)``
    /// gives it for that task alone; a task with no version in effect during the window has no entry. What a study
    /// team's view of adherence per task reads.
    func adherenceByTask(taskQuery: CareQuery, window: DateInterval, calendar: Calendar, includingAll: Bool) async throws -> [String: [DailyAdherence]]
    /// The events of `eventWindow`, as ``events(taskQuery:window:)`` gives them, and the adherence of each day of
    /// `adherenceWindow`, as ``adherence(taskQuery:window:calendar:)`` gives it, read together from one state of the
    /// store: what a daily page with its week's completion rings shows.
    func events(taskQuery: CareQuery, window eventWindow: DateInterval, withAdherenceOver adherenceWindow: DateInterval,
                calendar: Calendar) async throws -> (events: [CareEvent], adherence: [DailyAdherence])
    /// Daily aggregates of one task's outcome values (of `kind`, or all) for charts.
    func insights(taskID: String, window: DateInterval, kind: String?, aggregate: InsightAggregate, calendar: Calendar) async throws -> [DailyInsight]

    /// A stream that yields after every committed write, naming what it touched.
    func changes() -> AsyncStream<CareChange>
    /// A number that grows with every write this store commits, before the write returns. What was read after
    /// seeing a revision stays current while the revision does, so it can be kept: the study server keeps each
    /// participant's home page so. Writes by another process to the same files are not counted.
    var revision: UInt64 { get }
}

/// What one committed write touched.
public struct CareChange: Hashable, Sendable {
    /// Ids of the entities written, by kind.
    public var entities: [EntityKind: Set<String>]
    /// Ids of the tasks whose outcomes were written.
    public var outcomeTaskIDs: Set<String>

    /// Creates a change description.
    public init(entities: [EntityKind: Set<String>] = [:], outcomeTaskIDs: Set<String> = []) {
        self.entities = entities
        self.outcomeTaskIDs = outcomeTaskIDs
    }
}

extension CareStore {
    /// Fresh results of `fetch` now, and again after every committed change whose results differ from the last
    /// ones sent: a write that does not change what the query returns sends nothing.
    ///
    /// ```swift
    /// for try await tasks in store.observe { try await $0.fetch(CareTask.self, query: query) } { … }
    /// ```
    public func observe<Result: Equatable & Sendable>(
        _ fetch: @escaping @Sendable (any CareStore) async throws -> Result
    ) -> AsyncThrowingStream<Result, any Error> {
        let changes = self.changes()
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var last = try await fetch(self)
                    continuation.yield(last)
                    for await _ in changes {
                        let fresh = try await fetch(self)
                        if fresh != last {
                            last = fresh
                            continuation.yield(fresh)
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Entities of a query, now and after every change to them.
    public func observe<Entity: VersionedEntity>(_ type: Entity.Type, query: CareQuery) -> AsyncThrowingStream<[Entity], any Error> {
        observe { try await $0.fetch(type, query: query) }
    }

    /// Events of a window with their outcomes, now and after every change to them.
    public func observeEvents(taskQuery: CareQuery, window: DateInterval) -> AsyncThrowingStream<[CareEvent], any Error> {
        observe { try await $0.events(taskQuery: taskQuery, window: window) }
    }
}
