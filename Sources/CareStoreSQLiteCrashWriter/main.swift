// A child process for CareStoreSQLiteTests' durability test, not a tool: it writes outcomes to a SQLite care
// storage one transaction at a time and, after each write returns, prints the outcome's UUID on its own line.
// The test kills it with SIGKILL and checks that every UUID printed is in the file.
//
// Usage: CareStoreSQLiteCrashWriter DATABASE_PATH [COUNT] [--process-crash]   (COUNT defaults to no limit; the
// storage's durability is power loss, or process crash with --process-crash)
import CareStore
import CareStoreSQLite
import Foundation

let durability: SQLiteCareStorage.Durability = CommandLine.arguments.contains("--process-crash") ? .processCrash : .powerLoss
let arguments = CommandLine.arguments.filter { $0 != "--process-crash" }
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: CareStoreSQLiteCrashWriter DATABASE_PATH [COUNT] [--process-crash]\n".utf8))
    exit(2)
}
let limit = arguments.count >= 3 ? Int(arguments[2]) ?? .max : .max
do {
    let storage = try SQLiteCareStorage(path: arguments[1], durability: durability)
    let task = UUID()
    var occurrence = 0
    while occurrence < limit {
        let outcome = Outcome(taskUUID: task, occurrenceIndex: occurrence, values: [OutcomeValue(.integer(occurrence), kind: "count")],
                              timeZone: TimeZone(identifier: "Europe/Berlin") ?? .gmt)
        try await storage.write { try await $0.insert(outcome) }
        // Acknowledged: the write has committed. Unbuffered, so the test sees the line at once.
        FileHandle.standardOutput.write(Data("\(outcome.uuid.uuidString)\n".utf8))
        occurrence += 1
    }
} catch {
    FileHandle.standardError.write(Data("CareStoreSQLiteCrashWriter: \(error)\n".utf8))
    exit(1)
}
