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
}
