import ArgumentParser
import CareStore
import CareStoreSQLite
import Consent
import Foundation
import Study
import StudyFHIR
import StudySQLite

/// `studykit export`: writes a study's data (participants, consent records, care plans, outcomes, answers) in an export
/// format.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a study's data (participants, consents, care plans, outcomes) into a folder.",
        discussion: """
            Reads the study's database that `studykit serve` writes (the data folder's, or --database; it may run beside \
            the server), and appends one row to its audit trail saying who exported what, as the console's exports do; \
            nothing else in it changes. \
            --format fhir writes FHIR R4: participants/<id>.json (one Bundle each) and <ResourceType>.ndjson (one \
            resource per line, as FHIR Bulk Data). --format csv-long writes answers.csv: one row per answer of every \
            task run (participant, task, event, run, step, item, answer type, value, number, unit, time), written one \
            participant at a time; --format csv-wide writes wide/TASK.csv (one row per run, one column per question) \
            and data-dictionary.csv in REDCap's layout; --format outcomes writes outcomes.csv (one row per outcome \
            value); --format json writes runs, outcomes and participants as JSON lines and the attached files in \
            files.zip; --format reminders writes reminders.csv (one row per reminder sent, failed or skipped, with why); --format consents writes consents.zip (each sealed record and its PDF) and consents.csv. The \
            export replaces the previous one in --out whole; a folder that \
            holds anything but a previous export is refused. What cannot be written exactly is listed as warnings. \
            CSV cells are exact, for R, pandas and REDCap; --for-spreadsheets is for files someone opens in Excel, \
            LibreOffice or Google Sheets: a text cell that begins with =, +, -, @, a tab or a carriage return (which a \
            spreadsheet would run as a formula) gets a ' in front, while a cell that is a plain number, such as -3, \
            stays as it is.
            """
    )

    @Option(help: "The export format: \(StudyExportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: StudyExportFormat

    @Option(help: "The folder to write (created, or replaced when it holds a previous export).", completion: .directory)
    var out: String

    @Option(help: "The study folder the data belongs to.", completion: .directory)
    var study: String = StudyPaths.defaultStudy

    @OptionGroup var place: StudyDataLocation

    @Flag(help: "Write CSV cells safe to open in a spreadsheet: text that would run as a formula gets a ' in front (csv-long, csv-wide, outcomes, consents).")
    var forSpreadsheets = false

    func validate() throws {
        if study.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--study must name a study folder") }
        if out.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--out must name a folder") }
        if forSpreadsheets, !format.writesCSV {
            throw ValidationError("--for-spreadsheets changes CSV cells, and --format \(format.rawValue) writes no CSV file; "
                                  + "it applies to " + StudyExportFormat.allCases.filter(\.writesCSV).map(\.rawValue).joined(separator: ", "))
        }
    }

    func run() async throws {
        let dataFolder = place.dataFolder, data = place.data
        var isFolder: ObjCBool = false
        if place.database == nil {
            guard FileManager.default.fileExists(atPath: dataFolder.path, isDirectory: &isFolder), isFolder.boolValue else {
                try fail("no data folder at \(data) (give --data the folder `studykit serve --data` wrote)")
            }
        }
        let definition: StudyDefinition
        do {
            definition = try StudyLoader.load(folder: URL(fileURLWithPath: study, isDirectory: true), surveyFormats: [FHIRSurveyFormat()])
        } catch {
            try fail("the study in \(study) has problems:\n" + error.problems.map(\.description).joined(separator: "\n"))
        }
        let studyStore: any StudyStore, careStore: any CareStore
        // Every export is in the audit trail, as the console's are. A database that cannot take the row (a read-only
        // copy, one whose triggers were removed) still exports, for whoever has to look into it, and says so.
        let auditTrail: (any AuditTrailStore)?
        var notAudited: (any Error)?
        var opened: OpenedStudyDatabase?
        defer { opened?.close() }
        if place.database != nil {
            do {
                opened = try await place.openForWriting()
            } catch {
                try fail("cannot open the study's database \(place.description): \(error)")
            }
            studyStore = opened!.database.studyStore
            careStore = opened!.database.careStore
            auditTrail = opened!.database
        } else {
            let sqliteStudyStore: SQLiteStudyStore
            do {
                let folder = try StudyDataFolder(url: dataFolder)
                (sqliteStudyStore, careStore) = try SQLiteStudyDatabase.readOnlyStores(path: folder.database.path, legacyCarePath: folder.legacyCareDatabase.path)
            } catch let error as SQLiteStudyStoreOpenError {
                try fail("\(error) (is \(data) a data folder `studykit serve` wrote?)")
            } catch let error as SQLiteCareStorageOpenError {
                try fail("\(error) (is \(data) a data folder `studykit serve` wrote?)")
            } catch {
                try fail("cannot read the data folder \(data): \(error)")
            }
            studyStore = sqliteStudyStore
            // The database's own guard of the consent records is checked too.
            do {
                for problem in try sqliteStudyStore.appendOnlyProblems() {
                    FileHandle.standardError.write(Data("warning: study.sqlite: \(problem): consent records may have been changed\n".utf8))
                }
            } catch {
                try fail("cannot read the data folder \(data): \(error)")
            }
            do {
                auditTrail = try SQLiteStudyDatabase(path: try StudyDataFolder(url: dataFolder).database.path)
            } catch {
                auditTrail = nil
                notAudited = error
            }
        }
        // Every consent record is verified against the study's key as it is read.
        let consentKey: ConsentPublicKey?
        do { consentKey = try ConsentKeyStore(keysDirectory: place.keysFolder).load()?.publicKey } catch { try fail("\(error)") }
        let summary: StudyExportSummary
        do {
            let reader = StudyExportReader(study: definition, store: studyStore, careStore: careStore, dataFolder: dataFolder,
                                           consentPublicKey: consentKey)
            let run = StudyExportRun(exporter: format.makeExporter(cells: forSpreadsheets ? .forSpreadsheets : .exact), reader: reader,
                                     auditTrail: auditTrail)
            summary = try await AuditTrail.$source.withValue(StudyPaths.auditSource("export --format \(format.rawValue)\(forSpreadsheets ? " --for-spreadsheets" : "") --out \(out)")) {
                try await run.write(to: StudyExportFolder(url: URL(fileURLWithPath: out, isDirectory: true)))
            }
        } catch let error as StudyExportRun.NotAudited {
            summary = error.summary
            notAudited = error.underlying
        } catch let error as StudyExportError {
            try fail("\(error)")
        } catch {
            try fail("the export stopped, and \(out) is as it was: \(error)")
        }
        for issue in summary.issues {
            FileHandle.standardError.write(Data("warning: \(issue)\n".utf8))
        }
        if let notAudited {
            FileHandle.standardError.write(Data("warning: the export is not in the audit trail: \(notAudited)\n".utf8))
        }
        let counts = summary.counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        print("\(out): \(summary.participantCount) participant\(summary.participantCount == 1 ? "" : "s") exported as \(summary.format)"
              + (counts.isEmpty ? "" : " (\(counts))"))
    }

    /// Prints `studykit export: MESSAGE` on standard error and exits with status 1.
    private func fail(_ message: String) throws -> Never {
        FileHandle.standardError.write(Data("studykit export: \(message)\n".utf8))
        throw ExitCode(1)
    }
}

extension StudyExportFormat: ExpressibleByArgument {}
