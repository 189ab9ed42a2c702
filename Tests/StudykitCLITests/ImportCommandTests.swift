import Foundation
import Testing

@Suite("studykit import fhir")
struct ImportCommandTests {
    /// Recover's own PHQ-9 Questionnaire, written for this project.
    let phq9 = "examples/studies/recover/surveys/phq9.json"

    func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)-\(name)")
    }

    @Test func thePHQ9BecomesATaskFileThatValidates() throws {
        let output = temporaryFile("phq9.json")
        defer { try? FileManager.default.removeItem(at: output) }
        let imported = try StudykitProcess.run(["import", "fhir", phq9, "--output", output.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("phq9.json: imported as \(output.path) (recover-phq9, 2 steps)"), "\(imported.stdout)")
        #expect(imported.stdout.contains("note: phq9-total is calculated"), "\(imported.stdout)")
        let validated = try StudykitProcess.run(["validate", output.path])
        #expect(validated.status == 0, "\(validated.stdout)")
        let task = try String(contentsOf: output, encoding: .utf8)
        #expect(task.contains(#""expression" : "%resource.item.where(linkId='phq9').item.answer.value.ordinal().sum()""#))
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func unsupportedConstructsAreListedAndNothingIsWritten() throws {
        let output = temporaryFile("enablewhen.json")
        defer { try? FileManager.default.removeItem(at: output) }
        let refused = try StudykitProcess.run(["import", "fhir", HL7Fixtures.path("sdc-enablewhen.json"), "--output", output.path])
        #expect(refused.status == 1)
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let lines = refused.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 15, "\(refused.stderr)")
        // The external ValueSet and the two conditions that name its question are refused; the rest are notes (conditions
        // read by their codes, a drop-down shown as check boxes).
        #expect(lines.contains { $0.hasPrefix("sdc-enablewhen.json: item[5].item[0].extension: linkId 'BC029': note: a drop-down list is shown as check boxes") })
        #expect(lines.filter { $0.contains(": note: ") }.count == 11)
        #expect(lines.last == "sdc-enablewhen.json: not imported: 3 constructs above cannot be carried over (--allow-partial writes the rest)")

        let partial = try StudykitProcess.run(["import", "fhir", HL7Fixtures.path("sdc-enablewhen.json"), "--output", output.path, "--allow-partial"])
        #expect(partial.status == 0)
        #expect(partial.stdout.contains("3 constructs left out, 11 notes"))
        #expect(partial.stderr.split(separator: "\n").count == 14)
        #expect(try StudykitProcess.run(["validate", output.path]).status == 0)
    }

    @Test func notAQuestionnaireSaysSo() throws {
        let output = temporaryFile("x.json")
        let response = temporaryFile("response.json")
        defer { try? FileManager.default.removeItem(at: response) }
        try #"{"resourceType": "QuestionnaireResponse", "status": "completed"}"#.write(to: response, atomically: true, encoding: .utf8)
        let result = try StudykitProcess.run(["import", "fhir", response.path, "--output", output.path])
        #expect(result.status == 1)
        #expect(result.stderr == "\(response.lastPathComponent): resourceType: not a FHIR Questionnaire\n", "\(result.stderr)")
        let missing = try StudykitProcess.run(["import", "fhir", "no-such-file.json", "--output", output.path])
        #expect(missing.status == 1 && missing.stderr == "no-such-file.json: cannot read no-such-file.json\n")
    }
}
