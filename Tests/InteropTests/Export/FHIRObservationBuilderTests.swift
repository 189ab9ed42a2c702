import CareStore
import Foundation
import Interop
import Testing

/// Coded outcome values as Observations, one value type each, and the binary value that R4 cannot carry.
@Suite struct FHIRObservationBuilderTests {
    let builder = FHIRObservationBuilder()
    let pain = FHIRCoding(system: "http://loinc.org", code: "72514-3", display: "Pain severity - 0-10 verbal numeric rating [Score] - Reported")
    let recordedAt = ExportFixtures.date(2026, 3, 29, 19, 5, in: ExportFixtures.zone("Asia/Tokyo"))

    func observation(_ value: OutcomeValue) throws -> FHIRJSON {
        try builder.observation(id: "o-1", code: pain, value: value, patientID: "p-0042", effective: recordedAt,
                                timeZone: ExportFixtures.zone("Asia/Tokyo"), category: FHIRTerminology.surveyCategory, carePlanID: "p-0042").json
    }

    @Test func theCommonFields() throws {
        let json = try observation(OutcomeValue(.integer(6), kind: "pain"))
        #expect(json["resourceType"] == "Observation")
        #expect(json["status"] == "final")
        #expect(json.at("code", "coding", 0, "code") == "72514-3")
        #expect(json.at("code", "coding", 0, "system") == "http://loinc.org")
        #expect(json.at("code", "text") == "Pain severity - 0-10 verbal numeric rating [Score] - Reported")
        #expect(json.at("category", 0, "coding", 0, "code") == "survey")
        #expect(json.at("subject", "reference") == "Patient/p-0042")
        #expect(json.at("basedOn", 0, "reference") == "CarePlan/p-0042")
        #expect(json["effectiveDateTime"] == "2026-03-29T19:05:00+09:00")
        #expect(json.keys.last == "valueInteger")
    }

    @Test func eachValueTypeGoesToItsValueElement() throws {
        #expect(try observation(OutcomeValue(.integer(6)))["valueInteger"] == 6)
        let withUnits = try observation(OutcomeValue(.integer(6), units: "NRS"))["valueQuantity"]
        #expect(withUnits == .fields(["value": 6, "unit": "NRS"]))
        let double = try observation(OutcomeValue(.double(72.5), units: "kg"))["valueQuantity"]
        #expect(double == .fields(["value": .decimal(72.5), "unit": "kg"]))
        #expect(try observation(OutcomeValue(.double(0.25)))["valueQuantity"] == .fields(["value": .decimal(0.25)]))
        #expect(try observation(OutcomeValue(.boolean(true)))["valueBoolean"] == true)
        #expect(try observation(OutcomeValue(.text("front of the knee")))["valueString"] == "front of the knee")
        let day = ExportFixtures.date(2026, 3, 1, 9, 30, in: ExportFixtures.zone("Asia/Tokyo"))
        #expect(try observation(OutcomeValue(.date(day)))["valueDateTime"] == "2026-03-01T09:30:00+09:00")
        // Beyond FHIR's 32-bit integer: a quantity, which is a decimal.
        #expect(try observation(OutcomeValue(.integer(5_000_000_000)))["valueQuantity"] == .fields(["value": 5_000_000_000]))
    }

    @Test func valuesNoR4ObservationCanCarryAreRefused() {
        let binary = #expect(throws: FHIRExportError.self) { try observation(OutcomeValue(.binary(Data([1, 2, 3])), kind: "photo")) }
        #expect(binary?.description.contains("binary value (3 bytes) of kind 'photo'") == true)
        #expect(throws: FHIRExportError.self) { try observation(OutcomeValue(.double(.infinity))) }
        #expect(throws: FHIRExportError.self) {
            try builder.observation(id: "o/1", code: pain, value: OutcomeValue(.integer(1)), patientID: "p", effective: recordedAt, timeZone: .gmt)
        }
    }
}
