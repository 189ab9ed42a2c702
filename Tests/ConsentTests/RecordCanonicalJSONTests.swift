import Foundation
import Research
import Testing
@testable import Consent

@Suite struct RecordCanonicalJSONTests {
    private func text(_ value: CanonicalJSONValue) -> String { String(decoding: CanonicalJSON.bytes(of: value), as: UTF8.self) }

    @Test func numbersAreWrittenTheECMAScriptWay() {
        let cases: [(Double, String)] = [
            (0, "0"), (-0.0, "0"), (1, "1"), (-1.5, "-1.5"), (12.34, "12.34"), (0.1 + 0.2, "0.30000000000000004"),
            (300, "300"), (1e20, "100000000000000000000"), (1e21, "1e+21"), (1.5e21, "1.5e+21"), (0.000001, "0.000001"),
            (1e-7, "1e-7"), (1.25e-7, "1.25e-7"), (.leastNonzeroMagnitude, "5e-324"), (123456789.125, "123456789.125"),
            (1.7976931348623157e308, "1.7976931348623157e+308"), (Double(Int64(9_007_199_254_740_993)), "9007199254740992"), (60.12, "60.12"),
        ]
        for (number, expected) in cases {
            #expect(CanonicalJSON.numberText(number) == expected, "\(number)")
        }
        #expect(CanonicalJSON.numberText(.nan) == nil)
        #expect(CanonicalJSON.numberText(.infinity) == nil)
    }

    @Test func nonFiniteNumbersAreRefusedWithTheirPath() {
        let drawing = Signature(width: 10, height: 10, strokes: [[SignaturePoint(x: .nan, y: 1, t: 0)]])
        #expect {
            _ = try CanonicalJSON.bytes(of: drawing)
        } throws: { error in
            "\(error)".contains("strokes[0][0].x")
        }
    }

    @Test func objectKeysAreSortedByUTF16CodeUnits() {
        let value = CanonicalJSONValue.object([
            "b": .number("1"), "a": .number("2"), "aa": .null, "Z": .bool(true), "é": .bool(false),
            "\u{FF21}": .string("fullwidth A"), "😀": .string("emoji"),
        ])
        // UTF-16 puts the emoji's surrogate (D83D) before U+FF21; scalar order would not.
        #expect(text(value) == #"{"Z":true,"a":2,"aa":null,"b":1,"é":false,"😀":"emoji","Ａ":"fullwidth A"}"#)
    }

    @Test func stringsAreEscapedMinimally() {
        let value = CanonicalJSONValue.string("\"\\/\n\t\r\u{8}\u{C}\u{1}\u{1F}\u{7F}é😀\u{2028}<")
        #expect(text(value) == "\"\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\u{7F}é😀\u{2028}<\"")
    }

    @Test func unicodeIsKeptAsWrittenWithoutNormalization() throws {
        let composed = try CanonicalJSON.bytes(of: ["name": "\u{E9}"])
        let decomposed = try CanonicalJSON.bytes(of: ["name": "e\u{301}"])
        #expect(Array(composed) == Array(#"{"name":""#.utf8) + [0xC3, 0xA9] + Array(#""}"#.utf8))
        #expect(composed != decomposed)
    }

    @Test func timestampsHaveMillisecondsInUTC() {
        #expect(ConsentTimestamp.string(from: Date(timeIntervalSince1970: 1_774_771_200.25)) == "2026-03-29T08:00:00.250Z")
        #expect(ConsentTimestamp.string(from: Date(timeIntervalSince1970: 0.0004)) == "1970-01-01T00:00:00.000Z")
        #expect(ConsentTimestamp.string(from: Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        #expect(ConsentTimestamp.string(from: Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
        let date = ConsentTimestamp.date(from: "2026-03-29T08:00:00.250Z")
        #expect(date == Date(timeIntervalSince1970: 1_774_771_200.25))
        for text in ["2026-03-29T08:00:00Z", "2026-02-30T08:00:00.000Z", "2026-03-29T08:00:00.250+00:00", "2026-03-29 08:00:00.250Z"] {
            #expect(ConsentTimestamp.date(from: text) == nil, "\(text)")
        }
    }

    @Test func aFixedRecordHasGoldenBytes() throws {
        let record = ConsentRecord(
            id: RecordFixtures.recordID, kind: .consent, participantIdentifier: "P-1", studyIdentifier: "recover",
            studyName: "Recover \"β\"", documentIdentifier: "doc", documentVersion: "1.2", language: "ja", html: "<p>同意</p>\n",
            signatures: [ConsentRecordSignature(
                identifier: "participant", meaning: "consent to participate", givenName: "花子", familyName: "山田",
                drawing: Signature(width: 300, height: 100.5, strokes: [[SignaturePoint(x: 10.004, y: 20.126, t: 16.6)]]),
                signedAt: Date(timeIntervalSince1970: 1_774_771_200.2504), utcOffsetSeconds: 32_400, timeZoneIdentifier: "Asia/Tokyo")],
            answers: ["sharing": "shareWidely", "contact": "no"], createdAt: Date(timeIntervalSince1970: 1_774_771_260))
        let expected = #"{"answers":{"contact":"no","sharing":"shareWidely"},"createdAt":"2026-03-29T08:01:00.000Z","documentIdentifier":"doc","documentVersion":"1.2","html":"<p>同意</p>\n","htmlSHA256":"HASH","id":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","kind":"consent","language":"ja","participantIdentifier":"P-1","signatures":[{"drawing":{"height":100.5,"strokes":[[{"t":17,"x":10,"y":20.13}]],"width":300},"familyName":"山田","givenName":"花子","identifier":"participant","meaning":"consent to participate","signedAt":"2026-03-29T08:00:00.250Z","timeZoneIdentifier":"Asia/Tokyo","utcOffsetSeconds":32400}],"studyIdentifier":"recover","studyName":"Recover \"β\""}"#
            .replacingOccurrences(of: "HASH", with: ConsentRecord.sha256Hex(of: Data("<p>同意</p>\n".utf8)))
        #expect(String(decoding: try record.canonicalJSON(), as: UTF8.self) == expected)
        #expect(ConsentRecord.sha256Hex(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func canonicalBytesSurviveAJSONRoundTrip() throws {
        let sealed = try RecordFixtures.sealed()
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted]
        for data in [try sealed.jsonData(), try pretty.encode(sealed)] {
            let read = try SealedConsentRecord(jsonData: data)
            #expect(read == sealed)
            #expect(try read.record.canonicalJSON() == sealed.record.canonicalJSON())
            #expect(try read.jsonData() == sealed.jsonData())
        }
        #expect(try RecordFixtures.record().canonicalJSON() == RecordFixtures.record().canonicalJSON())
    }

    @Test func malformedRecordJSONSaysWhere() throws {
        var object = try JSONSerialization.jsonObject(with: RecordFixtures.sealed().jsonData()) as! [String: Any]
        var record = object["record"] as! [String: Any]
        record["createdAt"] = "2026-03-29T08:01:01Z"
        object["record"] = record
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect {
            _ = try SealedConsentRecord(jsonData: data)
        } throws: { error in
            "\(error)".contains("record.createdAt")
        }
        #expect(throws: ConsentRecordError.self) { _ = try SealedConsentRecord(jsonData: Data("{\"record\": ".utf8)) }
    }
}
