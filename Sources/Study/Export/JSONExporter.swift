import CareStore
import Foundation
import Research

/// `json`: the data as StudyKit keeps it, one JSON object per line, for scripts and for archiving:
///
/// - `participants.ndjson`: id, enrolment time, time zone, language;
/// - `runs.ndjson`: each task run (participant, task, event, state, saved times) with its whole task result as
///   stored (every step visited, earlier passes marked, active tasks' samples and measures), in
///   ``ResearchJSON``'s encoding (ISO 8601 dates, sorted keys), except that the result's `outputDirectory` names the
///   run's folder in `files.zip` (`PARTICIPANT/RUN`), or is left out when the run attached no file: the server's own
///   paths are in no export;
/// - `outcomes.ndjson`: each live outcome, with its participant and study task beside the care store's encoding;
/// - `files.zip`: the files attached in runs, as `PARTICIPANT/RUN/FILE` (the result names each file and its SHA-256).
///
/// Consent records are the `consents` format's. A file a result names but the data folder lacks is reported.
public struct JSONExporter: StudyExporter {
    /// The files written.
    public static let participantsName = "participants.ndjson", runsName = "runs.ndjson", outcomesName = "outcomes.ndjson",
                      filesName = "files.zip"

    /// Creates the exporter.
    public init() {}

    /// ``StudyExportFormat/json``.
    public var format: StudyExportFormat { .json }

    public func start(study: StudyDefinition, takenAt: Date, into folder: URL) throws -> any StudyExportStream {
        Stream(participants: try LineFile(creating: folder.appendingPathComponent(Self.participantsName)),
               runs: try LineFile(creating: folder.appendingPathComponent(Self.runsName)),
               outcomes: try LineFile(creating: folder.appendingPathComponent(Self.outcomesName)),
               files: try ZIPExportArchive(creating: folder.appendingPathComponent(Self.filesName), date: takenAt), format: format)
    }

    /// A participant's line.
    struct ParticipantLine: Encodable {
        var id: String
        var enrolledAt: Date
        var timeZone: String
        var language: String
    }

    /// A run's line: the run's own fields and its result as stored.
    struct RunLine: Encodable {
        var id: String
        var participant: String
        var task: String
        var occurrence: Int?
        var state: String
        var createdAt: Date?
        var updatedAt: Date?
        var result: TaskResult?
    }

    /// An outcome's line: whose and of which task, and the outcome as the care store encodes it.
    struct OutcomeLine: Encodable {
        var participant: String
        var task: String?
        var outcome: Outcome
    }

    /// The files a run's result names, each with its bytes as stored (nil when the study's database does not have it).
    static func attachedFiles(of run: TaskRun, in data: ParticipantExportData) -> [(fileName: String, data: Data?)] {
        let files = run.result?.stepResults.flatMap(\.results).compactMap { item -> FileResult? in
            if case .file(let file) = item { file } else { nil }
        } ?? []
        return files.map { file in (file.fileName, data.runFiles[run.id]?[file.fileName]) }
    }

    /// A run's line in the JSON formats. The result's ``TaskResult/outputDirectory`` is where the server keeps the
    /// run's files (`run-files/RUN`, or a folder of the server's for a run stored before the files moved into the database), which no export shows: it becomes
    /// `filesFolder`, where the run's files are in what is handed over, or nil when the run attached no file.
    static func line(of run: TaskRun, participant: String, filesFolder: String) -> RunLine {
        var result = run.result
        if result != nil {
            let hasFiles = result?.stepResults.contains { $0.results.contains { if case .file = $0 { true } else { false } } } ?? false
            result?.outputDirectory = hasFiles ? filesFolder : nil
        }
        return RunLine(id: run.id.uuidString.lowercased(), participant: participant, task: run.taskID, occurrence: run.occurrence,
                       state: run.state.rawValue, createdAt: run.createdAt, updatedAt: run.updatedAt, result: result)
    }

    /// Where `run`'s files are in `files.zip`: `PARTICIPANT/RUN`.
    static func filesFolder(of run: TaskRun, participant: String) -> String {
        "\(participant)/\(run.id.uuidString.lowercased())"
    }

    /// A file of JSON lines, written through a buffer.
    final class LineFile {
        let writer: BufferedFileWriter
        private(set) var count = 0
        private let encoder = ResearchJSON.encoder(pretty: false)

        init(creating url: URL) throws {
            writer = try BufferedFileWriter(creating: url)
        }

        func write(_ value: some Encodable) throws {
            try writer.append(contentsOf: try encoder.encode(value))
            writer.append(UInt8(ascii: "\n"))
            count += 1
        }
    }

    private final class Stream: StudyExportStream {
        let participants: LineFile, runs: LineFile, outcomes: LineFile
        let files: ZIPExportArchive
        let format: StudyExportFormat
        var issues: [StudyExportIssue] = []

        init(participants: LineFile, runs: LineFile, outcomes: LineFile, files: ZIPExportArchive, format: StudyExportFormat) {
            self.participants = participants
            self.runs = runs
            self.outcomes = outcomes
            self.files = files
            self.format = format
        }

        func add(_ data: ParticipantExportData) throws {
            let participant = data.participant
            try participants.write(ParticipantLine(id: participant.id, enrolledAt: participant.enrolledAt, timeZone: participant.timeZone.identifier,
                                                   language: participant.language))
            for run in data.runsOldestFirst {
                let folder = JSONExporter.filesFolder(of: run, participant: participant.id)
                try runs.write(JSONExporter.line(of: run, participant: participant.id, filesFolder: folder))
                for (fileName, bytes) in JSONExporter.attachedFiles(of: run, in: data) {
                    guard let bytes else {
                        issues.append(StudyExportIssue(participantID: participant.id,
                                                       message: "run \(run.id.uuidString.lowercased()): the attached file \(fileName) is not in the study's database"))
                        continue
                    }
                    try files.add(bytes, as: "\(folder)/\(fileName)")
                }
            }
            for outcome in data.outcomes {
                try outcomes.write(OutcomeLine(participant: participant.id, task: data.taskVersion(of: outcome).flatMap(data.studyTaskID(of:)),
                                               outcome: outcome))
            }
        }

        func finish() throws -> StudyExportSummary {
            try participants.writer.close()
            try runs.writer.close()
            try outcomes.writer.close()
            return StudyExportSummary(format: format.rawValue, participantCount: participants.count,
                                      counts: [JSONExporter.runsName: runs.count, JSONExporter.outcomesName: outcomes.count,
                                               JSONExporter.filesName: files.entryCount], issues: issues)
        }
    }
}
