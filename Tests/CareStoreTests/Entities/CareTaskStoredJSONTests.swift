import Foundation
import Testing
@testable import CareStore

/// The store reads a task's stored JSON without `JSONDecoder` when it has the shape the encoder writes: the task must
/// be exactly what `JSONDecoder` gives, for every field and every kind of schedule, and anything else must be left to
/// `JSONDecoder` (nil), so the two never disagree.
@Suite("Care task stored JSON")
struct CareTaskStoredJSONTests {
    typealias S = ScheduleTestSupport

    /// Tasks with every field set and unset, fractional dates, text beyond ASCII, and every kind of schedule element.
    static func tasks() throws -> [CareTask] {
        var generator = SystemRandomNumberGenerator()
        let zones = ["Europe/Berlin", "Australia/Sydney", "America/St_Johns", "UTC"].compactMap(TimeZone.init(identifier:))
        var tasks: [CareTask] = []
        for index in 0..<200 {
            let zone = zones[index % zones.count]
            let start = Date(timeIntervalSince1970: 1_780_000_000 + Double.random(in: 0...50_000_000, using: &generator))
            let rounded = index % 3 == 0 ? start : Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded())
            let elements: [ScheduleElement] = [
                ScheduleElement(start: rounded, end: rounded.addingTimeInterval(86_400 * 42), interval: DateComponents(day: 1 + index % 3),
                                duration: index % 2 == 0 ? .allDay : .minutes(Double(15 + index)), text: index % 4 == 0 ? "après le déjeuner 🍽" : nil),
                ScheduleElement(start: rounded, recurrenceRule: try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,TH"), duration: .hours(1),
                                targetValues: index % 5 == 0 ? [OutcomeValue(.integer(10), kind: "repetitions", units: "reps")] : []),
                ScheduleElement(start: rounded.addingTimeInterval(3_600), duration: .seconds(45.5)),
            ]
            var task = CareTask(id: "participant-\(index)/task", title: index % 2 == 0 ? "Knee \"extensions\"\n" : nil,
                                instructions: index % 3 == 0 ? "Ten of each — 十回" : nil, impactsAdherence: index % 7 != 0,
                                schedule: Schedule(elements: Array(elements.prefix(1 + index % 3)), timeZone: zone),
                                carePlanUUID: index % 2 == 0 ? UUID() : nil, effectiveDate: rounded.addingTimeInterval(-0.001 * Double(index)),
                                timeZone: zone)
            task.version.createdDate = index % 2 == 0 ? start : nil
            task.version.updatedDate = index % 3 == 0 ? start.addingTimeInterval(1e-6) : nil
            task.version.deletedDate = index % 11 == 0 ? start : nil
            task.version.previousVersionUUIDs = index % 2 == 0 ? [UUID()] : []
            task.version.nextVersionUUIDs = index % 4 == 0 ? [UUID(), UUID()] : []
            task.version.groupIdentifier = index % 2 == 0 ? "pain" : nil
            task.version.tags = index % 3 == 0 ? ["a", "b/c", ""] : []
            task.version.remoteID = index % 5 == 0 ? "remote-\(index)" : nil
            task.version.source = index % 6 == 0 ? "app" : nil
            task.version.userInfo = index % 2 == 0 ? ["key": "value", "ключ": "значение"] : [:]
            task.version.asset = index % 8 == 0 ? "knee.png" : nil
            task.version.notes = index % 3 == 0 ? [Note(author: "Jamie", title: nil, content: "Go gently", createdDate: start), Note()] : []
            tasks.append(task)
        }
        return tasks
    }

    @Test func eachTaskReadsExactlyAsJSONDecoderReadsIt() throws {
        let encoder = JSONEncoder()
        for task in try Self.tasks() {
            let data = try encoder.encode(task)
            let decoded = try JSONDecoder().decode(CareTask.self, from: data)
            let read = try #require(CareTask(storedJSON: data), "not read: \(String(decoding: data, as: UTF8.self))")
            #expect(read == decoded)
            #expect(read.version.effectiveDate.timeIntervalSinceReferenceDate.bitPattern
                    == decoded.version.effectiveDate.timeIntervalSinceReferenceDate.bitPattern)
            // Through the store's decoding, as it reads a payload.
            #expect(try StorageBackedCareStore<InMemoryCareStorage>.decode(CareTask.self, from: data, using: JSONDecoder()) == decoded)
        }
    }

    /// Each is left to JSONDecoder: a member the encoder does not write, a key given twice, a value of another type, a
    /// required member missing or null, a zone that does not exist, a schedule with a problem, text that is not JSON.
    @Test(arguments: [
        (#""id":"t""#, #""id":"t","extra":1"#),
        (#""id":"t""#, #""id":"t","id":"u""#),
        (#""impactsAdherence":true"#, #""impactsAdherence":"yes""#),
        (#""impactsAdherence":true"#, #""impactsAdherence":null"#),
        (#""id":"t","#, ""),
        (#""identifier":"Europe\/Berlin""#, #""identifier":"Europe\/Nowhere""#),
        (#""tags":[]"#, #""tags":[1]"#),
        (#""duration":"allDay""#, #""duration":"often""#),
        (#""effectiveDate":"#, #""effectiveDate":"x","ignored":"#),
    ])
    func anythingElseIsLeftToJSONDecoder(_ edit: (String, String)) throws {
        var task = try Self.tasks()[0]
        task.id = "t"
        task.impactsAdherence = true
        task.version.tags = []
        task.schedule = Schedule(elements: [ScheduleElement(start: S.date("2026-03-28T08:00:00+01:00"), duration: .allDay)], timeZone: S.berlin)
        task.version.timeZone = S.berlin
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(task), as: UTF8.self)
        #expect(text.contains(edit.0), "fixture: \(text)")
        let edited = Data(text.replacingOccurrences(of: edit.0, with: edit.1).utf8)
        #expect(CareTask(storedJSON: edited) == nil)
        #expect(CareTask(storedJSON: Data(text.utf8)) != nil)
        #expect(CareTask(storedJSON: Data(text.dropLast().utf8)) == nil)
    }
}
