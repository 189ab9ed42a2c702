import Foundation
import Testing
@testable import CareStore

/// Adding and fetching every kind of entity: every field round-trips, the store sets the version fields, and a
/// refused batch writes nothing.
@Suite("Conformance: entities")
struct EntityConformanceTests {
    // MARK: - Round trips

    @Test(arguments: CareStoreBackend.allCases)
    func patientRoundTrips(backend: CareStoreBackend) async throws {
        let clock = TestClock()
        let store = try await backend.makeStore(clock: clock)
        var name = PersonNameComponents()
        name.namePrefix = "Dr."
        name.givenName = "Hanako"
        name.middleName = "M."
        name.familyName = "Yamada"
        name.nameSuffix = "Jr."
        name.nickname = "Hana"
        var patient = Patient(id: "patient-1", name: name, sex: .other("intersex"), birthday: date(1980, 2, 29, in: Zone.tokyo),
                              allergies: ["penicillin", "latex"], effectiveDate: date(2026, 3, 1, 9, 30, in: Zone.tokyo), timeZone: Zone.tokyo)
        decorate(&patient.version, "patient")

        let added = try await store.add([patient])

        #expect(added.count == 1)
        let stored = try #require(added.first)
        #expect(stored.uuid == TestClock.uuid(1))
        #expect(stored.version.createdDate == clock.now)
        #expect(stored.version.updatedDate == clock.now)
        #expect(stored.version.deletedDate == nil)
        #expect(stored.version.previousVersionUUIDs.isEmpty && stored.version.nextVersionUUIDs.isEmpty)
        #expect(normalized(patient, like: stored) == stored)

        let fetched = try #require(try await store.fetchOne(Patient.self, id: "patient-1"))
        #expect(fetched == stored)
        #expect(fetched.name.nickname == "Hana" && fetched.name.familyName == "Yamada")
        #expect(fetched.sex == .other("intersex"))
        #expect(fetched.birthday == date(1980, 2, 29, in: Zone.tokyo))
        #expect(fetched.allergies == ["penicillin", "latex"])
        #expect(fetched.version.timeZone == Zone.tokyo)
        #expect(fetched.version.notes == patient.version.notes)
        #expect(try await store.versions(of: Patient.self, id: "patient-1") == [stored])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func everySexRoundTrips(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let patients = [Patient.Sex.female, .male, .other("unknown")].enumerated().map { index, sex in
            Patient(id: "p\(index)", name: PersonNameComponents(givenName: "P\(index)"), sex: sex, effectiveDate: date(2026, 3, 1, in: Zone.berlin))
        }
        _ = try await store.add(patients)
        #expect(try await store.fetch(Patient.self, query: CareQuery()).map(\.sex) == [.female, .male, .other("unknown")])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func carePlanRoundTripsAndPointsAtItsPatient(backend: CareStoreBackend) async throws {
        let clock = TestClock()
        let store = try await backend.makeStore(clock: clock)
        let patient = try await store.add([Make.patient(in: Zone.newYork)])[0]
        var plan = CarePlan(id: "knee", title: "Knee rehabilitation", patientUUID: patient.uuid,
                            effectiveDate: date(2026, 3, 2, 7, in: Zone.newYork), timeZone: Zone.newYork)
        decorate(&plan.version, "plan")

        let stored = try await store.add([plan])[0]

        #expect(stored.patientUUID == patient.uuid)
        #expect(stored.uuid == TestClock.uuid(2))
        #expect(normalized(plan, like: stored) == stored)
        #expect(try await store.fetchOne(CarePlan.self, id: "knee") == stored)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func contactRoundTripsWithEveryField(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let plan = try await store.add([Make.plan()])[0]
        var contact = Contact(
            id: "physio", name: PersonNameComponents(givenName: "Jonas", familyName: "Weber"), carePlanUUID: plan.uuid,
            title: "Physiotherapist", role: "Leads your knee rehabilitation", organization: "Charité", category: .careProvider,
            address: PostalAddress(street: "Charitéplatz 1", city: "Berlin", state: "Berlin", postalCode: "10117", country: "DE"),
            emailAddresses: [LabeledValue(label: "work", value: "jonas@example.org"), LabeledValue(label: "home", value: "j@example.net")],
            phoneNumbers: [LabeledValue(label: "work", value: "+49 30 1234567")],
            messagingNumbers: [LabeledValue(label: "mobile", value: "+49 170 1234567")],
            otherContactInfo: [LabeledValue(label: "fax", value: "+49 30 7654321")],
            effectiveDate: date(2026, 3, 1, in: Zone.berlin), timeZone: Zone.berlin)
        decorate(&contact.version, "contact")

        let stored = try await store.add([contact])[0]

        #expect(normalized(contact, like: stored) == stored)
        let fetched = try #require(try await store.fetchOne(Contact.self, id: "physio"))
        #expect(fetched == stored)
        #expect(fetched.address?.postalCode == "10117")
        #expect(fetched.emailAddresses.map(\.label) == ["work", "home"])
        #expect(fetched.messagingNumbers == contact.messagingNumbers)
        #expect(fetched.otherContactInfo == contact.otherContactInfo)
        #expect(fetched.category == .careProvider)
        #expect(fetched.carePlanUUID == plan.uuid)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func taskRoundTripsWithScheduleAndAdherenceFlag(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let plan = try await store.add([Make.plan(in: Zone.tokyo)])[0]
        let schedule = Schedule(elements: [
            ScheduleElement(start: date(2026, 3, 1, 8, in: Zone.tokyo), end: date(2026, 4, 1, in: Zone.tokyo), interval: DateComponents(day: 1),
                            text: "Morning", targetValues: [OutcomeValue(.integer(10), kind: "reps", units: "count")]),
            ScheduleElement(start: date(2026, 3, 1, 20, 15, in: Zone.tokyo), end: nil, interval: DateComponents(day: 2),
                            text: "Evening", targetValues: []),
        ], timeZone: Zone.tokyo)
        var task = CareTask(id: "squats", title: "Squats", instructions: "Slowly, ten times.", impactsAdherence: false, schedule: schedule,
                            carePlanUUID: plan.uuid, effectiveDate: date(2026, 3, 1, in: Zone.tokyo) + 0.123_456, timeZone: Zone.tokyo)
        decorate(&task.version, "task")

        let stored = try await store.add([task])[0]

        #expect(normalized(task, like: stored) == stored)
        let fetched = try #require(try await store.fetchOne(CareTask.self, id: "squats"))
        #expect(fetched == stored)
        #expect(fetched.schedule == schedule)
        #expect(fetched.impactsAdherence == false)
        #expect(fetched.instructions == "Slowly, ten times.")
        #expect(fetched.carePlanUUID == plan.uuid)
        #expect(fetched.effectiveDate == task.effectiveDate) // to the microsecond
    }

    @Test(arguments: CareStoreBackend.allCases)
    func outcomeRoundTripsWithEveryKindOfValue(backend: CareStoreBackend) async throws {
        let clock = TestClock()
        let store = try await backend.makeStore(clock: clock)
        let task = try await store.add([Make.task("diary", in: Zone.newYork)])[0]
        let recorded = Date(timeIntervalSince1970: 1_772_400_000)
        let values: [OutcomeValue] = [
            OutcomeValue(.integer(3_200), kind: "steps", units: "count", createdDate: recorded),
            OutcomeValue(.double(6.25), kind: "pain", units: "NRS"),
            OutcomeValue(.boolean(true), kind: "took"),
            OutcomeValue(.text("Knie geschwollen — 膝が腫れている"), kind: "note"),
            OutcomeValue(.binary(Data([0, 1, 2, 254, 255])), kind: "blob"),
            OutcomeValue(.date(date(2026, 3, 2, 7, 45, in: Zone.newYork)), kind: "woke"),
        ]
        let outcome = Outcome(taskUUID: task.uuid, occurrenceIndex: 2, values: values, timeZone: Zone.newYork,
                              notes: [Note(author: "patient", content: "fine")], tags: ["morning"], remoteID: "remote-o",
                              source: "web", userInfo: ["device": "phone"])

        let stored = try await store.addOutcomes([outcome])[0]

        #expect(stored.uuid == TestClock.uuid(2))
        #expect(stored.createdDate == clock.now)
        #expect(stored.deletedDate == nil)
        var expected = outcome
        expected.uuid = stored.uuid
        expected.createdDate = stored.createdDate
        #expect(stored == expected)
        #expect(try await store.fetchOutcomes(query: OutcomeQuery()) == [stored])
    }

    // MARK: - Refusals

    @Test(arguments: CareStoreBackend.allCases)
    func duplicateIDIsRefused(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        _ = try await store.add([Make.patient("p")])
        await #expect(throws: CareStoreError.alreadyExists(kind: .patient, id: "p")) {
            try await store.add([Make.patient("p")])
        }
        #expect(try await store.versions(of: Patient.self, id: "p").count == 1)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func sameIDTwiceInOneBatchIsRefused(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        await #expect(throws: CareStoreError.duplicateInBatch(kind: .task, id: "walk")) {
            try await store.add([Make.task("walk"), Make.task("other"), Make.task("walk", hour: 9)])
        }
        #expect(try await store.fetch(CareTask.self, query: CareQuery()).isEmpty)

        _ = try await store.add([Make.task("walk")])
        await #expect(throws: CareStoreError.duplicateInBatch(kind: .task, id: "walk")) {
            try await store.update([Make.task("walk", hour: 9), Make.task("walk", hour: 10)])
        }
        await #expect(throws: CareStoreError.duplicateInBatch(kind: .task, id: "walk")) {
            try await store.delete([Make.task("walk"), Make.task("walk")])
        }
        #expect(try await store.versions(of: CareTask.self, id: "walk").count == 1)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func unknownParentIsRefused(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let patient = try await store.add([Make.patient()])[0]
        let missing = UUID()

        var plan = Make.plan("plan")
        plan.patientUUID = missing
        await #expect(throws: CareStoreError.unknownParent(kind: .carePlan, id: "plan", parentUUID: missing)) {
            try await store.add([plan])
        }
        var task = Make.task("walk")
        task.carePlanUUID = missing
        await #expect(throws: CareStoreError.unknownParent(kind: .task, id: "walk", parentUUID: missing)) {
            try await store.add([task])
        }
        // A parent of the wrong kind is no parent: a task belongs to a care plan, not a patient.
        task.carePlanUUID = patient.uuid
        await #expect(throws: CareStoreError.unknownParent(kind: .task, id: "walk", parentUUID: patient.uuid)) {
            try await store.add([task])
        }
        var contact = Contact(id: "c", name: PersonNameComponents(givenName: "C"), carePlanUUID: missing, effectiveDate: date(2026, 3, 1, in: Zone.berlin))
        await #expect(throws: CareStoreError.unknownParent(kind: .contact, id: "c", parentUUID: missing)) {
            try await store.add([contact])
        }
        // An update may not point at a missing parent either.
        contact.carePlanUUID = nil
        _ = try await store.add([contact])
        contact.carePlanUUID = missing
        await #expect(throws: CareStoreError.unknownParent(kind: .contact, id: "c", parentUUID: missing)) {
            try await store.update([contact])
        }
        #expect(try await store.fetch(CareTask.self, query: CareQuery()).isEmpty)
        #expect(try await store.fetch(CarePlan.self, query: CareQuery()).isEmpty)
        #expect(try await store.versions(of: Contact.self, id: "c").count == 1)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func failedAddWritesNothing(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        var orphan = Make.task("orphan")
        orphan.carePlanUUID = UUID()
        await #expect(throws: CareStoreError.self) {
            try await store.add([Make.task("first"), Make.task("second"), orphan])
        }
        #expect(try await store.fetch(CareTask.self, query: CareQuery()).isEmpty)
        #expect(try await store.versions(of: CareTask.self, id: "first").isEmpty)
        #expect(try await store.events(taskQuery: CareQuery(), window: day(2026, 3, 2, in: Zone.berlin)).isEmpty)

        // Nothing of the failed batch lingers: the same ids may be added now, once each.
        let added = try await store.add([Make.task("first"), Make.task("second")])
        #expect(try await store.versions(of: CareTask.self, id: "first") == [added[0]])
        #expect(try await store.fetch(CareTask.self, query: CareQuery()).map(\.id) == ["first", "second"])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func failedUpdateAndDeleteWriteNothing(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let originals = try await store.add([Make.task("a"), Make.task("b")])

        var newA = Make.task("a", hour: 9, effective: date(2026, 3, 10, in: Zone.berlin))
        newA.title = "changed"
        await #expect(throws: CareStoreError.notFound(kind: .task, id: "missing")) {
            try await store.update([newA, Make.task("missing")])
        }
        await #expect(throws: CareStoreError.notFound(kind: .task, id: "missing")) {
            try await store.delete([originals[1], Make.task("missing")])
        }

        #expect(try await store.versions(of: CareTask.self, id: "a") == [originals[0]])
        #expect(try await store.versions(of: CareTask.self, id: "b") == [originals[1]])
        #expect(try await store.fetch(CareTask.self, query: CareQuery()) == originals)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func failedOutcomeBatchWritesNothing(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let task = try await store.add([Make.task("a", end: date(2026, 3, 4, in: Zone.berlin))])[0]
        await #expect(throws: CareStoreError.noSuchOccurrence(taskID: "a", occurrenceIndex: 3)) {
            try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 0, values: []),
                                         Outcome(taskUUID: task.uuid, occurrenceIndex: 3, values: [])])
        }
        #expect(try await store.fetchOutcomes(query: OutcomeQuery()).isEmpty)

        let kept = try await store.addOutcomes([Outcome(taskUUID: task.uuid, occurrenceIndex: 0, values: [OutcomeValue(.integer(1))])])[0]
        var replacement = kept
        replacement.values = [OutcomeValue(.integer(2))]
        await #expect(throws: CareStoreError.self) {
            try await store.updateOutcomes([replacement, Outcome(taskUUID: task.uuid, occurrenceIndex: 1, values: [])])
        }
        await #expect(throws: CareStoreError.self) {
            try await store.deleteOutcomes([kept, Outcome(taskUUID: task.uuid, occurrenceIndex: 1, values: [])])
        }
        #expect(try await store.fetchOutcomes(query: OutcomeQuery()) == [kept])
    }
}
