// A child process for StudySQLiteTests' durability test, not a tool: it enrols one participant in a SQLite study store,
// then saves task runs one at a time (each new run first saved in progress, then completed) and, after each save
// returns, prints `RUN-UUID STATE` on its own line. The first line is `participant ID`. The test kills it with SIGKILL
// and checks that every save printed is in the file, whole.
//
// Usage: StudySQLiteCrashWriter DATABASE_PATH [COUNT] [--process-crash]   (COUNT defaults to no limit; the store's
// durability is power loss, or process crash with --process-crash)
//        StudySQLiteCrashWriter DATABASE_PATH --finishing STUDY_FOLDER [--crash-in-commit N] [--process-crash]
//        (participant actions that write both stores, committed as one each: see FinishingWriter)
import Foundation
import Research
import Study
import StudySQLite

let durability: SQLiteStudyStore.Durability = CommandLine.arguments.contains("--process-crash") ? .processCrash : .powerLoss
let arguments = CommandLine.arguments.filter { $0 != "--process-crash" }
func say(_ line: String) { FileHandle.standardOutput.write(Data("\(line)\n".utf8)) } // unbuffered: the test sees it at once
if arguments.count >= 4, arguments[2] == "--finishing" {
    let crash = arguments.firstIndex(of: "--crash-in-commit").flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil }
    do {
        try await FinishingWriter.run(path: arguments[1], studyFolder: URL(fileURLWithPath: arguments[3], isDirectory: true),
                                      crashInCommit: crash, durability: durability)
    } catch {
        FileHandle.standardError.write(Data("StudySQLiteCrashWriter: \(error)\n".utf8))
        exit(1)
    }
}
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: StudySQLiteCrashWriter DATABASE_PATH [COUNT] [--process-crash]\n".utf8))
    exit(2)
}
let limit = arguments.count >= 3 ? Int(arguments[2]) ?? .max : .max
do {
    let store = try SQLiteStudyStore(path: arguments[1], environment: .live, durability: durability)
    let participant = try await store.enrol(invitationCode: nil, timeZone: TimeZone(identifier: "Europe/Berlin") ?? .gmt, language: "en")
    say("participant \(participant.id)")
    let task = try TaskValidator.load(Data(#"""
        {"identifier": "pain", "steps": [
          {"type": "question", "identifier": "level", "answerFormat": {"type": "scale", "minimum": 0, "maximum": 10}},
          {"type": "question", "identifier": "notes", "answerFormat": {"type": "text", "multipleLines": true}}]}
        """#.utf8))
    var count = 0
    while count < limit {
        var session = try TaskSession(task: task)
        try session.setAnswer(.number(Decimal(count % 11)))
        try session.goForward()
        try session.setAnswer(.text(String(repeating: "a long answer that makes each row span pages ", count: 40)))
        let run = TaskRun(id: session.taskRunUUID, participantID: participant.id, taskID: "pain", occurrence: count, state: .inProgress,
                          restorationData: session.restorationData)
        try await store.saveRun(run)
        say("\(run.id.uuidString) inProgress")
        try session.goForward()
        var completed = run
        completed.state = .completed
        completed.restorationData = nil
        completed.result = session.result
        try await store.saveRun(completed)
        say("\(run.id.uuidString) completed")
        count += 1
    }
} catch {
    FileHandle.standardError.write(Data("StudySQLiteCrashWriter: \(error)\n".utf8))
    exit(1)
}
