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
        #expect(result.stderr.contains("--data: the data folder is an empty path"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// `--data .` in the repository once put a consent signing key and the web secret into version control: no command
    /// takes a source checkout (or the repository itself) as its data folder, and none writes anything into it.
    @Test func noCommandTakesASourceCheckoutAsItsDataFolder() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let checkout = folder.appendingPathComponent("checkout", isDirectory: true)
        try FileManager.default.createDirectory(at: checkout.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for data in [checkout.path, repository.path] {
            let before = try FileManager.default.contentsOfDirectory(atPath: data).sorted()
            for command in [["serve", "--port", "0"], ["invite"], ["export", "--format", "fhir", "--out", folder.appendingPathComponent("out").path],
                            ["consent", "key"]] {
                let result = try StudykitProcess.run(command + ["--data", data], in: folder)
                #expect(result.status != 0, "\(command) --data \(data)")
                #expect(result.stderr.contains("is a source checkout"), "\(command): \(result.stderr)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: data).sorted() == before, "nothing is written into \(data)")
        }
    }
}
