import Foundation
import GRDB
import Research
import Study
import StudySQLite
import Testing

/// Every task run the store acknowledges survives a process killed with SIGKILL, whole, and the file stays consistent.
@Suite("Task runs survive a killed process")
struct DurabilityTests {
    /// The child process: `StudySQLiteCrashWriter`, built next to the test bundle.
    static var crashWriter: URL {
        let name = "StudySQLiteCrashWriter"
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent(name),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/debug/\(name)"),
        ].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }

    /// Starts the writer with `arguments`, kills it with SIGKILL once it has printed `lines` lines (or when it ends by
    /// itself first: it may kill itself), and returns every complete line it printed, in order: those read before the
    /// kill and those still in the pipe. A line cut by the kill is not among them.
    static func runAndKill(_ arguments: [String], afterLines lines: Int) throws -> [String] {
        let process = Process()
        process.executableURL = crashWriter
        process.arguments = arguments
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        var buffer = Data()
        while buffer.reduce(0, { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }) < lines {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break } // the child ended by itself
            buffer.append(chunk)
        }
        kill(process.processIdentifier, SIGKILL)
        buffer.append(stdout.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL, "the writer ended by itself: \(errors)")
        var text = String(decoding: buffer, as: UTF8.self)
        if let lastNewline = text.lastIndex(of: "\n") { text = String(text[...lastNewline]) } else { text = "" }
        return text.split(separator: "\n").map(String.init)
    }

    /// Starts the writer on `path`, kills it once it has acknowledged `killAfter` saves, and returns its participant and
    /// every acknowledged save (run and state), in order.
    static func writeAndKill(path: String, killAfter: Int, durability: SQLiteStudyStore.Durability) throws
        -> (participant: String, saves: [(UUID, TaskRunState)]) {
        var lineList = try runAndKill(durability == .processCrash ? [path, "--process-crash"] : [path], afterLines: killAfter + 1)
        let first = try #require(lineList.first)
        #expect(first.hasPrefix("participant "))
        lineList.removeFirst()
        let saves = try lineList.map { line -> (UUID, TaskRunState) in
            let parts = line.split(separator: " ")
            return (try #require(UUID(uuidString: String(parts[0]))), try #require(TaskRunState(rawValue: String(parts[1]))))
        }
        return (String(first.dropFirst("participant ".count)), saves)
    }

    /// Either durability keeps every acknowledged save across a killed process: with `.processCrash` the commit is in
    /// the operating system's hands, which a killed process does not take away.
    @Test(arguments: [SQLiteStudyStore.Durability.powerLoss, .processCrash])
    func acknowledgedRunsSurviveSIGKILL(durability: SQLiteStudyStore.Durability) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("study-durability-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("study.sqlite").path
        var rounds: [(participant: String, saves: [(UUID, TaskRunState)])] = []
        // Several rounds on one file: each new writer opens a file that a killed one left, WAL and all.
        for killAfter in [30, 120, 250] {
            let round = try Self.writeAndKill(path: path, killAfter: killAfter, durability: durability)
            #expect(round.saves.count >= killAfter)
            rounds.append(round)
        }
        let store = try SQLiteStudyStore(path: path, environment: .live)
        for round in rounds {
            // The latest acknowledged state of each run is what the store holds, restoration data or result intact.
            var latest: [UUID: TaskRunState] = [:]
            for (run, state) in round.saves { latest[run] = state }
            let stored = try await store.runs(participantID: round.participant, taskID: "pain")
            let byID = Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0) })
            for (run, state) in latest {
                let found = try #require(byID[run], "acknowledged run \(run) is missing")
                if state == .completed {
                    #expect(found.state == .completed && found.result?.taskRunUUID == run)
                } else {
                    // Its completion may have committed without being acknowledged; either way the run is whole.
                    #expect(found.state == .completed ? found.result?.taskRunUUID == run : found.restorationData?.taskRunUUID == run)
                }
            }
            // At most one run more than acknowledged: the one in flight at the kill.
            #expect(stored.count >= latest.count && stored.count <= latest.count + 1)
        }
        let integrity = try await store.database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == ["ok"])
    }

    /// The durability is the writer connection's `synchronous` setting: FULL (2) syncs each commit, NORMAL (1) the WAL
    /// at checkpoints. (The default, power loss, is checked with the store's other settings in SQLiteStudyStoreTests.)
    @Test func theDurabilitySetsTheWritersSynchronousMode() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("study-synchronous-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (durability, expected) in [(SQLiteStudyStore.Durability.powerLoss, 2), (.processCrash, 1)] {
            let store = try SQLiteStudyStore(path: folder.appendingPathComponent("\(expected).sqlite").path, environment: .live,
                                             durability: durability)
            let mode = try await store.database.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
            #expect(mode == expected)
            let journal = try await store.database.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
            #expect(journal == "wal")
        }
    }
}
