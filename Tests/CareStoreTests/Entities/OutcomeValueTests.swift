import Foundation
import Testing
@testable import CareStore

@Suite("OutcomeValue")
struct OutcomeValueTests {
    @Test func numericValues() {
        #expect(OutcomeValue.Value.integer(3).numericValue == 3)
        #expect(OutcomeValue.Value.double(2.5).numericValue == 2.5)
        #expect(OutcomeValue.Value.boolean(true).numericValue == 1)
        #expect(OutcomeValue.Value.text("x").numericValue == nil)
    }

    @Test func jsonNamesTheTypeOnce() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(OutcomeValue.Value.integer(3)), as: UTF8.self) == #"{"integer":3}"#)
        #expect(String(decoding: try encoder.encode(OutcomeValue.Value.binary(Data([1, 2]))), as: UTF8.self) == #"{"binary":"AQI="}"#)
        #expect(String(decoding: try encoder.encode(OutcomeValue.Value.date(Date(timeIntervalSince1970: 1_774_771_200))), as: UTF8.self)
                == #"{"date":"2026-03-29T08:00:00.000Z"}"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(OutcomeValue.Value.self, from: Data(#"{"integer":1,"text":"x"}"#.utf8)) }
    }

    @Test func roundTripsEveryKindOfValue() throws {
        let values: [OutcomeValue] = [
            OutcomeValue(.integer(3_200), kind: "steps"), OutcomeValue(.double(6.5), kind: "pain", units: "NRS"),
            OutcomeValue(.boolean(false)), OutcomeValue(.text("swollen")), OutcomeValue(.binary(Data([0, 1, 255]))),
            OutcomeValue(.date(Date(timeIntervalSince1970: 1_774_771_200)), createdDate: Date(timeIntervalSince1970: 1_774_771_260)),
        ]
        let data = try JSONEncoder().encode(values)
        #expect(try JSONDecoder().decode([OutcomeValue].self, from: data) == values)
    }
}
