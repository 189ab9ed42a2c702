import Foundation
import Research
import Study

/// An export of the whole study as one ZIP file under the data folder, for the console and the API to send; its
/// working folder is deleted by ``remove()`` once it is sent.
struct StudyExportArchive: Sendable {
    /// The ZIP file.
    let file: URL
    /// Its size in bytes.
    let size: Int
    /// The folder holding the export and the ZIP.
    let folder: URL
    /// The name to download it as: `STUDY-FORMAT-YYYY-MM-DD.zip`.
    let fileName: String

    /// Deletes the export's working folder.
    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// The file's bytes, read a chunk at a time as they are asked for (the whole file is never in memory); the folder
    /// is deleted after the last chunk, or when reading fails.
    func chunks(size chunkSize: Int = 64 * 1024) throws -> AsyncThrowingStream<Data, any Error> {
        let reader = ChunkReader(handle: try FileHandle(forReadingFrom: file), archive: self)
        return AsyncThrowingStream(unfolding: { try reader.next(chunkSize) })
    }
}

/// Reads a file one chunk per call, closing it and removing the export at the end.
private final class ChunkReader: @unchecked Sendable {
    // Only the stream's consumer calls `next`, one call at a time.
    private let handle: FileHandle
    private let archive: StudyExportArchive
    private var finished = false

    init(handle: FileHandle, archive: StudyExportArchive) {
        self.handle = handle
        self.archive = archive
    }

    /// A download stopped half-way (the client went away) leaves nothing behind either.
    deinit { if !finished { finish() } }

    func next(_ size: Int) throws -> Data? {
        do {
            if let chunk = try handle.read(upToCount: size), !chunk.isEmpty { return chunk }
        } catch {
            finish()
            throw error
        }
        finish()
        return nil
    }

    private func finish() {
        finished = true
        try? handle.close()
        archive.remove()
    }
}

extension StudyService {
    /// The whole study in `format`, its CSV cells written in the style `cells`, written one participant at a time into
    /// a folder under the data folder (`console-exports/UUID/`), zipped there, and appended to the audit trail as an
    /// export by the current source (``StudyExportRun``). A download for spreadsheets is named `STUDY-FORMAT-for-spreadsheets-DAY.zip`.
    func exportArchive(format: StudyExportFormat, cells: CSVCellStyle = .exact) async throws -> StudyExportArchive {
        let now = environment.now()
        let work = configuration.dataFolder.appendingPathComponent("console-exports", isDirectory: true)
            .appendingPathComponent(environment.makeUUID().uuidString.lowercased(), isDirectory: true)
        do {
            let reader = StudyExportReader(study: study, store: store, careStore: careStore, dataFolder: configuration.dataFolder,
                                           consentPublicKey: consentKey.publicKey, now: environment.now)
            let exporter = format.makeExporter(cells: cells)
            let (archive, _) = try await StudyExportRun(exporter: exporter, reader: reader, auditTrail: data).writeArchive(in: work, date: now)
            let size = (try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int) ?? 0
            let day = ISO8601.string(from: now, in: .gmt).prefix(10)
            let style = exporter.cells == .exact ? "" : "-" + exporter.cells.rawValue
            return StudyExportArchive(file: archive, size: size, folder: work, fileName: "\(study.identifier)-\(format.rawValue)\(style)-\(day).zip")
        } catch {
            try? FileManager.default.removeItem(at: work)
            throw error
        }
    }
}
