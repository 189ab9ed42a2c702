import ArgumentParser
import CareStore
import Foundation
import Research

/// `studykit schedule …`: works with schedule JSON files.
struct ScheduleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Work with schedule JSON files.",
        subcommands: [Events.self]
    )

    /// `studykit schedule events --schedule FILE --from T --to T`: prints the events that overlap a time range.
    struct Events: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "events",
            abstract: "Print a schedule's events that overlap a time range, one JSON object per line.",
            discussion: """
            Each line is {"occurrence": N, "start": "…", "end": "…", "element": I}, in order of start and then \
            element index, with times in the schedule's time zone. Events that started before --from and are \
            still running are included. Problems in the file or the arguments are printed as \
            'file: json.path: message' and the exit status is 1.
            """
        )

        @Option(help: "The schedule JSON file.", completion: .file(extensions: ["json"]))
        var schedule: String

        @Option(help: "Start of the range: ISO 8601 with an offset (2026-03-29T00:00:00+01:00), or a day (2026-03-29) meaning its midnight in the schedule's time zone.")
        var from: String

        @Option(help: "End of the range (exclusive), in the same forms as --from.")
        var to: String

        func run() throws {
            let name = (schedule as NSString).lastPathComponent
            guard let data = FileManager.default.contents(atPath: schedule) else {
                Self.report("\(name): cannot read \(schedule)")
                throw ExitCode(1)
            }
            let loaded: Schedule
            do {
                loaded = try Schedule.load(data)
            } catch {
                for problem in error.problems { Self.report("\(name): \(problem)") }
                throw ExitCode(1)
            }
            var failed = false
            let start = Self.moment(from, option: "--from", in: loaded.timeZone, failed: &failed)
            let end = Self.moment(to, option: "--to", in: loaded.timeZone, failed: &failed)
            guard let start, let end, !failed else { throw ExitCode(1) }
            guard end > start else {
                Self.report("--to: must be after --from (\(to) is not after \(from))")
                throw ExitCode(1)
            }
            var output = ""
            for event in loaded.events(from: start, to: end) {
                output += Self.line(for: event, in: loaded.timeZone)
                output += "\n"
                if output.utf8.count > 1 << 16 {
                    FileHandle.standardOutput.write(Data(output.utf8))
                    output = ""
                }
            }
            FileHandle.standardOutput.write(Data(output.utf8))
        }

        /// Writes a problem line to standard error, as `file: json.path: message` (no program-name prefix, so the
        /// line reads like `studykit validate`'s).
        static func report(_ message: String) {
            FileHandle.standardError.write(Data((message + "\n").utf8))
        }

        /// `{"occurrence": 12, "start": "2026-03-29T08:00:00+02:00", "end": "…", "element": 0}`, keys in this order.
        static func line(for event: ScheduleEvent, in timeZone: TimeZone) -> String {
            let start = ISO8601.string(from: event.start, in: timeZone)
            let end = ISO8601.string(from: event.end, in: timeZone)
            return #"{"occurrence": \#(event.occurrence), "start": "\#(start)", "end": "\#(end)", "element": \#(event.elementIndex)}"#
        }

        /// A date-time with an offset, or a day's midnight in `timeZone`; prints a problem and sets `failed` otherwise.
        static func moment(_ text: String, option: String, in timeZone: TimeZone, failed: inout Bool) -> Date? {
            if let date = ISO8601.date(from: text) { return date }
            if let day = ISO8601.day(from: text) {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = timeZone
                if let date = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12)),
                   calendar.component(.month, from: date) == day.month, calendar.component(.day, from: date) == day.day {
                    return calendar.startOfDay(for: date)
                }
            }
            report("\(option): '\(text)' is not an ISO 8601 date and time with an offset (like 2026-03-29T00:00:00+01:00) or a day (like 2026-03-29)")
            failed = true
            return nil
        }
    }
}
