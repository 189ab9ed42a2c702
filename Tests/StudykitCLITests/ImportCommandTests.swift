import Foundation
import Testing

@Suite("studykit import fhir")
struct ImportCommandTests {
    let fixtures = "Tests/InteropTests/Fixtures/fhir/"

    func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)-\(name)")
    }

    @Test func thePHQ9BecomesATaskFileThatValidates() throws {
        let output = temporaryFile("phq9.json")
        defer { try? FileManager.default.removeItem(at: output) }
        let imported = try StudykitProcess.run(["import", "fhir", fixtures + "sdc-phq9-questionnaire.json", "--output", output.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("sdc-phq9-questionnaire.json: imported as \(output.path) (questionnaire-sdc-profile-example-PHQ9, 2 steps)"))
        #expect(imported.stdout.contains("note: H1/TS is calculated"))
        let validated = try StudykitProcess.run(["validate", output.path])
        #expect(validated.status == 0, "\(validated.stdout)")
        let task = try String(contentsOf: output, encoding: .utf8)
        #expect(task.contains(#""expression" : "%resource.answers().value.ordinal().sum()""#))
    }

    @Test func unsupportedConstructsAreListedAndNothingIsWritten() throws {
        let output = temporaryFile("enablewhen.json")
        defer { try? FileManager.default.removeItem(at: output) }
        let refused = try StudykitProcess.run(["import", "fhir", fixtures + "sdc-enablewhen.json", "--output", output.path])
        #expect(refused.status == 1)
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let lines = refused.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 15, "\(refused.stderr)")
        #expect(lines.contains { $0.hasPrefix("sdc-enablewhen.json: item[5].item[0].extension: linkId 'BC029': a drop-down list is shown as check boxes") })
        #expect(lines.last == "sdc-enablewhen.json: not imported: 14 constructs above cannot be carried over (--allow-partial writes the rest)")

        let partial = try StudykitProcess.run(["import", "fhir", fixtures + "sdc-enablewhen.json", "--output", output.path, "--allow-partial"])
        #expect(partial.status == 0)
        #expect(partial.stdout.contains("14 constructs left out"))
        #expect(partial.stderr.split(separator: "\n").count == 14)
        #expect(try StudykitProcess.run(["validate", output.path]).status == 0)
    }

    @Test func notAQuestionnaireSaysSo() throws {
        let output = temporaryFile("x.json")
        let result = try StudykitProcess.run(["import", "fhir", fixtures + "sdc-phq9-response.json", "--output", output.path])
        #expect(result.status == 1)
        #expect(result.stderr == "sdc-phq9-response.json: resourceType: not a FHIR Questionnaire\n")
        let missing = try StudykitProcess.run(["import", "fhir", "no-such-file.json", "--output", output.path])
        #expect(missing.status == 1 && missing.stderr == "no-such-file.json: cannot read no-such-file.json\n")
    }
}
