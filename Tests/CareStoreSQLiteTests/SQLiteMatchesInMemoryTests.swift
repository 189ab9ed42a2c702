import CareStore
import Foundation
import StudyKitEnvironment
import Testing
@testable import CareStoreSQLite

/// The SQLite storage answers every read as the in-memory reference storage does, over the same random rows.
@Suite("SQLiteCareStorage matches InMemoryCareStorage")
struct SQLiteMatchesInMemoryTests {
    /// What one round of reads returns, each list in UUID order.
    struct Answers: Equatable, Sendable {
        var byIDs: [StoredVersion]
        var matching: [StoredVersion]
        var byUUIDs: [StoredVersion]
        var outcomesOfTasks: [Outcome]
        var outcomesByUUID: [Outcome]
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyReadAgrees(seed: UInt64) async throws {
        var random = SeededRandomNumberGenerator(seed: seed)
        let ids = (0..<25).map { "id\($0)" }
        let tags = ["a", "b", "c", "d"]
        let groups = ["g1", "g2", "g3"]
        let remoteIDs = (0..<10).map { "r\($0)" }
        let parents = (0..<6).map { _ in UUID() }
        func some<T>(_ pool: [T], upTo count: Int) -> [T] {
            (0..<Int.random(in: 0...count, using: &random)).map { _ in pool.randomElement(using: &random)! }
        }

        var versions: [StoredVersion] = []
        for _ in 0..<300 {
            versions.append(Fixture.version(
                EntityKind.allCases.randomElement(using: &random)!, id: ids.randomElement(using: &random)!,
                effective: Fixture.date(days: Double(Int.random(in: 0..<20, using: &random)), hours: Double.random(in: 0..<24, using: &random)),
                deleted: Bool.random(using: &random) ? Fixture.date(days: 30) : nil,
                previous: Bool.random(using: &random) ? versions.randomElement(using: &random)?.uuid : nil,
                group: Bool.random(using: &random) ? groups.randomElement(using: &random) : nil,
                remoteID: Bool.random(using: &random) ? remoteIDs.randomElement(using: &random) : nil,
                tags: some(tags, upTo: 3),
                parent: Bool.random(using: &random) ? parents.randomElement(using: &random) : nil))
        }
        let tasks = (0..<20).map { _ in UUID() }
        var outcomes: [Outcome] = []
        for _ in 0..<400 {
            outcomes.append(Fixture.outcome(task: tasks.randomElement(using: &random)!, occurrence: Int.random(in: 0..<30, using: &random)))
        }
        let links = (0..<40).map { _ in (versions.randomElement(using: &random)!.uuid, versions.randomElement(using: &random)!.uuid) }
        let deletions = (0..<80).map { _ in (outcomes.randomElement(using: &random)!.uuid, Fixture.date(days: Double.random(in: 0..<30, using: &random))) }

        let memory = InMemoryCareStorage()
        let sqlite = try SQLiteCareStorage.inMemory()
        for storage in [memory, sqlite] as [any CareStorage] {
            try await storage.write { [versions, outcomes] writer in
                for version in versions { try await writer.insert(version) }
                for outcome in outcomes { try await writer.insert(outcome) }
                for (uuid, next) in links { try await writer.setNextVersion(of: uuid, to: next) }
                for (uuid, date) in deletions { try await writer.markOutcomeDeleted(uuid, at: date) }
            }
        }

        let allVersionUUIDs = versions.map(\.uuid) + [UUID()]
        let allOutcomeUUIDs = outcomes.map(\.uuid) + [UUID()]
        for _ in 0..<150 {
            let kind = EntityKind.allCases.randomElement(using: &random)!
            var filter = StoredVersionFilter()
            if Int.random(in: 0..<3, using: &random) == 0 { filter.ids = Set(some(ids, upTo: 4)) }
            if Int.random(in: 0..<4, using: &random) == 0 { filter.uuids = Set(some(allVersionUUIDs, upTo: 30)) }
            if Int.random(in: 0..<3, using: &random) == 0 { filter.remoteIDs = Set(some(remoteIDs, upTo: 3)) }
            if Int.random(in: 0..<3, using: &random) == 0 { filter.groupIdentifiers = Set(some(groups, upTo: 2)) }
            if Int.random(in: 0..<3, using: &random) == 0 { filter.tags = Set(some(tags, upTo: 2)) }
            if Int.random(in: 0..<3, using: &random) == 0 { filter.parentUUIDs = Set(some(parents, upTo: 3)) }
            if Bool.random(using: &random) {
                // Sometimes exactly a stored effective date, to check that the bound is strict.
                filter.effectiveBefore = Bool.random(using: &random) ? versions.randomElement(using: &random)!.effectiveDate
                    : Fixture.date(days: Double.random(in: 0..<20, using: &random))
            }
            let chosen = filter
            let someIDs = Set(some(ids, upTo: 5))
            let someVersions = Set(some(allVersionUUIDs, upTo: 20))
            let someTasks = Set(some(tasks + [UUID()], upTo: 4))
            let low = Int.random(in: 0..<30, using: &random)
            let range: ClosedRange<Int>? = Bool.random(using: &random) ? low...(low + Int.random(in: 0..<10, using: &random)) : nil
            let includeDeleted = Bool.random(using: &random)
            let someOutcomes = Set(some(allOutcomeUUIDs, upTo: 20))

            @Sendable func answers(_ reader: any CareStorageReader) async throws -> Answers {
                Answers(byIDs: try await reader.versions(of: kind, ids: someIDs).byUUID,
                        matching: try await reader.versions(of: kind, matching: chosen).byUUID,
                        byUUIDs: try await reader.versions(uuids: someVersions).byUUID,
                        outcomesOfTasks: try await reader.outcomes(taskUUIDs: someTasks, occurrences: range, includeDeleted: includeDeleted).byUUID,
                        outcomesByUUID: try await reader.outcomes(uuids: someOutcomes).byUUID)
            }
            let expected = try await memory.read(answers)
            let actual = try await sqlite.read(answers)
            let context: Comment = "seed \(seed), kind \(kind), filter \(chosen), tasks \(someTasks), range \(String(describing: range))"
            #expect(actual.byIDs == expected.byIDs, context)
            #expect(actual.matching == expected.matching, context)
            #expect(actual.byUUIDs == expected.byUUIDs, context)
            #expect(actual.outcomesOfTasks == expected.outcomesOfTasks, context)
            #expect(actual.outcomesByUUID == expected.outcomesByUUID, context)
        }
    }
}
