import Foundation
import Testing
@testable import Research

/// Typed dates and times are read in the participant's zone, on both sides of daylight-saving changes.
@Suite("TaskSession time zones")
struct TaskSessionTimeZoneTests {
    let clock = TestClock()

    func session(in zone: String) throws -> TaskSession {
        let task = try ResearchTask(identifier: "when", steps: [
            Step(identifier: "taken", kind: .question(.dateTime(DateFormat())), text: "When did you take it?"),
            Step(identifier: "day", kind: .question(.date(DateFormat())), text: "Which day?"),
        ])
        return try TaskSession(task: task, environment: clock.environment(timeZone: TimeZone(identifier: zone)!))
    }

    func storedInstant(_ typed: String, in zone: String) throws -> String {
        var run = try session(in: zone)
        guard case .date(let answer)? = try run.setAnswer(text: typed) else { Issue.record("no date answer"); return "" }
        #expect(answer.timeZone.identifier == zone)
        return ISO8601.string(from: answer.date)
    }

    @Test(arguments: [
        // Europe/Berlin moves from +01:00 to +02:00 on 2026-03-29 and back on 2026-10-25.
        ("Europe/Berlin", "2026-03-28 08:00", "2026-03-28T07:00:00Z"),
        ("Europe/Berlin", "2026-03-29 08:00", "2026-03-29T06:00:00Z"),
        ("Europe/Berlin", "2026-10-24 08:00", "2026-10-24T06:00:00Z"),
        ("Europe/Berlin", "2026-10-25 08:00", "2026-10-25T07:00:00Z"),
        // America/New_York moves from -05:00 to -04:00 on 2026-03-08 and back on 2026-11-01.
        ("America/New_York", "2026-03-07 08:00", "2026-03-07T13:00:00Z"),
        ("America/New_York", "2026-03-08 08:00", "2026-03-08T12:00:00Z"),
        ("America/New_York", "2026-11-01 08:00", "2026-11-01T13:00:00Z"),
        // Far from UTC, no daylight saving.
        ("Pacific/Kiritimati", "2026-03-01 00:30", "2026-02-28T10:30:00Z"),
    ])
    func typedDateTimesUseTheZonesOffsetThatDay(zone: String, typed: String, instant: String) throws {
        #expect(try storedInstant(typed, in: zone) == instant)
    }

    @Test func aTimeSkippedByTheSpringChangeIsRefused() throws {
        var run = try session(in: "Europe/Berlin")
        #expect(throws: TaskSessionError.self) { try run.setAnswer(text: "2026-03-29 02:30") }
        #expect(run.answer() == nil)
    }

    @Test func resultJSONKeepsTheParticipantsOffset() throws {
        var run = try session(in: "Europe/Berlin")
        try run.setAnswer(text: "2026-03-29 08:00")
        try run.goForward()
        try run.setAnswer(text: "2026-03-29")
        try run.goForward()
        let json = String(decoding: try ResearchJSON.encoder(pretty: false).encode(run.result), as: UTF8.self)
        #expect(json.contains(#""dateTime":"2026-03-29T08:00:00+02:00","timeZone":"Europe/Berlin""#))
        #expect(json.contains(#""date":"2026-03-29","timeZone":"Europe/Berlin""#))
    }
}
