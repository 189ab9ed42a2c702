import Foundation
import JSONDiagnostics
import Testing

@Suite("JSONTree through Codable")
struct JSONTreeCodableTests {
    @Test func aTreeWrittenByAnEncoderReadsBackTheSame() throws {
        let tree = try JSONTree(data: Data(#"{"a": [1, -2.5, 1e-7, true, null, "x"], "b": {"c": "d"}}"#.utf8))
        let data = try JSONEncoder().encode(tree)
        let again = try JSONTree(data: data)
        #expect(again["b"] == tree["b"])
        guard case .array(let values) = again["a"] else { Issue.record("no array: \(again)"); return }
        #expect(values.map(\.doubleValue) == [1, -2.5, 1e-7, nil, nil, nil])
        #expect(values[0].integerValue == 1 && values[1].integerValue == nil)
        #expect(values.map(\.kindDescription) == ["a number", "a number", "a number", "true or false", "null", "a string"])
    }

    @Test func readThroughADecoderMembersComeSortedAndNumbersAsText() throws {
        let tree = try JSONDecoder().decode(JSONTree.self, from: Data(#"{"z": 2.0, "a": 0.5, "m": [3]}"#.utf8))
        guard case .object(let members) = tree else { Issue.record("not an object: \(tree)"); return }
        #expect(members.map(\.key) == ["a", "m", "z"])
        #expect(tree["a"] == .number("0.5"))
        #expect(tree["z"] == .number("2"), "a whole value is written without its fraction")
        #expect(tree["m"] == .array([.number("3")]))
    }

    @Test func aNumberFromADoubleIsWrittenAsJSONWrites() {
        #expect(JSONTree.number(90) == .number("90"))
        #expect(JSONTree.number(1.5) == .number("1.5"))
        #expect(JSONTree.number(-0.25) == .number("-0.25"))
    }

    @Test func textThatIsNotAFiniteNumberCannotBeWritten() {
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(JSONTree.array([.number("NaN")])) }
    }
}
