import Foundation
import Interop
import Testing

/// Bundles, Patients and the JSON they print as.
@Suite struct FHIRBundleBuilderTests {
    @Test func aCollectionGivesEveryEntryAStableURNAndPointsReferencesAtIt() throws {
        let patient = try FHIRPatientBuilder().patient(participantID: "p-0042", language: "ja", signedName: ("Hanako", "Yamada"))
        let consent = try FHIRConsentBuilder().consent(for: ExportFixtures.consentRecord(), pdf: nil)
        let outside = try FHIRResource(json: .fields(["resourceType": "Observation", "id": "o", "subject": .fields(["reference": "Patient/elsewhere"])]))
        let timestamp = Date(timeIntervalSince1970: 1_774_771_200)
        let bundle = try FHIRBundleBuilder().collection(id: "p-0042", resources: [patient, consent, outside], timestamp: timestamp).json
        #expect(bundle["type"] == "collection")
        #expect(bundle["timestamp"] == "2026-03-29T08:00:00Z")
        let patientURL = FHIRBundleBuilder.fullURL(of: patient)
        #expect(patientURL.hasPrefix("urn:uuid:"))
        #expect(UUID(uuidString: String(patientURL.dropFirst(9))) != nil)
        #expect(patientURL == FHIRBundleBuilder.fullURL(of: patient), "the same resource, the same fullUrl")
        #expect(bundle.at("entry", 0, "fullUrl")?.stringValue == patientURL)
        #expect(bundle.at("entry", 1, "resource", "patient", "reference")?.stringValue == patientURL)
        #expect(bundle.at("entry", 1, "resource", "performer", 0, "reference")?.stringValue == patientURL)
        #expect(bundle.at("entry", 2, "resource", "subject", "reference") == "Patient/elsewhere")
        // The resources themselves keep relative references (for the NDJSON files).
        #expect(consent.json.at("patient", "reference") == "Patient/p-0042")
        #expect(throws: FHIRExportError.self) {
            try FHIRBundleBuilder().collection(id: "b", resources: [patient, patient], timestamp: timestamp)
        }
    }

    @Test func fullURLsAreVersion5UUIDsOfTypeAndID() {
        // uuid.uuid5(uuid.UUID("6f0b7a3e-2c1d-4e8a-9b5f-3d2c1e0f4a6b"), "Patient/p-0042") in Python.
        let patient = try! FHIRResource(json: .fields(["resourceType": "Patient", "id": "p-0042"]))
        #expect(FHIRBundleBuilder.fullURL(of: patient) == "urn:uuid:714ba314-4249-5063-9402-44f7640649df")
    }

    @Test func aPatientHasOnlyWhatTheStudyKnows() throws {
        let json = try FHIRPatientBuilder().patient(participantID: "p-0042", language: "zh-Hans", signedName: ("", "王")).json
        #expect(json.keys == ["resourceType", "id", "name", "communication"])
        #expect(json.at("name", 0) == .fields(["family": "王"]))
        #expect(json.at("communication", 0, "language", "coding", 0) == .fields(["system": "urn:ietf:bcp:47", "code": "zh-Hans"]))
        #expect(json.at("communication", 0, "preferred") == true)
        let anonymous = try FHIRPatientBuilder().patient(participantID: "p-0043", language: nil).json
        #expect(anonymous.keys == ["resourceType", "id"])
        #expect(throws: FHIRExportError.invalidID("p 43", resourceType: "Patient")) { try FHIRPatientBuilder().patient(participantID: "p 43", language: nil) }
    }

    @Test func jsonPrintsAsJSONWithoutEscapingMoreThanItMust() throws {
        let value = FHIRJSON.fields(["text": "a \"quote\", a / and 改行\n\u{01}", "n": 3, "d": .decimal(6.5 as Double), "whole": .decimal(3 as Double), "b": false,
                                     "empty": [], "none": nil])
        let compact = value.serialized()
        #expect(compact == #"{"text":"a \"quote\", a / and 改行\n\u0001","n":3,"d":6.5,"whole":3.0,"b":false,"empty":[]}"#)
        let parsed = try JSONSerialization.jsonObject(with: Data(value.serialized(pretty: true).utf8)) as? [String: Any]
        #expect(parsed?["text"] as? String == "a \"quote\", a / and 改行\n\u{01}")
        #expect(value.serialized(pretty: true).contains("\n  \"n\": 3,\n"))
        // Reading JSON back keeps types and order: booleans stay booleans, whole numbers integers.
        let read = try FHIRJSON(data: Data(#"{"id": "x", "resourceType": "Basic", "flag": true, "count": 1, "share": 0.5}"#.utf8))
        #expect(read.members?.map(\.key) == ["id", "resourceType", "flag", "count", "share"])
        #expect(read["flag"] == true)
        #expect(read["count"] == 1)
        #expect(read["share"] == .decimal(0.5 as Double))
        let resource = try FHIRResource(jsonData: Data(#"{"resourceType": "QuestionnaireResponse", "id": "r-1", "status": "completed"}"#.utf8))
        #expect(resource.reference == "QuestionnaireResponse/r-1")
        #expect(throws: FHIRExportError.self) { try FHIRResource(jsonData: Data(#"{"resourceType": "Basic"}"#.utf8)) }
    }
}
