import Foundation
import Testing

@Suite("studykit run with a FHIR Questionnaire")
struct RunQuestionnaireTests {
    @Test func thePHQ9RunsInTheTerminalAndItsScoreIsInTheResult() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("run-phq9-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = folder.appendingPathComponent("phq9.json")
        // Choices by number: 1 = Not at all (0) … 4 = Nearly every day (3); these are 0,0,0,1,2,1,3,2,1 = 10.
        let output = try StudykitProcess.run(["run", "examples/studies/recover/surveys/phq9.json", "--output", result.path],
                                             input: "1\n1\n1\n2\n3\n2\n4\n3\n2\n\n")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("Your PHQ-9 total score (0 to 27): 10"), "\(output.stdout)")
        let json = try String(contentsOf: result, encoding: .utf8)
        #expect(json.contains(#""identifier" : "phq9-total""#))
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let steps = object?["stepResults"] as? [[String: Any]] ?? []
        let score = steps.flatMap { $0["results"] as? [[String: Any]] ?? [] }.first { $0["identifier"] as? String == "phq9-total" }
        #expect((score?["answer"] as? NSNumber)?.intValue == 10)
    }
}
