import CareStore
import Foundation
import PostgresNIO
import StudyKitEnvironment
import PostgresTestSupport
import Testing
@testable import CareStorePostgres

/// What the PostgreSQL backend promises beyond the conformance suite: its reads use their indexes, migrations run once
/// whoever starts at the same time, and the database itself keeps the version chain and the revision.
@Suite("PostgresCareStorage", .enabled(if: PostgresTestDatabase.isConfigured, Comment(rawValue: PostgresTestDatabase.notConfigured)))
struct PostgresCareStorageTests {
    private let logger = PostgresCareStorage.silentLogger

    /// A migrated, empty schema of its own, and the pool.
    private func freshStorage() async throws -> PostgresCareStorage {
        let storage = PostgresCareStorage(client: try PostgresTestDatabase.client.get(), schema: try PostgresTestDatabase.freshSchema())
        try await storage.migrate()
        return storage
    }

    /// The rows of `query`'s first column as text.
    private func texts(_ query: PostgresQuery, _ client: PostgresClient) async throws -> [String] {
        var texts: [String] = []
        for try await text in try await client.query(query, logger: logger).decode(String.self) { texts.append(text) }
        return texts
    }

    /// Every statement the storage runs finds its rows through the index meant for it, with sets of one, a few and
    /// many values: the schema is filled with 20,000 versions and 100,000 outcomes (a tenth of them deleted), analysed,
    /// and PostgreSQL's plan of each statement, with its parameters bound, is checked to scan no table of the store
    /// and to use the expected index. The sets are small beside the tables, as a page's reads are: for a read that
    /// wants much of a table, PostgreSQL's planner rightly scans it, and the plans would say nothing of the indexes.
    @Test func everyQueryUsesItsIndex() async throws {
        let storage = try await freshStorage()
        let client = storage.client, schema = storage.schema
        let version = schema.qualified("version"), outcome = schema.qualified("outcome")
        for statement in [
            """
            INSERT INTO \(version) (uuid, kind, id, effectiveDate, previousVersionUUID, groupIdentifier, remoteID, parentUUID, tags, payload)
            SELECT gen_random_uuid(), (ARRAY['patient', 'carePlan', 'contact', 'task'])[1 + i % 4], 'id-' || (i / 2),
                   timestamptz '2026-01-01Z' + (i % 2000) * interval '1 day', NULL, 'group-' || (i % 2000), 'remote-' || i,
                   md5('parent-' || (i % 1000))::uuid, ARRAY['tag-' || (i % 1000)], '\\x7b7d'::bytea
            FROM generate_series(0, 19999) AS i
            """,
            """
            INSERT INTO \(outcome) (uuid, taskUUID, occurrenceIndex, createdDate, deletedDate, timeZone, outcomeValues)
            SELECT gen_random_uuid(), md5('task-' || (i % 2000))::uuid, i / 2000, timestamptz '2026-01-01Z',
                   CASE WHEN i % 10 = 0 THEN timestamptz '2026-01-02Z' END, 'UTC', '[{"integer": 1}]'::jsonb
            FROM generate_series(0, 99999) AS i
            """,
            "ANALYZE \(version)",
            "ANALYZE \(outcome)",
        ] {
            _ = try await client.query(PostgresQuery(unsafeSQL: statement), logger: logger).collect()
        }
        let versionUUIDs = try await texts(PostgresQuery(unsafeSQL: "SELECT uuid::text FROM \(version) ORDER BY uuid LIMIT 50"), client).compactMap(UUID.init)
        let outcomeUUIDs = try await texts(PostgresQuery(unsafeSQL: "SELECT uuid::text FROM \(outcome) ORDER BY uuid LIMIT 50"), client).compactMap(UUID.init)
        // The UUIDs the rows were made with: md5 of a text, as a UUID.
        let taskUUIDs = try await texts("SELECT md5('task-' || i)::uuid::text FROM generate_series(0, 49) AS i", client).compactMap(UUID.init)
        let parentUUIDs = try await texts("SELECT md5('parent-' || i)::uuid::text FROM generate_series(0, 49) AS i", client).compactMap(UUID.init)
        #expect(versionUUIDs.count == 50 && outcomeUUIDs.count == 50 && taskUUIDs.count == 50 && parentUUIDs.count == 50)

        var failures: [String] = []
        /// Notes a failure unless the plan of `query` uses `index` and scans neither table.
        func expect(_ index: String, _ query: PostgresQuery) async throws {
            let plan = try await texts(PostgresQuery(unsafeSQL: "EXPLAIN " + query.sql, binds: query.binds), client)
            let scansATable = plan.contains { $0.contains("Seq Scan on version") || $0.contains("Seq Scan on outcome") }
            if scansATable || !plan.contains(where: { $0.contains(index.lowercased()) }) {
                failures.append("\(query.sql)\n  plan:\n    \(plan.joined(separator: "\n    "))\n  expected: \(index)")
            }
        }
        let early = Date(timeIntervalSince1970: 1_767_225_600 + 3 * 86_400) // 2026-01-04: the first few days' versions
        // After every version, as the store's reads ask ("in effect before the window's end"): the sets choose the rows.
        let late = Date(timeIntervalSince1970: 2_208_988_800) // 2040-01-01
        for count in [1, 3, 20] {
            let uuids = Set(versionUUIDs.prefix(count)), tasks = Set(taskUUIDs.prefix(count))
            let ranges = Dictionary(uniqueKeysWithValues: tasks.map { ($0, 3...9) })
            try await expect("version_on_kind_id", PostgresCareTransaction.versionsQuery(in: schema, of: .task, matching: {
                var filter = StoredVersionFilter(); filter.ids = Set((0..<count).map { "id-\($0 * 7)" }); return filter }()))
            try await expect("version_pkey", PostgresCareTransaction.versionsQuery(in: schema, uuids: uuids))
            try await expect("outcome_pkey", PostgresCareTransaction.outcomesQuery(in: schema, uuids: Set(outcomeUUIDs.prefix(count))))
            // Live outcomes through the index of live outcomes; every outcome, deleted too, through the full one.
            try await expect("outcome_live_on_taskUUID_occurrenceIndex",
                             PostgresCareTransaction.outcomesQuery(in: schema, taskUUIDs: tasks, occurrences: 3...9, includeDeleted: false))
            try await expect("outcome_live_on_taskUUID_occurrenceIndex", PostgresCareTransaction.liveOutcomesQuery(in: schema, ranges: ranges))
            try await expect("outcome_live_on_taskUUID_occurrenceIndex", PostgresCareTransaction.liveOutcomeEventsQuery(in: schema, ranges: ranges))
            try await expect("outcome_on_taskUUID_occurrenceIndex",
                             PostgresCareTransaction.outcomesQuery(in: schema, taskUUIDs: tasks, occurrences: nil, includeDeleted: true))
            let filters: [(String, (inout StoredVersionFilter) -> Void)] = [
                ("version_on_kind_id", { $0.ids = Set((0..<count).map { "id-\($0 * 7)" }) }),
                ("version_pkey", { $0.uuids = uuids }),
                ("version_on_remoteID", { $0.remoteIDs = Set((0..<count).map { "remote-\($0 * 4 + 3)" }) }),
                ("version_on_groupIdentifier", { $0.groupIdentifiers = Set((0..<count).map { "group-\($0 * 4 + 3)" }) }),
                ("version_on_tags", { $0.tags = Set((0..<count).map { "tag-\($0 * 4 + 2)" }) }),
                ("version_on_parentUUID", { $0.parentUUIDs = Set(parentUUIDs.prefix(count)) }),
            ]
            for (index, configure) in filters {
                // Twenty tags of a thousand match 400 versions, for which the planner finds the GIN index and the kind's
                // index alike (either is fine); one or three tags, as queries name them, go through the GIN index.
                if index == "version_on_tags" && count > 3 { continue }
                for date in [nil, late] {
                    var filter = StoredVersionFilter()
                    configure(&filter)
                    filter.effectiveBefore = date
                    try await expect(index, PostgresCareTransaction.versionsQuery(in: schema, of: .contact, matching: filter))
                }
            }
        }
        var onlyDate = StoredVersionFilter()
        onlyDate.effectiveBefore = early
        try await expect("version_on_kind_effectiveDate", PostgresCareTransaction.versionsQuery(in: schema, of: .task, matching: onlyDate))
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// Two stores on the same database started at once (each with its own pool, as two server processes have)
    /// migrate it once: one applies every migration, the other waits for the advisory lock and finds nothing to do.
    @Test func storesStartedAtOnceMigrateOnce() async throws {
        let schema = try PostgresTestDatabase.freshSchema()
        let clients = try (0..<2).map { _ in try PostgresTestDatabase.makeClient() }
        let applied = try await withThrowingTaskGroup(of: [String].self) { group in
            for client in clients { group.addTask { await client.run() ; return [] } }
            var applied: [[String]] = []
            try await withThrowingTaskGroup(of: [String].self) { starts in
                for client in clients {
                    starts.addTask { try await PostgresCareStorage(client: client, schema: schema).migrate() }
                }
                for try await names in starts { applied.append(names) }
            }
            group.cancelAll()
            return applied
        }
        #expect(applied.sorted { $0.count < $1.count } == [[], PostgresCareMigrations.names])
        let recorded = try await texts(PostgresQuery(unsafeSQL: "SELECT name FROM \(schema.qualified("careMigration"))"), PostgresTestDatabase.client.get())
        #expect(recorded == PostgresCareMigrations.names)
        // A store opened later finds the schema up to date.
        #expect(try await PostgresCareStorage(client: PostgresTestDatabase.client.get(), schema: schema).migrate() == [])
    }

    /// Two stores (two pools, as two processes) updating the same task at the same time leave one chain: every
    /// update either commits after the other's, linked to it, or is refused; none forks the chain.
    @Test func concurrentUpdatesKeepOneChain() async throws {
        let schema = try PostgresTestDatabase.freshSchema()
        let clients = try (0..<2).map { _ in try PostgresTestDatabase.makeClient() }
        let (succeeded, chain) = try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { await client.run() } }
            defer { group.cancelAll() }
            let stores = try await [PostgresCareStore.open(client: clients[0], schema: schema),
                                    PostgresCareStore.open(client: clients[1], schema: schema)]
            let patient = try await stores[0].add([Make.patient()])[0]
            let plan = try await stores[0].add([Make.plan(patient: patient)])[0]
            let task = try await stores[0].add([Make.task("walk", plan: plan)])[0]
            let succeeded = try await withThrowingTaskGroup(of: Int.self) { updates in
                for (index, store) in stores.enumerated() {
                    updates.addTask {
                        var count = 0
                        for round in 0..<10 {
                            var update = task
                            update.title = "Walk \(index).\(round)"
                            update.version.effectiveDate = task.version.effectiveDate.addingTimeInterval(86_400)
                            if (try? await store.update([update])) != nil { count += 1 }
                        }
                        return count
                    }
                }
                return try await updates.reduce(0, +)
            }
            return (succeeded, try await stores[0].versions(of: CareTask.self, id: "walk"))
        }
        #expect(succeeded > 0)
        #expect(chain.count == 1 + succeeded)
        for (older, newer) in zip(chain, chain.dropFirst()) {
            #expect(older.version.nextVersionUUIDs == [newer.version.uuid])
            #expect(newer.version.previousVersionUUIDs == [older.version.uuid])
        }
    }

    /// Stores with pools of their own adding an outcome to the same event at the same time: one is stored, and every
    /// other is refused as the store refuses a second live outcome (its write, refused by PostgreSQL for the concurrent
    /// one, is run again and then sees the outcome that won).
    @Test func concurrentOutcomesForOneEventKeepOne() async throws {
        let schema = try PostgresTestDatabase.freshSchema()
        let clients = try (0..<2).map { _ in try PostgresTestDatabase.makeClient() }
        let (added, refusals, live) = try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { await client.run() } }
            defer { group.cancelAll() }
            let stores = try await [PostgresCareStore.open(client: clients[0], schema: schema),
                                    PostgresCareStore.open(client: clients[1], schema: schema)]
            let patient = try await stores[0].add([Make.patient()])[0]
            let plan = try await stores[0].add([Make.plan(patient: patient)])[0]
            let task = try await stores[0].add([Make.task("walk", plan: plan)])[0]
            let results = try await withThrowingTaskGroup(of: Result<Outcome, any Error>.self) { adds in
                for attempt in 0..<8 {
                    adds.addTask {
                        let outcome = Outcome(taskUUID: task.uuid, occurrenceIndex: 2, values: [OutcomeValue(.integer(attempt))])
                        do { return .success(try await stores[attempt % 2].addOutcomes([outcome])[0]) } catch { return .failure(error) }
                    }
                }
                return try await adds.reduce(into: []) { $0.append($1) }
            }
            let added = results.compactMap { try? $0.get() }
            let refusals = results.compactMap { result -> (any Error)? in if case .failure(let error) = result { error } else { nil } }
            var query = OutcomeQuery()
            query.taskIDs = ["walk"]
            return (added, refusals, try await stores[1].fetchOutcomes(query: query))
        }
        #expect(added.count == 1)
        #expect(refusals.count == 7)
        for refusal in refusals {
            #expect(refusal as? CareStoreError == .outcomeExists(taskID: "walk", occurrenceIndex: 2), "\(refusal)")
        }
        #expect(live.map(\.uuid) == added.map(\.uuid))
    }

    /// The revision of the versions changes with any change to a version row, by this store or by anyone's SQL, and
    /// the database refuses to change a version but for setting its next version once.
    @Test func theDatabaseKeepsTheRevisionAndTheChain() async throws {
        let storage = try await freshStorage()
        let store = PostgresCareStore(storage: storage)
        let first = try await storage.read { try await $0.versionsRevision() }
        let patient = try await store.add([Make.patient("p")])[0]
        let afterAdd = try await storage.read { try await $0.versionsRevision() }
        #expect(first != nil && afterAdd != nil && afterAdd != first)

        let version = storage.schema.qualified("version")
        let client = storage.client
        await #expect(throws: PSQLError.self) {
            _ = try await client.query(PostgresQuery(unsafeSQL: "UPDATE \(version) SET id = 'other' WHERE id = 'p'"), logger: logger).collect()
        }
        _ = try await client.query(PostgresQuery(unsafeSQL: "DELETE FROM \(version) WHERE uuid = '\(patient.version.uuid.uuidString)'"), logger: logger).collect()
        let afterDelete = try await storage.read { try await $0.versionsRevision() }
        #expect(afterDelete != afterAdd)
    }

    /// A request waiting behind a long transaction on a pool's only connection is served after it, not refused as
    /// if the database did not answer: a pool with a connection lent is busy, not cut off, even when it has served
    /// no one within the wait (a first wave of migrations on a loaded machine; CI refused dozens of tests so).
    @Test func aRequestWaitingBehindALongTransactionIsServedNotRefused() async throws {
        let (client, running) = try PostgresTestDatabase.runningClient(maximumConnections: 1)
        defer { running.cancel() }
        let wait = Duration.seconds(1)
        let (holding, holder) = AsyncStream.makeStream(of: Void.self)
        let long = Task {
            // The stream ends whatever happens, so that a long transaction that never began fails the test, never hangs it.
            defer { holder.finish() }
            return try await PostgresTransactionRunner.withConnection(client) { connection in
                holder.yield()
                // Three waits long: the request behind it sees its wait end twice with nothing served.
                try await PostgresTransactionRunner.execute("SELECT pg_sleep(3)", on: connection, logger: logger)
                return 1
            }
        }
        var began = false
        for await _ in holding {
            began = true
            break
        }
        if !began {
            Issue.record("the long transaction never began: \(await long.result)")
            return
        }
        let behind = try await PostgresTransactionRunner.withConnection(client, waitingAtMost: wait) { connection in
            try await PostgresTransactionRunner.rowCount("SELECT 1", on: connection, logger: logger)
        }
        #expect(behind == 1)
        #expect(try await long.value == 1)
    }
}
