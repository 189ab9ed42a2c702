import Foundation
import Testing

@Suite("studykit validate")
struct ValidateCommandTests {
    @Test func validFilesExitZero() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"identifier": "ok", "steps": [{"type": "question", "identifier": "q", "answerFormat": {"type": "boolean"}}]}"#
            .write(to: folder.appendingPathComponent("ok.json"), atomically: true, encoding: .utf8)
        let output = try StudykitProcess.run(["validate", "ok.json"], in: folder)
        #expect(output.status == 0)
        #expect(output.stdout == "ok.json: valid (ok, 1 steps)\n")
    }

    @Test func brokenFilesExitOneWithPathQualifiedLines() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"""
        {"identifier": "demo", "steps": [
          {"type": "instruction", "identifier": "a"},
          {"type": "instruction", "identifier": "b"},
          {"type": "instruction", "identifier": "a"},
          {"type": "question", "identifier": "n", "answerFormat": {"type": "scale", "minimum": 10, "maximum": 5}}
        ], "navigationRules": {"b": {"goTo": "nowhere"}}}
        """#.write(to: folder.appendingPathComponent("demo.json"), atomically: true, encoding: .utf8)
        try "{\n  \"identifier\": \"x\",\n  \"steps\": [\n    {\"type\": \"instruction\" \"identifier\": \"a\"}\n  ]\n}"
            .write(to: folder.appendingPathComponent("malformed.json"), atomically: true, encoding: .utf8)
        let output = try StudykitProcess.run(["validate", "demo.json", "malformed.json", "missing.json"], in: folder)
        #expect(output.status == 1)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("demo.json: steps[2].identifier: duplicate step identifier 'a' (also steps[0])"))
        #expect(lines.contains { $0.hasPrefix("demo.json: steps[3].answerFormat.maximum: must be greater than minimum") })
        #expect(lines.contains("demo.json: navigationRules.b.goTo: unknown destination step 'nowhere'"))
        #expect(lines.contains { $0.hasPrefix("malformed.json: malformed JSON: line 4, column ") })
        #expect(lines.contains { $0.hasPrefix("missing.json: cannot read") })
    }

    @Test func exampleStudyFoldersAreValid() throws {
        let output = try StudykitProcess.run(["validate", "examples/studies/recover", "examples/studies/recover-classic", "examples/studies/cognition",
                                               "examples/branching.json"])
        #expect(output.status == 0, "\(output.stdout)")
        // Every example is translated into every language it declares: no language falls back, so there is no note.
        let notes = output.stdout.split(separator: "\n").filter { $0.contains(": note: ") }
        #expect(notes.isEmpty, "\(notes)")
        #expect(output.stdout.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains(": note: ") }.joined(separator: "\n") == """
            examples/studies/recover: valid (recover: 9 tasks, 5 languages)
            examples/studies/recover-classic: valid (recover-classic: 3 tasks, 5 languages)
            examples/studies/cognition: valid (cognition: 5 tasks, 5 languages)
            branching.json: valid (knee-pain-check, 12 steps)

            """)
    }

    @Test func aStudysQuestionnaireNotesArePrintedBeforeValid() throws {
        // The browser suite's family-history form carries its maturity level (structuredefinition-fmm): metadata,
        // accepted without effect, and said so rather than dropped in silence.
        let output = try StudykitProcess.run(["validate", "tests/browser/studies/family-history"])
        #expect(output.status == 0, "\(output.stdout)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(output.stdout)")
        #expect(lines.first?.hasPrefix("family-history.json: extension[0]: note: http://hl7.org/fhir/StructureDefinition/structuredefinition-fmm is accepted without effect: ") == true,
                "\(output.stdout)")
        #expect(lines.last == "tests/browser/studies/family-history: valid (family-history: 1 task, 1 language)")
    }

    @Test func aBrokenStudyFolderNamesFilePathAndProblem() throws {
        let root = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let study = root.appendingPathComponent("study")
        try FileManager.default.createDirectory(at: study.appendingPathComponent("surveys"), withIntermediateDirectories: true)
        try #"{"identifier": "s", "steps": [{"type": "question", "identifier": "q", "answerFormat": {"type": "scale", "minimum": 5, "maximum": 1}}]}"#
            .write(to: study.appendingPathComponent("surveys/s.json"), atomically: true, encoding: .utf8)
        try """
            identifier: broken
            name: Broken
            languages: [en]
            consent: {document: consent.json}
            onboarding: onboarding.json
            tasks:
              - id: survey
                title: Survey
                survey: surveys/s.json
                schedule:
                  - weekly: {on: [funday], at: "9:00"}
                  - sameAs: nothing
                  - daily: {at: "24:00"}
            """.write(to: study.appendingPathComponent("study.yaml"), atomically: true, encoding: .utf8)
        let output = try StudykitProcess.run(["validate", "study"], in: root)
        #expect(output.status == 1)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("study.yaml: consent.document: no file at 'consent.json'") })
        #expect(lines.contains { $0.hasPrefix("study.yaml: onboarding: no file at 'onboarding.json'") })
        #expect(lines.contains { $0.hasPrefix("surveys/s.json: steps[0].answerFormat.maximum: ") })
        #expect(lines.contains("study.yaml: tasks[0].schedule[0].weekly.on[0]: 'funday' is not a weekday; did you mean 'sunday'? (monday … sunday)"))
        #expect(lines.contains("study.yaml: tasks[0].schedule[1].sameAs: no task has the id 'nothing'"))
        #expect(lines.contains { $0.hasPrefix("study.yaml: tasks[0].schedule[2].daily.at: '24:00' is not a time of day") })
    }

    /// A study that asks for the reminder email address but sends no reminders is refused with the file and the path.
    @Test func aReminderEmailAddressWithoutRemindersIsRefused() throws {
        let root = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let examples = StudykitProcess.packageRoot.appendingPathComponent("examples")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("examples/studies"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: examples.appendingPathComponent("consent"), to: root.appendingPathComponent("examples/consent"))
        let study = root.appendingPathComponent("examples/studies/recover")
        try FileManager.default.copyItem(at: examples.appendingPathComponent("studies/recover"), to: study)
        let file = study.appendingPathComponent("study.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        let start = try #require(text.range(of: "\nreminders:\n")), end = try #require(text.range(of: "\nquietHours:"))
        try text.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: "").write(to: file, atomically: true, encoding: .utf8)
        let output = try StudykitProcess.run(["validate", "examples/studies/recover"], in: root)
        #expect(output.status == 1)
        #expect(output.stdout.split(separator: "\n").map(String.init) == [
            "onboarding.json: steps[3].permissions[2].kind: asks for the reminder email address, but the study sends no reminders (study.yaml has no 'reminders')",
        ], "\(output.stdout)")
    }
}
