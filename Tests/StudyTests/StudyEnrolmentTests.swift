import CareStore
import Foundation
import StudyKitEnvironment
import Research
import StudyFHIR
import Testing
@testable import Study

@Suite("Enrolment: care plans from a study")
struct StudyEnrolmentTests {
    let study: StudyDefinition
    init() throws { study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()]) }

    func events(_ task: CareTask) -> [ScheduleEvent] {
        task.schedule.events(from: wallTime(2020, 1, 1, in: Zones.utc), to: wallTime(2030, 1, 1, in: Zones.utc))
    }

    func plan(enrolledAt: Date, in zone: TimeZone) throws -> EnrolmentPlan {
        let uuids = CountingUUIDs()
        return try StudyEnrolment(study: study, environment: StudyKitEnvironment(now: { enrolledAt }, makeUUID: { uuids.make() }))
            .plan(participantID: "p1", enrolledAt: enrolledAt, timeZone: zone)
    }

    @Test func dailyAtEightForSixWeeksAcrossTheSpringChangeInNewYork() throws {
        // Thursday 5 March 2026, 10:00 EST; clocks go forward on Sunday 8 March.
        let enrolled = wallTime(2026, 3, 5, 10, 0, in: Zones.newYork)
        let plan = try plan(enrolledAt: enrolled, in: Zones.newYork)
        let exercises = try #require(plan.tasks.first { $0.version.groupIdentifier == "exercises" })
        // Three sessions a day; the one after breakfast is at 08:00.
        let every = events(exercises)
        #expect(every.count == 3 * 42)
        #expect(every.map(\.occurrence) == Array(0..<(3 * 42)))
        let all = every.filter { $0.text == "after breakfast" }
        #expect(all.count == 42)
        #expect(every.filter { $0.text == "after dinner" }.allSatisfy { wallClock($0.start, in: Zones.newYork).hour == 19 })
        #expect(all.first?.start == wallTime(2026, 3, 6, 8, 0, in: Zones.newYork))
        #expect(all.first?.start == ISO8601DateFormatter().date(from: "2026-03-06T13:00:00Z"))
        #expect(all[3].start == ISO8601DateFormatter().date(from: "2026-03-09T12:00:00Z")) // 08:00 EDT
        #expect(all.last?.start == wallTime(2026, 4, 16, 8, 0, in: Zones.newYork))
        for (index, event) in all.enumerated() {
            let clock = wallClock(event.start, in: Zones.newYork)
            #expect(clock.hour == 8 && clock.minute == 0, "event \(index) at \(clock)")
            #expect(event.end.timeIntervalSince(event.start) == 30 * 60)
        }
        #expect(exercises.schedule.timeZone == Zones.newYork)
        #expect(exercises.id == "p1/exercises")
        #expect(exercises.version.effectiveDate == wallTime(2026, 3, 5, 0, 0, in: Zones.newYork))
    }

    @Test func dailyAtEightInKiritimatiWhereTheDayStartsBeforeUTCs() throws {
        // 11:00 UTC on 5 March is 01:00 on 6 March in Kiritimati (UTC+14): day 0 is the 6th there.
        let enrolled = try #require(ISO8601DateFormatter().date(from: "2026-03-05T11:00:00Z"))
        let plan = try plan(enrolledAt: enrolled, in: Zones.kiritimati)
        let exercises = try #require(plan.tasks.first { $0.version.groupIdentifier == "exercises" })
        let all = events(exercises).filter { $0.text == "after breakfast" }
        #expect(all.count == 42)
        #expect(all.first?.start == ISO8601DateFormatter().date(from: "2026-03-06T18:00:00Z")) // 7 March, 08:00 local
        #expect(all.last?.start == wallTime(2026, 4, 17, 8, 0, in: Zones.kiritimati))
        #expect(all.allSatisfy { wallClock($0.start, in: Zones.kiritimati).hour == 8 })
        let onboarding = events(plan.onboardingTask).first
        #expect(onboarding?.start == ISO8601DateFormatter().date(from: "2026-03-05T10:00:00Z")) // 6 March, 00:00 local
    }

    @Test func weeklyOnceAndAllDayEventsAcrossTheAutumnChange() throws {
        // Wednesday 28 October 2026 in New York; clocks go back on Sunday 1 November.
        let enrolled = wallTime(2026, 10, 28, 21, 30, in: Zones.newYork)
        let plan = try plan(enrolledAt: enrolled, in: Zones.newYork)
        let weekly = try #require(plan.tasks.first { $0.version.groupIdentifier == "weekly" })
        let mondays = events(weekly)
        #expect(mondays.map { wallClock($0.start, in: Zones.newYork).day } == [2, 9, 16, 23, 30, 7])
        #expect(mondays.allSatisfy { Calendar(identifier: .gregorian).component(.weekday, from: $0.start.addingTimeInterval(12 * 3600)) == 2 })
        // All day: from midnight to midnight, 24 hours even after the change.
        #expect(mondays[0].start == wallTime(2026, 11, 2, 0, 0, in: Zones.newYork))
        #expect(mondays[0].end == wallTime(2026, 11, 3, 0, 0, in: Zones.newYork))
        let checkIn = try #require(plan.tasks.first { $0.version.groupIdentifier == "checkIn" })
        #expect(events(checkIn).map(\.start) == [wallTime(2026, 11, 11, 0, 0, in: Zones.newYork)])
        #expect(!checkIn.impactsAdherence)
        let pain = try #require(plan.tasks.first { $0.version.groupIdentifier == "pain" })
        #expect(events(pain).count == 42)
        // The onboarding day of the change is 25 hours long.
        let onboarding = plan.onboardingTask.schedule.events(from: wallTime(2026, 11, 1, 0, 0, in: Zones.newYork),
                                                            to: wallTime(2026, 11, 1, 12, 0, in: Zones.newYork))
        #expect(onboarding.first.map { ($0.end.timeIntervalSince($0.start) / 3600).rounded() } == 25)
        #expect(!plan.onboardingTask.impactsAdherence)
        #expect(plan.onboardingTask.id == "p1/onboarding")
    }

    @Test func medicationAfterDinnerEveryOtherDayMakesTwoOrThreeEventsADay() throws {
        // Sunday 25 October 2026 in Berlin is the autumn change; enrolled on the Friday before.
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let plan = try plan(enrolledAt: wallTime(2026, 10, 23, 9, 0, in: berlin), in: berlin)
        let medication = try #require(plan.tasks.first { $0.version.groupIdentifier == "medication" })
        let all = events(medication)
        var perDay: [Int: [Int]] = [:]
        for event in all {
            let clock = wallClock(event.start, in: berlin)
            perDay[(clock.month ?? 0) * 100 + (clock.day ?? 0), default: []].append(clock.hour ?? -1)
        }
        // Day 1 is 24 October: breakfast, lunch and dinner; 25 October (25 hours long) no dinner; 26 October dinner again.
        #expect(perDay[1024] == [8, 13, 19])
        #expect(perDay[1025] == [8, 13])
        #expect(perDay[1026] == [8, 13, 19])
        #expect(all.count == 42 + 42 + 21)
        #expect(all.allSatisfy { [8, 13, 19].contains(wallClock($0.start, in: berlin).hour) && wallClock($0.start, in: berlin).minute == 30 })
    }

    @Test func enrolmentStoresEveryEntityOnceAndCanBeRepeated() async throws {
        let clock = TestClock(wallTime(2026, 3, 5, 10, 0, in: Zones.newYork))
        let uuids = CountingUUIDs()
        let careStore = InMemoryCareStore(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
        let enrolment = StudyEnrolment(study: study, environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
        let plan = try await enrolment.enrol(participantID: "p1", enrolledAt: clock.now, timeZone: Zones.newYork, into: careStore)
        let again = try await enrolment.enrol(participantID: "p1", enrolledAt: clock.now, timeZone: Zones.newYork, into: careStore)
        #expect(again == plan)

        var query = CareQuery()
        query.carePlanIDs = [StudyCareIdentifiers.carePlanID(participant: "p1")]
        let tasks = try await careStore.fetch(CareTask.self, query: query)
        #expect(Set(tasks.map(\.id)) == ["p1/onboarding", "p1/exercises", "p1/pain", "p1/weekly", "p1/checkIn", "p1/mood", "p1/medication",
                                          "p1/symptoms", "p1/icing", "p1/kneeBend"])
        #expect(tasks.allSatisfy { $0.carePlanUUID == plan.carePlan.version.uuid })
        #expect(plan.carePlan.patientUUID == plan.patient.version.uuid)
        let contacts = try await careStore.fetch(Contact.self, query: query)
        #expect(Set(contacts.map(\.id)) == ["p1/physio", "p1/investigator"])
        #expect(contacts.first { $0.id == "p1/physio" }?.phoneNumbers.first?.value == "+1 555 0100")
        let plans = try await careStore.fetch(CarePlan.self, query: CareQuery())
        #expect(plans.map(\.title) == ["Recover"])
        #expect(StudyCareIdentifiers.studyTaskID(careTaskID: "p1/pain", participant: "p1") == "pain")
        #expect(StudyCareIdentifiers.studyTaskID(careTaskID: "p2/pain", participant: "p1") == nil)

        // A second participant gets their own entities in the same store.
        _ = try await enrolment.enrol(participantID: "p2", enrolledAt: clock.now, timeZone: Zones.kiritimati, into: careStore)
        #expect(try await careStore.fetch(CareTask.self, query: CareQuery()).count == 20)
    }

    @Test func aParticipantIDWithASlashIsRefused() throws {
        #expect(throws: StudyEnrolmentError.invalidParticipantID("a/b")) {
            _ = try plan(enrolledAt: Date(timeIntervalSince1970: 0), in: Zones.utc).tasks
            _ = try StudyEnrolment(study: study, environment: .live).plan(participantID: "a/b", enrolledAt: Date(timeIntervalSince1970: 0),
                                                                             timeZone: Zones.utc)
        }
    }
}
