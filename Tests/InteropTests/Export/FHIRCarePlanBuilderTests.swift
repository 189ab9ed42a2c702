import CareStore
import Foundation
import Interop
import Testing

/// A care plan as a CarePlan: one activity per schedule element, a Timing where one fits and the element in words
/// (with an issue) where none does.
@Suite struct FHIRCarePlanBuilderTests {
    let berlin = ExportFixtures.zone("Europe/Berlin")

    @Test func everyElementOfEveryTaskIsAnActivity() throws {
        let start = ExportFixtures.date(2026, 3, 28, in: berlin)
        let plan = CarePlan(id: "p-0042/care-plan", title: "Recover", effectiveDate: start, timeZone: berlin)
        var exercises = CareTask(id: "p-0042/exercises", title: "Knee exercises", instructions: "Ten leg raises.",
                                 schedule: Schedule.dailyAt(hour: 8, start: start, duration: .minutes(30), text: "after breakfast", timeZone: berlin),
                                 effectiveDate: start, timeZone: berlin)
        exercises.schedule.elements.append(ScheduleElement(start: ExportFixtures.date(2026, 4, 30, 9, 0, in: berlin),
                                                           recurrenceRule: try RecurrenceRule(parsing: "FREQ=MONTHLY;BYMONTHDAY=-1")))
        let checkIn = CareTask(id: "p-0042/checkIn", title: "Check-in", schedule: .once(at: ExportFixtures.date(2026, 4, 11, 10, 0, in: berlin),
                                                                                   duration: .allDay, timeZone: berlin),
                               effectiveDate: start, timeZone: berlin)
        let result = try FHIRCarePlanBuilder().carePlan(id: "p-0042", patientID: "p-0042", plan: plan, tasks: [exercises, checkIn])
        let json = result.resource.json
        #expect(json["status"] == "active")
        #expect(json["intent"] == "plan")
        #expect(json["title"] == "Recover")
        #expect(json.at("subject", "reference") == "Patient/p-0042")
        #expect(json.at("period", "start") == "2026-03-28T00:00:00+01:00")
        #expect(json["activity"]?.arrayValue?.count == 3)

        let daily = try #require(json.at("activity", 0, "detail"))
        #expect(daily["kind"] == "Task")
        #expect(daily.at("code", "text") == "Knee exercises")
        #expect(daily["status"] == "scheduled")
        #expect(daily["description"] == "Ten leg raises.\nafter breakfast")
        #expect(daily.at("scheduledTiming", "repeat", "timeOfDay") == ["08:00:00"])
        #expect(daily["scheduledString"] == nil)

        let monthly = try #require(json.at("activity", 1, "detail"))
        #expect(monthly["scheduledTiming"] == nil)
        #expect(monthly["scheduledString"] == "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1 from 2026-04-30T09:00:00+02:00 (Europe/Berlin), 60 min each")
        #expect(result.issues.count == 1)
        #expect(result.issues.first?.description.contains("task 'Knee exercises' schedule element 1") == true)
        #expect(result.issues.first?.description.contains("BYMONTHDAY has no FHIR Timing form; written as scheduledString") == true)

        #expect(json.at("activity", 2, "detail", "scheduledTiming", "event") == ["2026-04-11"])

        let revoked = try FHIRCarePlanBuilder().carePlan(id: "p-0042", patientID: "p-0042", plan: plan, tasks: [checkIn], status: .revoked)
        #expect(revoked.resource.json["status"] == "revoked")
        #expect(revoked.resource.json.at("activity", 0, "detail", "status") == "stopped")
    }

    @Test func idsFHIRCannotTakeAreRefused() {
        let plan = CarePlan(id: "p/care-plan", title: "Recover", effectiveDate: Date(timeIntervalSince1970: 0))
        #expect(throws: FHIRExportError.invalidID("p/care-plan", resourceType: "CarePlan")) {
            try FHIRCarePlanBuilder().carePlan(id: "p/care-plan", patientID: "p", plan: plan, tasks: [])
        }
    }
}
