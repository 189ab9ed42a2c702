import Foundation
import Testing
@testable import CareStore

@Suite("CareStoreError")
struct CareStoreErrorTests {
    @Test func orphanedOutcomesNameTheFirstFiveDatesAndCountTheRest() {
        let start = Date(timeIntervalSince1970: 1_772_352_000) // 2026-03-01T08:00:00Z
        let dates = (0..<7).map { start + Double($0) * 86_400 }
        let message = CareStoreError.wouldOrphanOutcomes(taskID: "walk", effectiveDate: start, eventDates: dates).description
        #expect(message.contains("task 'walk' effective 2026-03-01T08:00:00Z"))
        #expect(message.contains("2026-03-01T08:00:00Z, 2026-03-02T08:00:00Z, 2026-03-03T08:00:00Z, 2026-03-04T08:00:00Z, 2026-03-05T08:00:00Z and 2 more"))
        #expect(!message.contains("2026-03-06"))
    }

    @Test func everyCaseSaysWhatItIsAbout() {
        let uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000042")!
        let date = Date(timeIntervalSince1970: 1_772_352_000)
        let cases: [(CareStoreError, String)] = [
            (.alreadyExists(kind: .task, id: "walk"), "walk"),
            (.notFound(kind: .patient, id: "ada"), "ada"),
            (.effectiveDateTooEarly(kind: .carePlan, id: "knee", effectiveDate: date, previous: date + 60), "2026-03-01T08:01:00Z"),
            (.unknownParent(kind: .contact, id: "physio", parentUUID: uuid), uuid.uuidString),
            (.unknownTaskVersion(uuid), uuid.uuidString),
            (.noSuchOccurrence(taskID: "walk", occurrenceIndex: 7), "7"),
            (.shadowedOccurrence(taskID: "walk", occurrenceIndex: 7, eventStart: date, newerVersionEffective: date - 60), "2026-03-01T07:59:00Z"),
            (.outcomeExists(taskID: "walk", occurrenceIndex: 3), "event 3"),
            (.outcomeNotFound(uuid), uuid.uuidString),
            (.duplicateInBatch(kind: .task, id: "walk"), "twice"),
        ]
        for (error, fragment) in cases {
            #expect(error.description.contains(fragment), "\(error.description)")
        }
    }
}
