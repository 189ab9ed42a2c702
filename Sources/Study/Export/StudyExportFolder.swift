import Foundation

/// Where an export goes, replaced whole and safely: the export is written into a new folder beside it, and only when
/// that is complete does it take the place of the previous export, so a failed run leaves the previous export as it
/// was, and a rerun never leaves files of an older run behind.
///
/// ```swift
/// let summary = try await StudyExportFolder(url: URL(fileURLWithPath: "exports/recover-csv"))
///     .replace(with: CSVLongExporter(), reading: reader)
/// ```
///
/// The folder gets an `export.json` manifest (format, study, time, counts, issues, and `"cells": "for-spreadsheets"`
/// when the CSV cells were written for spreadsheets, ``CSVCellStyle``). A folder that already exists is
/// replaced only when it is empty or has that manifest, so `--out` pointing at the wrong folder never deletes
/// anything else. On Linux and macOS a folder cannot be renamed over another, so the swap is two renames: the old
/// export is moved aside, the new one moved in, and the old one deleted.
public struct StudyExportFolder: Sendable {
    /// The name of the manifest every export has.
    public static let manifestFileName = "export.json"

    /// The export's folder.
    public var url: URL

    /// An export folder at `url`.
    public init(url: URL) {
        self.url = url.standardizedFileURL
    }

    /// Writes `snapshot` with `exporter` and puts it in place of the previous export; returns the exporter's summary.
    /// Throws ``StudyExportError`` when the folder cannot be used, and the exporter's errors as they come (the
    /// previous export is then untouched).
    @discardableResult
    public func replace(with exporter: any StudyExporter, snapshot: StudyExportSnapshot) throws -> StudyExportSummary {
        let staging = try makeStaging()
        do {
            let summary = try exporter.write(snapshot, into: staging)
            try complete(staging, exporter: exporter, study: snapshot.study, takenAt: snapshot.takenAt, summary: summary)
            return summary
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
    }

    /// Writes the study that `reader` reads with `exporter`, one participant at a time (read, written, let go), and
    /// puts it in place of the previous export; returns the exporter's summary. Errors as for
    /// ``replace(with:snapshot:)``, and the stores' as they come.
    @discardableResult
    public func replace(with exporter: any StudyExporter, reading reader: StudyExportReader) async throws -> StudyExportSummary {
        let staging = try makeStaging()
        do {
            let takenAt = reader.now()
            let stream = try exporter.start(study: reader.study, takenAt: takenAt, into: staging)
            for participant in try await reader.participants() {
                try stream.add(try await reader.data(of: participant))
            }
            let summary = try stream.finish()
            try complete(staging, exporter: exporter, study: reader.study, takenAt: takenAt, summary: summary)
            return summary
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
    }

    /// Writes every file of the export (its manifest included) into a new ZIP file at `archive`, each entry named by its
    /// path inside the folder and dated `date`; the files are read from disk one at a time, so memory does not grow
    /// with the export. What the console hands a researcher who downloads an export.
    public func zip(to archive: URL, date: Date) throws {
        let zip = try ZIPExportArchive(creating: archive, date: date)
        let root = url.path.hasSuffix("/") ? url.path : url.path + "/"
        guard let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw StudyExportError.cannotWrite(path: url.path, reason: "the export folder cannot be listed")
        }
        var paths: [URL] = []
        for case let file as URL in files where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            paths.append(file.standardizedFileURL)
        }
        for file in paths.sorted(by: { $0.path < $1.path }) where file.path.hasPrefix(root) {
            try zip.addFile(at: file, as: String(file.path.dropFirst(root.count)))
        }
    }

    /// A new, empty folder beside ``url`` to write the export into, once the folder is known to be replaceable.
    private func makeStaging() throws -> URL {
        try checkReplaceable()
        let fileManager = FileManager.default
        let parent = url.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".\(url.lastPathComponent).new-\(UUID().uuidString.lowercased())", isDirectory: true)
        do {
            try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw StudyExportError.cannotWrite(path: parent.path, reason: Self.reason(error))
        }
        return staging
    }

    /// Writes the manifest into the staged export and moves it in place of the previous one.
    private func complete(_ staging: URL, exporter: any StudyExporter, study: StudyDefinition, takenAt: Date,
                          summary: StudyExportSummary) throws {
        let manifest = Manifest(format: exporter.format.rawValue, study: study.identifier,
                                exportedAt: ISO8601DateFormatter().string(from: takenAt),
                                cells: exporter.cells == .exact ? nil : exporter.cells.rawValue, summary: summary)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(manifest).write(to: staging.appendingPathComponent(Self.manifestFileName))
        try swapIn(staging)
    }

    /// The manifest written into every export.
    private struct Manifest: Encodable {
        let format: String
        let study: String
        let exportedAt: String
        /// How the CSV cells were written, when not exactly (absent: exactly).
        let cells: String?
        let summary: StudyExportSummary
    }

    /// Refuses a path that is a file, or a folder with files but no manifest.
    private func checkReplaceable() throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return }
        guard isFolder.boolValue else { throw StudyExportError.notAFolder(path: url.path) }
        let contents: [String]
        do {
            contents = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw StudyExportError.cannotWrite(path: url.path, reason: Self.reason(error))
        }
        if !contents.isEmpty && !contents.contains(Self.manifestFileName) {
            throw StudyExportError.notAnExport(path: url.path)
        }
    }

    /// Moves the staged export to ``url``, the previous one aside first and then away.
    private func swapIn(_ staging: URL) throws {
        let fileManager = FileManager.default
        let aside = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).old-\(UUID().uuidString.lowercased())", isDirectory: true)
        let hadPrevious = fileManager.fileExists(atPath: url.path)
        do {
            if hadPrevious { try fileManager.moveItem(at: url, to: aside) }
        } catch {
            throw StudyExportError.cannotWrite(path: url.path, reason: Self.reason(error))
        }
        do {
            try fileManager.moveItem(at: staging, to: url)
        } catch {
            if hadPrevious { try? fileManager.moveItem(at: aside, to: url) }
            throw StudyExportError.cannotWrite(path: url.path, reason: Self.reason(error))
        }
        if hadPrevious { try? fileManager.removeItem(at: aside) }
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        return nsError.localizedDescription
    }
}
