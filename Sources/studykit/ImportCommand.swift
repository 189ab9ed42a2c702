import ArgumentParser
import Foundation
import Interop
import Research

/// `studykit import FORMAT …`: turns documents of other systems into StudyKit files.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn documents of other systems into StudyKit task files.",
        subcommands: [ImportFHIRCommand.self]
    )
}

/// `studykit import fhir QUESTIONNAIRE.json --output TASK.json`: a FHIR R4 Questionnaire as a task file.
struct ImportFHIRCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fhir",
        abstract: "Turn a FHIR R4 Questionnaire (JSON) into a StudyKit task file.",
        discussion: """
            Every construct the task cannot carry is printed as FILE: PATH: linkId 'ID': REASON, and nothing is written \
            (exit 1) unless --allow-partial is given, in which case the task is written without them and the list \
            is still printed. Extensions that do not change what is asked or how answers are checked are printed as \
            FILE: PATH: linkId 'ID': note: REASON and do not stop the import. A study folder can also list the \
            Questionnaire itself as a survey, which keeps its calculated scores working: they are evaluated against \
            the Questionnaire.
            """
    )

    @Argument(help: "The Questionnaire JSON file.", completion: .file())
    var questionnaire: String

    @Option(name: .shortAndLong, help: "Where to write the task JSON.", completion: .file())
    var output: String

    @Flag(help: "Write the task even when some constructs could not be carried over (they are still listed).")
    var allowPartial = false

    func run() throws {
        let name = (questionnaire as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: questionnaire) else {
            printError("\(name): cannot read \(questionnaire)")
            throw ExitCode(1)
        }
        let imported: FHIRQuestionnaireImport
        do {
            imported = try FHIRQuestionnaireImporter().importQuestionnaire(data)
        } catch {
            for issue in error.issues { printError(line(issue, file: name)) }
            throw ExitCode(1)
        }
        for issue in imported.issues { printError(line(issue, file: name)) }
        let refused = imported.refusals.count
        if refused > 0, !allowPartial {
            printError("\(name): not imported: \(refused) construct\(refused == 1 ? "" : "s") above cannot be carried over (--allow-partial writes the rest)")
            throw ExitCode(1)
        }
        let task = imported.task
        do {
            let encoded = try ResearchJSON.encoder().encode(task)
            try encoded.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            printError("\(output): cannot write the task: \(error.localizedDescription)")
            throw ExitCode(1)
        }
        let calculated = task.steps.flatMap(\.calculatedItems).compactMap(\.identifier)
        let notes = imported.notes.count
        let leftOut = refused == 0 ? "" : ", \(refused) construct\(refused == 1 ? "" : "s") left out"
        let noted = notes == 0 ? "" : ", \(notes) note\(notes == 1 ? "" : "s")"
        print("\(name): imported as \(output) (\(task.identifier), \(task.steps.count) steps\(leftOut)\(noted))")
        if !calculated.isEmpty {
            print("note: \(calculated.joined(separator: ", ")) \(calculated.count == 1 ? "is" : "are") calculated from the Questionnaire's FHIRPath; list \(name) itself as the survey in a study folder so the values can be calculated")
        }
    }

    private func line(_ issue: FHIRImportIssue, file: String) -> String {
        let where_ = issue.path.isEmpty ? "" : " \(issue.path):"
        let linkId = issue.linkId.map { " linkId '\($0)':" } ?? ""
        return "\(file):\(where_)\(linkId)\(issue.refusesImport ? "" : " note:") \(issue.message)"
    }

    private func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
