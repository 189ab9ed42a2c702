import CareStore
import Consent
import Foundation
import StudyKitEnvironment
import Interop
import Research
import Study
import StudyFHIR
import Testing

/// The whole FHIR export of a study from its stores: one Bundle per participant and one NDJSON file per type, the
/// previous export replaced whole, nothing replaced that is not an export, and every skipped item reported.
@Suite struct FHIRStudyExportTests {
    let study: StudyDefinition
    let clock = TestClock(wallTime(2026, 3, 5, 10, 0, in: Zones.kiritimati))
    let uuids = CountingUUIDs()
    let store: InMemoryStudyStore
    let careStore: InMemoryCareStore
    let root: URL
    let recorder = ConsentRecorder(signingKey: try! ConsentSigningKey(rawRepresentation: Data(repeating: 7, count: 32)))

    init() throws {
        study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let clock = self.clock, uuids = self.uuids
        store = InMemoryStudyStore(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
        careStore = InMemoryCareStore(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
        root = FileManager.default.temporaryDirectory.appendingPathComponent("study-export-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("data/consent-pdfs"), withIntermediateDirectories: true)
    }

    var dataFolder: URL { root.appendingPathComponent("data", isDirectory: true) }
    var out: URL { root.appendingPathComponent("export", isDirectory: true) }

    /// A participant in Kiritimati who enrolled, signed (PDF printed), and answered the pain check with 6.
    func onboardedParticipant() async throws -> (StudyParticipant, SealedConsentRecord) {
        let participant = try await store.enrol(invitationCode: nil, timeZone: Zones.kiritimati, language: "en")
        let clock = self.clock, uuids = self.uuids
        _ = try await StudyEnrolment(study: study, environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
            .enrol(participantID: participant.id, enrolledAt: participant.enrolledAt, timeZone: participant.timeZone, into: careStore)
        let signature = ConsentRecordSignature(identifier: "participant", meaning: "consent to participate", givenName: "Alex",
                                               familyName: "Morgan", drawing: nil, signedAt: clock.now, timeZone: Zones.kiritimati)
        let sealed = try recorder.sealConsent(participantIdentifier: participant.id, studyIdentifier: "recover", studyName: "Recover",
                                              documentIdentifier: "recover-consent", documentVersion: "1.0", language: "en",
                                              html: "<!DOCTYPE html><p>I agree.</p>", signatures: [signature], answers: ["sharing": "investigatorsOnly"])
        try await store.appendConsentRecord(sealed)
        let pdfPath = "consent-pdfs/\(sealed.record.id.uuidString.lowercased()).pdf"
        try Data("%PDF-1.4 Alex Morgan".utf8).write(to: dataFolder.appendingPathComponent(pdfPath))
        try await store.setConsentPDF(.file(relativePath: pdfPath), recordID: sealed.record.id, participantID: participant.id)

        var query = CareQuery()
        query.ids = ["\(participant.id)/pain", "\(participant.id)/exercises"]
        let tasks = Dictionary(uniqueKeysWithValues: try await careStore.fetch(CareTask.self, query: query).map { ($0.id, $0) })
        let pain = try #require(tasks["\(participant.id)/pain"]), exercises = try #require(tasks["\(participant.id)/exercises"])
        _ = try await careStore.addOutcomes([
            Outcome(taskUUID: pain.version.uuid, occurrenceIndex: 0, values: [OutcomeValue(.integer(6), kind: "pain", units: "NRS")],
                    timeZone: Zones.kiritimati),
            Outcome(taskUUID: pain.version.uuid, occurrenceIndex: 1, values: [OutcomeValue(.binary(Data([1, 2])), kind: "pain")],
                    timeZone: Zones.kiritimati),
            Outcome(taskUUID: exercises.version.uuid, occurrenceIndex: 0, values: [StudyTaskDefinition.completedValue], timeZone: Zones.kiritimati),
        ])
        return (participant, sealed)
    }

    @discardableResult
    func export(_ exporter: FHIRStudyExporter = FHIRStudyExporter()) async throws -> StudyExportSummary {
        let clock = self.clock
        let snapshot = try await StudyExportReader(study: study, store: store, careStore: careStore, dataFolder: dataFolder,
                                                   consentPublicKey: recorder.signingKey.publicKey, now: { clock.now }).snapshot()
        return try StudyExportFolder(url: out).replace(with: exporter, snapshot: snapshot)
    }

    func lines(_ file: String) throws -> [FHIRJSON] {
        try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
            .map { try FHIRJSON(data: Data($0.utf8)) }
    }

    @Test func aParticipantsDataBecomesABundleAndNDJSONFiles() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (participant, sealed) = try await onboardedParticipant()
        let exporter = FHIRStudyExporter { data in
            [try FHIRResource(json: .fields(["resourceType": "Basic", "id": .string(data.participant.id),
                                             "subject": .fields(["reference": .string("Patient/\(data.participant.id)")])]))]
        }
        let summary = try await export(exporter)
        #expect(summary.participantCount == 1)
        #expect(summary.counts == ["Patient": 1, "Consent": 1, "Provenance": 1, "CarePlan": 1, "Observation": 1, "Basic": 1])
        #expect(summary.issues.count == 1)
        #expect(summary.issues.first?.description.contains("of task 'pain' left out: no FHIR R4 Observation value fits: a binary value (2 bytes)") == true)

        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(files == ["Basic.ndjson", "CarePlan.ndjson", "Consent.ndjson", "Observation.ndjson", "Patient.ndjson", "Provenance.ndjson",
                          "export.json", "participants"])
        let bundle = try FHIRJSON(data: Data(contentsOf: out.appendingPathComponent("participants/\(participant.id).json")))
        #expect(bundle["type"] == "collection")
        let types = bundle["entry"]?.arrayValue?.compactMap { $0.at("resource", "resourceType")?.stringValue }
        #expect(types == ["Patient", "Consent", "Provenance", "CarePlan", "Observation", "Basic"])
        // Inside the Bundle, the Basic's reference points at the Patient's entry.
        #expect(bundle.at("entry", 5, "resource", "subject", "reference") == bundle.at("entry", 0, "fullUrl"))

        let patient = try #require(try lines("Patient.ndjson").first)
        #expect(patient["id"]?.stringValue == participant.id)
        #expect(patient.at("name", 0) == .fields(["family": "Morgan", "given": ["Alex"]]))
        let consent = try #require(try lines("Consent.ndjson").first)
        #expect(consent["id"]?.stringValue == sealed.record.id.uuidString.lowercased())
        #expect(consent.at("sourceAttachment", "data")?.stringValue.flatMap { Data(base64Encoded: $0) } == Data("%PDF-1.4 Alex Morgan".utf8))
        #expect(consent.at("provision", "actor", 0, "reference", "display") == "the investigators of Recover")
        #expect(consent["dateTime"] == "2026-03-05T10:00:00+14:00")

        let carePlan = try #require(try lines("CarePlan.ndjson").first)
        let activities = try #require(carePlan["activity"]?.arrayValue)
        // One activity per schedule element of the study's tasks; the onboarding task is not one of them.
        #expect(activities.compactMap { $0.at("detail", "code", "text")?.stringValue }
                == ["Knee exercises", "Knee exercises", "Knee exercises", "Daily pain check", "Weekly function survey", "Two-week check-in",
                    "Mood check (PHQ-9)", "Mood check (PHQ-9)", "Mood check (PHQ-9)", "Mood check (PHQ-9)", "Doxylamine", "Doxylamine",
                    "Doxylamine", "Nausea", "Ice the knee", "Knee bend", "Knee bend", "Knee bend"])
        #expect(activities[5].at("detail", "scheduledTiming", "event") == ["2026-03-19"])
        #expect(activities[0].at("detail", "scheduledTiming", "repeat", "timeOfDay") == ["08:00:00"])
        #expect(activities[2].at("detail", "scheduledTiming", "repeat", "timeOfDay") == ["19:00:00"])
        #expect(activities[4].at("detail", "scheduledTiming", "repeat", "dayOfWeek") == ["mon"])
        // Every other day: a period of two days.
        #expect(activities[12].at("detail", "scheduledTiming", "repeat", "period") == 2)

        let observation = try #require(try lines("Observation.ndjson").first)
        #expect(observation.at("code", "coding", 0, "code") == "72514-3")
        #expect(observation.at("category", 0, "coding", 0, "code") == "survey")
        #expect(observation.at("valueQuantity", "value") == 6)
        #expect(observation.at("valueQuantity", "unit") == "NRS")
        #expect(observation["effectiveDateTime"] == "2026-03-05T10:00:00+14:00")
        #expect(observation.at("basedOn", 0, "reference")?.stringValue == "CarePlan/\(participant.id)")

        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("export.json"))) as? [String: Any]
        #expect(manifest?["format"] as? String == "fhir")
        #expect(manifest?["study"] as? String == "recover")
    }

    @Test func recoversKneeBendIsAnObservationUnderLOINCsCodeForTheRightKneesFlexion() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (participant, _) = try await onboardedParticipant()
        var query = CareQuery()
        query.ids = ["\(participant.id)/kneeBend"]
        let knee = try #require(try await careStore.fetch(CareTask.self, query: query).first)
        // What the study's outcome mapping makes of a range-of-motion step's `range` measure (92.5°).
        _ = try await careStore.addOutcomes([Outcome(taskUUID: knee.version.uuid, occurrenceIndex: 0,
                                                     values: [OutcomeValue(.double(92.5), kind: "kneeRange", units: "deg")], timeZone: Zones.kiritimati)])
        try await export()
        let observation = try #require(try lines("Observation.ndjson").first { $0.at("code", "coding", 0, "code") == "41347-6" })
        #expect(observation.at("code", "coding", 0, "system") == "http://loinc.org")
        #expect(observation.at("code", "coding", 0, "display") == "Knee - right Flexion Active Range of Motion Quantitative")
        #expect(observation.at("valueQuantity", "value")?.decimalValue == Decimal(string: "92.5"))
        #expect(observation.at("valueQuantity", "unit") == "deg")
        #expect(observation.at("subject", "reference")?.stringValue == "Patient/\(participant.id)")
    }

    @Test func aWithdrawalMakesTheConsentInactiveAndThePlanRevoked() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (participant, sealed) = try await onboardedParticipant()
        clock.advance(by: 86_400)
        try await store.appendConsentRecord(try recorder.sealWithdrawal(of: sealed, reason: "too much pain"))
        // The PDF went missing from the data folder: the export says so and attaches the signed HTML.
        try FileManager.default.removeItem(at: dataFolder.appendingPathComponent("consent-pdfs/\(sealed.record.id.uuidString.lowercased()).pdf"))
        let summary = try await export()
        #expect(summary.counts["Provenance"] == 2)
        #expect(summary.issues.contains { $0.participantID == participant.id && $0.message.contains("is missing or unreadable") })
        #expect(summary.issues.contains { $0.message.contains("has no PDF") })
        let consent = try #require(try lines("Consent.ndjson").first)
        #expect(consent["status"] == "inactive")
        #expect(consent.at("sourceAttachment", "contentType") == "text/html; charset=utf-8")
        #expect(try lines("CarePlan.ndjson").first?["status"] == "revoked")
        let withdrawal = try #require(try lines("Provenance.ndjson").last)
        #expect(withdrawal.at("target", 0, "reference")?.stringValue == "Consent/\(sealed.record.id.uuidString.lowercased())")
        #expect(withdrawal.at("reason", 0, "text") == "too much pain")
    }

    @Test func aRerunReplacesThePreviousExportWholeAndNothingElseIsReplaced() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try await onboardedParticipant()
        try await export()
        try Data("old".utf8).write(to: out.appendingPathComponent("Stale.ndjson"))
        try await export()
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("Stale.ndjson").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("Patient.ndjson").path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "no staging folder is left behind: \(leftovers)")

        // A folder with someone's files and no export manifest is refused and left as it was.
        let precious = root.appendingPathComponent("documents", isDirectory: true)
        try FileManager.default.createDirectory(at: precious, withIntermediateDirectories: true)
        try Data("thesis".utf8).write(to: precious.appendingPathComponent("thesis.txt"))
        let clock = self.clock
        let snapshot = try await StudyExportReader(study: study, store: store, careStore: careStore, dataFolder: dataFolder,
                                                   consentPublicKey: recorder.signingKey.publicKey, now: { clock.now }).snapshot()
        #expect(throws: StudyExportError.notAnExport(path: precious.path)) {
            try StudyExportFolder(url: precious).replace(with: FHIRStudyExporter(), snapshot: snapshot)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: precious.path) == ["thesis.txt"])
        let file = precious.appendingPathComponent("thesis.txt")
        #expect(throws: StudyExportError.notAFolder(path: file.path)) {
            try StudyExportFolder(url: file).replace(with: FHIRStudyExporter(), snapshot: snapshot)
        }
    }
}
