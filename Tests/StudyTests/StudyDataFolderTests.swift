import Foundation
import Study
import Testing

/// A data folder holds participants' answers and the server's keys: never in a source checkout, never readable by
/// other accounts.
@Suite("Data folder")
struct StudyDataFolderTests {
    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("data-folder-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func anEmptyPathIsRefused() {
        #expect(throws: StudyDataFolderError.empty) { _ = try StudyDataFolder(path: "") }
        #expect(throws: StudyDataFolderError.empty) { _ = try StudyDataFolder(path: "  ") }
    }

    @Test func aSourceCheckoutIsRefusedByItsMarkers() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: Never.self) { _ = try StudyDataFolder(url: folder) }
        try Data().write(to: folder.appendingPathComponent("Package.swift"))
        #expect(throws: StudyDataFolderError.sourceCheckout(path: folder.resolvingSymlinksInPath().path, marker: "Package.swift")) {
            _ = try StudyDataFolder(path: folder.path)
        }
        // The repository these tests run in, by a relative path with a detour.
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        #expect(throws: StudyDataFolderError.self) { _ = try StudyDataFolder(url: repository) }
    }

    @Test func prepareMakesTheFolderOwnerOnlyWhateverTheUmask() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let folder = try StudyDataFolder(url: parent.appendingPathComponent("data"))
        try folder.prepare()
        try folder.createOwnerOnlyFiles(named: ["study.sqlite"])
        func mode(_ url: URL) throws -> Int { try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) }
        #expect(try mode(folder.url) == 0o700)
        #expect(try mode(folder.url.appendingPathComponent("study.sqlite")) == 0o600)
        // An existing folder and database that others could read are tightened at the next start.
        #expect(chmod(folder.url.path, 0o755) == 0 && chmod(folder.url.appendingPathComponent("study.sqlite").path, 0o644) == 0)
        try Data().write(to: folder.url.appendingPathComponent("study.sqlite-wal"))
        try folder.prepare()
        try folder.createOwnerOnlyFiles(named: ["study.sqlite"])
        #expect(try mode(folder.url) == 0o700)
        #expect(try mode(folder.url.appendingPathComponent("study.sqlite")) == 0o600)
        #expect(try mode(folder.url.appendingPathComponent("study.sqlite-wal")) == 0o600)
    }

    @Test func aSecretFileOthersCanReadIsRefusedNamingItsMode() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = folder.appendingPathComponent("web-secret").path
        #expect(throws: Never.self) { try StudyDataFolder.requireOwnerOnly(secretFile: secret) }  // not there yet
        #expect(FileManager.default.createFile(atPath: secret, contents: Data(count: 32), attributes: [.posixPermissions: 0o640]))
        #expect(throws: StudyDataFolderError.secretFileTooOpen(path: secret, mode: "640")) {
            try StudyDataFolder.requireOwnerOnly(secretFile: secret)
        }
        #expect(chmod(secret, 0o600) == 0)
        #expect(throws: Never.self) { try StudyDataFolder.requireOwnerOnly(secretFile: secret) }
    }
}
