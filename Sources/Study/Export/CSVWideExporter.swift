import Foundation
import Research

/// `csv-wide`: one CSV file per task with questions (`wide/TASK.csv`: the onboarding and each survey), one row per
/// task run and one column per question, and `data-dictionary.csv` describing every column in REDCap's data
/// dictionary layout, for statisticians who analyse one row per run and teams who move the data into REDCap.
///
/// A row starts with ``runColumns`` (the run's participant, event, UUID, state, start and end), then the question
/// columns (``CSVWideForm``): a yes/no question is 1 or 0; a single choice its value; a multiple choice one
/// `VARIABLE___CODE` column per option, 1 or 0, as REDCap writes checkboxes; a multiple-value picker one column per
/// picker; an "other" option's typed text and a place's coordinates a column beside their answer. Variable names are
/// REDCap's (lowercase letters, digits and underscores, starting with a letter, unique in the study); the dictionary's
/// Field Annotation names the StudyKit step and item each comes from, and a calculated item's expression.
///
/// A "don't know" answer is an empty cell here (csv-long has it), and answers of steps the study no longer has are
/// left out of this format: the export's issues count both. Active tasks' measures are in csv-long.
public struct CSVWideExporter: StudyExporter {
    /// The folder of the task files.
    public static let folderName = "wide"
    /// The data dictionary's file.
    public static let dictionaryFileName = "data-dictionary.csv"
    /// The columns every task file starts with.
    public static let runColumns = ["participant", "occurrence", "run", "run_state", "started_at", "ended_at"]
    /// REDCap's data dictionary columns, in its order.
    public static let dictionaryColumns = [
        "Variable / Field Name", "Form Name", "Section Header", "Field Type", "Field Label", "Choices, Calculations, OR Slider Labels",
        "Field Note", "Text Validation Type OR Show Slider Number", "Text Validation Min", "Text Validation Max", "Identifier?",
        "Branching Logic (Show field only if...)", "Required Field?", "Custom Alignment", "Question Number (surveys only)",
        "Matrix Group Name", "Matrix Ranking?", "Field Annotation",
    ]

    /// How the CSV cells are written: exactly (the default), or ``CSVCellStyle/forSpreadsheets``.
    public var cells: CSVCellStyle

    /// Creates the exporter; `cells` says how its CSV cells are written.
    public init(cells: CSVCellStyle = .exact) {
        self.cells = cells
    }

    /// ``StudyExportFormat/csvWide``.
    public var format: StudyExportFormat { .csvWide }

    /// The forms of `study`: the onboarding's, then each task's with a survey, in the study's order.
    static func forms(of study: StudyDefinition) -> [CSVWideForm] {
        var names: Set<String> = ["participant"], formNames = Set<String>()
        var forms = [CSVWideForm(taskID: StudyTaskDefinition.onboardingID, task: study.onboardingTask(language: study.defaultLanguage).task,
                                 names: &names, formNames: &formNames)]
        for task in study.tasks {
            guard let survey = study.survey(taskID: task.id) else { continue }
            forms.append(CSVWideForm(taskID: task.id, task: survey, names: &names, formNames: &formNames))
        }
        return forms.filter { !$0.columns.isEmpty }
    }

    public func start(study: StudyDefinition, takenAt: Date, into folder: URL) throws -> any StudyExportStream {
        let forms = Self.forms(of: study)
        let dictionary = try CSVFileWriter(creating: folder.appendingPathComponent(Self.dictionaryFileName), header: Self.dictionaryColumns, cells: cells)
        let firstForm = forms.first?.formName ?? "onboarding"
        try dictionary.write(["participant", firstForm, "", "text", "Participant", "", "", "", "", "", "", "", "", "", "", "", "",
                              "StudyKit participant id"])
        for form in forms { for row in form.dictionaryRows { try dictionary.write(row) } }
        try dictionary.close()
        let wide = folder.appendingPathComponent(Self.folderName, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: wide, withIntermediateDirectories: false)
        } catch {
            throw StudyExportError.cannotWrite(path: wide.path, reason: error.localizedDescription)
        }
        let files = try forms.map { form in
            try CSVFileWriter(creating: wide.appendingPathComponent("\(form.formName).csv"), header: Self.runColumns + form.columns.map(\.variable),
                              cells: cells)
        }
        return Stream(forms: forms, files: files, dictionaryRows: dictionary.rowCount, format: format)
    }

    /// One run's row in `form`'s file, and how many of its answers the row could not hold exactly (a "don't know";
    /// an answer to a question the form has no column for).
    static func row(of run: TaskRun, result: TaskResult, participant: StudyParticipant, form: CSVWideForm) -> (row: [String], dontKnow: Int, unplaced: Int) {
        let zone = participant.timeZone
        var cells = [String](repeating: "", count: form.columns.count)
        var dontKnow = 0, unplaced = 0
        for step in result.stepResults where !step.isPrevious && !step.skipped {
            for question in step.questionResults {
                guard let answer = question.answer else { continue }
                guard let indices = form.columnsByQuestion[CSVWideForm.key(step: step.identifier, item: question.identifier)] else {
                    unplaced += 1
                    continue
                }
                if answer == .dontKnow { dontKnow += 1 }
                for index in indices { cells[index] = cell(form.columns[index].cell, of: answer) }
            }
        }
        let base = [participant.id, run.occurrence.map(String.init) ?? "", run.id.uuidString.lowercased(), run.state.rawValue,
                    ISO8601.string(from: result.startDate, in: zone), ISO8601.string(from: result.endDate, in: zone)]
        return (base + cells, dontKnow, unplaced)
    }

    private static func cell(_ cell: CSVWideForm.Cell, of answer: Answer) -> String {
        switch (cell, answer) {
        case (.answer, .boolean(let yes)): yes ? "1" : "0"
        case (.answer, .choices(let selections)): selections.first?.value.description ?? ""
        case (.answer, .location(let place)): place.address ?? ""
        case (.answer, .dontKnow): ""
        case (.answer, _): CSVAnswerCells.cells(of: answer, unit: nil).first?.value ?? ""
        case (.option(let value), .choices(let selections)): selections.contains { $0.value.isSameChoice(as: value) } ? "1" : "0"
        case (.component(let index), .components(let values)): index < values.count ? values[index].description : ""
        case (.otherText, .choices(let selections)): selections.compactMap(\.text).first ?? ""
        case (.coordinates, _): CSVAnswerCells.cells(of: answer, unit: nil).first?.detail ?? ""
        default: ""
        }
    }

    private final class Stream: StudyExportStream {
        let forms: [CSVWideForm]
        let files: [CSVFileWriter]
        let dictionaryRows: Int
        let format: StudyExportFormat
        let formIndex: [String: Int]
        var participantCount = 0
        var issues: [StudyExportIssue] = []

        init(forms: [CSVWideForm], files: [CSVFileWriter], dictionaryRows: Int, format: StudyExportFormat) {
            self.forms = forms
            self.files = files
            self.dictionaryRows = dictionaryRows
            self.format = format
            formIndex = Dictionary(forms.enumerated().map { ($1.taskID, $0) }, uniquingKeysWith: { first, _ in first })
        }

        func add(_ participant: ParticipantExportData) throws {
            participantCount += 1
            var dontKnow = 0, unplaced = 0
            for run in participant.runsOldestFirst {
                guard let result = run.result, let index = formIndex[run.taskID] else { continue }
                let made = CSVWideExporter.row(of: run, result: result, participant: participant.participant, form: forms[index])
                try files[index].write(made.row)
                dontKnow += made.dontKnow
                unplaced += made.unplaced
            }
            if dontKnow > 0 {
                issues.append(StudyExportIssue(participantID: participant.participant.id,
                                               message: "\(dontKnow) \"don't know\" answer\(dontKnow == 1 ? " is" : "s are") empty cells in csv-wide (csv-long has them)"))
            }
            if unplaced > 0 {
                issues.append(StudyExportIssue(participantID: participant.participant.id,
                                               message: "\(unplaced) answer\(unplaced == 1 ? "" : "s") to questions the study no longer asks \(unplaced == 1 ? "is" : "are") not in csv-wide (csv-long has them)"))
            }
        }

        func finish() throws -> StudyExportSummary {
            var counts = [CSVWideExporter.dictionaryFileName: dictionaryRows]
            for (form, file) in zip(forms, files) {
                try file.close()
                counts["\(CSVWideExporter.folderName)/\(form.formName).csv"] = file.rowCount
            }
            return StudyExportSummary(format: format.rawValue, participantCount: participantCount, counts: counts, issues: issues)
        }
    }
}
