import Foundation
import Synchronization
import StudyKitEnvironment

/// The care store's rules, written once over any ``CareStorage``: the in-memory store and the SQLite store are
/// this type with different storage.
///
/// Versions: an update writes a new version in effect from its `effectiveDate` (no earlier than the current
/// one) and links the two; a delete writes a tombstone in effect from now; a deleted id may be added again,
/// continuing the same chain. A query for a date interval returns, for each id, the version in effect at the
/// interval's end. Each task version owns the events its schedule yields from its effective date until the next
/// version's; an outcome belongs to one such event, and a change that would leave outcomes on events no version
/// owns any more is refused, naming the events' dates.
public final class StorageBackedCareStore<Storage: CareStorage>: CareStore {
    /// Where the rows live.
    public let storage: Storage
    private let environment: StudyKitEnvironment
    private let broadcaster = ChangeBroadcaster()
    /// Entities already decoded from their stored JSON, by version UUID: a version's payload never changes, so an
    /// entry never goes stale.
    private let decodedVersions = KeptValues<UUID, any VersionedEntity>(capacity: 65_536)
    /// The task versions of the sets of ids asked for, in their chains, each with the storage's
    /// ``CareStorageReader/versionsRevision()`` it was read at: while that is the same, no version was written. A
    /// participant's daily page asks for the same ids on every visit and after every outcome written.
    private let taskChains = KeptValues<Set<String>, (revision: Int64, chains: Chains)>(capacity: 1_024)
    /// The task spans of the sets of ids asked for over a window, each with its events there, kept as ``taskChains``
    /// are: a schedule's events change only with a new version. The daily page asks for the same week on every visit.
    private let scheduledWindows = KeptValues<ScheduledWindowKey, (revision: Int64, scheduled: ScheduledSpans)>(capacity: 1_024)
    /// ``taskChains`` and ``scheduledWindows`` for queries of more than ``largeQuery`` ids (a reminder round asks for
    /// every reminded task of a study): few are kept, so that memory stays bounded by a few such queries' worth and
    /// not by a thousand of them.
    private let largeTaskChains = KeptValues<Set<String>, (revision: Int64, chains: Chains)>(capacity: 2)
    private let largeScheduledWindows = KeptValues<ScheduledWindowKey, (revision: Int64, scheduled: ScheduledSpans)>(capacity: 2)
    /// How many ids make a query large (a participant's page asks for a dozen).
    static var largeQuery: Int { 1_024 }
    /// The calendar days of the windows asked for, in each calendar and time zone asked for: the same every time.
    private let dayLists = KeptValues<DayListKey, [DateInterval]>(capacity: 1_024)

    /// A store over `storage`, with the clock and UUIDs of `environment`.
    public init(storage: Storage, environment: StudyKitEnvironment = .live) {
        self.storage = storage
        self.environment = environment
    }

    /// A stream of every write this store commits from now on.
    public func changes() -> AsyncStream<CareChange> { broadcaster.stream() }

    /// Calls `observer` with what every committed write touched, before the write returns (and before
    /// ``changes()`` streams see it): for a cache that must never serve what the write changed. Keep it short; it
    /// runs on the writer's task.
    public func observeCommits(_ observer: @escaping @Sendable (CareChange) -> Void) {
        broadcaster.observe(observer)
    }

    /// How many writes this store has committed: each is counted as it is announced to ``changes()``.
    public var revision: UInt64 { broadcaster.count }

    // MARK: - Entities

    /// Adds first versions (or continues a deleted id's chain); see ``CareStore/add(_:)``.
    public func add<Entity: VersionedEntity>(_ entities: [Entity]) async throws -> [Entity] {
        guard !entities.isEmpty else { return [] } // nothing to write, nothing to announce
        let (added, change) = try await storage.write { writer in try await self.add(entities, in: writer) }
        announce(change)
        return added
    }

    /// Writes new versions after checking their dates and that no outcome would be orphaned.
    public func update<Entity: VersionedEntity>(_ entities: [Entity]) async throws -> [Entity] {
        try await writeVersions(entities) { entity, head, writer, now in
            guard let head, head.deletedDate == nil else { throw CareStoreError.notFound(kind: Entity.kind, id: entity.id) }
            guard entity.effectiveDate >= head.effectiveDate else {
                throw CareStoreError.effectiveDateTooEarly(kind: Entity.kind, id: entity.id, effectiveDate: entity.effectiveDate, previous: head.effectiveDate)
            }
            try await self.checkParent(of: entity, in: writer)
            try await self.checkNoOrphans(replacing: head, from: entity.effectiveDate, in: writer)
            let current: Entity = try self.entity(head)
            var entity = entity
            entity.version.createdDate = current.version.createdDate
            entity.version.updatedDate = now
            entity.version.deletedDate = nil
            return entity
        }
    }

    /// Writes tombstones after checking that no outcome would be orphaned.
    public func delete<Entity: VersionedEntity>(_ entities: [Entity]) async throws -> [Entity] {
        try await writeVersions(entities) { entity, head, writer, now in
            guard let head, head.deletedDate == nil else { throw CareStoreError.notFound(kind: Entity.kind, id: entity.id) }
            var tombstone: Entity = try self.entity(head)
            let effective = max(now, head.effectiveDate)
            try await self.checkNoOrphans(replacing: head, from: effective, in: writer)
            tombstone.version.effectiveDate = effective
            tombstone.version.updatedDate = now
            tombstone.version.deletedDate = now
            return tombstone
        }
    }

    /// Adds first versions inside a write transaction the caller holds (enrolling a participant writes their care
    /// plan with their account); checks and stores exactly as ``add(_:)``. Pass the returned change to
    /// ``announce(_:)`` once the caller's transaction has committed.
    public func add<Entity: VersionedEntity>(_ entities: [Entity], in writer: any CareStorageWriter) async throws -> (entities: [Entity], change: CareChange) {
        let written = try await writeVersions(entities, in: writer) { entity, head, writer, now in
            if let head, head.deletedDate == nil { throw CareStoreError.alreadyExists(kind: Entity.kind, id: entity.id) }
            // Re-adding a deleted id continues its chain after the tombstone.
            if let head, entity.effectiveDate < head.effectiveDate {
                throw CareStoreError.effectiveDateTooEarly(kind: Entity.kind, id: entity.id, effectiveDate: entity.effectiveDate, previous: head.effectiveDate)
            }
            try await self.checkParent(of: entity, in: writer)
            var entity = entity
            entity.version.createdDate = now
            entity.version.updatedDate = now
            entity.version.deletedDate = nil
            return entity
        }
        return (written, CareChange(entities: [Entity.kind: Set(written.map(\.id))]))
    }

    /// The shared part of add, update and delete: in one write, find each id's newest version, let `makeVersion`
    /// check the change and give the new version's content, then store it with a fresh UUID, linked after the
    /// newest version, and announce the change.
    private func writeVersions<Entity: VersionedEntity>(
        _ entities: [Entity],
        _ makeVersion: @escaping @Sendable (_ entity: Entity, _ head: StoredVersion?, _ writer: any CareStorageWriter, _ now: Date) async throws -> Entity
    ) async throws -> [Entity] {
        guard !entities.isEmpty else { return [] } // nothing to write, nothing to announce
        let written = try await storage.write { writer in try await self.writeVersions(entities, in: writer, makeVersion) }
        announce(CareChange(entities: [Entity.kind: Set(written.map(\.id))]))
        return written
    }

    /// ``writeVersions(_:_:)`` inside the caller's transaction.
    private func writeVersions<Entity: VersionedEntity>(
        _ entities: [Entity], in writer: any CareStorageWriter,
        _ makeVersion: (_ entity: Entity, _ head: StoredVersion?, _ writer: any CareStorageWriter, _ now: Date) async throws -> Entity
    ) async throws -> [Entity] {
        try Self.checkUniqueIDs(entities)
        let chains = try await Chains(writer.versions(of: Entity.kind, ids: Set(entities.map(\.id))))
        let now = environment.now()
        return try await entities.sequentialMap { entity in
            let head = chains.head(of: entity.id)
            var version = try await makeVersion(entity, head, writer, now)
            version.version.uuid = environment.makeUUID()
            version.version.previousVersionUUIDs = head.map { [$0.uuid] } ?? []
            version.version.nextVersionUUIDs = []
            try await writer.insert(Self.stored(version, previous: head?.uuid))
            if let head { try await writer.setNextVersion(of: head.uuid, to: version.uuid) }
            return version
        }
    }

    /// The versions in effect that pass the query, sorted and paged.
    public func fetch<Entity: VersionedEntity>(_ type: Entity.Type, query: CareQuery) async throws -> [Entity] {
        try await storage.read { reader in
            try self.entities(try await self.select(Entity.self, query: query, in: reader))
        }
    }

    /// The whole chain of versions of one id, oldest first.
    public func versions<Entity: VersionedEntity>(of type: Entity.Type, id: String) async throws -> [Entity] {
        try await storage.read { reader in
            try await Chains(reader.versions(of: Entity.kind, ids: [id])).chain(of: id).map { try self.entity($0) as Entity }
        }
    }

    // MARK: - Outcomes

    /// Adds outcomes after checking each event in one batch of reads.
    public func addOutcomes(_ outcomes: [Outcome]) async throws -> [Outcome] {
        guard !outcomes.isEmpty else { return [] } // nothing to write, nothing to announce
        let (added, change) = try await storage.write { writer in try await self.addOutcomes(outcomes, in: writer) }
        announce(change)
        return added
    }

    /// Adds outcomes inside a write transaction the caller holds: the joined write of a larger action whose other
    /// rows live in the same database (a finished survey's run and its outcome commit together). Checks and stores
    /// exactly as ``addOutcomes(_:)``; an outcome refused by a check is refused before anything of the batch is
    /// written. Pass the returned change to ``announce(_:)`` once the caller's transaction has committed.
    public func addOutcomes(_ outcomes: [Outcome], in writer: any CareStorageWriter) async throws -> (outcomes: [Outcome], change: CareChange) {
        var taskIDs = Set<String>()
        var claimed = Set<EventKey>()
        let ids = try await checkEvents(of: outcomes, in: writer)
        for (outcome, taskID) in zip(outcomes, ids) {
            taskIDs.insert(taskID)
            guard claimed.insert(EventKey(task: outcome.taskUUID, occurrence: outcome.occurrenceIndex)).inserted else {
                throw CareStoreError.outcomeExists(taskID: taskID, occurrenceIndex: outcome.occurrenceIndex)
            }
        }
        let added = outcomes.map { outcome in
            var outcome = outcome
            outcome.uuid = environment.makeUUID()
            outcome.createdDate = environment.now()
            outcome.deletedDate = nil
            return outcome
        }
        try await writer.insert(contentsOf: added)
        return (added, CareChange(outcomeTaskIDs: taskIDs))
    }

    /// Counts a change committed by a joined write (``add(_:in:)``, ``addOutcomes(_:in:)``) in ``revision`` and sends it
    /// to every ``changes()`` stream. Call it once the transaction has committed, never for one rolled back.
    public func announce(_ change: CareChange) {
        broadcaster.send(change)
    }

    /// Replaces outcomes: the old one is marked deleted and a new one written for the same event.
    public func updateOutcomes(_ outcomes: [Outcome]) async throws -> [Outcome] {
        guard !outcomes.isEmpty else { return [] } // nothing to write, nothing to announce
        let environment = self.environment
        let (updated, taskIDs) = try await storage.write { writer in
            var taskIDs = Set<String>()
            var replaced = Set<UUID>()
            let existing = Dictionary(try await writer.outcomes(uuids: Set(outcomes.map(\.uuid))).map { ($0.uuid, $0) }, uniquingKeysWith: { a, _ in a })
            let updated = try await outcomes.sequentialMap { outcome in
                // An outcome replaced earlier in this call is no longer live.
                guard let old = existing[outcome.uuid], old.deletedDate == nil, replaced.insert(old.uuid).inserted else {
                    throw CareStoreError.outcomeNotFound(outcome.uuid)
                }
                try await writer.markOutcomeDeleted(old.uuid, at: environment.now())
                var outcome = outcome
                outcome.taskUUID = old.taskUUID
                outcome.occurrenceIndex = old.occurrenceIndex
                taskIDs.insert(try await self.checkEvent(of: outcome, in: writer))
                outcome.uuid = environment.makeUUID()
                outcome.createdDate = environment.now()
                outcome.deletedDate = nil
                try await writer.insert(outcome)
                return outcome
            }
            return (updated, taskIDs)
        }
        broadcaster.send(CareChange(outcomeTaskIDs: taskIDs))
        return updated
    }

    /// Marks outcomes deleted.
    public func deleteOutcomes(_ outcomes: [Outcome]) async throws -> [Outcome] {
        guard !outcomes.isEmpty else { return [] } // nothing to write, nothing to announce
        let (deleted, change) = try await storage.write { writer in try await self.deleteOutcomes(outcomes, in: writer) }
        announce(change)
        return deleted
    }

    /// Deletes outcomes inside a write transaction the caller holds (a withdrawn survey's run and its outcome commit
    /// together), as ``deleteOutcomes(_:)`` does; pass the returned change to ``announce(_:)`` once committed.
    public func deleteOutcomes(_ outcomes: [Outcome], in writer: any CareStorageWriter) async throws -> (outcomes: [Outcome], change: CareChange) {
        let existing = Dictionary(try await writer.outcomes(uuids: Set(outcomes.map(\.uuid))).map { ($0.uuid, $0) }, uniquingKeysWith: { a, _ in a })
        let versions = Dictionary(try await writer.versions(uuids: Set(existing.values.map(\.taskUUID))).map { ($0.uuid, $0.id) }, uniquingKeysWith: { a, _ in a })
        var taskIDs = Set<String>()
        var removed = Set<UUID>()
        let deleted = try await outcomes.sequentialMap { outcome in
            // An outcome deleted earlier in this call is no longer live.
            guard var old = existing[outcome.uuid], old.deletedDate == nil, removed.insert(old.uuid).inserted else {
                throw CareStoreError.outcomeNotFound(outcome.uuid)
            }
            let now = environment.now()
            try await writer.markOutcomeDeleted(old.uuid, at: now)
            old.deletedDate = now
            if let id = versions[old.taskUUID] { taskIDs.insert(id) }
            return old
        }
        return (deleted, CareChange(outcomeTaskIDs: taskIDs))
    }

    /// Live outcomes that pass the query, ordered by their events' start.
    public func fetchOutcomes(query: OutcomeQuery) async throws -> [Outcome] {
        try await storage.read { reader in
            var taskUUIDs = query.taskUUIDs
            var taskVersions: [UUID: StoredVersion] = [:]
            if !query.taskIDs.isEmpty {
                let versions = try await reader.versions(of: .task, ids: query.taskIDs)
                for version in versions { taskVersions[version.uuid] = version }
                // Both filters must hold: the versions of those tasks, narrowed to the listed UUIDs if any.
                let ofTasks = Set(versions.map(\.uuid))
                taskUUIDs = query.taskUUIDs.isEmpty ? ofTasks : ofTasks.intersection(query.taskUUIDs)
                if taskUUIDs.isEmpty { return [] }
            }
            var outcomes = try await reader.outcomes(taskUUIDs: taskUUIDs, occurrences: nil, includeDeleted: false)
            if !query.uuids.isEmpty { outcomes = outcomes.filter { query.uuids.contains($0.uuid) } }
            if !query.remoteIDs.isEmpty { outcomes = outcomes.filter { $0.remoteID.map(query.remoteIDs.contains) ?? false } }
            if !query.tags.isEmpty { outcomes = outcomes.filter { !query.tags.isDisjoint(with: $0.tags) } }
            let missing = Set(outcomes.map(\.taskUUID)).subtracting(taskVersions.keys)
            for version in try await reader.versions(uuids: missing) { taskVersions[version.uuid] = version }
            var schedules: [UUID: Schedule] = [:]
            func start(of outcome: Outcome) throws -> Date {
                if schedules[outcome.taskUUID] == nil, let version = taskVersions[outcome.taskUUID] {
                    schedules[outcome.taskUUID] = (try self.entity(version) as CareTask).schedule
                }
                return schedules[outcome.taskUUID]?.event(occurrence: outcome.occurrenceIndex)?.start ?? .distantPast
            }
            var dated = try outcomes.map { (outcome: $0, start: try start(of: $0)) }
            if let interval = query.dateInterval { dated = dated.filter { $0.start >= interval.start && $0.start < interval.end } }
            dated.sort { $0.start == $1.start ? $0.outcome.uuid < $1.outcome.uuid : ($0.start < $1.start) == query.ascending }
            return Self.page(dated.map(\.outcome), offset: query.offset, limit: query.limit)
        }
    }

    // MARK: - Events, adherence, insights

    /// The window's events, each owned by the task version in effect when it starts, with outcomes and progress.
    public func events(taskQuery: CareQuery, window: DateInterval) async throws -> [CareEvent] {
        try await storage.read { reader in try await self.events(taskQuery: taskQuery, window: window, in: reader) }
    }

    /// The events open at `instant` without an outcome: the events of the UTC hour that holds it (kept as any window's
    /// are, so the next ask within the hour finds them), those open at the instant, less those with a live outcome.
    public func openEventsWithoutOutcomes(taskQuery: CareQuery, at instant: Date) async throws -> [CareEvent] {
        let hour = DateInterval(start: Date(timeIntervalSince1970: (instant.timeIntervalSince1970 / 3_600).rounded(.down) * 3_600), duration: 3_600)
        return try await storage.read { reader in
            let scheduled = try await self.scheduledSpans(taskQuery: taskQuery, window: hour, in: reader)
            var open: [[ScheduleEvent]] = []
            var ranges: [UUID: ClosedRange<Int>] = [:]
            for index in scheduled.spans.indices {
                let events = scheduled.events[index].filter { $0.start <= instant && instant < $0.end }
                open.append(events)
                if let range = TaskSpan.occurrences(of: events) { ranges[scheduled.spans[index].task.uuid] = range }
            }
            var recorded = Set<EventKey>()
            for event in try await reader.liveOutcomeEvents(in: ranges) {
                recorded.insert(EventKey(task: event.taskUUID, occurrence: event.occurrenceIndex))
            }
            var result: [CareEvent] = []
            for index in scheduled.spans.indices {
                let task = scheduled.spans[index].task
                for event in open[index] where !recorded.contains(EventKey(task: task.uuid, occurrence: event.occurrence)) {
                    result.append(CareEvent(task: task, scheduleEvent: event, outcome: nil, progress: EventProgress(targets: event.targetValues, outcome: nil)))
                }
            }
            return Self.inEventOrder(result)
        }
    }

    /// The tasks among `ids` with a live outcome: every version of each (deleted ones too: their outcomes stay live
    /// until deleted), each looked up over all its occurrences.
    public func taskIDsWithOutcomes(among ids: Set<String>) async throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        return try await storage.read { reader in
            var owners: [UUID: String] = [:]
            var ranges: [UUID: ClosedRange<Int>] = [:]
            for version in try await reader.versions(of: .task, ids: ids) {
                owners[version.uuid] = version.id
                ranges[version.uuid] = Self.everyOccurrence
            }
            return Set(try await reader.liveOutcomeEvents(in: ranges).compactMap { owners[$0.taskUUID] })
        }
    }

    /// Every occurrence index a schedule can give (far past any study's).
    static var everyOccurrence: ClosedRange<Int> { 0...Int(Int32.max) }

    /// Daily adherence over the tasks that impact it, computed from the window's events.
    public func adherence(taskQuery: CareQuery, window: DateInterval, calendar: Calendar) async throws -> [DailyAdherence] {
        try await storage.read { reader in
            let days = self.days(in: window, calendar: calendar)
            guard let covered = Self.covering(days) else { return [] }
            let scheduled = try await self.scheduledSpans(taskQuery: taskQuery, window: covered, in: reader)
            return try await self.adherence(of: scheduled.spans, scheduled: scheduled.events, days: days, in: reader).adherence
        }
    }

    /// A window's events and another window's daily adherence from one read: the task versions are read once, for
    /// both windows together (a version that takes effect after one window ends owns none of its events).
    public func events(taskQuery: CareQuery, window eventWindow: DateInterval, withAdherenceOver adherenceWindow: DateInterval,
                       calendar: Calendar) async throws -> (events: [CareEvent], adherence: [DailyAdherence]) {
        try await storage.read { reader in
            let days = self.days(in: adherenceWindow, calendar: calendar)
            guard let covered = Self.covering(days) else { return (try await self.events(taskQuery: taskQuery, window: eventWindow, in: reader), []) }
            let both = DateInterval(start: min(covered.start, eventWindow.start), end: max(covered.end, eventWindow.end))
            // Each schedule is expanded once, over both windows; each window takes the events that overlap it, as
            // an expansion over it alone would give them (an empty event window is left to its own expansion).
            let all = try await self.scheduledSpans(taskQuery: taskQuery, window: both, in: reader)
            let spans = all.spans
            func within(_ window: DateInterval) -> [[ScheduleEvent]] {
                all.events.map { events in events.filter { $0.start < window.end && $0.end > window.start } }
            }
            // The adherence read first: which of the week's events have a live outcome is then known, and only the
            // chosen day's events among them are read whole.
            let (adherence, known) = try await self.adherence(of: spans, scheduled: within(covered), days: days, in: reader)
            let events = eventWindow.duration > 0
                ? try await self.events(of: spans, scheduled: within(eventWindow), knowing: known, in: reader)
                : try await self.events(of: spans, window: eventWindow, in: reader)
            return (events, adherence)
        }
    }

    /// Each of `days`' adherence over the spans of tasks that impact it, whose events over the days are `scheduled`,
    /// and what was learned of their outcomes on the way.
    private func adherence(of spans: [TaskSpan], scheduled: [[ScheduleEvent]], days: [DateInterval],
                           in reader: any CareStorageReader) async throws -> (adherence: [DailyAdherence], known: KnownOutcomes) {
        let kept = spans.indices.filter { spans[$0].task.impactsAdherence }
        let spans = kept.map { spans[$0] }
        let (events, known) = try await progress(of: spans, scheduled: kept.map { scheduled[$0] }, in: reader)
        return (Self.daily(events, spans: spans, days: days), known)
    }

    /// Each task's daily adherence over `window`, from one read: the tasks the query selects that impact adherence
    /// (every one with `includingAll`), each by its id as ``adherence(taskQuery:window:calendar:)`` gives it for that
    /// task alone. A task with no version in effect during the window has no entry.
    public func adherenceByTask(taskQuery: CareQuery, window: DateInterval, calendar: Calendar,
                                includingAll: Bool) async throws -> [String: [DailyAdherence]] {
        try await storage.read { reader in
            let days = self.days(in: window, calendar: calendar)
            guard let covered = Self.covering(days) else { return [:] }
            let scheduled = try await self.scheduledSpans(taskQuery: taskQuery, window: covered, in: reader)
            let kept = scheduled.spans.indices.filter { includingAll || scheduled.spans[$0].task.impactsAdherence }
            let events = try await self.progress(of: kept.map { scheduled.spans[$0] }, scheduled: kept.map { scheduled.events[$0] }, in: reader).events
            // The events come span by span, each span's in its schedule's order: each task takes its spans' runs.
            var byTask: [String: (spans: [TaskSpan], events: [(start: Date, progress: EventProgress)])] = [:]
            var offset = 0
            for index in kept {
                let span = scheduled.spans[index], count = scheduled.events[index].count
                byTask[span.task.id, default: ([], [])].spans.append(span)
                byTask[span.task.id, default: ([], [])].events += events[offset..<(offset + count)]
                offset += count
            }
            return byTask.mapValues { Self.daily($0.events, spans: $0.spans, days: days) }
        }
    }

    /// Each of `days`' adherence from the start and progress of the events of `spans`: the mean progress of the events
    /// that start in the day, in the order they come; no events when none does; no tasks when no span is in effect.
    private static func daily(_ events: some Sequence<(start: Date, progress: EventProgress)>, spans: [TaskSpan],
                              days: [DateInterval]) -> [DailyAdherence] {
        var totals = [Double](repeating: 0, count: days.count)
        var counts = [Int](repeating: 0, count: days.count)
        for event in events {
            guard let index = Self.index(ofDayStartingBefore: event.start, in: days), event.start < days[index].end else { continue }
            totals[index] += event.progress.fractionCompleted
            counts[index] += 1
        }
        return days.indices.map { index in
            let day = days[index]
            guard spans.contains(where: { $0.overlaps(day) }) else { return DailyAdherence(date: day.start, state: .noTasks) }
            guard counts[index] > 0 else { return DailyAdherence(date: day.start, state: .noEvents) }
            return DailyAdherence(date: day.start, state: .progress(totals[index] / Double(counts[index])))
        }
    }

    /// The last of `days` (sorted by start) that starts at or before `date`; nil when none does.
    private static func index(ofDayStartingBefore date: Date, in days: [DateInterval]) -> Int? {
        var low = 0, high = days.count // the answer is below `high`
        while low < high {
            let middle = (low + high) / 2
            if days[middle].start <= date { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }

    /// Daily count, sum or mean of one task's outcome values.
    public func insights(taskID: String, window: DateInterval, kind: String?, aggregate: InsightAggregate,
                         calendar: Calendar) async throws -> [DailyInsight] {
        try await storage.read { reader in
            var query = CareQuery()
            query.ids = [taskID]
            let days = self.days(in: window, calendar: calendar)
            guard let covered = Self.covering(days) else { return [] }
            let events = try await self.events(taskQuery: query, window: covered, in: reader)
            return days.map { day in
                let outcomes = events.filter { $0.scheduleEvent.start >= day.start && $0.scheduleEvent.start < day.end }.compactMap(\.outcome)
                let values = outcomes.flatMap(\.values).filter { kind == nil || $0.kind == kind }.compactMap(\.value.numericValue)
                switch aggregate {
                case .count: return DailyInsight(date: day.start, value: Double(outcomes.count), sampleCount: outcomes.count)
                case .sum: return DailyInsight(date: day.start, value: values.reduce(0, +), sampleCount: values.count)
                case .mean: return DailyInsight(date: day.start, value: values.isEmpty ? nil : values.reduce(0, +) / Double(values.count), sampleCount: values.count)
                }
            }
        }
    }

    // MARK: - Rules

    private static func checkUniqueIDs<Entity: VersionedEntity>(_ entities: [Entity]) throws {
        var seen = Set<String>()
        for entity in entities where !seen.insert(entity.id).inserted {
            throw CareStoreError.duplicateInBatch(kind: Entity.kind, id: entity.id)
        }
    }

    private func checkParent<Entity: VersionedEntity>(of entity: Entity, in reader: any CareStorageReader) async throws {
        guard let parent = entity.parentUUID else { return }
        let expected: EntityKind = Entity.kind == .carePlan ? .patient : .carePlan
        guard try await reader.versions(uuids: [parent]).contains(where: { $0.kind == expected }) else {
            throw CareStoreError.unknownParent(kind: Entity.kind, id: entity.id, parentUUID: parent)
        }
    }

    /// Refuses a new version (or tombstone) of a task in effect from `date` when the current version has live
    /// outcomes on events that start at or after `date`.
    private func checkNoOrphans(replacing head: StoredVersion, from date: Date, in reader: any CareStorageReader) async throws {
        guard head.kind == .task else { return }
        let outcomes = try await reader.outcomes(taskUUIDs: [head.uuid], occurrences: nil, includeDeleted: false)
        guard !outcomes.isEmpty else { return }
        let task: CareTask = try entity(head)
        let orphaned = outcomes.compactMap { task.schedule.event(occurrence: $0.occurrenceIndex)?.start }.filter { $0 >= date }.sorted()
        if !orphaned.isEmpty { throw CareStoreError.wouldOrphanOutcomes(taskID: task.id, effectiveDate: date, eventDates: orphaned) }
    }

    /// Checks that an outcome's event exists, belongs to its task version, and has no live outcome; returns the
    /// task's id.
    private func checkEvent(of outcome: Outcome, in reader: any CareStorageReader) async throws -> String {
        try await checkEvents(of: [outcome], in: reader)[0]
    }

    /// ``checkEvent(of:in:)`` for a batch, with three reads in all rather than three per outcome: the task
    /// versions, the versions that replaced them, and the live outcomes in each task's range of occurrences.
    /// (Outcomes of the batch itself are checked against each other by the caller.)
    private func checkEvents(of outcomes: [Outcome], in reader: any CareStorageReader) async throws -> [String] {
        let stored = Dictionary(try await reader.versions(uuids: Set(outcomes.map(\.taskUUID))).filter { $0.kind == .task }.map { ($0.uuid, $0) },
                                uniquingKeysWith: { first, _ in first })
        let newer = Dictionary(try await reader.versions(uuids: Set(stored.values.compactMap(\.nextVersionUUID))).map { ($0.uuid, $0) },
                               uniquingKeysWith: { first, _ in first })
        var ranges: [UUID: ClosedRange<Int>] = [:]
        for outcome in outcomes where stored[outcome.taskUUID] != nil {
            let index = outcome.occurrenceIndex
            ranges[outcome.taskUUID] = ranges[outcome.taskUUID].map { min($0.lowerBound, index)...max($0.upperBound, index) } ?? index...index
        }
        // Any live outcome counts, even one with this outcome's UUID: an update marks the old one deleted first.
        let live = Set(try await reader.liveOutcomeEvents(in: ranges).map { EventKey(task: $0.taskUUID, occurrence: $0.occurrenceIndex) })
        // Each task's events for the batch's occurrences, computed together, and the first moment any may start.
        var occurrencesByTask: [UUID: [Int]] = [:]
        for outcome in outcomes { occurrencesByTask[outcome.taskUUID, default: []].append(outcome.occurrenceIndex) }
        var scheduled: [UUID: (earliest: Date, starts: [Int: Date])] = [:]
        for (taskUUID, occurrences) in occurrencesByTask {
            guard let version = stored[taskUUID], version.deletedDate == nil else { continue }
            let task: CareTask = try entity(version)
            scheduled[taskUUID] = (task.effectiveDate, task.schedule.events(occurrences: occurrences).mapValues(\.start))
        }
        return try outcomes.map { outcome in
            guard let version = stored[outcome.taskUUID], let (earliest, starts) = scheduled[outcome.taskUUID] else {
                throw CareStoreError.unknownTaskVersion(outcome.taskUUID)
            }
            guard outcome.occurrenceIndex >= 0, let start = starts[outcome.occurrenceIndex], start >= earliest else {
                throw CareStoreError.noSuchOccurrence(taskID: version.id, occurrenceIndex: outcome.occurrenceIndex)
            }
            if let next = version.nextVersionUUID, let newer = newer[next], start >= newer.effectiveDate {
                throw CareStoreError.shadowedOccurrence(taskID: version.id, occurrenceIndex: outcome.occurrenceIndex,
                                                        eventStart: start, newerVersionEffective: newer.effectiveDate)
            }
            if live.contains(EventKey(task: outcome.taskUUID, occurrence: outcome.occurrenceIndex)) {
                throw CareStoreError.outcomeExists(taskID: version.id, occurrenceIndex: outcome.occurrenceIndex)
            }
            return version.id
        }
    }

    /// The stored versions a query selects: for each candidate id, the version in effect at the end of the
    /// query's interval (or the newest), if it passes every filter and is not a tombstone; sorted and paged.
    private func select<Entity: VersionedEntity>(_ type: Entity.Type, query: CareQuery, in reader: any CareStorageReader) async throws -> [StoredVersion] {
        var filter = StoredVersionFilter()
        filter.ids = query.ids
        filter.uuids = query.uuids
        filter.remoteIDs = query.remoteIDs
        filter.groupIdentifiers = query.groupIdentifiers
        filter.tags = query.tags
        filter.effectiveBefore = query.dateInterval?.end
        if let parents = try await parentUUIDs(for: Entity.kind, query: query, in: reader) {
            if parents.isEmpty { return [] }
            filter.parentUUIDs = parents
        }
        let candidates = try await reader.versions(of: Entity.kind, matching: filter)
        let chains = try await Chains(reader.versions(of: Entity.kind, ids: Set(candidates.map(\.id))))
        var selected: [StoredVersion] = []
        for id in chains.ids {
            guard let version = chains.version(of: id, at: query.dateInterval?.end), version.deletedDate == nil,
                  Self.matches(version, filter) else { continue }
            selected.append(version)
        }
        let sorted = try sort(selected, by: query.sortOrder, as: Entity.self)
        return Self.page(sorted, offset: query.offset, limit: query.limit)
    }

    /// The parent UUIDs that the query's care plan or patient ids name, or nil when it names none.
    private func parentUUIDs(for kind: EntityKind, query: CareQuery, in reader: any CareStorageReader) async throws -> Set<UUID>? {
        if (kind == .task || kind == .contact) && !query.carePlanIDs.isEmpty {
            return Set(try await reader.versions(of: .carePlan, ids: query.carePlanIDs).map(\.uuid))
        }
        if kind == .carePlan && !query.patientIDs.isEmpty {
            return Set(try await reader.versions(of: .patient, ids: query.patientIDs).map(\.uuid))
        }
        return nil
    }

    private static func matches(_ version: StoredVersion, _ filter: StoredVersionFilter) -> Bool {
        (filter.ids.isEmpty || filter.ids.contains(version.id))
            && (filter.uuids.isEmpty || filter.uuids.contains(version.uuid))
            && (filter.remoteIDs.isEmpty || version.remoteID.map(filter.remoteIDs.contains) == true)
            && (filter.groupIdentifiers.isEmpty || version.groupIdentifier.map(filter.groupIdentifiers.contains) == true)
            && (filter.tags.isEmpty || !filter.tags.isDisjoint(with: version.tags))
            && (filter.parentUUIDs.isEmpty || version.parentUUID.map(filter.parentUUIDs.contains) == true)
    }

    private func sort<Entity: VersionedEntity>(_ versions: [StoredVersion], by keys: [CareSortKey], as type: Entity.Type) throws -> [StoredVersion] {
        let keys = keys.isEmpty ? [.id(ascending: true)] : keys
        let needsEntity = keys.contains { if case .title = $0 { true } else if case .createdDate = $0 { true } else { false } }
        let entities: [UUID: Entity] = needsEntity ? Dictionary(uniqueKeysWithValues: try versions.map { ($0.uuid, try entity($0) as Entity) }) : [:]
        func title(_ version: StoredVersion) -> String {
            switch entities[version.uuid] {
            case let task as CareTask: task.title ?? ""
            case let plan as CarePlan: plan.title
            case let contact as Contact: [contact.name.familyName, contact.name.givenName].compactMap { $0 }.joined(separator: " ")
            case let patient as Patient: [patient.name.familyName, patient.name.givenName].compactMap { $0 }.joined(separator: " ")
            default: ""
            }
        }
        return versions.sorted { a, b in
            for key in keys {
                let order: ComparisonResult
                let ascending: Bool
                switch key {
                case .id(let up): order = a.id.compare(b.id); ascending = up
                case .effectiveDate(let up): order = a.effectiveDate.compare(b.effectiveDate); ascending = up
                case .title(let up): order = title(a).localizedStandardCompare(title(b)); ascending = up
                case .createdDate(let up):
                    order = (entities[a.uuid]?.version.createdDate ?? .distantPast).compare(entities[b.uuid]?.version.createdDate ?? .distantPast)
                    ascending = up
                }
                if order != .orderedSame { return (order == .orderedAscending) == ascending }
            }
            return a.id < b.id
        }
    }

    private static func page<T>(_ items: [T], offset: Int, limit: Int?) -> [T] {
        let start = min(max(0, offset), items.count)
        let end = limit.map { min(items.count, start + max(0, $0)) } ?? items.count
        return Array(items[start..<end])
    }

    /// Every live task version selected by the query's filters that takes effect before `window` ends. A version
    /// whose span ended before the window is kept too: one of its events may run into the window.
    private func taskSpans(taskQuery: CareQuery, window: DateInterval, in reader: any CareStorageReader) async throws -> [TaskSpan] {
        if let ids = Self.taskIDsAlone(in: taskQuery), let revision = try await reader.versionsRevision() {
            return try await taskSpans(ids: ids, revision: revision, window: window, in: reader)
        }
        var filter = StoredVersionFilter()
        filter.ids = taskQuery.ids
        filter.uuids = taskQuery.uuids
        filter.remoteIDs = taskQuery.remoteIDs
        filter.groupIdentifiers = taskQuery.groupIdentifiers
        filter.tags = taskQuery.tags
        filter.effectiveBefore = window.end
        if let parents = try await parentUUIDs(for: .task, query: taskQuery, in: reader) {
            if parents.isEmpty { return [] }
            filter.parentUUIDs = parents
        }
        let filteredOnlyByIDAndDate = filter.uuids.isEmpty && filter.remoteIDs.isEmpty && filter.groupIdentifiers.isEmpty
            && filter.tags.isEmpty && filter.parentUUIDs.isEmpty
        let candidates = try await reader.versions(of: .task, matching: filter)
        // Filtered only by id and date, the candidates are every version of their ids in effect before the window
        // ends: enough for the chains (a later version only ends a span after the window). Otherwise read them all.
        let chains = try await Chains(filteredOnlyByIDAndDate ? candidates : reader.versions(of: .task, ids: Set(candidates.map(\.id))))
        return try spans(of: chains, matching: filter, window: window)
    }

    /// ``taskSpans(taskQuery:window:in:)`` for a query that names tasks by id alone, in a storage at versions revision
    /// `revision`: every version of those ids, kept while no version is written. (Versions that take effect after the
    /// window are skipped; one only ends a span after the window.)
    private func taskSpans(ids: Set<String>, revision: Int64, window: DateInterval, in reader: any CareStorageReader) async throws -> [TaskSpan] {
        let chains: Chains
        let kept = ids.count > Self.largeQuery ? largeTaskChains : taskChains
        if let known = kept[ids], known.revision == revision {
            chains = known.chains
        } else {
            chains = try await Chains(reader.versions(of: .task, ids: ids))
            kept.keep((revision, chains), for: ids)
        }
        var filter = StoredVersionFilter()
        filter.ids = ids
        return try spans(of: chains, matching: filter, window: window)
    }

    /// The ids a task query names when it filters by nothing else (its date interval aside); nil otherwise.
    private static func taskIDsAlone(in query: CareQuery) -> Set<String>? {
        guard !query.ids.isEmpty, query.uuids.isEmpty, query.remoteIDs.isEmpty, query.groupIdentifiers.isEmpty, query.tags.isEmpty,
              query.carePlanIDs.isEmpty else { return nil }
        return query.ids
    }

    /// The spans of the live versions in `chains` that pass `filter` and take effect before `window` ends.
    private func spans(of chains: Chains, matching filter: StoredVersionFilter, window: DateInterval) throws -> [TaskSpan] {
        var selected: [(version: StoredVersion, end: Date?)] = []
        for id in chains.ids {
            let chain = chains.chain(of: id)
            for (index, version) in chain.enumerated() where version.deletedDate == nil && Self.matches(version, filter) {
                let end = index + 1 < chain.count ? chain[index + 1].effectiveDate : nil
                guard version.effectiveDate < window.end else { continue }
                selected.append((version, end))
            }
        }
        let tasks: [CareTask] = try entities(selected.map(\.version))
        return zip(selected, tasks).map { TaskSpan(stored: $0.version, task: $1, end: $0.end) }
    }

    private func events(taskQuery: CareQuery, window: DateInterval, in reader: any CareStorageReader) async throws -> [CareEvent] {
        let scheduled = try await scheduledSpans(taskQuery: taskQuery, window: window, in: reader)
        return try await events(of: scheduled.spans, scheduled: scheduled.events, in: reader)
    }

    /// The task spans a query selects over `window`, each with its events that overlap the window; kept while the
    /// versions revision stays the same when the query names tasks by id alone (``scheduledWindows``).
    private func scheduledSpans(taskQuery: CareQuery, window: DateInterval, in reader: any CareStorageReader) async throws -> ScheduledSpans {
        guard let ids = Self.taskIDsAlone(in: taskQuery), let revision = try await reader.versionsRevision() else {
            return ScheduledSpans(try await taskSpans(taskQuery: taskQuery, window: window, in: reader), over: window)
        }
        let key = ScheduledWindowKey(ids: ids, window: window)
        let kept = ids.count > Self.largeQuery ? largeScheduledWindows : scheduledWindows
        if let known = kept[key], known.revision == revision { return known.scheduled }
        let scheduled = ScheduledSpans(try await taskSpans(ids: ids, revision: revision, window: window, in: reader), over: window)
        kept.keep((revision, scheduled), for: key)
        return scheduled
    }

    /// The events each span owns in `window`, with their live outcomes, ordered by start then task id.
    private func events(of spans: [TaskSpan], window: DateInterval, in reader: any CareStorageReader) async throws -> [CareEvent] {
        try await events(of: spans, scheduled: spans.map { $0.events(overlapping: window) }, in: reader)
    }

    /// The events `scheduled` for each span, with their live outcomes, ordered by start then task id. What `known`
    /// says of outcomes (read in the same transaction) is not read again: of the events whose outcomes were looked
    /// for, only those with one are read whole, and none when there are none.
    private func events(of spans: [TaskSpan], scheduled: [[ScheduleEvent]], knowing known: KnownOutcomes = KnownOutcomes(),
                        in reader: any CareStorageReader) async throws -> [CareEvent] {
        var ranges: [UUID: ClosedRange<Int>] = [:]
        var outcomes = known.outcomes
        for index in spans.indices {
            guard let range = TaskSpan.occurrences(of: scheduled[index]) else { continue }
            let task = spans[index].task.uuid
            guard let searched = known.searched[task], searched.contains(range.lowerBound), searched.contains(range.upperBound) else {
                ranges[task] = range
                continue
            }
            var low = Int.max, high = Int.min
            for event in scheduled[index] {
                let key = EventKey(task: task, occurrence: event.occurrence)
                guard known.recorded.contains(key), outcomes[key] == nil else { continue }
                low = min(low, event.occurrence)
                high = max(high, event.occurrence)
            }
            if low <= high { ranges[task] = low...high }
        }
        for outcome in try await reader.liveOutcomes(in: ranges) {
            outcomes[EventKey(task: outcome.taskUUID, occurrence: outcome.occurrenceIndex)] = outcome
        }
        var result: [CareEvent] = []
        result.reserveCapacity(scheduled.reduce(0) { $0 + $1.count })
        for index in spans.indices {
            let task = spans[index].task
            for event in scheduled[index] {
                let outcome = outcomes[EventKey(task: task.uuid, occurrence: event.occurrence)]
                result.append(CareEvent(task: task, scheduleEvent: event, outcome: outcome,
                                        progress: EventProgress(targets: event.targetValues, outcome: outcome)))
            }
        }
        return Self.inEventOrder(result)
    }

    /// `events` in the order reads give them: by start, then task id, then occurrence. The order is found among their
    /// indices, and each event moved once: an event holds its whole task, and a sort moves each many times.
    private static func inEventOrder(_ events: [CareEvent]) -> [CareEvent] {
        let starts = events.map(\.scheduleEvent.start)
        let order = events.indices.sorted { first, second in
            guard starts[first] == starts[second] else { return starts[first] < starts[second] }
            let (firstID, secondID) = (events[first].task.id, events[second].task.id)
            return firstID == secondID ? events[first].scheduleEvent.occurrence < events[second].scheduleEvent.occurrence : firstID < secondID
        }
        return order.map { events[$0] }
    }

    /// The start and progress of each event `scheduled` for each span. Events without targets only need to know
    /// whether an outcome exists, which the storage can answer without reading outcomes whole; events with targets
    /// read their outcomes' values.
    private func progress(of spans: [TaskSpan], scheduled: [[ScheduleEvent]],
                          in reader: any CareStorageReader) async throws -> (events: [(start: Date, progress: EventProgress)], known: KnownOutcomes) {
        var existenceRanges: [UUID: ClosedRange<Int>] = [:]
        var valueRanges: [UUID: ClosedRange<Int>] = [:]
        for index in spans.indices {
            guard let range = TaskSpan.occurrences(of: scheduled[index]) else { continue }
            if scheduled[index].contains(where: { !$0.targetValues.isEmpty }) {
                valueRanges[spans[index].task.uuid] = range
            } else {
                existenceRanges[spans[index].task.uuid] = range
            }
        }
        let live = try await reader.liveOutcomeEvents(in: existenceRanges)
        var recorded = Set<EventKey>(minimumCapacity: live.count)
        for event in live {
            recorded.insert(EventKey(task: event.taskUUID, occurrence: event.occurrenceIndex))
        }
        var outcomes: [EventKey: Outcome] = [:]
        for outcome in try await reader.liveOutcomes(in: valueRanges) {
            outcomes[EventKey(task: outcome.taskUUID, occurrence: outcome.occurrenceIndex)] = outcome
        }
        var result: [(start: Date, progress: EventProgress)] = []
        for index in spans.indices {
            let task = spans[index].task.uuid
            let onlyExistence = existenceRanges[task] != nil
            for event in scheduled[index] {
                let key = EventKey(task: task, occurrence: event.occurrence)
                let progress = event.targetValues.isEmpty && onlyExistence
                    ? EventProgress(completed: recorded.contains(key))
                    : EventProgress(targets: event.targetValues, outcome: outcomes[key])
                result.append((event.start, progress))
            }
        }
        return (result, KnownOutcomes(searched: existenceRanges.merging(valueRanges) { existence, _ in existence },
                                      recorded: recorded, outcomes: outcomes))
    }

    /// From the first day's start to the last day's end: whole days, even when a window starts or ends inside one.
    private static func covering(_ days: [DateInterval]) -> DateInterval? {
        guard let first = days.first, let last = days.last else { return nil }
        return DateInterval(start: first.start, end: last.end)
    }

    /// ``days(in:calendar:)``, kept by window, calendar and time zone (all that the days depend on).
    private func days(in window: DateInterval, calendar: Calendar) -> [DateInterval] {
        dayLists.value(for: DayListKey(window: window, calendar: calendar.identifier, timeZone: calendar.timeZone)) {
            Self.days(in: window, calendar: calendar)
        }
    }

    /// The calendar days that overlap `window`, as intervals from one start of day to the next.
    private static func days(in window: DateInterval, calendar: Calendar) -> [DateInterval] {
        var days: [DateInterval] = []
        var start = calendar.startOfDay(for: window.start)
        while start < window.end {
            guard let next = calendar.date(byAdding: .day, value: 1, to: start) else { break }
            days.append(DateInterval(start: start, end: next))
            start = next
        }
        return days
    }

    // MARK: - Encoding

    static func stored<Entity: VersionedEntity>(_ entity: Entity, previous: UUID?) throws -> StoredVersion {
        StoredVersion(kind: Entity.kind, uuid: entity.uuid, id: entity.id, effectiveDate: entity.effectiveDate,
                      deletedDate: entity.version.deletedDate, previousVersionUUID: previous, nextVersionUUID: nil,
                      groupIdentifier: entity.version.groupIdentifier, remoteID: entity.version.remoteID, tags: entity.version.tags,
                      parentUUID: entity.parentUUID, payload: try JSONEncoder().encode(entity))
    }

    /// The entities `stored` hold, in order, as ``entity(_:)`` gives each. Those not decoded yet are decoded on every
    /// core at once when there are enough for it to pay (a reminder round or an export reads tens of thousands of
    /// task versions after a start, and decoding is what costs), and kept (``decodedVersions``).
    func entities<Entity: VersionedEntity>(_ stored: [StoredVersion]) throws -> [Entity] {
        let missing = stored.indices.filter { decodedVersions[stored[$0].uuid] == nil }
        let workers = ProcessInfo.processInfo.activeProcessorCount
        guard workers > 1, missing.count >= Self.parallelDecodingMinimum else { return try stored.map { try entity($0) } }
        let chunk = (missing.count + workers - 1) / workers
        // Each worker's share, decoded in order into its own slot.
        let shares = Mutex<[[Entity]]>(Array(repeating: [], count: workers))
        let failure = Mutex<(any Error)?>(nil)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let decoder = JSONDecoder()
            let mine = missing[min(missing.count, worker * chunk)..<min(missing.count, (worker + 1) * chunk)]
            var share: [Entity] = []
            share.reserveCapacity(mine.count)
            for index in mine {
                do {
                    share.append(try Self.decode(Entity.self, from: stored[index].payload, using: decoder))
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                    return
                }
            }
            shares.withLock { $0[worker] = share }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        var fresh = [Entity?](repeating: nil, count: stored.count)
        for (position, entity) in zip(missing, shares.withLock { $0 }.joined()) { fresh[position] = entity }
        decodedVersions.keep(contentsOf: missing.lazy.compactMap { index in fresh[index].map { (stored[index].uuid, $0 as any VersionedEntity) } })
        return try stored.indices.map { index in
            guard var entity = fresh[index] else { return try entity(stored[index]) }
            entity.version.nextVersionUUIDs = stored[index].nextVersionUUID.map { [$0] } ?? []
            entity.version.previousVersionUUIDs = stored[index].previousVersionUUID.map { [$0] } ?? []
            return entity
        }
    }

    /// The entity of a stored payload: a task through ``CareTask/init(storedJSON:)`` when it has the shape the store
    /// writes (a third of the cost), anything else (and any task it does not take) through `decoder`.
    static func decode<Entity: VersionedEntity>(_ type: Entity.Type, from payload: Data, using decoder: JSONDecoder) throws -> Entity {
        if Entity.self == CareTask.self, let task = CareTask(storedJSON: payload) as? Entity { return task }
        return try decoder.decode(Entity.self, from: payload)
    }

    /// How many versions to decode make ``entities(_:)`` use every core.
    static var parallelDecodingMinimum: Int { 512 }

    /// The entity a stored version holds, with its version links as the store knows them now.
    ///
    /// A version's payload never changes once written, so decoded entities are kept by version UUID
    /// (``decodedVersions``); only the links, which do change, are read from the row each time.
    func entity<Entity: VersionedEntity>(_ stored: StoredVersion) throws -> Entity {
        var entity: Entity
        if let cached = decodedVersions[stored.uuid] as? Entity {
            entity = cached
        } else {
            entity = try Self.decode(Entity.self, from: stored.payload, using: JSONDecoder())
            decodedVersions.keep(entity, for: stored.uuid)
        }
        entity.version.nextVersionUUIDs = stored.nextVersionUUID.map { [$0] } ?? []
        entity.version.previousVersionUUIDs = stored.previousVersionUUID.map { [$0] } ?? []
        return entity
    }
}

/// Task spans with each one's events in a window, in the same order.
private struct ScheduledSpans: Sendable {
    var spans: [TaskSpan]
    var events: [[ScheduleEvent]]

    init(_ spans: [TaskSpan], over window: DateInterval) {
        self.spans = spans
        events = spans.map { $0.events(overlapping: window) }
    }
}

/// The ids of a task query and a window: what ``StorageBackedCareStore``'s kept schedules are found by.
private struct ScheduledWindowKey: Hashable, Sendable {
    var ids: Set<String>
    var window: DateInterval
}

/// A window and what its calendar days depend on.
private struct DayListKey: Hashable, Sendable {
    var window: DateInterval
    var calendar: Calendar.Identifier
    var timeZone: TimeZone
}

/// What one read learned of the live outcomes of some events: for each task version, the occurrences searched; the
/// events among them with a live outcome; and those outcomes read whole (the others were only seen to exist).
private struct KnownOutcomes {
    var searched: [UUID: ClosedRange<Int>] = [:]
    var recorded: Set<EventKey> = []
    var outcomes: [EventKey: Outcome] = [:]
}

/// One event of one task version: how outcomes are matched to events.
private struct EventKey: Hashable {
    var task: UUID
    var occurrence: Int

    /// The UUID as two words rather than sixteen bytes fed one buffer at a time: a page's read hashes a key per event.
    func hash(into hasher: inout Hasher) {
        withUnsafeBytes(of: task.uuid) { bytes in
            hasher.combine(bytes.loadUnaligned(as: UInt64.self))
            hasher.combine(bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
        hasher.combine(occurrence)
    }
}

/// A task version and the time it owns: from its effective date until the next version's. (Outside the generic
/// store, so that its code is not generic over the storage.)
private struct TaskSpan {
    var stored: StoredVersion
    var task: CareTask
    var end: Date?

    func overlaps(_ interval: DateInterval) -> Bool {
        task.effectiveDate < interval.end && (end.map { $0 > interval.start } ?? true)
    }

    func owns(_ start: Date) -> Bool { start >= task.effectiveDate && (end.map { start < $0 } ?? true) }

    /// The events of the task's schedule that overlap `window` and that this version owns.
    func events(overlapping window: DateInterval) -> [ScheduleEvent] {
        task.schedule.events(overlapping: window).filter { owns($0.start) }
    }

    /// The lowest and highest occurrence among `events`; nil for none.
    static func occurrences(of events: [ScheduleEvent]) -> ClosedRange<Int>? {
        guard var low = events.first?.occurrence else { return nil }
        var high = low
        for event in events {
            low = min(low, event.occurrence)
            high = max(high, event.occurrence)
        }
        return low...high
    }
}

/// The versions of some entities arranged in their chains, oldest first.
///
/// A chain starts at the version without a previous one and follows the next-version links; a version listed twice
/// counts once, and a link to a missing version (or back into the chain) ends it.
struct Chains: Sendable {
    private var chains: [String: [StoredVersion]] = [:]

    init(_ versions: [StoredVersion]) throws {
        let byID = Dictionary(grouping: versions, by: \.id)
        chains.reserveCapacity(byID.count)
        for (id, versions) in byID {
            // Most ids have one version (a task never edited): its chain is itself when it has no predecessor.
            if versions.count == 1 {
                chains[id] = versions[0].previousVersionUUID == nil ? versions : []
                continue
            }
            let byUUID = Dictionary(versions.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
            var chain: [StoredVersion] = []
            var visited = Set<UUID>()
            var current = versions.first { $0.previousVersionUUID == nil }
            while let version = current, visited.insert(version.uuid).inserted {
                chain.append(version)
                current = version.nextVersionUUID.flatMap { byUUID[$0] }
            }
            chains[id] = chain
        }
    }

    /// The ids present, sorted.
    var ids: [String] { chains.keys.sorted() }

    /// The versions of `id`, oldest first.
    func chain(of id: String) -> [StoredVersion] { chains[id] ?? [] }

    /// The newest version of `id`.
    func head(of id: String) -> StoredVersion? { chains[id]?.last }

    /// The version of `id` in effect just before `date` (the newest when nil).
    func version(of id: String, at date: Date?) -> StoredVersion? {
        guard let date else { return head(of: id) }
        return chains[id]?.last { $0.effectiveDate < date }
    }
}

extension Sequence {
    /// `map` whose transform may await: each element in turn, in order, the next only once the one before is done.
    func sequentialMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var mapped: [T] = []
        mapped.reserveCapacity(underestimatedCount)
        for element in self { mapped.append(try await transform(element)) }
        return mapped
    }
}
