import Foundation
import Research
import Synchronization

/// The files of one run as a store's write transaction sees them, for a ``Research/TaskSession`` to use inside it: the
/// names stored when the transaction read them, and what the session writes and removes, kept in memory until the
/// transaction stores them with the run (``StudyStore/updateRun(id:participantID:finisher:_:)``), all or nothing. A
/// post that is refused, or a transaction that fails, leaves the stored files as they were.
///
/// ```swift
/// let (run, names) = try await writer.runWithFileNames(id: runID)!
/// let files = StagedRunFiles(runID: run.id, participantID: run.participantID, stored: names)
/// var session = try TaskSession(task: task, restoring: data, files: files)
/// try session.attachFile(jpeg, title: "knee.jpg", contentType: "image/jpeg", for: "photo")
/// for change in files.changes { … }
/// ```
public final class StagedRunFiles: RunFileStore {
    /// The run whose files these are.
    public let runID: UUID
    /// The run's participant.
    public let participantID: String
    private let state: Mutex<(names: Set<String>, changes: [String: Data?])>

    /// The files of `participantID`'s run `runID`, named `stored` in the database now.
    public init(runID: UUID, participantID: String, stored: [String]) {
        self.runID = runID
        self.participantID = participantID
        state = Mutex((Set(stored), [:]))
    }

    /// What the session changed, by name: the bytes written, or nil for a file removed; in name order.
    public var changes: [(name: String, data: Data?)] {
        state.withLock { $0.changes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }

    /// A run's files are in the study's database; this names the run, for the messages that name where a file is.
    public func location(ofRun run: UUID) -> String? {
        "run-files/\(run.uuidString)"
    }

    /// Stages `data` as the file `name`; returns whether a file of that name was there.
    public func write(_ data: Data, named name: String, ofRun run: UUID) throws -> Bool {
        try check(run)
        return state.withLock { state in
            state.changes[name] = .some(data)
            return !state.names.insert(name).inserted
        }
    }

    /// Stages the removal of the file `name`.
    public func remove(named name: String, ofRun run: UUID) {
        guard run == runID else { return }
        state.withLock { state in
            guard state.names.remove(name) != nil else { return }
            state.changes[name] = .some(nil)
        }
    }

    /// The names the run has with what is staged applied.
    public func fileNames(ofRun run: UUID) -> [String] {
        guard run == runID else { return [] }
        return state.withLock { $0.names.sorted() }
    }

    private func check(_ run: UUID) throws {
        guard run == runID else { throw StagedRunFilesError.otherRun(expected: runID, given: run) }
    }
}

/// Why a staged file was refused.
public enum StagedRunFilesError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A file was written for another run than the one whose files these are.
    case otherRun(expected: UUID, given: UUID)

    public var description: String {
        switch self {
        case .otherRun(let expected, let given): "a file of run \(given.uuidString) was written among the files of run \(expected.uuidString)"
        }
    }
}
