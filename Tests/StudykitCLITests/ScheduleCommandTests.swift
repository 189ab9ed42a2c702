import Foundation
import Testing

@Suite("studykit schedule events")
struct ScheduleCommandTests {
    @Test func printsEventsAcrossTheMarchChangeInBerlin() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"""
        {"timeZone": "Europe/Berlin", "elements": [
          {"start": "2026-03-27T08:00:00+01:00", "interval": {"days": 1}, "text": "after breakfast"},
          {"start": "2026-03-29T12:00:00+02:00", "duration": "allDay"},
          {"start": "2026-03-27T07:00:00Z", "rrule": "FREQ=DAILY;COUNT=2", "duration": {"minutes": 30}}
        ]}
        """#.write(to: folder.appendingPathComponent("schedule.json"), atomically: true, encoding: .utf8)
        let output = try StudykitProcess.run(["schedule", "events", "--schedule", "schedule.json",
                                              "--from", "2026-03-28T08:15:00+01:00", "--to", "2026-03-30"], in: folder)
        #expect(output.stderr == "")
        #expect(output.status == 0)
        #expect(output.stdout == """
        {"occurrence": 2, "start": "2026-03-28T08:00:00+01:00", "end": "2026-03-28T09:00:00+01:00", "element": 0}
        {"occurrence": 3, "start": "2026-03-28T08:00:00+01:00", "end": "2026-03-28T08:30:00+01:00", "element": 2}
        {"occurrence": 4, "start": "2026-03-29T00:00:00+01:00", "end": "2026-03-30T00:00:00+02:00", "element": 1}
        {"occurrence": 5, "start": "2026-03-29T08:00:00+02:00", "end": "2026-03-29T09:00:00+02:00", "element": 0}

        """)
        // The two March 28 events started at 08:00 and are still running at 08:15; the tie goes by element index.
        // After the change to summer time the daily event is still at 08:00 on the wall clock (06:00 UTC).
        let later = try StudykitProcess.run(["schedule", "events", "--schedule", "schedule.json",
                                             "--from", "2026-04-02T00:00:00Z", "--to", "2026-04-03T00:00:00Z"], in: folder)
        #expect(later.stdout == #"{"occurrence": 9, "start": "2026-04-02T08:00:00+02:00", "end": "2026-04-02T09:00:00+02:00", "element": 0}"# + "\n")
    }

    @Test func badFilesAndArgumentsExitOneWithPathQualifiedLines() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"""
        {"timeZone": "Europe/Berlin", "elements": [
          {"start": "2026-03-27 08:00", "interval": {"days": 1}},
          {"start": "2026-03-27T08:00:00+01:00", "rrule": "FREQ=WEEKLY;BYDAY=XX"}
        ]}
        """#.write(to: folder.appendingPathComponent("schedule.json"), atomically: true, encoding: .utf8)
        let bad = try StudykitProcess.run(["schedule", "events", "--schedule", "schedule.json", "--from", "2026-03-28", "--to", "2026-03-30"], in: folder)
        #expect(bad.status == 1)
        #expect(bad.stdout == "")
        let lines = bad.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("schedule.json: elements[0].start: '2026-03-27 08:00' is not an ISO 8601 date and time with an offset, like 2026-03-28T08:00:00+01:00"))
        #expect(lines.contains("schedule.json: elements[1].rrule: BYDAY: 'XX' is not a weekday"))
        #expect(lines.count == 2)

        try "{\"timeZone\": \"UTC\",\n \"elements\": [}".write(to: folder.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        let broken = try StudykitProcess.run(["schedule", "events", "--schedule", "broken.json", "--from", "2026-03-28", "--to", "2026-03-30"], in: folder)
        #expect(broken.status == 1)
        #expect(broken.stderr.hasPrefix("broken.json: malformed JSON: line 2, column "))

        let missing = try StudykitProcess.run(["schedule", "events", "--schedule", "missing.json", "--from", "2026-03-28", "--to", "2026-03-30"], in: folder)
        #expect(missing.status == 1)
        #expect(missing.stderr == "missing.json: cannot read missing.json\n")

        try #"{"timeZone": "UTC", "elements": [{"start": "2026-03-27T08:00:00Z"}]}"#.write(to: folder.appendingPathComponent("ok.json"), atomically: true, encoding: .utf8)
        let arguments = try StudykitProcess.run(["schedule", "events", "--schedule", "ok.json", "--from", "yesterday", "--to", "2026-03-30"], in: folder)
        #expect(arguments.status == 1)
        #expect(arguments.stderr.hasPrefix("--from: 'yesterday' is not an ISO 8601 date and time with an offset"))
        let reversed = try StudykitProcess.run(["schedule", "events", "--schedule", "ok.json", "--from", "2026-03-30", "--to", "2026-03-28"], in: folder)
        #expect(reversed.status == 1)
        #expect(reversed.stderr.contains("--to: must be after --from"))
    }
}
