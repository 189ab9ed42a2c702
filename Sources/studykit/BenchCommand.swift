import ArgumentParser
import Foundation

/// `studykit bench`: measures StudyKit's hot paths and prints a table. Run it from a release build.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure StudyKit's hot paths (use a release build: make bench).",
        discussion: "Without a subcommand, measures and prints a table. The subcommands are helpers of scripts/bench_server.py.",
        subcommands: [ReminderDataCommand.self, SMTPSendCommand.self]
    )

    @Option(help: "Seconds to spend on each measurement.")
    var seconds: Double = 2

    @Option(name: .customLong("only"), help: "Measure only these groups (repeatable): research, active-tasks, schedules, care-writes, care-reads, pages, exports, reminders.")
    var groups: [BenchmarkGroup] = BenchmarkGroup.allCases

    func run() async throws {
        #if DEBUG
        FileHandle.standardError.write(Data("warning: this is a debug build; figures are not representative (use make bench)\n".utf8))
        #endif
        var rows: [BenchmarkRow] = []
        if groups.contains(.research) { rows += try ResearchBenchmarks(secondsPerMeasurement: seconds).run() }
        if groups.contains(.activeTasks) { rows += try ActiveTaskBenchmarks(secondsPerMeasurement: seconds).run() }
        if groups.contains(.schedules) { rows += ScheduleBenchmarks(secondsPerMeasurement: seconds).run() }
        if groups.contains(.careWrites) || groups.contains(.careReads) {
            rows += try await CareStoreBenchmarks(secondsPerMeasurement: seconds)
                .run(writes: groups.contains(.careWrites), reads: groups.contains(.careReads))
        }
        if groups.contains(.pages) { rows += try PageBenchmarks(secondsPerMeasurement: seconds).run() }
        if groups.contains(.exports) { rows += try await ExportBenchmarks().run() }
        if groups.contains(.reminders) { rows += try await ReminderBenchmarks().run() }
        BenchmarkTable.print(rows)
    }
}

/// The parts of StudyKit that `studykit bench --only` can measure on their own.
enum BenchmarkGroup: String, CaseIterable, ExpressibleByArgument {
    /// Task validation and sessions.
    case research
    /// The active task analyzers.
    case activeTasks = "active-tasks"
    /// Schedule event generation.
    case schedules
    /// Outcome writes to the care store on SQLite.
    case careWrites = "care-writes"
    /// A day's events and a month's adherence from the care store.
    case careReads = "care-reads"
    /// The HTML of the home page and of a survey step page.
    case pages
    /// `studykit export` in each format on 1,000, 10,000 and 30,000 runs: time and peak memory.
    case exports
    /// The reminders due for 10,000 participants with 5 tasks each, on SQLite.
    case reminders
}
