import CareStore
import Foundation
import StudyKitEnvironment

/// Turns a study into a participant's care plan: a patient, a care plan, the onboarding task and one care task per
/// study task with a concrete schedule in the participant's time zone, anchored at the day they enrolled, and the
/// study's contacts.
///
/// ```swift
/// let enrolment = StudyEnrolment(study: study, environment: .live)
/// let plan = try await enrolment.enrol(participantID: participant.id, enrolledAt: participant.enrolledAt,
///                                      timeZone: participant.timeZone, into: careStore)
/// ```
///
/// Day 0 is the enrolment day on the participant's wall clock; "daily at 08:00 from day 1 for 6 weeks" gives 42 events
/// at 08:00 local time from the day after enrolment, whatever daylight saving does in between.
public struct StudyEnrolment: Sendable {
    /// The study the care plans are built from.
    public let study: StudyDefinition
    /// The UUID source for the entities made (the care store gives stored versions its own UUIDs).
    public let environment: StudyKitEnvironment

    /// Creates an enrolment builder for `study`.
    public init(study: StudyDefinition, environment: StudyKitEnvironment) {
        self.study = study
        self.environment = environment
    }

    /// The entities for a participant who enrolled at `enrolledAt` in `timeZone`, not yet stored. The care plan and
    /// tasks take effect at the start of the enrolment day, so that the onboarding event of day 0 belongs to them.
    public func plan(participantID: String, enrolledAt: Date, timeZone: TimeZone) throws(StudyEnrolmentError) -> EnrolmentPlan {
        guard StudyCareIdentifiers.isValidParticipantID(participantID) else { throw .invalidParticipantID(participantID) }
        let clock = StudyDayClock(enrolledAt: enrolledAt, timeZone: timeZone)
        let effective = clock.start(ofDay: 0)
        let tags = [study.identifier]
        var patientName = PersonNameComponents()
        patientName.nickname = participantID
        var patient = Patient(id: StudyCareIdentifiers.patientID(participant: participantID), name: patientName, effectiveDate: effective,
                              timeZone: timeZone, uuid: environment.makeUUID())
        patient.version.tags = tags
        var carePlan = CarePlan(id: StudyCareIdentifiers.carePlanID(participant: participantID), title: study.name,
                                patientUUID: patient.version.uuid, effectiveDate: effective, timeZone: timeZone, uuid: environment.makeUUID())
        carePlan.version.tags = tags

        func careTask(_ id: String, title: String, instructions: String?, impactsAdherence: Bool, schedule: Schedule) -> CareTask {
            var task = CareTask(id: StudyCareIdentifiers.taskID(participant: participantID, task: id), title: title, instructions: instructions,
                                impactsAdherence: impactsAdherence, schedule: schedule, carePlanUUID: carePlan.version.uuid,
                                effectiveDate: effective, timeZone: timeZone, uuid: environment.makeUUID())
            task.version.groupIdentifier = id
            task.version.tags = tags
            return task
        }
        let onboardingTitle = study.onboardingTask(language: study.defaultLanguage).task.title ?? study.name
        let onboarding = careTask(StudyTaskDefinition.onboardingID, title: onboardingTitle, instructions: nil, impactsAdherence: false,
                                  schedule: Self.onboardingSchedule(enrolledAt: enrolledAt, timeZone: timeZone))
        let tasks = study.tasks.map { definition in
            careTask(definition.id, title: definition.title, instructions: definition.instructions, impactsAdherence: definition.impactsAdherence,
                     schedule: Self.schedule(for: definition, enrolledAt: enrolledAt, timeZone: timeZone))
        }
        let contacts = study.contacts.map { contact in
            var made = Contact(id: StudyCareIdentifiers.contactID(participant: participantID, contact: contact.id), name: contact.name,
                               carePlanUUID: carePlan.version.uuid, title: contact.title, role: contact.role, organization: contact.organization,
                               category: contact.category, address: contact.address, emailAddresses: contact.emailAddresses,
                               phoneNumbers: contact.phoneNumbers, messagingNumbers: contact.messagingNumbers, effectiveDate: effective,
                               timeZone: timeZone, uuid: environment.makeUUID())
            made.version.groupIdentifier = contact.id
            made.version.tags = tags
            return made
        }
        return EnrolmentPlan(patient: patient, carePlan: carePlan, onboardingTask: onboarding, tasks: tasks, contacts: contacts)
    }

    /// Adds the participant's entities to `careStore` and returns the stored versions.
    ///
    /// A care store adds one kind of entity per call, so this makes four writes (patient, care plan, tasks, contacts).
    /// It is safe to call again after a failure part-way: entities already stored for the participant are kept and
    /// reused, and only the missing ones are added.
    public func enrol(participantID: String, enrolledAt: Date, timeZone: TimeZone, into careStore: any CareStore) async throws -> EnrolmentPlan {
        var plan = try plan(participantID: participantID, enrolledAt: enrolledAt, timeZone: timeZone)
        plan.patient = try await addIfMissing(plan.patient, to: careStore)
        plan.carePlan.patientUUID = plan.patient.version.uuid
        plan.carePlan = try await addIfMissing(plan.carePlan, to: careStore)
        let carePlanUUID = plan.carePlan.version.uuid
        var tasks = plan.allTasks
        for index in tasks.indices { tasks[index].carePlanUUID = carePlanUUID }
        let storedTasks = try await addMissing(tasks, to: careStore)
        plan.onboardingTask = storedTasks[0]
        plan.tasks = Array(storedTasks.dropFirst())
        for index in plan.contacts.indices { plan.contacts[index].carePlanUUID = carePlanUUID }
        plan.contacts = try await addMissing(plan.contacts, to: careStore)
        return plan
    }

    private func addIfMissing<Entity: VersionedEntity>(_ entity: Entity, to careStore: any CareStore) async throws -> Entity {
        try await addMissing([entity], to: careStore)[0]
    }

    /// Adds the entities whose ids have no live version yet; returns the stored version of each, in order.
    private func addMissing<Entity: VersionedEntity>(_ entities: [Entity], to careStore: any CareStore) async throws -> [Entity] {
        guard !entities.isEmpty else { return [] }
        var query = CareQuery()
        query.ids = Set(entities.map(\.id))
        let existing = Dictionary(try await careStore.fetch(Entity.self, query: query).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let added = try await careStore.add(entities.filter { existing[$0.id] == nil })
        let stored = existing.merging(added.map { ($0.id, $0) }, uniquingKeysWith: { _, new in new })
        return entities.compactMap { stored[$0.id] }
    }

    /// The onboarding task's schedule: every day, all day, from the enrolment day, with no end; the gate hides it once
    /// it has an outcome.
    public static func onboardingSchedule(enrolledAt: Date, timeZone: TimeZone) -> Schedule {
        let clock = StudyDayClock(enrolledAt: enrolledAt, timeZone: timeZone)
        return Schedule(ScheduleElement(start: clock.start(ofDay: 0), interval: DateComponents(day: 1), duration: .allDay), timeZone: timeZone)
    }

    /// The concrete schedule of a study task for a participant who enrolled at `enrolledAt` in `timeZone`.
    public static func schedule(for task: StudyTaskDefinition, enrolledAt: Date, timeZone: TimeZone) -> Schedule {
        let clock = StudyDayClock(enrolledAt: enrolledAt, timeZone: timeZone)
        var elements: [ScheduleElement] = []
        for element in task.schedule {
            // The element ends at the start of the day after its last day (exclusive).
            let end = element.lastDay.map { clock.start(ofDay: $0 + 1) }
            switch element.repetition {
            case .once:
                elements.append(ScheduleElement(start: clock.instant(day: element.firstDay, hour: element.hour, minute: element.minute),
                                                duration: element.duration, text: element.text, targetValues: element.targetValues))
            case .daily:
                elements.append(ScheduleElement(start: clock.instant(day: element.firstDay, hour: element.hour, minute: element.minute), end: end,
                                                interval: DateComponents(day: element.everyDays), duration: element.duration,
                                                text: element.text, targetValues: element.targetValues))
            case .weekly(let weekdays):
                elements += Schedule.weeklyAt(weekdays: weekdays, hour: element.hour, minute: element.minute, start: clock.start(ofDay: element.firstDay),
                                              end: end, duration: element.duration, text: element.text, targetValues: element.targetValues,
                                              timeZone: timeZone).elements
            }
        }
        return Schedule(elements: elements, timeZone: timeZone)
    }
}

/// A participant's study days: day 0 is the calendar day of enrolment on their wall clock.
struct StudyDayClock {
    let calendar: Calendar
    let enrolmentDay: DateComponents

    init(enrolledAt: Date, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        self.enrolmentDay = calendar.dateComponents([.year, .month, .day], from: enrolledAt)
    }

    /// `hour`:`minute` on study day `day`; a time that daylight saving skips on that day moves forward to the first
    /// time that exists.
    func instant(day: Int, hour: Int, minute: Int) -> Date {
        var components = enrolmentDay
        components.day = (components.day ?? 1) + day
        guard let midnight = calendar.date(from: components).map(calendar.startOfDay(for:)) else {
            preconditionFailure("a gregorian calendar gives every day a start")
        }
        return calendar.date(bySettingHour: hour, minute: minute, second: 0, of: midnight, matchingPolicy: .nextTime) ?? midnight
    }

    /// The start of study day `day` (midnight, or the first moment of the day where midnight does not exist).
    func start(ofDay day: Int) -> Date { instant(day: day, hour: 0, minute: 0) }
}
