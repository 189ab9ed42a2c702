import ArgumentParser
import Foundation
import Research
import Study
import StudyFHIR

/// `studykit validate PATH…`: checks task files and study folders and prints one line per problem with its path.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check task JSON files and study folders; print one line per problem (file: path: message).",
        discussion: """
            A directory is checked as a study folder (study.yaml or study.json and every file it names); its problems name \
            files relative to the folder. Exits 0 when everything is valid, 1 otherwise.
            """
    )

    @Argument(help: "Task JSON files and study folders to check.", completion: .file())
    var paths: [String]

    func run() throws {
        var failed = false
        for path in paths {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                failed = !validateStudy(path) || failed
            } else {
                failed = !validateTask(path) || failed
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// Checks a study folder; prints its problems, or its surveys' notes (`FILE: PATH: note: …`) and
    /// `FOLDER: valid (ID: N tasks, M languages)`.
    private func validateStudy(_ folder: String) -> Bool {
        do {
            let study = try StudyLoader.load(folder: URL(fileURLWithPath: folder, isDirectory: true), surveyFormats: [FHIRSurveyFormat()])
            let tasks = study.tasks.count, languages = study.languages.count
            for note in study.notes { print([note.file, note.path, "note", note.message].filter { !$0.isEmpty }.joined(separator: ": ")) }
            print("\(folder): valid (\(study.identifier): \(tasks) task\(tasks == 1 ? "" : "s"), \(languages) language\(languages == 1 ? "" : "s"))")
            return true
        } catch {
            for problem in error.problems { print(problem.description) }
            return false
        }
    }

    /// Checks a task file; prints its problems or `NAME: valid (ID, N steps)`.
    private func validateTask(_ file: String) -> Bool {
        let name = (file as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: file) else {
            print("\(name): cannot read \(file)")
            return false
        }
        do {
            let task = try TaskValidator.load(data)
            print("\(name): valid (\(task.identifier), \(task.steps.count) steps)")
            return true
        } catch {
            for problem in error.problems {
                print(problem.path.isEmpty ? "\(name): \(problem.message)" : "\(name): \(problem.path): \(problem.message)")
            }
            return false
        }
    }
}
