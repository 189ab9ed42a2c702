import CareStore
import Foundation
import Research
import Study
import StudyFHIR
import StudyKitEnvironment
import Testing
import ZIPFoundation

/// `json`: runs as stored, one per line, and the files attached in runs in `files.zip`; a file the data folder lacks
/// is reported, not invented.
@Suite struct JSONExportTests {
    let study: StudyDefinition
    let clock = TestClock(wallTime(2026, 3, 8, 12, 0, in: Zones.newYork))
    let uuids = CountingUUIDs()
    let store: InMemoryStudyStore
    let careStore: InMemoryCareStore
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("json-export-\(UUID().uuidString)", isDirectory: true)

    init() throws {
        study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let clock = self.clock, uuids = self.uuids
        store = InMemoryStudyStore(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
        careStore = InMemoryCareStore(environment: StudyKitEnvironment(now: { clock.now }, makeUUID: { uuids.make() }))
    }

    @Test func runsAreLinesAndAttachedFilesAreInTheZIP() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data", isDirectory: true)
        let participant = try await store.enrol(invitationCode: nil, timeZone: Zones.newYork, language: "en")
        let id = UUID(uuidString: "0A1B2C3D-0000-4000-8000-00000000000F")!
        let photo = Data((0..<70_000).map { UInt8($0 % 251) }) // more than one chunk of the ZIP writer
        let file = FileAnswer(fileName: "knee.jpg", contentType: "image/jpeg", byteCount: photo.count, sha256: String(repeating: "0", count: 64))
        let result = TaskResult(identifier: "pain", taskRunUUID: id, startDate: clock.now, endDate: clock.now, stepResults: [
            StepResult(identifier: "photo", startDate: clock.now, endDate: clock.now, results: [
                .question(QuestionResult(identifier: "photo", type: .file, answer: .file(file))),
                .file(FileResult(identifier: "photo", fileName: "knee.jpg", contentType: "image/jpeg", byteCount: photo.count)),
                .file(FileResult(identifier: "photo", fileName: "lost.jpg", contentType: "image/jpeg", byteCount: 10)),
            ]),
        ])
        try await store.saveRun(TaskRun(id: id, participantID: participant.id, taskID: "pain", occurrence: 1, state: .completed, result: result))
        try await store.storage.write { try await $0.putRunFile(StoredRunFile(runID: id, participantID: participant.id, name: "knee.jpg", data: photo)) }
        let clock = self.clock
        let reader = StudyExportReader(study: study, store: store, careStore: careStore, dataFolder: data, now: { clock.now })
        let out = root.appendingPathComponent("export", isDirectory: true)
        let summary = try await StudyExportFolder(url: out).replace(with: JSONExporter(), reading: reader)

        let lines = try String(contentsOf: out.appendingPathComponent(JSONExporter.runsName), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        let line = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(line["id"] as? String == id.uuidString.lowercased() && line["task"] as? String == "pain" && line["occurrence"] as? Int == 1)
        // The result is the one stored, in ResearchJSON's encoding: decoded back, it is equal, but for its output
        // directory: the run's folder in files.zip.
        let stored = try JSONSerialization.data(withJSONObject: try #require(line["result"]))
        var expected = result
        expected.outputDirectory = "\(participant.id)/\(id.uuidString.lowercased())"
        #expect(try ResearchJSON.decoder().decode(TaskResult.self, from: stored) == expected)

        let archive = try Archive(url: out.appendingPathComponent(JSONExporter.filesName), accessMode: .read)
        let entries = Array(archive)
        #expect(entries.map(\.path) == ["\(participant.id)/\(id.uuidString.lowercased())/knee.jpg"])
        var extracted = Data()
        _ = try archive.extract(try #require(entries.first)) { extracted.append($0) }
        #expect(extracted == photo)
        #expect(summary.issues.map(\.message) == ["run \(id.uuidString.lowercased()): the attached file lost.jpg is not in the study's database"])
        #expect(summary.counts[JSONExporter.filesName] == 1 && summary.counts[JSONExporter.runsName] == 1)
    }

    /// The database keeps a result's `outputDirectory` as the server's folder of the run's files; neither the json
    /// export nor the participant's own copy shows it: the run's folder in the ZIP, or nothing for a run without files.
    @Test func noServerPathIsInTheJSONExportOrTheParticipantsCopy() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data", isDirectory: true)
        let participant = try await store.enrol(invitationCode: nil, timeZone: Zones.newYork, language: "en")
        let withFile = UUID(uuidString: "0A1B2C3D-0000-4000-8000-000000000001")!, without = UUID(uuidString: "0A1B2C3D-0000-4000-8000-000000000002")!
        // A result stored before run files moved into the database names the server's folder of them.
        let runFiles = data.appendingPathComponent("run-files", isDirectory: true).appendingPathComponent(participant.id, isDirectory: true)
        let now = self.clock.now
        func result(_ id: UUID, files: [ResultItem]) -> TaskResult {
            TaskResult(identifier: "pain", taskRunUUID: id, startDate: now, endDate: now,
                       outputDirectory: runFiles.appendingPathComponent(id.uuidString).path,
                       stepResults: [StepResult(identifier: "photo", startDate: now, endDate: now, results: files)])
        }
        try await store.saveRun(TaskRun(id: withFile, participantID: participant.id, taskID: "pain", occurrence: 0, state: .completed,
                                        result: result(withFile, files: [.file(FileResult(identifier: "photo", fileName: "knee.jpg",
                                                                                          contentType: "image/jpeg", byteCount: 4))])))
        try await store.saveRun(TaskRun(id: without, participantID: participant.id, taskID: "pain", occurrence: 1, state: .completed,
                                        result: result(without, files: [])))
        try await store.storage.write { try await $0.putRunFile(StoredRunFile(runID: withFile, participantID: participant.id, name: "knee.jpg",
                                                                             data: Data("jpeg".utf8))) }
        let clock = self.clock
        let reader = StudyExportReader(study: study, store: store, careStore: careStore, dataFolder: data, now: { clock.now })
        let out = root.appendingPathComponent("export", isDirectory: true)
        try await StudyExportFolder(url: out).replace(with: JSONExporter(), reading: reader)

        let runs = try String(contentsOf: out.appendingPathComponent(JSONExporter.runsName), encoding: .utf8)
        let copy = try ParticipantDataCopy.zip(of: try await reader.data(of: participant), at: clock.now)
        let archive = try Archive(data: copy, accessMode: .read)
        var copyRuns = Data()
        _ = try archive.extract(try #require(archive["runs.json"])) { copyRuns.append($0) }
        for text in [runs, String(decoding: copyRuns, as: UTF8.self)] {
            #expect(!text.contains(root.path) && !text.contains("run-files"), "no server path: \(text)")
        }
        func directories(_ lines: [Any]) -> [String: String?] {
            Dictionary(uniqueKeysWithValues: lines.compactMap { $0 as? [String: Any] }.map { line in
                ((line["id"] as? String) ?? "", (line["result"] as? [String: Any])?["outputDirectory"] as? String)
            })
        }
        let exported = directories(try runs.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) })
        let own = directories(try #require(try JSONSerialization.jsonObject(with: copyRuns) as? [Any]))
        let a = withFile.uuidString.lowercased(), b = without.uuidString.lowercased()
        #expect(exported == [a: "\(participant.id)/\(a)", b: nil])
        #expect(own == [a: "files/\(a)", b: nil])
        // Each names where the run's files are in what was handed over.
        #expect(try Archive(url: out.appendingPathComponent(JSONExporter.filesName), accessMode: .read)["\(participant.id)/\(a)/knee.jpg"] != nil)
        #expect(archive["files/\(a)/knee.jpg"] != nil)
    }
}
