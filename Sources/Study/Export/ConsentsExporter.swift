import Consent
import Foundation
import Research

/// `consents`: every verified consent, countersignature and withdrawal record with its signed PDF, in `consents.zip`
/// (`PARTICIPANT/RECORD.json`, the sealed record byte for byte as the database holds it, which
/// `studykit consent verify` checks, and `PARTICIPANT/RECORD.pdf`), and `consents.csv` listing them: participant,
/// record, kind, document and version, language, signing time with the signer's offset, signers, the record it
/// countersigns or withdraws (`refers_to`), and the PDF's entry in the ZIP (empty when it was not printed).
///
/// A record that does not verify against the study's key is left out and reported, as in every export
/// (``StudyExportReader``); so is a record without a printed PDF, which is exported without one.
public struct ConsentsExporter: StudyExporter {
    /// The ZIP file written.
    public static let archiveName = "consents.zip"
    /// The list of records written beside it.
    public static let listName = "consents.csv"
    /// The list's columns.
    public static let columns = ["participant", "record", "kind", "document", "version", "language", "signed_at", "signers", "refers_to", "pdf"]

    /// How the CSV cells are written: exactly (the default), or ``CSVCellStyle/forSpreadsheets``.
    public var cells: CSVCellStyle

    /// Creates the exporter; `cells` says how its CSV cells are written.
    public init(cells: CSVCellStyle = .exact) {
        self.cells = cells
    }

    /// ``StudyExportFormat/consents``.
    public var format: StudyExportFormat { .consents }

    public func start(study: StudyDefinition, takenAt: Date, into folder: URL) throws -> any StudyExportStream {
        Stream(archive: try ZIPExportArchive(creating: folder.appendingPathComponent(Self.archiveName), date: takenAt),
               list: try CSVFileWriter(creating: folder.appendingPathComponent(Self.listName), header: Self.columns, cells: cells),
               format: format)
    }

    private final class Stream: StudyExportStream {
        let archive: ZIPExportArchive
        let list: CSVFileWriter
        let format: StudyExportFormat
        var participantCount = 0, pdfCount = 0
        var issues: [StudyExportIssue] = []

        init(archive: ZIPExportArchive, list: CSVFileWriter, format: StudyExportFormat) {
            self.archive = archive
            self.list = list
            self.format = format
        }

        func add(_ data: ParticipantExportData) throws {
            participantCount += 1
            let participant = data.participant.id
            issues += data.problems.map { StudyExportIssue(participantID: participant, message: $0) }
            for stored in data.consentRecords {
                let record = stored.sealed.record
                let name = "\(participant)/\(record.id.uuidString.lowercased())"
                var pdfEntry = ""
                if try archive.addConsentRecord(stored, of: data, as: name) {
                    pdfEntry = name + ".pdf"
                    pdfCount += 1
                } else {
                    issues.append(StudyExportIssue(participantID: participant,
                                                   message: "consent record \(record.id.uuidString.lowercased()) has no printed PDF; its record is exported without one"))
                }
                let signedAt = record.signatures.first?.localSigningTime
                    ?? ISO8601.string(from: record.createdAt, in: data.participant.timeZone)
                let signers = record.signatures.map { [$0.givenName, $0.familyName].joined(separator: " ") }.joined(separator: "; ")
                try list.write([participant, record.id.uuidString.lowercased(), record.kind.rawValue, record.documentIdentifier,
                                record.documentVersion, record.language, signedAt, signers,
                                record.linkedRecordID.map { $0.uuidString.lowercased() } ?? "", pdfEntry])
            }
        }

        func finish() throws -> StudyExportSummary {
            try list.close()
            return StudyExportSummary(format: format.rawValue, participantCount: participantCount,
                                      counts: ["consent records": list.rowCount, "PDFs": pdfCount], issues: issues)
        }
    }
}
