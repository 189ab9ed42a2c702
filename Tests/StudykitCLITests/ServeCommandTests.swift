import Foundation
import Testing

/// `studykit serve` and `studykit invite` refuse bad input before touching any data folder.
@Suite struct ServeCommandTests {
    @Test func serveRefusesABrokenStudyNamingEachProblem() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let study = folder.appendingPathComponent("study", isDirectory: true)
        try FileManager.default.createDirectory(at: study, withIntermediateDirectories: true)
        try "identifier: broken\nname: Broken\nlanguages: [en]\nconsent: {document: consent.json}\nonboarding: onboarding.json\n"
            .write(to: study.appendingPathComponent("study.yaml"), atomically: true, encoding: .utf8)
        let data = folder.appendingPathComponent("data")
        let result = try StudykitProcess.run(["serve", "--study", study.path, "--data", data.path, "--port", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("study.yaml: consent.document: no file at 'consent.json'"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: data.path), "nothing is created for a study that cannot run")
    }

    @Test func anUnknownDurabilityIsRefused() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try StudykitProcess.run(["serve", "--data", folder.appendingPathComponent("data").path, "--port", "0",
                                              "--durability", "full"], in: folder)
        #expect(result.status != 0)
        #expect(result.stderr.contains("--durability must be process-crash or power-loss"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("data").path))
    }

    @Test func anEmptyDataFolderNameIsRefused() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try StudykitProcess.run(["invite", "--data", ""], in: folder)
        #expect(result.status != 0)
        #expect(result.stderr.contains("--data must name a data folder"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
