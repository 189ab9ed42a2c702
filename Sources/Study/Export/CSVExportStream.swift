import Foundation

/// A table export's stream: each participant's rows go into one CSV file as the participant comes, and are let go.
final class CSVExportStream: StudyExportStream {
    private let file: CSVFileWriter
    private let format: StudyExportFormat
    private let rows: (ParticipantExportData) -> [[String]]
    private var participantCount = 0

    /// A stream writing `rows` of each participant into `file`.
    init(file: CSVFileWriter, format: StudyExportFormat, rows: @escaping (ParticipantExportData) -> [[String]]) {
        self.file = file
        self.format = format
        self.rows = rows
    }

    func add(_ participant: ParticipantExportData) throws {
        for row in rows(participant) { try file.write(row) }
        participantCount += 1
    }

    func finish() throws -> StudyExportSummary {
        try file.close()
        return StudyExportSummary(format: format.rawValue, participantCount: participantCount,
                                  counts: [URL(fileURLWithPath: file.path).lastPathComponent: file.rowCount], issues: [])
    }
}
