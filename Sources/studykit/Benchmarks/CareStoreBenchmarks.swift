import CareStore
import CareStoreSQLite
import Foundation
import StudyKitEnvironment

/// Benchmarks of the care store on SQLite: writing outcomes (at the storage level and through the store's rules),
/// and reading a day's events and a month's adherence from a store that holds two years of outcomes.
///
/// Each measurement uses its own database file in a temporary folder, removed afterwards.
struct CareStoreBenchmarks {
    var secondsPerMeasurement: Double = 2
    /// Outcomes written in one transaction by the batch measurements.
    static let batchSize = 10_000
    /// Tasks in the read measurements, each with a daily event and an outcome for every day of two years.
    static let taskCount = 50
    static let days = 730

    static let timeZone = TimeZone(identifier: "Europe/Berlin") ?? .gmt
    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
    /// The first day of the schedules: Monday 2024-03-04, 00:00 in Berlin.
    static let start = Date(timeIntervalSince1970: 1_709_506_800)
    /// A fixed clock for the store.
    static let environment = StudyKitEnvironment(now: { start.addingTimeInterval(Double(days) * 86_400) }, makeUUID: { TimeOrderedUUIDGenerator.shared.next() })

    /// Measures outcome writes (`writes`) and the day's-events and adherence reads (`reads`).
    func run(writes: Bool = true, reads: Bool = true) async throws -> [BenchmarkRow] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-bench-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var fileNumber = 0
        func freshPath() -> String {
            fileNumber += 1
            return folder.appendingPathComponent("care-\(fileNumber).sqlite").path
        }
        return (writes ? try await measureWrites(freshPath) : []) + (reads ? try await measureReads(freshPath) : [])
    }

    private func measureWrites(_ freshPath: () -> String) async throws -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        // Writes at the storage level: rows only, none of the store's checks.
        let storageBatch = try await storageInserts(path: freshPath(), perTransaction: Self.batchSize)
        rows.append(BenchmarkRow(name: "SQLite storage: \(Self.batchSize) outcome inserts in one transaction", value: storageBatch,
                                 unit: "inserts/s", note: "target ≥ 100000"))
        let storageSingle = try await storageInserts(path: freshPath(), perTransaction: 1)
        rows.append(BenchmarkRow(name: "SQLite storage: one outcome insert per transaction", value: storageSingle,
                                 unit: "inserts/s", note: "target ≥ 3000; synchronous = FULL"))

        // Writes through the store: each outcome's event is checked against its task's schedule.
        let storeBatch = try await storeAddOutcomes(path: freshPath(), perCall: Self.batchSize)
        rows.append(BenchmarkRow(name: "SQLite store: addOutcomes of \(Self.batchSize) in one call", value: storeBatch,
                                 unit: "outcomes/s", note: "target ≥ 100000"))
        let storeSingle = try await storeAddOutcomes(path: freshPath(), perCall: 1)
        rows.append(BenchmarkRow(name: "SQLite store: addOutcomes of one per call", value: storeSingle,
                                 unit: "outcomes/s", note: "target ≥ 3000"))

        return rows
    }

    private func measureReads(_ freshPath: () -> String) async throws -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        // Reads through the store, on SQLite and, to tell the storage's share from the rules', in memory; then the
        // storage's share alone: the reads the store makes for the same answers.
        let day = DateInterval(start: Self.calendar.date(byAdding: .day, value: Self.days - 1, to: Self.start)!, duration: 86_400)
        let sqliteStore = try SQLiteCareStore(path: freshPath(), environment: Self.environment)
        let memoryStore = InMemoryCareStore(environment: Self.environment)
        for (name, store) in [("SQLite", sqliteStore), ("in-memory", memoryStore)] as [(String, any CareStore & Seedable)] {
            try await store.seedTwoYears()
            let dayRate = try await measureOperationsPerSecondAsync(seconds: secondsPerMeasurement) {
                let events = try await store.events(taskQuery: CareQuery(for: day), window: day)
                precondition(events.count == Self.taskCount && events.allSatisfy { $0.outcome != nil })
            }
            rows.append(BenchmarkRow(name: "\(name) store: one day's events, \(Self.taskCount) tasks × 2 years of outcomes",
                                     value: 1000 / dayRate, unit: "ms", note: name == "SQLite" ? "target < 2" : "for comparison"))
            let month = DateInterval(start: Self.calendar.date(byAdding: .day, value: Self.days - 30, to: Self.start)!, end: day.end)
            let monthRate = try await measureOperationsPerSecondAsync(seconds: secondsPerMeasurement) {
                let days = try await store.adherence(taskQuery: CareQuery(for: month), window: month, calendar: Self.calendar)
                precondition(days.count == 30 && days.allSatisfy { $0.state == .progress(1) })
            }
            rows.append(BenchmarkRow(name: "\(name) store: 30 days of adherence, same data", value: 1000 / monthRate,
                                     unit: "ms", note: name == "SQLite" ? "target < 10" : "for comparison"))
        }
        for (name, days) in [("one day's events", 1), ("30 days of adherence", 30)] {
            let rate = try await measureOperationsPerSecondAsync(seconds: secondsPerMeasurement) {
                let found = try await sqliteStore.storage.read { try await Self.readsBehindEvents(lastDays: days, endingAt: day.end, in: $0) }
                precondition(found == Self.taskCount * days)
            }
            rows.append(BenchmarkRow(name: "SQLite storage: the reads behind \(name)", value: 1000 / rate, unit: "ms",
                                     note: "task versions, then their outcomes in one read"))
        }
        return rows
    }

    /// What `StorageBackedCareStore` asks the storage for the events of the last `lastDays` days before `end`: the
    /// task versions in effect, then every version's outcomes for the occurrences in the window in one read.
    /// Returns the number of outcomes found.
    private static func readsBehindEvents(lastDays: Int, endingAt end: Date, in reader: any CareStorageReader) async throws -> Int {
        var filter = StoredVersionFilter()
        filter.effectiveBefore = end
        let versions = try await reader.versions(of: .task, matching: filter)
        // A daily schedule from `start`: occurrence k is day k.
        let ranges = Dictionary(uniqueKeysWithValues: versions.map { ($0.uuid, (days - lastDays)...(days - 1)) })
        return try await reader.liveOutcomes(in: ranges).count
    }

    /// Outcome inserts per second through `SQLiteCareStorage.write` and `insert(contentsOf:)`, `perTransaction` to a write.
    private func storageInserts(path: String, perTransaction: Int) async throws -> Double {
        let storage = try SQLiteCareStorage(path: path)
        let task = UUID()
        var next = 0
        func batch() -> [Outcome] {
            defer { next += perTransaction }
            return (next..<next + perTransaction).map { Self.outcome(task: task, occurrence: $0) }
        }
        let rate = try await measureOperationsPerSecondAsync(seconds: secondsPerMeasurement, prepare: batch) { outcomes in
            try await storage.write { writer in try await writer.insert(contentsOf: outcomes) }
        }
        return rate * Double(perTransaction)
    }

    /// Outcomes added per second through `StorageBackedCareStore.addOutcomes`, `perCall` to a call, each for its
    /// own event among tasks with daily schedules.
    private func storeAddOutcomes(path: String, perCall: Int) async throws -> Double {
        let store = try SQLiteCareStore(path: path, environment: Self.environment)
        // Many tasks with few events each, so that no event lies far from its schedule's start.
        let tasks = try await store.seedTasks(count: 1_000)
        // Each task's first event gets its outcome before the clock starts, as in a running server, where a task
        // has been read (and its decoded version cached) long before most of its outcomes arrive.
        _ = try await store.addOutcomes(tasks.map { Self.outcome(task: $0.uuid, occurrence: 0) })
        var next = tasks.count
        func batch() -> [Outcome] {
            defer { next += perCall }
            return (next..<next + perCall).map { index in
                Self.outcome(task: tasks[index % tasks.count].uuid, occurrence: index / tasks.count)
            }
        }
        let rate = try await measureOperationsPerSecondAsync(seconds: secondsPerMeasurement, prepare: batch) { outcomes in
            _ = try await store.addOutcomes(outcomes)
        }
        return rate * Double(perCall)
    }

    static func outcome(task: UUID, occurrence: Int) -> Outcome {
        // Keys from the live source, as the store would give them (time-ordered: see TimeOrderedUUIDGenerator).
        Outcome(taskUUID: task, occurrenceIndex: occurrence, values: [OutcomeValue(.integer(occurrence % 10), kind: "pain", units: "NRS")],
                uuid: environment.makeUUID(), timeZone: timeZone)
    }
}

/// A store the benchmarks can fill with tasks and outcomes.
protocol Seedable {
    func seedTasks(count: Int) async throws -> [CareTask]
    func seedTwoYears() async throws
}

extension StorageBackedCareStore: Seedable {
    /// A patient, a care plan, and `count` tasks with a daily event at 08:00 from ``CareStoreBenchmarks/start``.
    func seedTasks(count: Int) async throws -> [CareTask] {
        let start = CareStoreBenchmarks.start, zone = CareStoreBenchmarks.timeZone
        let patient = try await add([Patient(id: "ana", name: PersonNameComponents(givenName: "Ana"), effectiveDate: start, timeZone: zone)])[0]
        let plan = try await add([CarePlan(id: "knee", title: "Knee rehabilitation", patientUUID: patient.uuid, effectiveDate: start, timeZone: zone)])[0]
        return try await add((0..<count).map { index in
            CareTask(id: "task-\(index)", title: "Task \(index)", schedule: .dailyAt(hour: 8, minute: 0, start: start, timeZone: zone),
                     carePlanUUID: plan.uuid, effectiveDate: start, timeZone: zone)
        })
    }

    /// ``CareStoreBenchmarks/taskCount`` tasks, each with an outcome for every day of two years. The outcomes go
    /// straight to the storage, as the store would write them, because the store's per-outcome checks would make
    /// seeding slow.
    func seedTwoYears() async throws {
        let tasks = try await seedTasks(count: CareStoreBenchmarks.taskCount)
        let now = CareStoreBenchmarks.environment.now()
        try await storage.write { writer in
            for task in tasks {
                for day in 0..<CareStoreBenchmarks.days {
                    var outcome = CareStoreBenchmarks.outcome(task: task.uuid, occurrence: day)
                    outcome.createdDate = now
                    try await writer.insert(outcome)
                }
            }
        }
    }
}

/// Runs `body` repeatedly for about `seconds` and returns operations per second.
private func measureOperationsPerSecondAsync(seconds: Double, _ body: () async throws -> Void) async rethrows -> Double {
    try await measureOperationsPerSecondAsync(seconds: seconds, prepare: {}, body)
}

/// Runs `body` repeatedly for about `seconds` of its own time, each time on a fresh input from `prepare`, whose
/// time is not counted, and returns operations per second.
private func measureOperationsPerSecondAsync<Input>(seconds: Double, prepare: () -> Input,
                                                    _ body: (Input) async throws -> Void) async rethrows -> Double {
    try await body(prepare()) // warm-up
    let clock = ContinuousClock()
    let budget = Duration.milliseconds(Int64(seconds * 1000))
    var count = 0
    var elapsed = Duration.zero
    repeat {
        let input = prepare()
        let start = clock.now
        try await body(input)
        elapsed += clock.now - start
        count += 1
    } while elapsed < budget
    let secondsElapsed = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(count) / secondsElapsed
}
