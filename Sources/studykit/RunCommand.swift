import ArgumentParser
import Foundation
import StudyKitEnvironment
import Interop
import Research

/// `studykit run FILE`: takes a task in the terminal as a participant would, and writes its result.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Take a task in the terminal and write its result as JSON.",
        discussion: """
        Type an answer and press Enter. Commands: back, skip (optional steps), save (write restoration \
        data next to the output and stop), quit (discard), help.
        """
    )

    @Argument(help: "The task JSON file.", completion: .file(extensions: ["json"]))
    var file: String

    @Option(name: .long, help: "Where to write the task result.")
    var output: String = "result.json"

    @Option(name: .long, help: "Restoration data written by an earlier 'save' to resume from.")
    var restore: String?

    @Option(name: .long, help: "Locale for reading numbers and dates, e.g. de_DE (default: the system's).")
    var locale: String?

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ValidationError("cannot read \(file)")
        }
        let name = (file as NSString).lastPathComponent
        let task: ResearchTask
        var calculator: FHIRPathTaskCalculator?
        if FHIRQuestionnaireImporter.isQuestionnaire(data) {
            // A FHIR Questionnaire runs as it is, its scores computed by FHIRPath; it must import whole.
            do {
                let imported = try FHIRQuestionnaireImporter().importQuestionnaire(data)
                task = try imported.requireComplete()
                // Extensions left aside are listed, never dropped silently.
                for note in imported.notes { printError("\(name): note: \(note)") }
                calculator = try FHIRPathTaskCalculator(questionnaires: [data])
            } catch {
                for issue in error.issues { printError("\(name): \(issue)") }
                throw ExitCode(1)
            }
        } else {
            do {
                task = try TaskValidator.load(data)
            } catch {
                for problem in error.problems { printError("\(name): \(problem)") }
                throw ExitCode(1)
            }
        }
        var environment = StudyKitEnvironment.live
        if let locale { environment.locale = Locale(identifier: locale) }

        let outputURL = URL(fileURLWithPath: output)
        // The run's files go beside the result, in TASK-files/RUN-UUID/.
        let files = FolderRunFileStore(folder: outputURL.deletingLastPathComponent().appendingPathComponent("\(task.identifier)-files", isDirectory: true))
        var session: TaskSession
        do {
            if let restore {
                guard let saved = FileManager.default.contents(atPath: restore) else { throw ValidationError("cannot read \(restore)") }
                let restoration: TaskRestorationData
                do {
                    restoration = try ResearchJSON.decoder().decode(TaskRestorationData.self, from: saved)
                } catch {
                    throw ValidationError("\(restore) is not restoration data: \(error)")
                }
                session = try TaskSession(task: task, restoring: restoration, environment: environment, calculator: calculator, files: files)
            } else {
                session = try TaskSession(task: task, environment: environment, calculator: calculator, files: files,
                                          device: "studykit run (\(ProcessInfo.processInfo.operatingSystemVersionString))")
            }
        } catch let error as TaskSessionError {
            printError("cannot start the task: \(error)")
            throw ExitCode(1)
        }

        var runner = TerminalRunner(session: session, input: StandardInput(), output: StandardOutput())
        let outcome = runner.run()
        session = runner.session
        switch outcome {
        case .finished(.completed), .finished(.earlyTermination):
            try write(session.result, to: outputURL)
            session.removeUnreferencedFiles()
            runner.output.line("Result written to \(output)")
        case .finished(.saved):
            guard let restoration = runner.savedData else { throw ExitCode(1) }
            let restorePath = Self.restorationPath(for: output)
            try write(restoration, to: URL(fileURLWithPath: restorePath))
            // Files replaced or skipped in a resumed run are let go only once the saved state no longer needs them.
            session.removeUnreferencedFiles()
            runner.output.line("Saved. Resume with: studykit run \(file) --output \(output) --restore \(restorePath)")
        case .finished(.discarded), .finished(.failed):
            runner.output.line("Discarded; nothing was written.")
        case .inputEnded:
            printError("input ended before the task was finished; nothing was written (type 'save' to keep your answers)")
            throw ExitCode(1)
        }
    }

    /// `r.json` → `r.restore.json`, next to the result.
    static func restorationPath(for output: String) -> String {
        let url = URL(fileURLWithPath: output)
        let base = url.deletingPathExtension().lastPathComponent
        let folder = (output as NSString).deletingLastPathComponent
        let name = "\(base).restore.json"
        return folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
    }

    private func write<T: Encodable>(_ value: T, to url: URL) throws {
        do {
            try ResearchJSON.encoder().encode(value).write(to: url, options: .atomic)
        } catch {
            printError("cannot write \(url.path): \(error.localizedDescription)")
            throw ExitCode(1)
        }
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data("studykit: \(message)\n".utf8))
}
