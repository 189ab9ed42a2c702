import Foundation
@testable import CareStore

/// Time zones far from UTC, two of them with daylight saving time.
enum Zone {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!
}

/// A Gregorian calendar in `timeZone`.
func calendar(_ timeZone: TimeZone) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    return calendar
}

/// The instant of a wall-clock time in `timeZone`.
func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, in timeZone: TimeZone) -> Date {
    calendar(timeZone).date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
}

/// The wall-clock hour and minute of `date` in `timeZone`.
func wallClock(_ date: Date, in timeZone: TimeZone) -> (day: Int, hour: Int, minute: Int) {
    let parts = calendar(timeZone).dateComponents([.day, .hour, .minute], from: date)
    return (parts.day!, parts.hour!, parts.minute!)
}

/// Builders for the entities the conformance tests store.
enum Make {
    /// A daily schedule: one element from `start`, every day, until `end` (exclusive) or forever.
    static func daily(from start: Date, until end: Date? = nil, text: String? = nil, targets: [OutcomeValue] = [],
                      in timeZone: TimeZone) -> Schedule {
        Schedule(elements: [ScheduleElement(start: start, end: end, interval: DateComponents(day: 1), text: text, targetValues: targets)],
                 timeZone: timeZone)
    }

    static func patient(_ id: String = "patient", in timeZone: TimeZone = Zone.berlin, effective: Date? = nil) -> Patient {
        Patient(id: id, name: PersonNameComponents(givenName: "Ada", familyName: "Lovelace"),
                effectiveDate: effective ?? date(2026, 3, 1, in: timeZone), timeZone: timeZone)
    }

    static func plan(_ id: String = "plan", patient: Patient? = nil, in timeZone: TimeZone = Zone.berlin, effective: Date? = nil) -> CarePlan {
        CarePlan(id: id, title: "Plan \(id)", patientUUID: patient?.uuid, effectiveDate: effective ?? date(2026, 3, 1, in: timeZone),
                 timeZone: timeZone)
    }

    /// A task done daily at `hour` local time from March 1, 2026 (or `start`), in effect from `effective`
    /// (by default the schedule's first day at midnight).
    static func task(_ id: String, plan: CarePlan? = nil, hour: Int = 8, start: Date? = nil, end: Date? = nil,
                     effective: Date? = nil, impactsAdherence: Bool = true, targets: [OutcomeValue] = [], text: String? = nil,
                     title: String? = nil, in timeZone: TimeZone = Zone.berlin) -> CareTask {
        let first = start ?? date(2026, 3, 1, hour, in: timeZone)
        let schedule = daily(from: first, until: end, text: text, targets: targets, in: timeZone)
        return CareTask(id: id, title: title ?? id, impactsAdherence: impactsAdherence, schedule: schedule, carePlanUUID: plan?.uuid,
                        effectiveDate: effective ?? calendar(timeZone).startOfDay(for: first), timeZone: timeZone)
    }
}

/// An entity with the fields the store sets (version UUID, dates, links) copied from `stored`, so that it can be
/// compared whole with what the store returned.
func normalized<Entity: VersionedEntity>(_ entity: Entity, like stored: Entity) -> Entity {
    var entity = entity
    entity.version.uuid = stored.version.uuid
    entity.version.createdDate = stored.version.createdDate
    entity.version.updatedDate = stored.version.updatedDate
    entity.version.deletedDate = stored.version.deletedDate
    entity.version.previousVersionUUIDs = stored.version.previousVersionUUIDs
    entity.version.nextVersionUUIDs = stored.version.nextVersionUUIDs
    return entity
}

extension CareStore {
    /// The single entity of `type` with `id` that a query without interval returns.
    func fetchOne<Entity: VersionedEntity>(_ type: Entity.Type, id: String, at interval: DateInterval? = nil) async throws -> Entity? {
        var query = CareQuery()
        query.ids = [id]
        query.dateInterval = interval
        return try await fetch(type, query: query).first
    }
}

/// The interval of one local day.
func day(_ year: Int, _ month: Int, _ day: Int, in timeZone: TimeZone) -> DateInterval {
    let start = date(year, month, day, in: timeZone)
    return DateInterval(start: start, end: calendar(timeZone).date(byAdding: .day, value: 1, to: start)!)
}

/// The interval from the start of one local day to the start of another.
func days(from start: (Int, Int, Int), to end: (Int, Int, Int), in timeZone: TimeZone) -> DateInterval {
    DateInterval(start: date(start.0, start.1, start.2, in: timeZone), end: date(end.0, end.1, end.2, in: timeZone))
}

/// Fills every bookkeeping field of a version with distinct values, so that a round trip must keep all of them.
func decorate(_ version: inout VersionInfo, _ label: String) {
    version.groupIdentifier = "group-\(label)"
    version.tags = ["tag-\(label)", "shared"]
    version.remoteID = "remote-\(label)"
    version.source = "source-\(label)"
    version.userInfo = ["label": label, "arm": "B"]
    version.asset = "asset-\(label).png"
    version.notes = [Note(author: "Dr. Müller", title: "Note \(label)", content: "Knie: gut 膝",
                          createdDate: Date(timeIntervalSince1970: 1_772_323_200))]
}
