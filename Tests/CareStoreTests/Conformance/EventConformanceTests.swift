import Foundation
import Testing
@testable import CareStore

/// Events with their outcomes and progress, daily adherence and insights.
@Suite("Conformance: events, adherence and insights")
struct EventConformanceTests {
    let tokyo = Zone.tokyo
    let newYork = Zone.newYork
    let berlin = Zone.berlin

    @Test(arguments: CareStoreBackend.allCases)
    func eventsOfAWindowComeWithTheirOutcomesOrderedByStart(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let plan = try await store.add([Make.plan("plan", in: tokyo), Make.plan("other", in: tokyo)])
        let tasks = try await store.add([
            Make.task("meds", plan: plan[0], hour: 8, in: tokyo),
            Make.task("walk", plan: plan[0], hour: 7, in: tokyo),
            Make.task("diary", plan: plan[0], hour: 21, in: tokyo),
            Make.task("another", plan: plan[0], hour: 8, in: tokyo), // same time as meds: ordered by task id
            Make.task("elsewhere", plan: plan[1], hour: 9, in: tokyo),
        ])
        let outcome = try await store.addOutcomes([Outcome(taskUUID: tasks[0].uuid, occurrenceIndex: 4, values: [OutcomeValue(.boolean(true))])])[0]

        var query = CareQuery()
        query.carePlanIDs = ["plan"]
        let events = try await store.events(taskQuery: query, window: days(from: (2026, 3, 5), to: (2026, 3, 7), in: tokyo))

        let seen = events.map { "\(wallClock($0.scheduleEvent.start, in: tokyo).day) \($0.task.id)" }
        #expect(seen == ["5 walk", "5 another", "5 meds", "5 diary", "6 walk", "6 another", "6 meds", "6 diary"])
        #expect(events.map(\.scheduleEvent.start) == events.map(\.scheduleEvent.start).sorted())
        #expect(events[2].outcome == outcome)
        #expect(events[2].scheduleEvent.occurrence == 4)
        #expect(events[2].progress.isCompleted)
        #expect(events.filter { $0.outcome != nil }.count == 1)
        #expect(events.filter { !$0.progress.isCompleted }.count == 7)
        // A window is a window: the end is exclusive, so March 7 contributes nothing.
        #expect(events.allSatisfy { $0.scheduleEvent.start < date(2026, 3, 7, in: tokyo) })
    }

    /// What a reminder sender asks: the events open at an instant without a live outcome, exactly those that the
    /// window's events say are open then without one; an outcome added, deleted or a new version written after the
    /// first ask (within the same hour, whose schedules the store keeps) is seen by the next.
    @Test(arguments: CareStoreBackend.allCases)
    func openEventsWithoutOutcomesAreTheWindowsOpenEventsWithoutOne(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let start = date(2026, 3, 1, in: berlin)
        let tasks = try await store.add([
            CareTask(id: "allDay", schedule: .dailyAt(hour: 0, start: start, duration: .allDay, timeZone: berlin), effectiveDate: start, timeZone: berlin),
            CareTask(id: "morning", schedule: .dailyAt(hour: 8, start: start, duration: .hours(3), timeZone: berlin), effectiveDate: start, timeZone: berlin),
            CareTask(id: "closed", schedule: .dailyAt(hour: 6, start: start, duration: .hours(1), timeZone: berlin), effectiveDate: start, timeZone: berlin),
            CareTask(id: "later", schedule: .dailyAt(hour: 10, start: start, duration: .hours(1), timeZone: berlin), effectiveDate: start, timeZone: berlin),
        ])
        var query = CareQuery()
        query.ids = ["allDay", "morning", "closed", "later"]
        let instant = date(2026, 3, 28, 9, 30, in: berlin)
        func expected() async throws -> [String] {
            try await store.events(taskQuery: query, window: DateInterval(start: instant, duration: 1))
                .filter { $0.scheduleEvent.start <= instant && instant < $0.scheduleEvent.end && $0.outcome == nil }
                .map { "\($0.task.id) \($0.scheduleEvent.occurrence) \($0.task.uuid)" }
        }
        func open(at when: Date) async throws -> [String] {
            try await store.openEventsWithoutOutcomes(taskQuery: query, at: when).map { "\($0.task.id) \($0.scheduleEvent.occurrence) \($0.task.uuid)" }
        }
        #expect(try await open(at: instant) == expected())
        #expect(try await open(at: instant) == ["allDay 27 \(tasks[0].uuid)", "morning 27 \(tasks[1].uuid)"])

        // An outcome for the morning's event, then deleted: gone, then back, within the hour.
        let outcome = try await store.addOutcomes([Outcome(taskUUID: tasks[1].uuid, occurrenceIndex: 27, values: [OutcomeValue(.boolean(true))])])
        #expect(try await open(at: instant.addingTimeInterval(60)) == ["allDay 27 \(tasks[0].uuid)"])
        _ = try await store.deleteOutcomes(outcome)
        #expect(try await open(at: instant.addingTimeInterval(120)) == ["allDay 27 \(tasks[0].uuid)", "morning 27 \(tasks[1].uuid)"])

        // A new version of the all-day task from today: its event is the new version's.
        var changed = tasks[0]
        changed.title = "All day, changed"
        changed.version.effectiveDate = date(2026, 3, 28, in: berlin)
        let updated = try await store.update([changed])[0]
        let after = try await open(at: instant.addingTimeInterval(180))
        #expect(after.contains { $0.hasPrefix("allDay ") && $0.hasSuffix(updated.uuid.uuidString) })
        #expect(try await open(at: instant) == expected())
        // At 10:30 the later task is open and the morning's too; at 23:00 only the all-day one.
        #expect(try await open(at: date(2026, 3, 28, 10, 30, in: berlin)).map { $0.split(separator: " ")[0] } == ["allDay", "morning", "later"])
        #expect(try await open(at: date(2026, 3, 28, 23, 0, in: berlin)).map { $0.split(separator: " ")[0] } == ["allDay"])
    }

    /// Which tasks have a live outcome, looked up only: one with an outcome, one without, one whose outcome was
    /// deleted, one whose outcome is on its older version, and an id no task has.
    @Test(arguments: CareStoreBackend.allCases)
    func taskIDsWithOutcomesAreThoseWithALiveOutcomeOnAnyVersion(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let start = date(2026, 3, 1, in: berlin)
        let tasks = try await store.add(["done", "open", "undone", "older"].map {
            CareTask(id: $0, schedule: .dailyAt(hour: 9, start: start, timeZone: berlin), effectiveDate: start, timeZone: berlin)
        })
        _ = try await store.addOutcomes([Outcome(taskUUID: tasks[0].uuid, occurrenceIndex: 3, values: [])])
        let undone = try await store.addOutcomes([Outcome(taskUUID: tasks[2].uuid, occurrenceIndex: 0, values: [])])
        _ = try await store.deleteOutcomes(undone)
        _ = try await store.addOutcomes([Outcome(taskUUID: tasks[3].uuid, occurrenceIndex: 1, values: [])])
        var newer = tasks[3]
        newer.version.effectiveDate = date(2026, 3, 10, in: berlin)
        _ = try await store.update([newer])
        #expect(try await store.taskIDsWithOutcomes(among: ["done", "open", "undone", "older", "nothing"]) == ["done", "older"])
        #expect(try await store.taskIDsWithOutcomes(among: []) == [])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func dailyEventsKeepTheirWallClockTimeAcrossDaylightSavingTime(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        _ = try await store.add([
            CareTask(id: "berlin", schedule: .dailyAt(hour: 8, minute: 0, start: date(2026, 3, 1, in: berlin), end: nil, timeZone: berlin),
                     effectiveDate: date(2026, 3, 1, in: berlin), timeZone: berlin),
            CareTask(id: "newYork", schedule: .dailyAt(hour: 8, minute: 0, start: date(2026, 3, 1, in: newYork), end: nil, timeZone: newYork),
                     effectiveDate: date(2026, 3, 1, in: newYork), timeZone: newYork),
        ])
        var query = CareQuery()
        query.ids = ["berlin"]
        let inBerlin = try await store.events(taskQuery: query, window: days(from: (2026, 3, 27), to: (2026, 3, 31), in: berlin))
        #expect(inBerlin.map { wallClock($0.scheduleEvent.start, in: berlin).hour } == [8, 8, 8, 8])
        #expect(inBerlin.map { calendar(berlin).dateComponents(in: berlin, from: $0.scheduleEvent.start).day } == [27, 28, 29, 30])
        // 07:00 UTC before the change, 06:00 UTC after.
        #expect(inBerlin.map { wallClock($0.scheduleEvent.start, in: .gmt).hour } == [7, 7, 6, 6])

        query.ids = ["newYork"]
        let inNewYork = try await store.events(taskQuery: query, window: days(from: (2026, 3, 7), to: (2026, 3, 10), in: newYork))
        #expect(inNewYork.map { wallClock($0.scheduleEvent.start, in: newYork).hour } == [8, 8, 8])
        #expect(inNewYork.map { wallClock($0.scheduleEvent.start, in: .gmt).hour } == [13, 12, 12])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func progressIsOutcomeExistsWithoutTargetsAndSummedValuesWithThem(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let tasks = try await store.add([
            Make.task("check", hour: 8, in: tokyo),
            Make.task("reps", hour: 9, targets: [OutcomeValue(.integer(10), kind: "reps")], in: tokyo),
            Make.task("two", hour: 10, targets: [OutcomeValue(.integer(10), kind: "reps"), OutcomeValue(.double(2), kind: "sets")], in: tokyo),
        ])
        let (check, reps, two) = (tasks[0], tasks[1], tasks[2])
        // Day 0 (March 1): an outcome for every task. Day 1: full. Day 2: none.
        _ = try await store.addOutcomes([
            Outcome(taskUUID: check.uuid, occurrenceIndex: 0, values: []),
            Outcome(taskUUID: reps.uuid, occurrenceIndex: 0, values: [OutcomeValue(.integer(3), kind: "reps"), OutcomeValue(.integer(1), kind: "reps"),
                                                                    OutcomeValue(.integer(50), kind: "other")]),
            Outcome(taskUUID: two.uuid, occurrenceIndex: 0, values: [OutcomeValue(.integer(5), kind: "reps"), OutcomeValue(.double(1), kind: "sets")]),
            Outcome(taskUUID: check.uuid, occurrenceIndex: 1, values: [OutcomeValue(.boolean(true))]),
            Outcome(taskUUID: reps.uuid, occurrenceIndex: 1, values: [OutcomeValue(.integer(6), kind: "reps"), OutcomeValue(.integer(6), kind: "reps")]),
            Outcome(taskUUID: two.uuid, occurrenceIndex: 1, values: [OutcomeValue(.integer(10), kind: "reps"), OutcomeValue(.double(2), kind: "sets")]),
        ])

        let events = try await store.events(taskQuery: CareQuery(), window: days(from: (2026, 3, 1), to: (2026, 3, 4), in: tokyo))
        let progress = Dictionary(uniqueKeysWithValues: events.map { ("\($0.task.id)\($0.scheduleEvent.occurrence)", $0.progress) })

        #expect(progress["check0"]?.fractionCompleted == 1)
        #expect(progress["check0"]?.isCompleted == true)
        #expect(progress["check2"]?.fractionCompleted == 0)
        #expect(progress["reps0"]?.value == 4)
        #expect(progress["reps0"]?.target == 10)
        #expect(progress["reps0"]?.fractionCompleted == 0.4)
        #expect(progress["reps0"]?.isCompleted == false)
        #expect(progress["reps1"]?.fractionCompleted == 1) // 12 of 10
        #expect(progress["reps1"]?.isCompleted == true)
        #expect(progress["reps2"]?.fractionCompleted == 0)
        #expect(progress["two0"]?.value == 6)
        #expect(progress["two0"]?.target == 12)
        #expect(progress["two0"]?.fractionCompleted == 0.5)
        #expect(progress["two1"]?.isCompleted == true)
    }

    @Test(arguments: CareStoreBackend.allCases)
    func adherencePerDayOverTasksThatImpactAdherence(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        // Daylight saving time starts in New York on March 8 (a 23-hour day).
        let daily = try await store.add([
            // In effect from March 3 but never counted.
            Make.task("optional", hour: 7, effective: date(2026, 3, 3, in: newYork), impactsAdherence: false, in: newYork),
        ])[0]
        let tasks = try await store.add([
            // Events on March 5, 6, then from March 8 on: nothing on March 7.
            CareTask(id: "knee", title: "Knee", schedule: Schedule(elements: [
                ScheduleElement(start: date(2026, 3, 5, 9, in: newYork), end: date(2026, 3, 7, 9, in: newYork), interval: DateComponents(day: 1),
                                text: nil, targetValues: []),
                ScheduleElement(start: date(2026, 3, 8, 9, in: newYork), end: nil, interval: DateComponents(day: 1), text: nil, targetValues: []),
            ], timeZone: newYork), effectiveDate: date(2026, 3, 5, in: newYork), timeZone: newYork),
            // One event, on March 5, with a target of 10.
            Make.task("reps", hour: 10, start: date(2026, 3, 5, 10, in: newYork), end: date(2026, 3, 6, 10, in: newYork),
                      targets: [OutcomeValue(.integer(10))], in: newYork),
        ])
        let (knee, reps) = (tasks[0], tasks[1])
        _ = try await store.addOutcomes([
            Outcome(taskUUID: knee.uuid, occurrenceIndex: 0, values: []),              // March 5: 1
            Outcome(taskUUID: reps.uuid, occurrenceIndex: 0, values: [OutcomeValue(.integer(5))]), // March 5: 0.5
            Outcome(taskUUID: knee.uuid, occurrenceIndex: 2, values: []),              // March 8: 1
            Outcome(taskUUID: daily.uuid, occurrenceIndex: 5, values: []),             // not counted
        ])

        let adherence = try await store.adherence(taskQuery: CareQuery(), window: days(from: (2026, 3, 3), to: (2026, 3, 10), in: newYork),
                                                  calendar: calendar(newYork))

        #expect(adherence.map(\.date) == (3...9).map { date(2026, 3, $0, in: newYork) })
        #expect(adherence.map(\.state) == [
            .noTasks,        // March 3: only the task that does not count
            .noTasks,        // March 4
            .progress(0.75), // March 5: (1 + 0.5) / 2, the optional task's open event not counted
            .progress(0),    // March 6: one open event
            .noEvents,       // March 7: the schedule skips the day
            .progress(1),    // March 8
            .progress(0),    // March 9
        ])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func adherenceFollowsTheTaskQuery(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let tasks = try await store.add([Make.task("a", hour: 8, in: berlin), Make.task("b", hour: 9, in: berlin)])
        _ = try await store.addOutcomes([Outcome(taskUUID: tasks[0].uuid, occurrenceIndex: 0, values: [])])
        var query = CareQuery()
        query.ids = ["a"]
        let onlyA = try await store.adherence(taskQuery: query, window: day(2026, 3, 1, in: berlin), calendar: calendar(berlin))
        #expect(onlyA.map(\.state) == [.progress(1)])
        let both = try await store.adherence(taskQuery: CareQuery(), window: day(2026, 3, 1, in: berlin), calendar: calendar(berlin))
        #expect(both.map(\.state) == [.progress(0.5)])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func adherenceByTaskIsEachTasksOwnAdherenceFromOneRead(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        // Across the start of daylight saving time in New York (March 8, 23 hours), a task that gets a new version
        // half-way (its events then at 18:00), one with a target, and one that does not count toward adherence.
        let tasks = try await store.add([
            Make.task("knee", start: date(2026, 3, 5, 9, in: newYork), in: newYork),
            Make.task("reps", start: date(2026, 3, 5, 10, in: newYork), targets: [OutcomeValue(.integer(10))], in: newYork),
            Make.task("optional", start: date(2026, 3, 5, 7, in: newYork), impactsAdherence: false, in: newYork),
        ])
        let (knee, reps, optional) = (tasks[0], tasks[1], tasks[2])
        let later = try await store.update([Make.task("knee", start: date(2026, 3, 5, 18, in: newYork), effective: date(2026, 3, 8, in: newYork),
                                                      in: newYork)])[0]
        _ = try await store.addOutcomes([
            Outcome(taskUUID: knee.uuid, occurrenceIndex: 0, values: []),                            // March 5
            Outcome(taskUUID: reps.uuid, occurrenceIndex: 1, values: [OutcomeValue(.integer(4))]),   // March 6: 0.4
            Outcome(taskUUID: optional.uuid, occurrenceIndex: 2, values: []),                        // March 7
        ])
        let events = try await store.events(taskQuery: CareQuery(), window: day(2026, 3, 9, in: newYork))
        let kneeOnNinth = try #require(events.first { $0.task.uuid == later.uuid })
        _ = try await store.addOutcomes([Outcome(taskUUID: later.uuid, occurrenceIndex: kneeOnNinth.scheduleEvent.occurrence, values: [])])

        let window = days(from: (2026, 3, 4), to: (2026, 3, 11), in: newYork)
        let byTask = try await store.adherenceByTask(taskQuery: CareQuery(), window: window, calendar: calendar(newYork), includingAll: false)
        #expect(Set(byTask.keys) == ["knee", "reps"])
        for id in ["knee", "reps"] {
            var query = CareQuery()
            query.ids = [id]
            #expect(byTask[id] == (try await store.adherence(taskQuery: query, window: window, calendar: calendar(newYork))), "\(id)")
        }
        #expect(byTask["knee"]?.map(\.state) == [.noTasks, .progress(1), .progress(0), .progress(0), .progress(0), .progress(1), .progress(0)])
        #expect(byTask["reps"]?.map(\.state)[2] == .progress(0.4))

        // With every task: the one that does not count has its own days too.
        let all = try await store.adherenceByTask(taskQuery: CareQuery(), window: window, calendar: calendar(newYork), includingAll: true)
        #expect(Set(all.keys) == ["knee", "reps", "optional"])
        #expect(all["knee"] == byTask["knee"] && all["reps"] == byTask["reps"])
        #expect(all["optional"]?.map(\.state) == [.noTasks, .progress(0), .progress(0), .progress(1), .progress(0), .progress(0), .progress(0)])
        // The query still selects the tasks.
        var onlyReps = CareQuery()
        onlyReps.ids = ["reps"]
        #expect(Set(try await store.adherenceByTask(taskQuery: onlyReps, window: window, calendar: calendar(newYork), includingAll: true).keys) == ["reps"])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func adherenceCountsWholeDaysAcrossDaylightSavingTime(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        // In Berlin, March 29 has 23 hours; events at 01:00 and 22:00 are both on it.
        let schedule = Schedule(elements: [
            ScheduleElement(start: date(2026, 3, 28, 1, in: berlin), end: nil, interval: DateComponents(day: 1), text: nil, targetValues: []),
            ScheduleElement(start: date(2026, 3, 28, 22, in: berlin), end: nil, interval: DateComponents(day: 1), text: nil, targetValues: []),
        ], timeZone: berlin)
        let task = try await store.add([CareTask(id: "t", schedule: schedule, effectiveDate: date(2026, 3, 28, in: berlin), timeZone: berlin)])[0]
        let events = try await store.events(taskQuery: CareQuery(), window: day(2026, 3, 29, in: berlin))
        #expect(events.map { wallClock($0.scheduleEvent.start, in: berlin).hour } == [1, 22])
        _ = try await store.addOutcomes(events.prefix(1).map { Outcome(taskUUID: task.uuid, occurrenceIndex: $0.scheduleEvent.occurrence, values: []) })

        // A window that starts in the middle of the day still counts the whole day.
        let window = DateInterval(start: date(2026, 3, 29, 12, in: berlin), end: date(2026, 3, 30, 12, in: berlin))
        let adherence = try await store.adherence(taskQuery: CareQuery(), window: window, calendar: calendar(berlin))
        #expect(adherence.map(\.date) == [date(2026, 3, 29, in: berlin), date(2026, 3, 30, in: berlin)])
        #expect(adherence.map(\.state) == [.progress(0.5), .progress(0)])
    }

    @Test(arguments: CareStoreBackend.allCases)
    func insightsAggregateAValueKindPerDay(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let pain = try await store.add([Make.task("pain", hour: 8, in: tokyo)])[0]
        let second = try await store.update([Make.task("pain", hour: 20, effective: date(2026, 3, 2, 12, in: tokyo), in: tokyo)])[0]
        let other = try await store.add([Make.task("other", hour: 9, in: tokyo)])[0]
        _ = try await store.addOutcomes([
            // March 1: one outcome with two pain values and a note.
            Outcome(taskUUID: pain.uuid, occurrenceIndex: 0, values: [OutcomeValue(.integer(6), kind: "pain"), OutcomeValue(.double(3), kind: "pain"),
                                                                    OutcomeValue(.text("stiff"), kind: "note")]),
            // March 2: the first version at 08:00 and the second at 20:00.
            Outcome(taskUUID: pain.uuid, occurrenceIndex: 1, values: [OutcomeValue(.integer(4), kind: "pain")]),
            Outcome(taskUUID: second.uuid, occurrenceIndex: 1, values: [OutcomeValue(.integer(2), kind: "pain"), OutcomeValue(.integer(1), kind: "swelling")]),
            // March 3: an outcome without pain values. March 4: nothing.
            Outcome(taskUUID: second.uuid, occurrenceIndex: 2, values: [OutcomeValue(.integer(1), kind: "swelling")]),
            // Another task's outcome is not counted.
            Outcome(taskUUID: other.uuid, occurrenceIndex: 0, values: [OutcomeValue(.integer(100), kind: "pain")]),
        ])
        let window = days(from: (2026, 3, 1), to: (2026, 3, 5), in: tokyo)
        func insights(_ aggregate: InsightAggregate, kind: String? = "pain") async throws -> [DailyInsight] {
            try await store.insights(taskID: "pain", window: window, kind: kind, aggregate: aggregate, calendar: calendar(tokyo))
        }

        let count = try await insights(.count)
        #expect(count.map(\.date) == (1...4).map { date(2026, 3, $0, in: tokyo) })
        #expect(count.map(\.value) == [1, 2, 1, 0])
        let sum = try await insights(.sum)
        #expect(sum.map(\.value) == [9, 6, 0, 0])
        #expect(sum.map(\.sampleCount) == [2, 2, 0, 0])
        let mean = try await insights(.mean)
        #expect(mean.map(\.value) == [4.5, 3, nil, nil])
        #expect(mean.map(\.sampleCount) == [2, 2, 0, 0])
        // Without a kind, every numeric value counts.
        #expect(try await insights(.sum, kind: nil).map(\.value) == [9, 7, 1, 0])
    }

    /// The daily page's read: a day's events and its week's adherence from one read equal the two reads apart, across
    /// Berlin's spring change, with a task of two elements, a task with targets, one that does not count, a task
    /// given a new version mid-week, and a day outside the week.
    @Test(arguments: CareStoreBackend.allCases)
    func eventsWithAdherenceEqualTheTwoReadsApart(backend: CareStoreBackend) async throws {
        let clock = TestClock()
        let store = try await backend.makeStore(clock: clock)
        let twice = Schedule(elements: [
            ScheduleElement(start: date(2026, 3, 20, 1, in: berlin), end: nil, interval: DateComponents(day: 1), text: nil, targetValues: []),
            ScheduleElement(start: date(2026, 3, 20, 22, in: berlin), end: nil, interval: DateComponents(day: 2), text: "late", targetValues: []),
        ], timeZone: berlin)
        let tasks = try await store.add([
            CareTask(id: "twice", schedule: twice, effectiveDate: date(2026, 3, 20, in: berlin), timeZone: berlin),
            Make.task("reps", hour: 9, targets: [OutcomeValue(.integer(10))], in: berlin),
            Make.task("log", hour: 12, impactsAdherence: false, in: berlin),
            Make.task("walk", hour: 7, in: berlin),
        ])
        var later = tasks[3]
        later.schedule = Make.daily(from: date(2026, 3, 27, 18, in: berlin), in: berlin)
        later.version.effectiveDate = date(2026, 3, 27, in: berlin)
        let walk = try await store.update([later])[0]
        let marchOne = date(2026, 3, 1, in: berlin)
        let daysIn = { (day: Int) in Int(calendar(berlin).dateComponents([.day], from: marchOne, to: date(2026, 3, day, in: berlin)).day!) }
        _ = try await store.addOutcomes([
            Outcome(taskUUID: tasks[1].uuid, occurrenceIndex: daysIn(29), values: [OutcomeValue(.integer(4))]),
            Outcome(taskUUID: tasks[2].uuid, occurrenceIndex: daysIn(29), values: []),
            Outcome(taskUUID: tasks[3].uuid, occurrenceIndex: daysIn(24), values: []),
            Outcome(taskUUID: walk.uuid, occurrenceIndex: 1, values: []),
        ])
        let twiceOnTheChange = try await store.events(taskQuery: CareQuery(), window: day(2026, 3, 29, in: berlin)).filter { $0.task.id == "twice" }
        // With a value, though its task counts only whether it is done: the day's events must carry it whole.
        _ = try await store.addOutcomes([Outcome(taskUUID: tasks[0].uuid, occurrenceIndex: twiceOnTheChange[0].scheduleEvent.occurrence,
                                                 values: [OutcomeValue(.text("stiff"), kind: "note")])])

        let week = days(from: (2026, 3, 23), to: (2026, 3, 30), in: berlin)
        var query = CareQuery()
        query.ids = ["twice", "reps", "log", "walk"]
        for eventDay in [day(2026, 3, 23, in: berlin), day(2026, 3, 27, in: berlin), day(2026, 3, 29, in: berlin), day(2026, 4, 2, in: berlin)] {
            let together = try await store.events(taskQuery: query, window: eventDay, withAdherenceOver: week, calendar: calendar(berlin))
            #expect(together.events == (try await store.events(taskQuery: query, window: eventDay)))
            #expect(together.adherence == (try await store.adherence(taskQuery: query, window: week, calendar: calendar(berlin))))
        }
        let together = try await store.events(taskQuery: query, window: day(2026, 3, 29, in: berlin), withAdherenceOver: week,
                                              calendar: calendar(berlin))
        // March 29 has 23 hours: twice's 01:00 (done; its 22:00 comes every other day, not on the 29th), reps (4 of
        // 10), log (not counted), walk's new 18:00 (open).
        #expect(together.events.map { wallClock($0.scheduleEvent.start, in: berlin).hour } == [1, 9, 12, 18])
        #expect(together.events[0].outcome?.values == [OutcomeValue(.text("stiff"), kind: "note")])
        #expect(together.events[1].outcome?.values == [OutcomeValue(.integer(4))])
        #expect(together.adherence.last?.state == .progress((1 + 0.4 + 0) / 3))
        #expect(together.adherence.count == 7)
    }

    /// Task versions read once are read again after any version is written: the events follow a task's new version
    /// at once, whatever the store kept from earlier reads.
    @Test(arguments: CareStoreBackend.allCases)
    func eventsFollowATaskVersionWrittenAfterAnEarlierRead(backend: CareStoreBackend) async throws {
        let store = try await backend.makeStore(clock: TestClock())
        let walk = try await store.add([Make.task("walk", hour: 7, in: berlin)])[0]
        var query = CareQuery()
        query.ids = ["walk"]
        let window = day(2026, 3, 10, in: berlin)
        #expect(try await store.events(taskQuery: query, window: window).map { wallClock($0.scheduleEvent.start, in: berlin).hour } == [7])
        var change = walk
        change.schedule = Make.daily(from: date(2026, 3, 10, 19, in: berlin), in: berlin)
        change.version.effectiveDate = date(2026, 3, 10, in: berlin)
        _ = try await store.update([change])
        #expect(try await store.events(taskQuery: query, window: window).map { wallClock($0.scheduleEvent.start, in: berlin).hour } == [19])
        _ = try await store.delete([change])
        let afterDeletion = try await store.events(taskQuery: query, window: day(2026, 12, 1, in: berlin))
        #expect(afterDeletion.isEmpty)
    }
}
