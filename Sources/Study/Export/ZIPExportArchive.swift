import Foundation
import ZIPFoundation

/// A ZIP file an export writes entry by entry (ZIPFoundation), each entry dated with the export's time so that two
/// exports of the same data hold the same entries.
final class ZIPExportArchive {
    /// The file's path, for errors.
    let path: String
    /// Entries written so far.
    private(set) var entryCount = 0
    private let archive: Archive
    private let date: Date

    /// Creates the ZIP file at `url`, which must not exist.
    init(creating url: URL, date: Date) throws {
        path = url.path
        self.date = date
        do {
            archive = try Archive(url: url, accessMode: .create)
        } catch {
            throw StudyExportError.cannotWrite(path: url.path, reason: "\(error)")
        }
    }

    /// A ZIP built in memory (for one participant's copy, served as it is made); ``data`` is the archive.
    init(inMemoryAt date: Date) throws {
        path = "(in memory)"
        self.date = date
        archive = try Archive(data: Data(), accessMode: .create)
    }

    /// The archive's bytes, for one built in memory; nil for one written to a file.
    var data: Data? { archive.data }

    /// Adds `data` as the file `entryPath`, deflated unless `compress` is false (a PDF is compressed already).
    func add(_ data: Data, as entryPath: String, compress: Bool = true) throws {
        do {
            try archive.addEntry(with: entryPath, type: .file, uncompressedSize: Int64(data.count), modificationDate: date,
                                 compressionMethod: compress ? .deflate : .none) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        } catch {
            throw StudyExportError.cannotWrite(path: "\(path): \(entryPath)", reason: "\(error)")
        }
        entryCount += 1
    }

    /// Adds a consent record of `data` as `name.json` (the sealed record as stored) and, when it was printed,
    /// `name.pdf`; returns whether the PDF was there.
    @discardableResult
    func addConsentRecord(_ stored: StoredConsentRecord, of data: ParticipantExportData, as name: String) throws -> Bool {
        try add(stored.sealedJSON, as: name + ".json")
        guard let pdf = data.consentPDFs[stored.id] else { return false }
        try add(pdf, as: name + ".pdf", compress: false)
        return true
    }

    /// Adds the file at `url` as `entryPath`, read in chunks.
    func addFile(at url: URL, as entryPath: String) throws {
        do {
            let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64 ?? 0
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            try archive.addEntry(with: entryPath, type: .file, uncompressedSize: size, modificationDate: date, compressionMethod: .deflate) { position, chunk in
                try handle.seek(toOffset: UInt64(position))
                return try handle.read(upToCount: chunk) ?? Data()
            }
        } catch {
            throw StudyExportError.cannotWrite(path: "\(path): \(entryPath)", reason: "\(error)")
        }
        entryCount += 1
    }
}
