import Foundation
import GRDB
import Study

extension SQLiteStudyDatabase {
    /// Moves the files attached in runs from a data folder written before they lived in the database
    /// (`root/PARTICIPANT/RUN/NAME`, ``StudyDataFolder/legacyRunFiles``) into it, in one transaction (each file in the
    /// audit trail), then removes them from the folder: a server starting on such a folder calls it, and a second call
    /// finds nothing. A file whose run is not stored (its run was deleted, with a participant's data) is removed too. A
    /// run the file names that belongs to another participant than its folder says, or a name that is not a plain file
    /// name, is refused, naming the file, and nothing is moved.
    ///
    /// Returns how many files moved into the database.
    @discardableResult
    public func moveRunFilesIn(from root: URL) throws -> Int {
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: root.path) else { return 0 }
        // One move at a time in this data folder, whichever process runs it.
        let lock = try FolderLock(root.deletingLastPathComponent())
        defer { lock.release() }
        guard fileManager.fileExists(atPath: root.path) else { return 0 } // moved meanwhile by the other process
        var found: [(file: URL, runID: UUID, participantID: String, name: String)] = []
        for participant in try Self.entries(of: root) {
            for run in try Self.entries(of: participant) {
                guard let runID = UUID(uuidString: run.lastPathComponent) else {
                    throw SQLiteRunFilesMoveError.unexpected(path: run.path, reason: "a run's folder is named by the run's UUID")
                }
                for file in try Self.entries(of: run) {
                    let name = file.lastPathComponent
                    guard !name.hasPrefix("."), !name.contains("/") else {
                        throw SQLiteRunFilesMoveError.unexpected(path: file.path, reason: "not a file a run wrote")
                    }
                    found.append((file, runID, participant.lastPathComponent, name))
                }
            }
        }
        var moved = 0
        try database.write { db in
            for entry in found {
                let owner = try String.fetchOne(db, sql: "SELECT participantID FROM taskRun WHERE id = ?", arguments: [entry.runID])
                guard let owner else { continue }
                guard owner == entry.participantID else {
                    throw SQLiteRunFilesMoveError.unexpected(path: entry.file.path, reason: "run \(entry.runID.uuidString) is another participant's")
                }
                let data: Data
                do {
                    data = try Data(contentsOf: entry.file)
                } catch {
                    throw SQLiteRunFilesMoveError.unexpected(path: entry.file.path, reason: "it cannot be read: \(error.localizedDescription)")
                }
                try db.execute(sql: """
                    INSERT INTO runFile (runID, participantID, name, data) VALUES (?, ?, ?, ?)
                    ON CONFLICT (runID, name) DO UPDATE SET data = excluded.data
                    """, arguments: [entry.runID, entry.participantID, entry.name, data])
                moved += 1
            }
        }
        // Committed: the folder goes (moved files are in the database; the others' runs are gone).
        try fileManager.removeItem(at: root)
        return moved
    }

    /// The entries of `folder`, hidden ones included, in name order; a plain file where a folder is expected is refused.
    private static func entries(of folder: URL) throws -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw SQLiteRunFilesMoveError.unexpected(path: folder.path, reason: "a folder was expected")
        }
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}

/// Why the run files of a data folder could not be moved into its database: nothing was moved.
public enum SQLiteRunFilesMoveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Something under `run-files/` is not what StudyKit wrote there.
    case unexpected(path: String, reason: String)

    public var description: String {
        switch self {
        case .unexpected(let path, let reason):
            "the run files of the data folder cannot be moved into its database: \(path): \(reason) (nothing was moved)"
        }
    }
}
