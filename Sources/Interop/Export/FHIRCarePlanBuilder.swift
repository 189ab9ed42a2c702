import CareStore
import Foundation

/// Builds the FHIR R4 `CarePlan` of a participant's care plan: one activity per schedule element of each task.
///
/// ```swift
/// let result = try FHIRCarePlanBuilder().carePlan(id: participant.id, patientID: participant.id, plan: plan, tasks: tasks)
/// for issue in result.issues { print(issue) }   // elements that a Timing cannot express
/// ```
///
/// What it writes: `status` (`active`; `revoked` when the participant withdrew; `completed`), `intent` `plan`, the
/// plan's `title`, `subject` the Patient, `period.start` the plan's effective date, `created` when it was stored, and
/// for every element of every task an `activity.detail` with `kind` `Task`, `code.text` the task's title,
/// `description` its instructions and the element's text, `status` (`scheduled`; `stopped` or `completed` with the
/// plan), and `scheduledTiming` from ``FHIRTimingBuilder``. An element the Timing cannot express gets
/// `scheduledString` instead — its rule or interval, start, zone, end and length, written out — and an issue saying
/// why, so nothing is bent into a Timing that means something else.
public struct FHIRCarePlanBuilder: Sendable {
    /// The status of the plan as a whole.
    public enum Status: String, Hashable, Sendable, CaseIterable {
        /// The participant takes part: activities are `scheduled`.
        case active
        /// The participant withdrew: activities are `stopped`.
        case revoked
        /// Every activity is over: activities are `completed`.
        case completed

        /// The matching `CarePlan.activity.detail.status`.
        var activityStatus: String {
            switch self {
            case .active: "scheduled"
            case .revoked: "stopped"
            case .completed: "completed"
            }
        }
    }

    /// Creates a builder.
    public init() {}

    /// The CarePlan `id` for `patientID`, from `plan` and its `tasks` (each in its current version; the order given is
    /// kept). Throws ``FHIRExportError/invalidID(_:resourceType:)`` for ids FHIR does not allow.
    public func carePlan(id: String, patientID: String, plan: CarePlan, tasks: [CareTask], status: Status = .active) throws(FHIRExportError) -> FHIRBuildResult {
        try FHIRResource.requireValidID(id, for: "CarePlan")
        try FHIRResource.requireValidID(patientID, for: "Patient")
        let timings = FHIRTimingBuilder()
        var issues: [FHIRExportIssue] = []
        var activities: [FHIRJSON] = []
        for task in tasks {
            let zone = task.schedule.timeZone
            let description = [task.instructions].compactMap { $0 }
            for (index, element) in task.schedule.elements.enumerated() {
                var scheduledTiming: FHIRJSON?, scheduledString: FHIRJSON?
                do {
                    scheduledTiming = try timings.timing(for: element, timeZone: zone)
                } catch {
                    scheduledString = .string(Self.describe(element, timeZone: zone))
                    issues.append(FHIRExportIssue(resourceType: "CarePlan", resourceID: id,
                        message: "task '\(task.title ?? task.id)' schedule element \(index): \(error); written as scheduledString"))
                }
                let text = (description + [element.text].compactMap { $0 }).joined(separator: "\n")
                activities.append(.fields(["detail": .fields([
                    "kind": "Task",
                    "code": .fields(["text": .string(task.title ?? task.id)]),
                    "status": .string(status.activityStatus),
                    "scheduledTiming": scheduledTiming,
                    "scheduledString": scheduledString,
                    "description": text.isEmpty ? nil : .string(text),
                ])]))
            }
        }
        let zone = plan.version.timeZone
        let resource = try FHIRResource(json: .fields([
            "resourceType": "CarePlan",
            "id": .string(id),
            "status": .string(status.rawValue),
            "intent": "plan",
            "title": .string(plan.title),
            "subject": .fields(["reference": .string("Patient/\(patientID)")]),
            "period": .fields(["start": .string(FHIRDateFormat.dateTime(plan.version.effectiveDate, in: zone))]),
            "created": plan.version.createdDate.map { .string(FHIRDateFormat.dateTime($0, in: zone)) },
            "activity": activities.isEmpty ? nil : .array(activities),
        ]))
        return FHIRBuildResult(resource: resource, issues: issues)
    }

    /// The element in words, for `scheduledString`: `RRULE:FREQ=MONTHLY;BYMONTHDAY=-1 from 2026-03-31T09:00:00+02:00
    /// (Europe/Berlin), 60 min each`.
    static func describe(_ element: ScheduleElement, timeZone: TimeZone) -> String {
        var text: String
        if let rule = element.recurrenceRule {
            text = "RRULE:\(rule.description)"
        } else if let interval = element.interval {
            let units: [(Calendar.Component, String)] = [(.year, "year"), (.month, "month"), (.weekOfYear, "week"), (.day, "day"),
                                                          (.hour, "hour"), (.minute, "minute"), (.second, "second")]
            text = "every " + units.compactMap { component, name in
                interval.value(for: component).flatMap { $0 == 0 ? nil : "\($0) \(name)\($0 == 1 ? "" : "s")" }
            }.joined(separator: " ")
        } else {
            text = "once"
        }
        text += " from \(FHIRDateFormat.dateTime(element.start, in: timeZone)) (\(timeZone.identifier))"
        if let end = element.end { text += ", none starting at or after \(FHIRDateFormat.dateTime(end, in: timeZone))" }
        switch element.duration {
        case .allDay: text += ", all day"
        case .seconds(let seconds): text += seconds.truncatingRemainder(dividingBy: 60) == 0 ? ", \(Int(seconds / 60)) min each" : ", \(seconds) s each"
        }
        return text
    }
}
