import CareStore
import CareStoreSQLite
import Consent
import Foundation
import GRDB
import Study
import StudyFHIR
import StudySQLite
import Testing

/// `studykit export`: a data folder laid out as `studykit serve` writes it (made here with the same stores), exported
/// as FHIR without changing it; and errors that name what is wrong.
@Suite struct ExportCommandTests {
    static let recover = StudykitProcess.packageRoot.appendingPathComponent("examples/studies/recover").path

    /// A data folder with one participant in Tokyo who signed the Recover consent (PDF printed) and answered the pain
    /// check with 4, plus a binary value no Observation can carry; returns the participant's id.
    static func makeDataFolder(_ data: URL) async throws -> String {
        let study = try StudyLoader.load(folder: URL(fileURLWithPath: recover), surveyFormats: [FHIRSurveyFormat()])
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let database = try SQLiteStudyDatabase(path: data.appendingPathComponent("study.sqlite").path)
        let store = database.studyStore, careStore = database.careStore
        let participant = try await store.enrol(invitationCode: nil, timeZone: tokyo, language: "ja")
        let plan = try await StudyEnrolment(study: study, environment: .live)
            .enrol(participantID: participant.id, enrolledAt: participant.enrolledAt, timeZone: tokyo, into: careStore)
        let key = try ConsentKeyStore(dataDirectory: data).loadOrCreate()
        let signature = ConsentRecordSignature(identifier: "participant", meaning: "consent to participate", givenName: "花子",
                                               familyName: "山田", drawing: nil, signedAt: Date(), timeZone: tokyo)
        let sealed = try ConsentRecorder(signingKey: key).sealConsent(
            participantIdentifier: participant.id, studyIdentifier: "recover", studyName: "Recover", documentIdentifier: "recover-consent",
            documentVersion: "1.0", language: "ja", html: "<!DOCTYPE html><p>同意します</p>", signatures: [signature], answers: [:])
        try await store.appendConsentRecord(sealed)
        let pdfPath = "consent-pdfs/\(sealed.record.id.uuidString.lowercased()).pdf"
        try FileManager.default.createDirectory(at: data.appendingPathComponent("consent-pdfs"), withIntermediateDirectories: true)
        try Data("%PDF-1.7 山田花子".utf8).write(to: data.appendingPathComponent(pdfPath))
        try await store.setConsentPDF(.file(relativePath: pdfPath), recordID: sealed.record.id, participantID: participant.id)
        let pain = try #require(plan.tasks.first { $0.version.groupIdentifier == "pain" })
        _ = try await careStore.addOutcomes([
            Outcome(taskUUID: pain.version.uuid, occurrenceIndex: 0, values: [OutcomeValue(.integer(4), kind: "pain", units: "NRS")], timeZone: tokyo),
            Outcome(taskUUID: pain.version.uuid, occurrenceIndex: 1, values: [OutcomeValue(.binary(Data([0xFF])), kind: "pain")], timeZone: tokyo),
        ])
        return participant.id
    }

    /// Every file under `folder` with its bytes.
    static func contents(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: folder.path)! {
            let url = folder.appendingPathComponent(path)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    @Test func exportsTheDataFolderAsFHIRWithoutChangingIt() async throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data", isDirectory: true)
        let participant = try await Self.makeDataFolder(data)
        let before = try Self.contents(of: data)
        let out = folder.appendingPathComponent("fhir")

        let result = try StudykitProcess.run(["export", "--format", "fhir", "--out", out.path, "--study", Self.recover, "--data", data.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(out.path): 1 participant exported as fhir (1 CarePlan, 1 Consent, 1 Observation, 1 Patient, 1 Provenance)\n")
        #expect(result.stderr.contains("warning: participant \(participant): Observation/"), "\(result.stderr)")
        #expect(result.stderr.contains("no FHIR R4 Observation value fits: a binary value (1 bytes)"), "\(result.stderr)")
        let after = try Self.contents(of: data)
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        // Only the database changed (its file, or SQLite's -wal and -shm beside it), and only by the export's audit row,
        // whose commit moved the trail's anchor.
        #expect(changed.allSatisfy { $0.hasPrefix("study.sqlite") || $0 == "study.audit-anchor.json" }, "only the audit trail is written; changed: \(changed)")
        #expect(before["study.sqlite"] != nil && before.keys.contains { $0.hasPrefix("consent-pdfs/") })
        let database = try SQLiteStudyDatabase(path: data.appendingPathComponent("study.sqlite").path)
        var trail: [AuditEntry] = []
        try await database.forEachAuditEntry { trail.append($0); return true }
        let export = try #require(trail.last, "the export's row is the last one appended")
        #expect(export.action == "export" && export.entity == "study" && export.entityID == "fhir" && export.after == #"{"participants":1}"#)
        #expect(export.actor.hasPrefix("command line: studykit export --format fhir --out "), "\(export.actor)")
        let verified = try StudykitProcess.run(["audit", "verify", "--data", data.path])
        #expect(verified.status == 0, "\(verified.stderr)")

        let bundle = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("participants/\(participant).json"))) as? [String: Any]
        #expect(bundle?["resourceType"] as? String == "Bundle")
        #expect((bundle?["entry"] as? [Any])?.count == 5)
        let observation = try String(contentsOf: out.appendingPathComponent("Observation.ndjson"), encoding: .utf8)
        #expect(observation.contains(#""code":"72514-3""#) && observation.contains(#""valueQuantity":{"value":4,"unit":"NRS"}"#), "\(observation)")
        let consent = try String(contentsOf: out.appendingPathComponent("Consent.ndjson"), encoding: .utf8)
        #expect(consent.contains(Data("%PDF-1.7 山田花子".utf8).base64EncodedString()))
        #expect(consent.split(separator: "\n").count == 1)
    }

    /// A database edited under the study: the export verifies every consent record as it reads it, leaves out one that
    /// was changed, names a participant whose record was removed, and warns that the append-only triggers are gone.
    @Test func anEditedOrRemovedConsentRecordIsReportedNotExported() async throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data", isDirectory: true)
        let participant = try await Self.makeDataFolder(data)
        let careStore = try SQLiteStudyDatabase(path: data.appendingPathComponent("study.sqlite").path).careStore
        _ = try await OnboardingGate(careStore: careStore, environment: .live)
            .recordCompletion(participantID: participant, timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        let outsider = try DatabaseQueue(path: data.appendingPathComponent("study.sqlite").path)
        try await outsider.write { db in
            try db.execute(sql: "DROP TRIGGER consentRecord_no_update")
            try db.execute(sql: "DROP TRIGGER audit_consentRecord_update")
            let json: Data = try #require(try Data.fetchOne(db, sql: "SELECT sealedJSON FROM consentRecord"))
            let edited = String(decoding: json, as: UTF8.self).replacingOccurrences(of: "花子", with: "花江")
            try db.execute(sql: "UPDATE consentRecord SET sealedJSON = ?", arguments: [Data(edited.utf8)])
        }
        func export() throws -> StudykitProcess.Output {
            let out = folder.appendingPathComponent("fhir-\(UUID().uuidString)")
            return try StudykitProcess.run(["export", "--format", "fhir", "--out", out.path, "--study", Self.recover, "--data", data.path])
        }
        let edited = try export()
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.contains("(1 CarePlan, 1 Observation, 1 Patient)"), "the edited consent is not exported: \(edited.stdout)")
        #expect(edited.stderr.contains("warning: study.sqlite: the trigger consentRecord_no_update is missing"), "\(edited.stderr)")
        #expect(edited.stderr.contains("warning: participant \(participant): consent record ") && edited.stderr.contains("does not verify, so it is left out"),
                "\(edited.stderr)")
        #expect(edited.stderr.contains("completed the onboarding"), "\(edited.stderr)")

        try await outsider.write { db in
            try db.execute(sql: "DROP TRIGGER consentRecord_no_delete")
            try db.execute(sql: "DROP TRIGGER audit_consentPDF_delete; DROP TRIGGER audit_consentRecord_delete")
            try db.execute(sql: "DELETE FROM consentPDF")
            try db.execute(sql: "DELETE FROM consentRecord")
        }
        let removed = try export()
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stderr.contains("warning: participant \(participant): completed the onboarding ("), "\(removed.stderr)")
        #expect(removed.stderr.contains("but has no valid consent record"), "\(removed.stderr)")
    }

    @Test func errorsNameWhatIsWrong() async throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path

        let missing = try StudykitProcess.run(["export", "--format", "fhir", "--out", out, "--study", Self.recover, "--data", folder.appendingPathComponent("nope").path])
        #expect(missing.status == 1)
        #expect(missing.stderr == "studykit export: no data folder at \(folder.appendingPathComponent("nope").path) (give --data the folder `studykit serve --data` wrote)\n")

        let empty = folder.appendingPathComponent("empty", isDirectory: true)
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let notData = try StudykitProcess.run(["export", "--format", "fhir", "--out", out, "--study", Self.recover, "--data", empty.path])
        #expect(notData.status == 1)
        #expect(notData.stderr.contains("no study database at \(empty.path)/study.sqlite (is \(empty.path) a data folder `studykit serve` wrote?)"), "\(notData.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty, "nothing is created in it")

        let format = try StudykitProcess.run(["export", "--format", "csv", "--out", out, "--data", empty.path])
        #expect(format.status != 0)
        #expect(format.stderr.contains("The value 'csv' is invalid for '--format <format>'"), "\(format.stderr)")
        // Every format is offered.
        for name in ["fhir", "csv-long", "csv-wide", "outcomes", "json", "consents"] { #expect(format.stderr.contains("  - \(name)\n"), "\(name)") }

        let noOut = try StudykitProcess.run(["export", "--format", "fhir", "--out", " ", "--data", empty.path])
        #expect(noOut.status != 0 && noOut.stderr.contains("--out must name a folder"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// `--for-spreadsheets` makes CSV cells safe for a spreadsheet and says so in the manifest; with a format that writes
    /// no CSV it would do nothing, and is refused saying which formats it is for.
    @Test func forSpreadsheetsAppliesToCSVFormatsAndIsRefusedForOthers() async throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data", isDirectory: true)
        _ = try await Self.makeDataFolder(data)
        let out = folder.appendingPathComponent("out")

        let json = try StudykitProcess.run(["export", "--format", "json", "--for-spreadsheets", "--out", out.path, "--study", Self.recover, "--data", data.path])
        #expect(json.status != 0)
        #expect(json.stderr.contains("--for-spreadsheets changes CSV cells, and --format json writes no CSV file; it applies to csv-long, csv-wide, consents, outcomes"),
                "\(json.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))

        for (flag, cells) in [([String](), nil), (["--for-spreadsheets"], "for-spreadsheets")] as [([String], String?)] {
            let result = try StudykitProcess.run(["export", "--format", "consents", "--out", out.path, "--study", Self.recover, "--data", data.path] + flag)
            #expect(result.status == 0, "\(result.stderr)")
            let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("export.json"))) as? [String: Any]
            #expect(manifest?["cells"] as? String == cells, "\(flag)")
            #expect(try String(contentsOf: out.appendingPathComponent("consents.csv"), encoding: .utf8).contains(",花子 山田,"))
            // The audit row is the one every export writes (StudyExportRun), the console's and the API's too.
            var trail: [AuditEntry] = []
            try await SQLiteStudyDatabase(path: data.appendingPathComponent("study.sqlite").path).forEachAuditEntry { trail.append($0); return true }
            let exported = cells == nil ? #"{"participants":1}"# : #"{"participants":1,"cells":"for-spreadsheets"}"#
            #expect(trail.last?.action == "export" && trail.last?.entityID == "consents" && trail.last?.after == exported, "\(flag)")
        }
    }
}
