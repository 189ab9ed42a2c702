import Foundation
import Research

/// A participant's own copy of everything the study holds about them, as one ZIP of JSON and PDF: the right of
/// access and portability that the phone frameworks leave to each team.
///
/// | Entry | What it holds |
/// |---|---|
/// | `participant.json` | their id, enrolment time, time zone and language |
/// | `runs.json` | every task run with its whole result as stored (as the `json` export writes runs; a result's `outputDirectory` is the run's folder in this ZIP, `files/RUN`, and absent for a run without files) |
/// | `outcomes.json` | every live outcome, with its study task |
/// | `consents/RECORD.json`, `consents/RECORD.pdf` | each verified consent or withdrawal record as stored, and its signed PDF |
/// | `files/RUN/FILE` | the files attached in their runs |
///
/// ```swift
/// let zip = try ParticipantDataCopy.zip(of: try await reader.data(of: participant), at: now)
/// ```
public enum ParticipantDataCopy {
    /// The ZIP's bytes for `data`, its entries dated `date`. A file a run names but the data folder lacks is left out
    /// (the run's result still names it).
    public static func zip(of data: ParticipantExportData, at date: Date) throws -> Data {
        let archive = try ZIPExportArchive(inMemoryAt: date)
        let participant = data.participant
        let encoder = ResearchJSON.encoder(pretty: true)
        try archive.add(try encoder.encode(JSONExporter.ParticipantLine(id: participant.id, enrolledAt: participant.enrolledAt,
                                                                        timeZone: participant.timeZone.identifier, language: participant.language)),
                        as: "participant.json")
        let runs = data.runsOldestFirst
        try archive.add(try encoder.encode(runs.map { run in
            JSONExporter.line(of: run, participant: participant.id, filesFolder: filesFolder(of: run))
        }), as: "runs.json")
        try archive.add(try encoder.encode(data.outcomes.map { outcome in
            JSONExporter.OutcomeLine(participant: participant.id, task: data.taskVersion(of: outcome).flatMap(data.studyTaskID(of:)), outcome: outcome)
        }), as: "outcomes.json")
        for stored in data.consentRecords {
            try archive.addConsentRecord(stored, of: data, as: "consents/\(stored.sealed.record.id.uuidString.lowercased())")
        }
        for run in runs {
            for case let (fileName, bytes?) in JSONExporter.attachedFiles(of: run, in: data) {
                try archive.add(bytes, as: "\(filesFolder(of: run))/\(fileName)")
            }
        }
        guard let bytes = archive.data else { throw StudyExportError.cannotWrite(path: "(in memory)", reason: "the ZIP was not built") }
        return bytes
    }

    /// Where `run`'s files are in the ZIP: `files/RUN`.
    private static func filesFolder(of run: TaskRun) -> String {
        "files/\(run.id.uuidString.lowercased())"
    }
}
