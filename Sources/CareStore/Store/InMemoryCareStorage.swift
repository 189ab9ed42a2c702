import Foundation
import StudyKitEnvironment
import Synchronization

/// A care store kept in memory, for tests, previews and apps that sync elsewhere.
public typealias InMemoryCareStore = StorageBackedCareStore<InMemoryCareStorage>

extension StorageBackedCareStore where Storage == InMemoryCareStorage {
    /// An empty in-memory store.
    public convenience init(environment: StudyKitEnvironment = .live) {
        self.init(storage: InMemoryCareStorage(), environment: environment)
    }
}

/// Care data in memory. A write changes the tables in place and keeps an undo log, which it replays when the
/// write fails, so a failed write leaves nothing behind.
public final class InMemoryCareStorage: CareStorage {
    private let tables = Mutex(Tables())
    /// Held by a write for its whole transaction, which may await, and by a read while it takes its copy.
    private let gate = AsyncGate()

    /// Empty storage.
    public init() {}

    /// Runs `body` on a copy of the tables taken between writes (cheap: the copy shares storage until a write changes
    /// it), so a write that starts meanwhile is not seen.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any CareStorageReader) async throws -> T) async throws -> T {
        let snapshot = await gate.withLock { tables.withLock { $0 } }
        return try await body(Transaction(tables: snapshot))
    }

    /// Runs `body` holding the gate, so writes run one at a time and reads wait to take their copy; when `body` throws,
    /// replays the undo log before rethrowing.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any CareStorageWriter) async throws -> T) async throws -> T {
        try await gate.withLock {
            // The transaction holds the only reference to the tables while it runs: changes happen in place.
            let transaction = Transaction(tables: tables.withLock { tables in
                defer { tables = Tables() }
                return tables
            })
            defer { tables.withLock { $0 = transaction.tables } }
            do {
                return try await body(transaction)
            } catch {
                transaction.rollBack()
                throw error
            }
        }
    }

    /// The rows, with the indexes queries use.
    struct Tables: Sendable {
        var versions: [UUID: StoredVersion] = [:]
        var versionsByID: [EntityKind: [String: [UUID]]] = [:]
        var outcomes: [UUID: Outcome] = [:]
        var outcomesByTask: [UUID: [Int: [UUID]]] = [:]
        /// Raised by every version written or relinked (and not lowered when a write is undone: a number that
        /// changed without cause only makes a reader read again).
        var versionsRevision: Int64 = 0
    }

    /// A transaction over a private copy of the tables.
    private final class Transaction: CareStorageWriter {
        var tables: Tables
        /// Inverse operations of the changes made so far, newest last.
        private var undo: [(inout Tables) -> Void] = []

        init(tables: Tables) { self.tables = tables }

        /// Undoes every change of this transaction.
        func rollBack() {
            for step in undo.reversed() { step(&tables) }
            undo = []
        }

        func versions(of kind: EntityKind, ids: Set<String>) throws -> [StoredVersion] {
            let byID = tables.versionsByID[kind] ?? [:]
            return ids.flatMap { byID[$0] ?? [] }.compactMap { tables.versions[$0] }
        }

        func versions(of kind: EntityKind, matching filter: StoredVersionFilter) throws -> [StoredVersion] {
            let candidates: [StoredVersion]
            if !filter.ids.isEmpty {
                candidates = try versions(of: kind, ids: filter.ids)
            } else if !filter.uuids.isEmpty {
                candidates = filter.uuids.compactMap { tables.versions[$0] }.filter { $0.kind == kind }
            } else {
                candidates = (tables.versionsByID[kind] ?? [:]).values.flatMap { $0 }.compactMap { tables.versions[$0] }
            }
            return candidates.filter { version in
                (filter.uuids.isEmpty || filter.uuids.contains(version.uuid))
                    && (filter.remoteIDs.isEmpty || version.remoteID.map(filter.remoteIDs.contains) == true)
                    && (filter.groupIdentifiers.isEmpty || version.groupIdentifier.map(filter.groupIdentifiers.contains) == true)
                    && (filter.tags.isEmpty || !filter.tags.isDisjoint(with: version.tags))
                    && (filter.parentUUIDs.isEmpty || version.parentUUID.map(filter.parentUUIDs.contains) == true)
                    && (filter.effectiveBefore.map { version.effectiveDate < $0 } ?? true)
            }
        }

        func versions(uuids: Set<UUID>) throws -> [StoredVersion] {
            uuids.compactMap { tables.versions[$0] }
        }

        func outcomes(taskUUIDs: Set<UUID>, occurrences: ClosedRange<Int>?, includeDeleted: Bool) throws -> [Outcome] {
            let tasks = taskUUIDs.isEmpty ? Array(tables.outcomesByTask.keys) : Array(taskUUIDs)
            var found: [Outcome] = []
            for task in tasks {
                guard let byOccurrence = tables.outcomesByTask[task] else { continue }
                // (The range's width without overflow: a range may reach Int.max.)
                if let occurrences, case let (width, overflow) = occurrences.upperBound.subtractingReportingOverflow(occurrences.lowerBound),
                   !overflow, width < byOccurrence.count - 1 {
                    for occurrence in occurrences { found += (byOccurrence[occurrence] ?? []).compactMap { tables.outcomes[$0] } }
                } else {
                    for (occurrence, uuids) in byOccurrence where occurrences?.contains(occurrence) ?? true {
                        found += uuids.compactMap { tables.outcomes[$0] }
                    }
                }
            }
            return includeDeleted ? found : found.filter { $0.deletedDate == nil }
        }

        func outcomes(uuids: Set<UUID>) throws -> [Outcome] {
            uuids.compactMap { tables.outcomes[$0] }
        }

        func versionsRevision() throws -> Int64? { tables.versionsRevision }

        func insert(_ version: StoredVersion) throws {
            tables.versionsRevision += 1
            tables.versions[version.uuid] = version
            tables.versionsByID[version.kind, default: [:]][version.id, default: []].append(version.uuid)
            undo.append { tables in
                tables.versions[version.uuid] = nil
                tables.versionsByID[version.kind]?[version.id]?.removeAll { $0 == version.uuid }
            }
        }

        func setNextVersion(of uuid: UUID, to next: UUID) throws {
            tables.versionsRevision += 1
            let old = tables.versions[uuid]?.nextVersionUUID
            tables.versions[uuid]?.nextVersionUUID = next
            undo.append { $0.versions[uuid]?.nextVersionUUID = old }
        }

        func insert(_ outcome: Outcome) throws {
            tables.outcomes[outcome.uuid] = outcome
            tables.outcomesByTask[outcome.taskUUID, default: [:]][outcome.occurrenceIndex, default: []].append(outcome.uuid)
            undo.append { tables in
                tables.outcomes[outcome.uuid] = nil
                tables.outcomesByTask[outcome.taskUUID]?[outcome.occurrenceIndex]?.removeAll { $0 == outcome.uuid }
            }
        }

        func markOutcomeDeleted(_ uuid: UUID, at date: Date) throws {
            let old = tables.outcomes[uuid]?.deletedDate
            tables.outcomes[uuid]?.deletedDate = date
            undo.append { $0.outcomes[uuid]?.deletedDate = old }
        }

        func eraseOutcomes(ofTaskIDs taskIDs: Set<String>) throws -> Set<String> {
            var erased = Set<String>()
            for version in try versions(of: .task, ids: taskIDs) {
                guard let byOccurrence = tables.outcomesByTask[version.uuid] else { continue }
                let removed = byOccurrence.values.flatMap { $0 }.compactMap { tables.outcomes[$0] }
                guard !removed.isEmpty else { continue }
                erased.insert(version.id)
                tables.outcomesByTask[version.uuid] = nil
                for outcome in removed { tables.outcomes[outcome.uuid] = nil }
                undo.append { tables in
                    tables.outcomesByTask[version.uuid] = byOccurrence
                    for outcome in removed { tables.outcomes[outcome.uuid] = outcome }
                }
            }
            return erased
        }
    }
}
