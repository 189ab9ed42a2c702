import ArgumentParser
import Foundation
import Research

/// `studykit validate FILE…`: checks task files and prints one line per problem with its JSON path.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check task JSON files; print one line per problem (file: json.path: message).",
        discussion: "Exits 0 when every file is valid, 1 otherwise."
    )

    @Argument(help: "Task JSON files to check.", completion: .file(extensions: ["json"]))
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            let name = (file as NSString).lastPathComponent
            guard let data = FileManager.default.contents(atPath: file) else {
                print("\(name): cannot read \(file)")
                failed = true
                continue
            }
            do {
                let task = try TaskValidator.load(data)
                print("\(name): valid (\(task.identifier), \(task.steps.count) steps)")
            } catch {
                failed = true
                for problem in error.problems {
                    print(problem.path.isEmpty ? "\(name): \(problem.message)" : "\(name): \(problem.path): \(problem.message)")
                }
            }
        }
        if failed { throw ExitCode(1) }
    }
}
