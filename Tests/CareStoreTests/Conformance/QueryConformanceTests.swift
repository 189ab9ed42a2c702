import Foundation
import Testing
@testable import CareStore

/// Queries: every filter, the version in effect at an interval's end, every sort key both ways, limit and offset.
@Suite("Conformance: queries")
struct QueryConformanceTests {
    /// Two patients with a plan each, four tasks and two contacts, written in an order that differs from every
    /// sort key so that each sort is visible:
    ///
    /// | id      | plan | title    | group | tags          | remote     | effective | created |
    /// |---------|------|----------|-------|---------------|------------|-----------|---------|
    /// | alpha   | A    | Walk     | g1    | knee, daily   | r-alpha    | Mar 1     | 3rd     |
    /// | bravo   | A    | Ice      | g2    | knee          |            | Mar 3     | 4th     |
    /// | charlie | B    | Stretch  | g1    | hip           | r-charlie  | Mar 2     | 1st     |
    /// | delta   | B    | Breathe  |       |               |            | Mar 5     | 2nd     |
    struct World {
        let clock: TestClock
        let store: any CareStore
        let planA: CarePlan
        let planB: CarePlan
        var tasks: [String: CareTask] = [:]

        init(_ backend: CareStoreBackend) async throws {
            clock = TestClock()
            store = try await backend.makeStore(clock: clock)
            let patients = try await store.add([Make.patient("p1", in: Zone.tokyo), Make.patient("p2", in: Zone.tokyo)])
            let plans = try await store.add([Make.plan("A", patient: patients[0], in: Zone.tokyo), Make.plan("B", patient: patients[1], in: Zone.tokyo)])
            planA = plans[0]
            planB = plans[1]
            func task(_ id: String, _ plan: CarePlan, _ title: String, group: String?, tags: [String], remote: String?, effectiveDay: Int) -> CareTask {
                var task = Make.task(id, plan: plan, effective: date(2026, 3, effectiveDay, in: Zone.tokyo), title: title, in: Zone.tokyo)
                task.version.groupIdentifier = group
                task.version.tags = tags
                task.version.remoteID = remote
                return task
            }
            let inCreationOrder = [
                task("charlie", planB, "Stretch", group: "g1", tags: ["hip"], remote: "r-charlie", effectiveDay: 2),
                task("delta", planB, "Breathe", group: nil, tags: [], remote: nil, effectiveDay: 5),
                task("alpha", planA, "Walk", group: "g1", tags: ["knee", "daily"], remote: "r-alpha", effectiveDay: 1),
                task("bravo", planA, "Ice", group: "g2", tags: ["knee"], remote: nil, effectiveDay: 3),
            ]
            for task in inCreationOrder {
                clock.advance(by: 60)
                tasks[task.id] = try await store.add([task])[0]
            }
            _ = try await store.add([
                Contact(id: "physio", name: PersonNameComponents(givenName: "Jonas"), carePlanUUID: planA.uuid, effectiveDate: date(2026, 3, 1, in: Zone.tokyo)),
                Contact(id: "surgeon", name: PersonNameComponents(givenName: "Mei"), carePlanUUID: planB.uuid, effectiveDate: date(2026, 3, 1, in: Zone.tokyo)),
            ])
        }

        func ids(_ configure: (inout CareQuery) -> Void) async throws -> [String] {
            var query = CareQuery()
            configure(&query)
            return try await store.fetch(CareTask.self, query: query).map(\.id)
        }
    }

    @Test(arguments: CareStoreBackend.allCases)
    func noFilterReturnsEverythingByID(backend: CareStoreBackend) async throws {
        let world = try await World(backend)
        #expect(try await world.ids { _ in } == ["alpha", "bravo", "charlie", "delta"])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func filtersByIDsUUIDsAndRemoteIDs(backend: CareStoreBackend) async throws {
        let world = try await World(backend)
        #expect(try await world.ids { $0.ids = ["delta", "alpha", "nobody"] } == ["alpha", "delta"])
        #expect(try await world.ids { $0.uuids = [world.tasks["bravo"]!.uuid, world.tasks["charlie"]!.uuid] } == ["bravo", "charlie"])
        #expect(try await world.ids { $0.uuids = [UUID()] } == [])
        #expect(try await world.ids { $0.remoteIDs = ["r-charlie"] } == ["charlie"])
        #expect(try await world.ids { $0.remoteIDs = ["r-alpha", "r-charlie"] } == ["alpha", "charlie"])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func filtersByGroupIdentifiersAndTags(backend: CareStoreBackend) async throws {
        let world = try await World(backend)
        #expect(try await world.ids { $0.groupIdentifiers = ["g1"] } == ["alpha", "charlie"])
        #expect(try await world.ids { $0.groupIdentifiers = ["g2", "g3"] } == ["bravo"])
        #expect(try await world.ids { $0.tags = ["knee"] } == ["alpha", "bravo"])
        #expect(try await world.ids { $0.tags = ["hip", "daily"] } == ["alpha", "charlie"])
        #expect(try await world.ids { $0.tags = ["none"] } == [])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func filtersCombineWithAnd(backend: CareStoreBackend) async throws {
        let world = try await World(backend)
        #expect(try await world.ids { $0.carePlanIDs = ["A"]; $0.tags = ["daily"] } == ["alpha"])
        #expect(try await world.ids { $0.groupIdentifiers = ["g1"]; $0.carePlanIDs = ["B"] } == ["charlie"])
        #expect(try await world.ids { $0.ids = ["alpha"]; $0.remoteIDs = ["r-charlie"] } == [])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func filtersTasksAndContactsByCarePlanAndPlansByPatient(backend: CareStoreBackend) async throws {
        let world = try await World(backend)
        #expect(try await world.ids { $0.carePlanIDs = ["A"] } == ["alpha", "bravo"])
        #expect(try await world.ids { $0.carePlanIDs = ["B", "Z"] } == ["charlie", "delta"])
        #expect(try await world.ids { $0.carePlanIDs = ["Z"] } == [])

        var contacts = CareQuery()
        contacts.carePlanIDs = ["B"]
        #expect(try await world.store.fetch(Contact.self, query: contacts).map(\.id) == ["surgeon"])

        var plans = CareQuery()
        plans.patientIDs = ["p2"]
        #expect(try await world.store.fetch(CarePlan.self, query: plans).map(\.id) == ["B"])
        plans.patientIDs = ["nobody"]
        #expect(try await world.store.fetch(CarePlan.self, query: plans).isEmpty)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func carePlanFilterFollowsEveryVersionOfThePlan(backend: CareStoreBackend) async throws {
        let world = try await World(backend)
        var newA = world.planA
        newA.title = "Plan A, second version"
        newA.version.effectiveDate = date(2026, 3, 10, in: Zone.tokyo)
        let planA2 = try await world.store.update([newA])[0]
        // A task of the new plan version, beside the tasks that point at the first one.
        _ = try await world.store.add([Make.task("echo", plan: planA2, in: Zone.tokyo)])
        #expect(try await world.ids { $0.carePlanIDs = ["A"] } == ["alpha", "bravo", "echo"])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func dateIntervalSelectsWhatIsInEffectAtItsEnd(backend: CareStoreBackend) async throws {
        let world = try await World(backend)
        let tokyo = Zone.tokyo
        // Effective before the end (Mar 2 12:00): alpha (Mar 1) and charlie (Mar 2).
        #expect(try await world.ids { $0.dateInterval = DateInterval(start: date(2026, 2, 1, in: tokyo), end: date(2026, 3, 2, 12, in: tokyo)) }
                == ["alpha", "charlie"])
        // An interval that ends at an effective date leaves that entity out: it is in effect from then, not before.
        #expect(try await world.ids { $0.dateInterval = DateInterval(start: date(2026, 3, 1, in: tokyo), end: date(2026, 3, 3, in: tokyo)) }
                == ["alpha", "charlie"])
        #expect(try await world.ids { $0.dateInterval = day(2026, 3, 3, in: tokyo) } == ["alpha", "bravo", "charlie"])
        #expect(try await world.ids { $0.dateInterval = day(2026, 2, 27, in: tokyo) } == [])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func sortsByEveryKeyBothWays(backend: CareStoreBackend) async throws {
        let world = try await World(backend)
        let expectations: [(CareSortKey, [String])] = [
            (.id(ascending: true), ["alpha", "bravo", "charlie", "delta"]),
            (.effectiveDate(ascending: true), ["alpha", "charlie", "bravo", "delta"]),
            (.title(ascending: true), ["delta", "bravo", "charlie", "alpha"]),
            (.createdDate(ascending: true), ["charlie", "delta", "alpha", "bravo"]),
        ]
        for (key, ascending) in expectations {
            #expect(try await world.ids { $0.sortOrder = [key] } == ascending, "\(key)")
            let descending: CareSortKey = switch key {
            case .id: .id(ascending: false)
            case .effectiveDate: .effectiveDate(ascending: false)
            case .title: .title(ascending: false)
            case .createdDate: .createdDate(ascending: false)
            }
            #expect(try await world.ids { $0.sortOrder = [descending] } == Array(ascending.reversed()), "\(descending)")
        }
    }

    @Test(arguments: CareStoreBackend.allCases)
    func laterSortKeysBreakTies(backend: CareStoreBackend) async throws {
        let world = try await World(backend)
        // echo and foxtrot share delta's effective date.
        _ = try await world.store.add([
            Make.task("foxtrot", title: "Breathe", in: Zone.tokyo).withEffectiveDate(date(2026, 3, 5, in: Zone.tokyo)),
            Make.task("echo", title: "Yoga", in: Zone.tokyo).withEffectiveDate(date(2026, 3, 5, in: Zone.tokyo)),
        ])
        #expect(try await world.ids { $0.sortOrder = [.effectiveDate(ascending: false), .id(ascending: false)] }
                == ["foxtrot", "echo", "delta", "bravo", "charlie", "alpha"])
        #expect(try await world.ids { $0.sortOrder = [.effectiveDate(ascending: false), .title(ascending: true), .id(ascending: true)] }
                == ["delta", "foxtrot", "echo", "bravo", "charlie", "alpha"])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func limitAndOffsetPageTheSortedResults(backend: CareStoreBackend) async throws {
        let world = try await World(backend)
        #expect(try await world.ids { $0.limit = 2 } == ["alpha", "bravo"])
        #expect(try await world.ids { $0.offset = 1; $0.limit = 2 } == ["bravo", "charlie"])
        #expect(try await world.ids { $0.offset = 3 } == ["delta"])
        #expect(try await world.ids { $0.offset = 10 } == [])
        #expect(try await world.ids { $0.limit = 0 } == [])
        #expect(try await world.ids { $0.sortOrder = [.effectiveDate(ascending: false)]; $0.offset = 1; $0.limit = 2 } == ["bravo", "charlie"])
        #expect(try await world.ids { $0.tags = ["knee"]; $0.offset = 1 } == ["bravo"])
    }
}

extension CareTask {
    /// The task with another effective date.
    func withEffectiveDate(_ date: Date) -> CareTask {
        var task = self
        task.version.effectiveDate = date
        return task
    }
}
