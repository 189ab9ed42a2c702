import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps the server's consent signing key in the data folder: `DATA/keys/consent-signing-key.ed25519`,
/// the key's 32 raw bytes, mode 0600 in a folder of mode 0700.
///
/// ```swift
/// let key = try ConsentKeyStore(dataDirectory: data).loadOrCreate()
/// print(key.publicKey)   // base64 (fingerprint …)
/// ```
///
/// The key is created on first use, written atomically (a temporary file linked into place, so a crash
/// never leaves half a key and two processes starting at once end up with the same key). A key file
/// that is the wrong size is an error naming the file; it is never replaced.
public struct ConsentKeyStore: Sendable {
    /// The data folder the key lives under.
    public var dataDirectory: URL

    /// A store under `dataDirectory`.
    public init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }

    /// `DATA/keys`.
    public var keysDirectory: URL { dataDirectory.appendingPathComponent("keys", isDirectory: true) }

    /// `DATA/keys/consent-signing-key.ed25519`.
    public var keyFile: URL { keysDirectory.appendingPathComponent("consent-signing-key.ed25519") }

    /// The stored key, or nil when there is none yet.
    public func load() throws -> ConsentSigningKey? {
        let path = keyFile.path
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw ConsentKeyError.fileSystem(path: path, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw ConsentKeyError.corruptKeyFile(path: path, reason: "not a regular file")
        }
        if info.st_mode & 0o077 != 0 {
            throw ConsentKeyError.keyFileTooOpen(path: path, mode: String(info.st_mode & 0o777, radix: 8))
        }
        let data: Data
        do {
            data = try Data(contentsOf: keyFile)
        } catch {
            throw ConsentKeyError.fileSystem(path: path, reason: "cannot read the key: \(error.localizedDescription)")
        }
        guard data.count == 32 else {
            throw ConsentKeyError.corruptKeyFile(path: path, reason: "\(data.count) bytes, an Ed25519 key file holds 32")
        }
        do {
            return try ConsentSigningKey(rawRepresentation: data)
        } catch {
            throw ConsentKeyError.corruptKeyFile(path: path, reason: "not an Ed25519 key: \(error)")
        }
    }

    /// The stored key, creating and storing a new one when there is none.
    public func loadOrCreate() throws -> ConsentSigningKey {
        if let key = try load() { return key }
        try createKeysDirectory()
        let key = ConsentSigningKey.generate()
        let temporary = keysDirectory.appendingPathComponent(".consent-signing-key.\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp").path
        defer { unlink(temporary) }
        try writeNewFile(at: temporary, contents: key.rawRepresentation)
        if link(temporary, keyFile.path) != 0 {
            guard errno == EEXIST else {
                throw ConsentKeyError.fileSystem(path: keyFile.path, reason: "cannot store the key: \(String(cString: strerror(errno)))")
            }
            // Another process stored its key first; use that one.
            guard let existing = try load() else {
                throw ConsentKeyError.fileSystem(path: keyFile.path, reason: "the key file vanished while it was being created")
            }
            return existing
        }
        syncDirectory(keysDirectory.path)
        return key
    }

    private func createKeysDirectory() throws {
        let path = keysDirectory.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ConsentKeyError.fileSystem(path: path, reason: "exists and is not a folder") }
            return
        }
        do {
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw ConsentKeyError.fileSystem(path: dataDirectory.path, reason: "cannot create the data folder: \(error.localizedDescription)")
        }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw ConsentKeyError.fileSystem(path: path, reason: "cannot create the keys folder: \(String(cString: strerror(errno)))")
        }
        chmod(path, 0o700)  // mkdir's mode is filtered by the umask
    }

    private func writeNewFile(at path: String, contents: Data) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw ConsentKeyError.fileSystem(path: path, reason: "cannot create the key file: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        fchmod(descriptor, 0o600)
        let written = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == contents.count, fsync(descriptor) == 0 else {
            throw ConsentKeyError.fileSystem(path: path, reason: "cannot write the key file: \(String(cString: strerror(errno)))")
        }
    }

    private func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
