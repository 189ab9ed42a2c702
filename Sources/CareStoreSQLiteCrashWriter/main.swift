// A child process for CareStoreSQLiteTests' durability test, not a tool: it writes outcomes to a SQLite care
// storage one transaction at a time and, after each write returns, prints the outcome's UUID on its own line.
// The test kills it with SIGKILL and checks that every UUID printed is in the file.
//
// Usage: CareStoreSQLiteCrashWriter DATABASE_PATH [COUNT]   (COUNT defaults to no limit)
import CareStore
import CareStoreSQLite
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: CareStoreSQLiteCrashWriter DATABASE_PATH [COUNT]\n".utf8))
    exit(2)
}
let limit = arguments.count >= 3 ? Int(arguments[2]) ?? .max : .max
do {
    let storage = try SQLiteCareStorage(path: arguments[1])
    let task = UUID()
    var occurrence = 0
    while occurrence < limit {
        let outcome = Outcome(taskUUID: task, occurrenceIndex: occurrence, values: [OutcomeValue(.integer(occurrence), kind: "count")],
                              timeZone: TimeZone(identifier: "Europe/Berlin") ?? .gmt)
        try await storage.write { try $0.insert(outcome) }
        // Acknowledged: the write has committed. Unbuffered, so the test sees the line at once.
        FileHandle.standardOutput.write(Data("\(outcome.uuid.uuidString)\n".utf8))
        occurrence += 1
    }
} catch {
    FileHandle.standardError.write(Data("CareStoreSQLiteCrashWriter: \(error)\n".utf8))
    exit(1)
}
