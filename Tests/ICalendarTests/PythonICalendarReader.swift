import Foundation

/// Reads a serialized calendar with parsers nobody here wrote: Python's `icalendar` 7.3.2 and `recurring_ical_events`
/// 3.8.2, from the project's virtual environment (`.venv`, which `make test` makes).
///
/// The script parses the calendar with `icalendar.Calendar.from_ical`, expands it with
/// `recurring_ical_events.of(calendar).between(start, end)`, and prints, as JSON: each occurrence's start (an instant in
/// UTC, or the date of an all-day one) and its alarms' triggers (instants in UTC; floating local times for an all-day
/// event's); the same expansion with every `TZID` renamed to one no library knows, so that the zones come from the
/// calendar's own `VTIMEZONE`s rather than from Python's tz database; the offset each `VTIMEZONE` (turned into a
/// `tzinfo` by `icalendar`) gives at instants chosen by the caller; the texts of each event; the occurrences of the
/// calendar `icalendar` writes back; and every warning raised.
enum PythonICalendarReader {
    /// What the script printed.
    struct Report: Decodable, Sendable {
        struct Occurrence: Decodable, Sendable, Equatable {
            var uid: String
            var start: String
            var triggers: [String]
        }

        struct Texts: Decodable, Sendable, Equatable {
            var summary: String
            var description: String
            var location: String
            var categories: [String]
        }

        var occurrences: [Occurrence]
        var occurrencesThroughVTIMEZONE: [Occurrence]
        var offsets: [String: [Int]]
        var texts: [String: Texts]
        var reserializedOccurrences: [Occurrence]
        var reserializedEventCount: Int
        var warnings: [String]
    }

    /// Why the calendar could not be read.
    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    private struct Request: Encodable {
        var calendar: String
        var windowStart: String
        var windowEnd: String
        var samples: [String: [Int]]
    }

    /// The repository: three folders above this file, symbolic links resolved (so that it is found from a package
    /// that links this folder in, too).
    static let repository = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The virtual environment's Python.
    static let python = repository.appendingPathComponent(".venv/bin/python")

    /// Reads `calendar`'s bytes, expanding occurrences in `window`, and reading each `VTIMEZONE`'s offset at
    /// `samples[TZID]` (seconds since 1970).
    static func read(_ calendar: Data, window: DateInterval, samples: [String: [Int]]) throws(Failure) -> Report {
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Failure(description: "\(python.path) is missing: run `make test`, which makes the virtual environment with icalendar and recurring_ical_events")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("icalendar-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let calendarFile = folder.appendingPathComponent("calendar.ics")
            let requestFile = folder.appendingPathComponent("request.json")
            let scriptFile = folder.appendingPathComponent("read_calendar.py")
            let errorFile = folder.appendingPathComponent("stderr.txt")
            try calendar.write(to: calendarFile)
            let request = Request(calendar: calendarFile.path, windowStart: TestTimes.iso(window.start), windowEnd: TestTimes.iso(window.end), samples: samples)
            try JSONEncoder().encode(request).write(to: requestFile)
            try Data(script.utf8).write(to: scriptFile)
            try Data().write(to: errorFile)

            let process = Process()
            process.executableURL = python
            process.arguments = [scriptFile.path, requestFile.path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = try FileHandle(forWritingTo: errorFile)
            try process.run()
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
                throw Failure(description: "the Python reader exited with \(process.terminationStatus):\n\(errors)")
            }
            return try JSONDecoder().decode(Report.self, from: printed)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "the Python reader could not run: \(error)")
        }
    }

    private static let script = #"""
        import json
        import re
        import sys
        import warnings
        from datetime import datetime, timezone

        warnings.simplefilter("always")
        with warnings.catch_warnings(record=True) as caught:
            try:
                import icalendar
                import recurring_ical_events
            except ImportError as missing:
                raise SystemExit(f"{missing}: .venv lacks icalendar 7.3.2 or recurring_ical_events 3.8.2; run `make test`")

            with open(sys.argv[1], encoding="utf-8") as request_file:
                request = json.load(request_file)
            with open(request["calendar"], "rb") as calendar_file:
                text = calendar_file.read()
            window = [datetime.fromisoformat(request[key].replace("Z", "+00:00")) for key in ("windowStart", "windowEnd")]

            def instant(value):
                if isinstance(value, datetime):
                    if value.tzinfo is None:
                        return value.strftime("%Y-%m-%dT%H:%M:%S")
                    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
                return value.isoformat()

            def occurrences(calendar_text):
                calendar = icalendar.Calendar.from_ical(calendar_text)
                found = []
                for occurrence in recurring_ical_events.of(calendar).between(*window):
                    found.append({
                        "uid": str(occurrence["UID"]),
                        "start": instant(occurrence.start),
                        "triggers": sorted(instant(alarm.trigger) for alarm in icalendar.Alarms(occurrence).times),
                    })
                return sorted(found, key=lambda found: (found["uid"], found["start"]))

            calendar = icalendar.Calendar.from_ical(text)

            # The same calendar with TZIDs Python's tz database does not know: icalendar then builds the zones from
            # the VTIMEZONEs written.
            renamed = re.sub(rb"\r\n[ \t]", b"", text)
            for number, zone in enumerate(calendar.walk("VTIMEZONE")):
                tzid = str(zone["TZID"]).encode()
                private = b"StudyKitTestZone-" + str(number).encode()
                renamed = renamed.replace(b";TZID=" + tzid + b":", b";TZID=" + private + b":")
                renamed = renamed.replace(b"\r\nTZID:" + tzid + b"\r\n", b"\r\nTZID:" + private + b"\r\n")
                if renamed.count(private) < 2:
                    raise SystemExit(f"could not rename {tzid!r}")

            offsets = {}
            for zone in calendar.walk("VTIMEZONE"):
                tzinfo = zone.to_tz(lookup_tzid=False)
                offsets[str(zone["TZID"])] = [
                    int(datetime.fromtimestamp(sample, timezone.utc).astimezone(tzinfo).utcoffset().total_seconds())
                    for sample in request["samples"].get(str(zone["TZID"]), [])
                ]

            texts = {
                str(event["UID"]): {
                    "summary": str(event.get("SUMMARY", "")),
                    "description": str(event.get("DESCRIPTION", "")),
                    "location": str(event.get("LOCATION", "")),
                    "categories": [str(category) for category in event.categories],
                }
                for event in calendar.walk("VEVENT")
            }

            reserialized = calendar.to_ical()
            report = {
                "occurrences": occurrences(text),
                "occurrencesThroughVTIMEZONE": occurrences(renamed),
                "offsets": offsets,
                "texts": texts,
                "reserializedOccurrences": occurrences(reserialized),
                "reserializedEventCount": len(icalendar.Calendar.from_ical(reserialized).walk("VEVENT")),
            }
        report["warnings"] = [f"{warning.category.__name__}: {warning.message}" for warning in caught]
        print(json.dumps(report))
        """#
}
