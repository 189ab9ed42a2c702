import Foundation
import Testing

@Suite("studykit fhirpath")
struct FHIRPathCommandTests {
    private let fixtures = HL7Fixtures.folder

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func printsOneJSONLinePerExpression() throws {
        let output = try StudykitProcess.run([
            "fhirpath", "--resource", fixtures.appendingPathComponent("sdc-phq9-response.json").path,
            "--questionnaire", fixtures.appendingPathComponent("sdc-phq9-questionnaire.json").path,
            "--", "%resource.answers().value.ordinal().sum()", "item.item[9].answer.value", "-7 mod 3",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == """
            {"expression":"%resource.answers().value.ordinal().sum()","result":[10.0]}
            {"expression":"item.item[9].answer.value","result":[{"unit":"{score}","value":13}]}
            {"expression":"-7 mod 3","result":[-1]}

            """)
    }

    @Test func exitsOneWhenAnExpressionFailsAndStillPrintsTheOthers() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"resourceType": "Patient", "id": "p"}"#.write(to: folder.appendingPathComponent("patient.json"), atomically: true, encoding: .utf8)
        try #"{"a": 1.50}"#.write(to: folder.appendingPathComponent("limit.json"), atomically: true, encoding: .utf8)
        let output = try StudykitProcess.run(
            ["fhirpath", "--resource", "patient.json", "--variable", "limit=limit.json", "id", "1 +", "%limit.a * 2", "foo()"], in: folder
        )
        #expect(output.status == 1)
        #expect(output.stdout == """
            {"expression":"id","result":["p"]}
            {"error":"expected an expression after '+' (at offset 3)","expression":"1 +"}
            {"expression":"%limit.a * 2","result":[3.0]}
            {"error":"the function foo() is not supported by this FHIRPath subset (at offset 0)","expression":"foo()"}

            """)
    }

    @Test func unreadableResourcesExitOne() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "{\n  \"id\": tru\n}".write(to: folder.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let bad = try StudykitProcess.run(["fhirpath", "--resource", "bad.json", "id"], in: folder)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("--resource: bad.json: invalid JSON at line 2, column 9"))
        let missing = try StudykitProcess.run(["fhirpath", "--resource", "missing.json", "id"], in: folder)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read missing.json"))
    }
}
