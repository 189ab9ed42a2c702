import Foundation
import Testing
@testable import Consent

/// A sealed record's file must mean one thing to every reader: these edits each verified before (the Swift reader
/// took the first of two keys, stopped after the first record and ignored keys it did not know), while jq, Python and
/// JavaScript read them differently. Each is now refused, naming where.
@Suite struct RecordStrictReadingTests {
    static func text() throws -> String { String(decoding: try RecordFixtures.sealed().jsonData(), as: UTF8.self) }

    private func refusal(_ text: String) -> String? {
        do {
            _ = try SealedConsentRecord(jsonData: Data(text.utf8))
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func theRecordAsSealedReadsBackWhole() throws {
        let sealed = try RecordFixtures.sealed()
        #expect(try SealedConsentRecord(jsonData: sealed.jsonData()) == sealed)
        // Whitespace and escaping are the writer's choice; the values are what count.
        let pretty = try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: sealed.jsonData()), options: [.prettyPrinted])
        #expect(try SealedConsentRecord(jsonData: pretty) == sealed)
    }

    @Test(arguments: [
        (#""sharing":"shareWidely""#, #""sharing":"shareWidely","sharing":"investigatorsOnly""#, #"record.answers: the member name "sharing" is given twice"#),
        (#""algorithm":"Ed25519""#, #""algorithm":"Ed25519","algorithm":"Ed25519""#, #"the member name "algorithm" is given twice"#),
        (#""familyName":"山田""#, #""familyName":"山田","familyName":"田中""#, #"record.signatures[0]: the member name "familyName" is given twice"#),
        (#""x":"#, #""x":1,"x":"#, #"record.signatures[0].drawing.strokes[0][0]: the member name "x" is given twice"#),
    ])
    func aKeyGivenTwiceAtAnyDepthIsRefused(original: String, doubled: String, message: String) throws {
        let text = try Self.text()
        #expect(text.contains(original))
        let refused = try #require(refusal(text.replacingOccurrences(of: original, with: doubled, options: [], range: text.range(of: original))))
        #expect(refused.contains(message), "\(refused)")
        #expect(refused.contains("(line 1, column "), "\(refused)")
    }

    @Test func aSecondRecordOrAnythingAfterTheRecordIsRefused() throws {
        let text = try Self.text()
        for trailing in [text, "{}", "x", "\u{0}"] {
            let refused = try #require(refusal(text + trailing), "\(trailing.prefix(10))")
            #expect(refused.contains("after the JSON value"), "\(refused)")
        }
        #expect(refusal(text + " \n") == nil, "whitespace after the record is fine")
    }

    @Test(arguments: [
        ("record", "record.note"),
        ("record.signatures[0]", "record.signatures[0].note"),
        ("record.signatures[0].drawing", "record.signatures[0].drawing.note"),
        ("record.signatures[0].drawing.strokes[0][0]", "record.signatures[0].drawing.strokes[0][0].note"),
        ("", "note"),
    ])
    func aKeyTheFormatDoesNotDefineIsRefusedAtItsPath(object: String, path: String) throws {
        var json = try #require(try JSONSerialization.jsonObject(with: RecordFixtures.sealed().jsonData()) as? [String: Any])
        json = Self.adding(note: "added later", at: object, in: json) as! [String: Any]
        let refused = try #require(refusal(String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)))
        #expect(refused.contains("\(path): not part of the consent record format"), "\(refused)")
    }

    @Test func valuesInAnotherFormAreRefused() throws {
        let sealed = try RecordFixtures.sealed()
        let text = try Self.text()
        let id = sealed.record.id.uuidString
        // A lowercase UUID decodes to the same id, but is not what was signed over.
        let lowered = try #require(refusal(text.replacingOccurrences(of: id, with: id.lowercased())))
        #expect(lowered.contains("record.id:"), "\(lowered)")
        let withNull = try #require(refusal(text.replacingOccurrences(of: #""answers":"#, with: #""withdrawal":null,"answers":"#)))
        #expect(withNull.contains("record.withdrawal: null is not written for an absent value"), "\(withNull)")
    }

    /// `json` with `"note": value` added to the object at `path` (dots and `[i]` indices; empty for the top).
    static func adding(note value: String, at path: String, in json: Any) -> Any {
        guard !path.isEmpty else {
            var object = json as! [String: Any]
            object["note"] = value
            return object
        }
        var rest = Substring(path)
        if rest.hasPrefix("[") {
            let close = rest.firstIndex(of: "]")!
            let index = Int(rest[rest.index(after: rest.startIndex)..<close])!
            rest = rest[rest.index(after: close)...]
            if rest.hasPrefix(".") { rest = rest.dropFirst() }
            var array = json as! [Any]
            array[index] = adding(note: value, at: String(rest), in: array[index])
            return array
        }
        let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
        let key = String(rest[..<end])
        rest = rest[end...]
        if rest.hasPrefix(".") { rest = rest.dropFirst() }
        var object = json as! [String: Any]
        object[key] = adding(note: value, at: String(rest), in: object[key]!)
        return object
    }
}
