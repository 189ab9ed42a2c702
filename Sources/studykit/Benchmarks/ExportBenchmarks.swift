import CareStore
import Foundation
import Research
import Study
import StudyFHIR
import StudyKitEnvironment
import StudySQLite
#if canImport(Glibc)
import Glibc
#endif

/// `studykit export` in each format on data folders of 1,000, 10,000 and 30,000 completed runs: the wall time and the
/// peak memory (the child process's own high-water mark) of the whole command, as a study team runs it.
///
/// Each folder holds participants of the study (`examples/studies/recover`) with 20 completed pain checks each (three
/// answers, one of them multiple choice) and an outcome per check: the larger folders have more participants, not
/// longer histories, so a format that keeps one participant at a time in memory reaches a peak that more
/// participants do not raise (the stores' kept values fill first).
struct ExportBenchmarks {
    /// Runs per participant.
    static let runsPerParticipant = 20
    /// Completed runs in each data folder.
    static let runCounts = [1_000, 10_000, 30_000]

    func run() async throws -> [BenchmarkRow] {
        let studyFolder = URL(fileURLWithPath: StudyPaths.defaultStudy, isDirectory: true)
        let study = try StudyLoader.load(folder: studyFolder, surveyFormats: [FHIRSurveyFormat()])
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-export-bench-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: work) }
        guard let executable = Bundle.main.executablePath else { throw ExportBenchmarkError("cannot find the studykit executable") }
        var rows: [BenchmarkRow] = []
        for runCount in Self.runCounts {
            let data = work.appendingPathComponent("data-\(runCount)", isDirectory: true)
            try await seed(data, study: study, participants: runCount / Self.runsPerParticipant)
            for format in [StudyExportFormat.csvLong, .csvWide, .outcomes, .json, .fhir] {
                let out = work.appendingPathComponent("out-\(runCount)-\(format.rawValue)", isDirectory: true)
                let measured = try Self.spawn([executable, "export", "--format", format.rawValue, "--out", out.path,
                                               "--study", studyFolder.path, "--data", data.path])
                let label = "export --format \(format.rawValue), \(runCount.formatted(.number.locale(Locale(identifier: "en_US")))) runs"
                rows.append(BenchmarkRow(name: label, value: measured.seconds * 1_000, unit: "ms",
                                         note: String(format: "peak memory %.1f MiB", Double(measured.peakKiB) / 1024)))
            }
        }
        return rows
    }

    /// A data folder with `participants` enrolled participants in Berlin, each with ``runsPerParticipant`` completed pain
    /// checks and their outcomes, committed one participant at a time as the server commits an action.
    private func seed(_ folder: URL, study: StudyDefinition, participants: Int) async throws {
        let database = try SQLiteStudyDatabase(path: folder.appendingPathComponent("study.sqlite").path, durability: .processCrash)
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let enrolment = StudyEnrolment(study: study, environment: .live)
        for _ in 0..<participants {
            let participant = try await database.enrol(invitationCode: nil, timeZone: zone, language: "en") { participant in
                try enrolment.plan(participantID: participant.id, enrolledAt: participant.enrolledAt, timeZone: zone)
            }
            var query = CareQuery()
            query.ids = [StudyCareIdentifiers.taskID(participant: participant.id, task: "pain")]
            guard let pain = try await database.sqliteCareStore.fetch(CareTask.self, query: query).first else {
                throw ExportBenchmarkError("Recover has no pain task")
            }
            var change = ParticipantChange(participantID: participant.id)
            for occurrence in 0..<Self.runsPerParticipant {
                let id = UUID(), start = participant.enrolledAt.addingTimeInterval(Double(occurrence) * 86_400)
                let level = occurrence % 11
                let step = { (identifier: String, items: [ResultItem]) in
                    StepResult(identifier: identifier, startDate: start, endDate: start.addingTimeInterval(20), results: items)
                }
                // Recover's pain check: a 0–10 level, where it hurts (multiple choice), and free text.
                let result = TaskResult(identifier: "pain", taskRunUUID: id, startDate: start, endDate: start.addingTimeInterval(60), stepResults: [
                    step("painLevel", [.question(QuestionResult(identifier: "painLevel", type: .scale, answer: .number(Decimal(level))))]),
                    step("painLocation", [.question(QuestionResult(identifier: "painLocation", type: .textChoice,
                                                                   answer: .choices([ChoiceSelection(.string("front")), ChoiceSelection(.string("inner"))])))]),
                    step("notes", [.question(QuestionResult(identifier: "notes", type: .text, answer: .text("Stiff in the morning, better after walking.")))]),
                ])
                change.runs.append(TaskRun(id: id, participantID: participant.id, taskID: "pain", occurrence: occurrence, state: .completed, result: result))
                change.outcomes.append(Outcome(taskUUID: pain.version.uuid, occurrenceIndex: occurrence,
                                               values: [OutcomeValue(.integer(level), kind: "pain", units: "NRS")], timeZone: zone))
            }
            _ = try await database.commit(change)
        }
    }

    /// Runs `arguments` (the executable first) with its standard output discarded; its wall time and peak memory.
    ///
    /// The peak is the child's own high-water mark (`VmHWM` in `/proc/PID/status`), read every 2 ms while it runs: it only
    /// rises, so the last reading is the peak but for the last moments. `wait4`'s maximum resident set is no use here:
    /// Linux carries the spawning process's own high-water mark over an `exec`, so it showed this benchmark's memory,
    /// which grows as it seeds larger folders, not the export's.
    private static func spawn(_ arguments: [String]) throws -> (seconds: Double, peakKiB: Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let started = DispatchTime.now().uptimeNanoseconds
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw ExportBenchmarkError("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var peakKiB = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped == -1 && errno != EINTR { throw ExportBenchmarkError("cannot wait for \(arguments[0]): \(String(cString: strerror(errno)))") }
            peakKiB = max(peakKiB, highWaterKiB(of: pid))
            usleep(2_000)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw ExportBenchmarkError("\(arguments.joined(separator: " ")) failed (wait status \(status))")
        }
        return (seconds, peakKiB)
    }

    /// The process's peak resident memory so far (`VmHWM`), in KiB; 0 when it cannot be read.
    private static func highWaterKiB(of pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? 0
    }
}

/// Why the export benchmark could not run.
struct ExportBenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
