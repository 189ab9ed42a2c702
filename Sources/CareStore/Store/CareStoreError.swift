import Foundation

/// Why a care store refused a change or a query, with what it was about.
public enum CareStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An entity with this id already exists (and is not deleted).
    case alreadyExists(kind: EntityKind, id: String)
    /// No live entity has this id.
    case notFound(kind: EntityKind, id: String)
    /// A new version must take effect no earlier than the version it replaces.
    case effectiveDateTooEarly(kind: EntityKind, id: String, effectiveDate: Date, previous: Date)
    /// The change would leave outcomes on events that no longer belong to any version.
    case wouldOrphanOutcomes(taskID: String, effectiveDate: Date, eventDates: [Date])
    /// The entity names a parent (care plan, patient) that the store does not have.
    case unknownParent(kind: EntityKind, id: String, parentUUID: UUID)
    /// No task version has the outcome's task UUID, or that version is a delete's tombstone.
    case unknownTaskVersion(UUID)
    /// The task version's schedule has no such occurrence.
    case noSuchOccurrence(taskID: String, occurrenceIndex: Int)
    /// A newer version of the task is in effect when this event starts, so the event is no longer this version's.
    case shadowedOccurrence(taskID: String, occurrenceIndex: Int, eventStart: Date, newerVersionEffective: Date)
    /// The event already has a live outcome.
    case outcomeExists(taskID: String, occurrenceIndex: Int)
    /// No live outcome has this UUID.
    case outcomeNotFound(UUID)
    /// The same id appears twice in one call.
    case duplicateInBatch(kind: EntityKind, id: String)

    /// A one-line English explanation that names the entity, event or dates involved and, where
    /// there is one, the way out; for logs and developers, not localized for patients.
    public var description: String {
        func show(_ date: Date) -> String { date.formatted(.iso8601) }
        switch self {
        case .alreadyExists(let kind, let id): return "a \(kind.rawValue) with id '\(id)' already exists"
        case .notFound(let kind, let id): return "no \(kind.rawValue) has id '\(id)'"
        case .effectiveDateTooEarly(let kind, let id, let date, let previous):
            return "the new version of \(kind.rawValue) '\(id)' takes effect at \(show(date)), before the current version (\(show(previous)))"
        case .wouldOrphanOutcomes(let id, let date, let dates):
            let list = dates.prefix(5).map(show).joined(separator: ", ") + (dates.count > 5 ? " and \(dates.count - 5) more" : "")
            return "a version of task '\(id)' effective \(show(date)) would orphan the outcomes of events at \(list); delete those outcomes first or make the change effective later"
        case .unknownParent(let kind, let id, let parent): return "\(kind.rawValue) '\(id)' belongs to \(parent.uuidString), which the store does not have"
        case .unknownTaskVersion(let uuid): return "no task version has UUID \(uuid.uuidString)"
        case .noSuchOccurrence(let id, let index): return "task '\(id)' has no event with occurrence index \(index)"
        case .shadowedOccurrence(let id, let index, let start, let newer):
            return "event \(index) of task '\(id)' at \(show(start)) belongs to a newer version of the task (effective \(show(newer)))"
        case .outcomeExists(let id, let index): return "event \(index) of task '\(id)' already has an outcome"
        case .outcomeNotFound(let uuid): return "no outcome has UUID \(uuid.uuidString)"
        case .duplicateInBatch(let kind, let id): return "\(kind.rawValue) '\(id)' appears twice in one change"
        }
    }
}
