import Foundation
import Testing
@testable import Consent

@Suite struct RecordKeyStoreTests {
    private func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as! NSNumber).intValue & 0o777
    }

    @Test func theKeyIsCreatedOnceAndReused() throws {
        let data = try RecordFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let store = ConsentKeyStore(dataDirectory: data.appendingPathComponent("data"))
        #expect(try store.load() == nil)
        let first = try store.loadOrCreate()
        #expect(store.keyFile.path.hasSuffix("data/keys/consent-signing-key.ed25519"))
        #expect(try Data(contentsOf: store.keyFile) == first.rawRepresentation)
        #expect(try mode(store.keyFile) == 0o600)
        #expect(try mode(store.keysDirectory) == 0o700)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.keysDirectory.path)
        #expect(leftovers == ["consent-signing-key.ed25519"])

        let second = try ConsentKeyStore(dataDirectory: data.appendingPathComponent("data")).loadOrCreate()
        #expect(second.publicKey == first.publicKey)
        #expect(try store.load()?.publicKey == first.publicKey)
    }

    @Test func thePublicKeyPrintsAsBase64WithAFingerprint() throws {
        let key = RecordFixtures.key.publicKey
        #expect(Data(base64Encoded: key.base64)?.count == 32)
        #expect(key.fingerprint.count == 16)
        #expect(key.fingerprint == String(ConsentRecord.sha256Hex(of: key.rawRepresentation).prefix(16)))
        #expect(key.description == "\(key.base64) (fingerprint \(key.fingerprint))")
        #expect(try ConsentPublicKey(base64: key.base64 + "\n") == key)
        #expect(throws: ConsentKeyError.malformedPublicKey("AAAA")) { _ = try ConsentPublicKey(base64: "AAAA") }
    }

    @Test func aCorruptKeyFileIsAnErrorAndIsNotReplaced() throws {
        let data = try RecordFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let store = ConsentKeyStore(dataDirectory: data)
        try FileManager.default.createDirectory(at: store.keysDirectory, withIntermediateDirectories: true)
        let garbage = Data("not a key".utf8)
        #expect(FileManager.default.createFile(atPath: store.keyFile.path, contents: garbage, attributes: [.posixPermissions: 0o600]))
        #expect {
            _ = try store.loadOrCreate()
        } throws: { error in
            guard case ConsentKeyError.corruptKeyFile(let path, _) = error else { return false }
            return path == store.keyFile.path && "\(error)".contains(store.keyFile.path) && "\(error)".contains("9 bytes")
        }
        #expect(try Data(contentsOf: store.keyFile) == garbage)
    }

    @Test func aKeyFileOthersCanReadIsRefused() throws {
        let data = try RecordFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let store = ConsentKeyStore(dataDirectory: data)
        _ = try store.loadOrCreate()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.keyFile.path)
        #expect(throws: ConsentKeyError.keyFileTooOpen(path: store.keyFile.path, mode: "644")) { _ = try store.load() }
    }
}
