import ArgumentParser
import Foundation

/// `studykit bench`: measures StudyKit's hot paths and prints a table. Run it from a release build.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure StudyKit's hot paths (use a release build: make bench)."
    )

    @Option(help: "Seconds to spend on each measurement.")
    var seconds: Double = 2

    func run() async throws {
        #if DEBUG
        FileHandle.standardError.write(Data("warning: this is a debug build; figures are not representative (use make bench)\n".utf8))
        #endif
        let rows = try ResearchBenchmarks(secondsPerMeasurement: seconds).run()
        let schedules = ScheduleBenchmarks(secondsPerMeasurement: seconds).run()
        let care = try await CareStoreBenchmarks(secondsPerMeasurement: seconds).run()
        BenchmarkTable.print(rows + schedules + care)
    }
}
