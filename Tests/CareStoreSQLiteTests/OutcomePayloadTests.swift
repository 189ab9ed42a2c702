import CareStore
import Foundation
import Testing
@testable import CareStoreSQLite

@Suite("OutcomePayload")
struct OutcomePayloadTests {
    /// The payload codec lists fields by hand: when one of these types gains a stored property, add it to
    /// OutcomePayload's writer and reader, then here.
    @Test func theCodecKnowsEveryStoredProperty() {
        let outcome = Fixture.outcome(task: UUID(), occurrence: 0)
        #expect(Mirror(reflecting: outcome).children.map(\.label) == [
            "uuid", "taskUUID", "occurrenceIndex", "values", "createdDate", "deletedDate", "notes", "tags", "remoteID", "source",
            "userInfo", "timeZone",
        ])
        #expect(Mirror(reflecting: OutcomeValue(.integer(1))).children.map(\.label) == ["value", "kind", "units", "createdDate"])
        #expect(Mirror(reflecting: Note()).children.map(\.label) == ["author", "title", "content", "createdDate"])
    }

    /// Reads `data` with the codec's own reader only, without the fallback to JSONDecoder.
    func fastRead(_ data: Data) throws -> Outcome {
        var zones: [String: TimeZone] = [:]
        return try data.withUnsafeBytes { bytes in
            var reader = OutcomePayload.Reader(bytes: bytes)
            let outcome = try reader.outcome(timeZones: &zones)
            let atEnd = reader.atEnd()
            #expect(atEnd)
            return outcome
        }
    }

    static let strings = ["", "plain", "quote \" and backslash \\", "slash / tab \t newline \n return \r", "bell \u{07} nul \u{00} del \u{7F}",
                          "ü日本語 한국어", "emoji 🦵🏽 and 𝄞", "\u{2028}\u{2029}"]

    static func outcomes() -> [Outcome] {
        let date = Date(timeIntervalSinceReferenceDate: 794_188_800.123_456_7)
        var full = Outcome(taskUUID: UUID(), occurrenceIndex: 42, values: [
            OutcomeValue(.integer(-7), kind: "steps", units: "count", createdDate: date),
            OutcomeValue(.integer(.max)), OutcomeValue(.integer(.min)),
            OutcomeValue(.double(6.5), kind: "pain"), OutcomeValue(.double(-0.0)), OutcomeValue(.double(1e-300)),
            OutcomeValue(.double(.greatestFiniteMagnitude)), OutcomeValue(.double(0.1 + 0.2)),
            OutcomeValue(.boolean(true)), OutcomeValue(.boolean(false)),
            OutcomeValue(.binary(Data())), OutcomeValue(.binary(Data((0...255).map(UInt8.init)))),
            OutcomeValue(.date(Date(timeIntervalSinceReferenceDate: -1_000_000.25))),
        ] + strings.map { OutcomeValue(.text($0), kind: $0, units: $0) },
        timeZone: TimeZone(identifier: "America/Argentina/Buenos_Aires")!,
        notes: [Note(), Note(author: "nurse", title: "t", content: strings.joined(), createdDate: date)],
        tags: strings, remoteID: "remote", source: "import", userInfo: Dictionary(uniqueKeysWithValues: strings.map { ($0, $0 + "!") }))
        full.createdDate = date
        full.deletedDate = date.addingTimeInterval(0.000_001)
        let bare = Outcome(taskUUID: UUID(), occurrenceIndex: 0, values: [], timeZone: .gmt)
        return [full, bare, Fixture.outcome(task: UUID(), occurrence: 3, created: date)]
    }

    @Test(arguments: outcomes())
    func roundTripsAndAgreesWithFoundation(outcome: Outcome) throws {
        let ours = try OutcomePayload.encode(outcome)
        let foundations = try JSONEncoder().encode(outcome)
        #expect(try fastRead(ours) == outcome)
        #expect(try JSONDecoder().decode(Outcome.self, from: ours) == outcome)
        #expect(try fastRead(foundations) == outcome)
        // The same document, whatever the order of keys and escapes.
        let parsed = try JSONSerialization.jsonObject(with: ours) as? NSDictionary
        #expect(parsed == (try JSONSerialization.jsonObject(with: foundations) as? NSDictionary))
    }

    @Test func readsFormattedJSONAndSkipsUnknownKeys() throws {
        let outcome = Self.outcomes()[0]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        #expect(try fastRead(encoder.encode(outcome)) == outcome)
        let extra = Data(#"{"future": [1, {"a": null}], "uuid": "\#(outcome.uuid)", "taskUUID": "\#(outcome.taskUUID)", "occurrenceIndex": 1, "values": [], "notes": [], "tags": [], "userInfo": {}, "timeZone": {"identifier": "Asia/Tokyo"}, "remoteID": null}"#.utf8)
        let read = try fastRead(extra)
        #expect(read.uuid == outcome.uuid && read.occurrenceIndex == 1 && read.remoteID == nil && read.timeZone.identifier == "Asia/Tokyo")
        #expect(try JSONDecoder().decode(Outcome.self, from: extra) == read)
    }

    @Test func aPayloadItCannotReadFallsBackToFoundationsError() {
        var zones: [String: TimeZone] = [:]
        #expect(throws: DecodingError.self) {
            try Data(#"{"uuid": "not a uuid"}"#.utf8).withUnsafeBytes { try OutcomePayload.decode($0, timeZones: &zones) }
        }
    }

    @Test func nonFiniteNumbersAreRefusedAsFoundationRefusesThem() {
        for number in [Double.nan, .infinity, -.infinity] {
            let outcome = Outcome(taskUUID: UUID(), occurrenceIndex: 0, values: [OutcomeValue(.double(number))], timeZone: .gmt)
            #expect(throws: EncodingError.self) { try OutcomePayload.encode(outcome) }
            #expect(throws: EncodingError.self) { try JSONEncoder().encode(outcome) }
        }
    }

    @Test func uuidTextIsUUIDString() {
        for uuid in (0..<100).map({ _ in UUID() }) + [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))] {
            #expect(uuid.text == uuid.uuidString)
            var bytes: [UInt8] = [1]
            uuid.appendUppercaseText(to: &bytes)
            #expect(bytes == [1] + Array(uuid.uuidString.utf8))
            #expect(UUID(text: uuid.uuidString) == uuid)
            #expect(UUID(text: uuid.uuidString.lowercased()) == uuid)
        }
        for bad in ["", "0", String(repeating: "0", count: 36), "00000000-0000-0000-0000-00000000000G",
                    "00000000-0000-0000-0000+000000000000", "00000000-0000-0000-0000-0000000000000"] {
            #expect(UUID(text: bad) == nil, "\(bad)")
            #expect(UUID(uuidString: bad) == nil, "\(bad)")
        }
    }

    @Test func stringListsRoundTrip() throws {
        for list in [[], Self.strings, ["a"]] {
            let json = OutcomePayload.encode(strings: list)
            #expect(try OutcomePayload.decodeStrings(json) == list)
            #expect(try JSONDecoder().decode([String].self, from: Data(json.utf8)) == list)
        }
        #expect(throws: (any Error).self) { try OutcomePayload.decodeStrings("[1]") }
    }
}
