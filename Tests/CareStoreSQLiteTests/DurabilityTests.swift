import CareStore
import Foundation
import GRDB
import Testing
@testable import CareStoreSQLite

/// Every write the storage acknowledges survives a process killed with SIGKILL, and the file stays consistent.
@Suite("Durability against a killed process")
struct DurabilityTests {
    /// The child process: `CareStoreSQLiteCrashWriter`, built next to the test bundle.
    static var crashWriter: URL {
        let name = "CareStoreSQLiteCrashWriter"
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent(name),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/debug/\(name)"),
        ].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }

    /// Starts the writer on `path`, kills it once it has acknowledged `killAfter` writes, and returns every UUID it
    /// acknowledged (those read before the kill and those still in the pipe).
    static func writeAndKill(path: String, killAfter: Int, durability: SQLiteCareStorage.Durability) throws -> [UUID] {
        let process = Process()
        process.executableURL = crashWriter
        process.arguments = durability == .processCrash ? [path, "--process-crash"] : [path]
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        var buffer = Data()
        var lines = 0
        while lines < killAfter {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break } // the child ended by itself
            buffer.append(chunk)
            lines = buffer.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        }
        kill(process.processIdentifier, SIGKILL)
        buffer.append(stdout.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL, "the writer ended by itself: \(errors)")
        // Only complete lines are acknowledged writes; a line cut by the kill is not.
        var text = String(decoding: buffer, as: UTF8.self)
        if let lastNewline = text.lastIndex(of: "\n") { text = String(text[...lastNewline]) } else { text = "" }
        return try text.split(separator: "\n").map { line in try #require(UUID(uuidString: String(line)), "line: \(line)") }
    }

    /// Either durability keeps every acknowledged write across a killed process: with `.processCrash` the commit is in
    /// the operating system's hands, which a killed process does not take away.
    @Test(arguments: [SQLiteCareStorage.Durability.powerLoss, .processCrash])
    func acknowledgedWritesSurviveSIGKILL(durability: SQLiteCareStorage.Durability) async throws {
        try await withTemporaryDatabase { database in
            var acknowledged: [UUID] = []
            // Several rounds on one file: each new writer opens a file that a killed one left, WAL and all.
            for killAfter in [40, 150, 333] {
                let round = try Self.writeAndKill(path: database.path, killAfter: killAfter, durability: durability)
                #expect(round.count >= killAfter)
                acknowledged += round
            }
            let storage = try SQLiteCareStorage(path: database.path)
            let expected = Set(acknowledged)
            let found = try await storage.read { try await $0.outcomes(uuids: expected) }
            #expect(found.count == acknowledged.count)
            #expect(Set(found.map(\.uuid)) == expected)
            let (integrity, total) = try await storage.database.read { db in
                (try String.fetchAll(db, sql: "PRAGMA integrity_check"), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outcome") ?? 0)
            }
            #expect(integrity == ["ok"])
            // A write in flight at the kill may have committed without being acknowledged: at most one per round.
            #expect(total >= acknowledged.count && total <= acknowledged.count + 3)
        }
    }
}
