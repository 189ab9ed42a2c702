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

    /// A Questionnaire whose total cannot be calculated for these answers (`single()` of two values is an error).
    static let failingScore = #"""
    {"resourceType": "Questionnaire", "status": "active", "title": "Two numbers", "item": [
      {"linkId": "a", "type": "integer", "text": "First number", "required": true},
      {"linkId": "b", "type": "integer", "text": "Second number", "required": true},
      {"linkId": "total", "type": "integer", "text": "Total", "readOnly": true, "extension": [
        {"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression",
         "valueExpression": {"language": "text/fhirpath", "expression": "%resource.answers().value.single()"}}]}]}
    """#

    @Test func aCalculationThatFailsIsShownOnceAndTheRunGoesOn() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.failingScore.utf8).write(to: folder.appendingPathComponent("two.json"))
        // Both numbers, then end of input: the total's step says once why there is no total, and the run finishes
        // (it used to print that line without end, never reading input again).
        let run = try StudykitProcess.run(["run", "two.json", "--output", "r.json"], input: "1\n2\n", in: folder, timeout: 30)
        #expect(run.status == 0, "\(run.stdout.suffix(2_000)) \(run.stderr)")
        #expect(run.stdout.utf8.count < 4_000, "bounded output: \(run.stdout.utf8.count) bytes")
        #expect(run.stdout.components(separatedBy: "Total: could not be calculated: 'single()' needs a single item").count == 2,
                "\(run.stdout.prefix(2_000))")
        // The result keeps the total unanswered and says why.
        let json = try String(contentsOf: folder.appendingPathComponent("r.json"), encoding: .utf8)
        #expect(json.contains(#""calculationError" : "'single()' needs a single item, got a collection of 2 (at offset 26)""#), "\(json)")
    }
}
