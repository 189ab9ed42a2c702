import Foundation

/// Where the files a run produces are kept (an attached photo, a recording): the caller's choice, injected into a
/// ``TaskSession``, which names each file and decides when one is no longer needed, and never touches storage itself.
///
/// ```swift
/// let files = FolderRunFileStore(folder: outputFolder.appendingPathComponent("pain-files"))
/// var session = try TaskSession(task: task, files: files)
/// try session.attachFile(jpeg, title: "knee.jpg", contentType: "image/jpeg", for: "photo")
/// ```
///
/// The study server keeps them in its database, beside the run, staged within the transaction that saves the run
/// (Study's `StagedRunFiles`); `studykit run` keeps them in a folder (``FolderRunFileStore``); an app might keep them in
/// its container, a test in memory.
public protocol RunFileStore: Sendable {
    /// Where run `run`'s files are, as the run's result records it (``TaskResult/outputDirectory``); nil to record none.
    func location(ofRun run: UUID) -> String?
    /// Stores `data` as the file `name` of run `run`, whole or not at all; returns whether a file of that name was there.
    func write(_ data: Data, named name: String, ofRun run: UUID) throws -> Bool
    /// Removes the file `name` of run `run`; nothing when it is not there.
    func remove(named name: String, ofRun run: UUID)
    /// The names of run `run`'s files.
    func fileNames(ofRun run: UUID) -> [String]
}

/// Run files in a folder: each run's in `folder/<RUN-UUID>/`, written atomically and owner-only (0600, their folders
/// 0700) whatever the process's umask, since an answer's file is a participant's data.
public struct FolderRunFileStore: RunFileStore {
    /// The folder holding one folder per run.
    public let folder: URL

    /// A store in `folder`, created when the first file is written.
    public init(folder: URL) {
        self.folder = folder
    }

    private func runFolder(_ run: UUID) -> URL {
        folder.appendingPathComponent(run.uuidString, isDirectory: true)
    }

    /// The run's folder's path.
    public func location(ofRun run: UUID) -> String? {
        runFolder(run).path
    }

    /// Writes the file atomically, owner-only.
    public func write(_ data: Data, named name: String, ofRun run: UUID) throws -> Bool {
        let runFolder = runFolder(run)
        let file = runFolder.appendingPathComponent(name)
        let existed = FileManager.default.fileExists(atPath: file.path)
        try FileManager.default.createDirectory(at: runFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try data.write(to: file, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return existed
    }

    /// Deletes the file.
    public func remove(named name: String, ofRun run: UUID) {
        try? FileManager.default.removeItem(at: runFolder(run).appendingPathComponent(name))
    }

    /// Lists the run's folder; empty when it does not exist.
    public func fileNames(ofRun run: UUID) -> [String] {
        let runFolder = runFolder(run)
        // Most runs never write a file: a look at the folder costs less than the error of listing a missing one.
        guard FileManager.default.fileExists(atPath: runFolder.path) else { return [] }
        return (try? FileManager.default.contentsOfDirectory(atPath: runFolder.path)) ?? []
    }
}
